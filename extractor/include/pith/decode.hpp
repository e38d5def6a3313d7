// Bytes in, UTF-8 out. Order of evidence, as the HTML standard's encoding
// sniffing: a byte order mark; the charset the caller was given (HTTP
// Content-Type); the <meta charset> / http-equiv prescan of the first 1024
// bytes; statistical detection (uchardet); windows-1252 as the last resort.
// Invalid sequences become U+FFFD; decoding never fails on content.
//
// Thread-safety: reentrant; no shared state.
#pragma once

#include <string>
#include <string_view>

namespace pith::decode {

enum class CharsetSource { bom, caller, meta, detected, fallback };

[[nodiscard]] std::string_view charset_source_name(CharsetSource source) noexcept;

struct DecodedText {
    std::string utf8;     // valid UTF-8, BOM stripped, NUL bytes replaced by U+FFFD
    std::string charset;  // canonical lowercase label used, e.g. "utf-8", "windows-1251"
    CharsetSource source = CharsetSource::fallback;
};

// Decodes `bytes`. `declared_charset` is the caller's label (may be empty, may be
// any case, may be an unknown label, which is then ignored).
[[nodiscard]] DecodedText to_utf8(std::string_view bytes, std::string_view declared_charset = {});

// The charset named by the <meta> prescan of the HTML standard, "" when none.
// Looks at the first 1024 bytes only. Returns the canonical lowercase label.
[[nodiscard]] std::string prescan_meta_charset(std::string_view bytes);

// Canonical lowercase name for a WHATWG encoding label ("latin1" -> "windows-1252",
// "gb2312" -> "gbk", ...); "" when the label is unknown.
[[nodiscard]] std::string canonical_charset(std::string_view label);

// Replaces every invalid UTF-8 sequence (and NUL) with U+FFFD.
[[nodiscard]] std::string sanitize_utf8(std::string_view bytes);

}  // namespace pith::decode
