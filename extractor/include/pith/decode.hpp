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
// any case, may be an unknown label, which is then ignored); a whole Content-Type
// value ("text/html; charset=koi8-r") is accepted too. Labels that WHATWG maps
// to "replacement" (ISO-2022-KR, HZ, ...) are skipped like unknown ones, rather
// than turning the page into a single U+FFFD. Never fails: the worst case is
// windows-1252 with U+FFFD for undecodable bytes. Valid UTF-8 input costs one
// validation pass and one copy.
[[nodiscard]] DecodedText to_utf8(std::string_view bytes, std::string_view declared_charset = {});

// What to_utf8 decides, without a copy when the input already is the answer
// (valid UTF-8 without BOM or NUL, the common case): `utf8` then views `bytes`;
// otherwise it views `storage`, which receives the decoded text. Either way the
// view lives as long as the buffer it points into.
struct DecodedView {
    std::string_view utf8;
    std::string charset;
    CharsetSource source = CharsetSource::fallback;
};
[[nodiscard]] DecodedView to_utf8_view(std::string_view bytes, std::string_view declared_charset,
                                       std::string& storage);

// The charset named by the <meta> prescan of the HTML standard, "" when none.
// Looks at the first 1024 bytes only. Returns the canonical lowercase label;
// "utf-16*" comes back as "utf-8" and "x-user-defined" as "windows-1252", as
// the standard says for labels found in the markup itself.
[[nodiscard]] std::string prescan_meta_charset(std::string_view bytes);

// Canonical lowercase name for a WHATWG encoding label ("latin1" -> "windows-1252",
// "gb2312" -> "gbk", "utf-16" -> "utf-16le", ...); surrounding ASCII white space
// and case are ignored; "" when the label is unknown.
[[nodiscard]] std::string canonical_charset(std::string_view label);

// Restores text that was UTF-8, read as windows-1252 or Latin-1 and written
// out as UTF-8 again ("â€™" for "’", "Ã©" for "é"), as crawlers that guessed
// a page's charset wrong store it. Only where `utf8` (valid UTF-8) reads as
// decoded twice: three such sequences or more, outnumbering the characters
// U+00C0-U+00FF that begin none (a page's own accented letters). Returns the
// number of sequences restored, with the text in `out`; 0, `out` untouched,
// where the page does not read so.
[[nodiscard]] std::size_t repair_double_encoding(std::string_view utf8, std::string& out);

// Replaces every invalid UTF-8 sequence with U+FFFD, one per maximal subpart
// (WHATWG; overlongs, surrogates and code points above U+10FFFF are invalid),
// and every NUL with U+FFFD.
[[nodiscard]] std::string sanitize_utf8(std::string_view bytes);

}  // namespace pith::decode
