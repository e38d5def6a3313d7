#include "pith/decode.hpp"

#include <uchardet/uchardet.h>

#include <iconv.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <type_traits>

#include "text/text.hpp"

namespace pith::decode {
namespace {

constexpr std::string_view k_replacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

// The HTML standard reads at most this many bytes looking for <meta charset>.
constexpr std::size_t k_prescan_bytes = 1024;

// A page is taken as decoded twice from this many sequences on, and only when
// they outnumber its other accented letters: one "ß“" of a German quotation
// reads as a sequence too, a page decoded twice has dozens and few others.
constexpr std::size_t k_min_double_encoded = 3;

// uchardet's probers are per byte; this bounds detection time on huge inputs
// while still seeing far more than any page's <head>.
constexpr std::size_t k_detect_max_bytes = 4u << 20;

// WHATWG Encoding standard, "Encodings" table: label -> encoding name
// (lowercased). Linear search: it runs once or twice per document.
struct LabelEntry {
    std::string_view label;
    std::string_view name;
};

constexpr LabelEntry k_labels[] = {
    // utf-8
    {"unicode-1-1-utf-8", "utf-8"}, {"unicode11utf8", "utf-8"}, {"unicode20utf8", "utf-8"},
    {"utf-8", "utf-8"}, {"utf8", "utf-8"}, {"x-unicode20utf8", "utf-8"},
    // legacy single-byte
    {"866", "ibm866"}, {"cp866", "ibm866"}, {"csibm866", "ibm866"}, {"ibm866", "ibm866"},
    {"csisolatin2", "iso-8859-2"}, {"iso-8859-2", "iso-8859-2"}, {"iso-ir-101", "iso-8859-2"},
    {"iso8859-2", "iso-8859-2"}, {"iso88592", "iso-8859-2"}, {"iso_8859-2", "iso-8859-2"},
    {"iso_8859-2:1987", "iso-8859-2"}, {"l2", "iso-8859-2"}, {"latin2", "iso-8859-2"},
    {"csisolatin3", "iso-8859-3"}, {"iso-8859-3", "iso-8859-3"}, {"iso-ir-109", "iso-8859-3"},
    {"iso8859-3", "iso-8859-3"}, {"iso88593", "iso-8859-3"}, {"iso_8859-3", "iso-8859-3"},
    {"iso_8859-3:1988", "iso-8859-3"}, {"l3", "iso-8859-3"}, {"latin3", "iso-8859-3"},
    {"csisolatin4", "iso-8859-4"}, {"iso-8859-4", "iso-8859-4"}, {"iso-ir-110", "iso-8859-4"},
    {"iso8859-4", "iso-8859-4"}, {"iso88594", "iso-8859-4"}, {"iso_8859-4", "iso-8859-4"},
    {"iso_8859-4:1988", "iso-8859-4"}, {"l4", "iso-8859-4"}, {"latin4", "iso-8859-4"},
    {"csisolatincyrillic", "iso-8859-5"}, {"cyrillic", "iso-8859-5"}, {"iso-8859-5", "iso-8859-5"},
    {"iso-ir-144", "iso-8859-5"}, {"iso8859-5", "iso-8859-5"}, {"iso88595", "iso-8859-5"},
    {"iso_8859-5", "iso-8859-5"}, {"iso_8859-5:1988", "iso-8859-5"},
    {"arabic", "iso-8859-6"}, {"asmo-708", "iso-8859-6"}, {"csiso88596e", "iso-8859-6"},
    {"csiso88596i", "iso-8859-6"}, {"csisolatinarabic", "iso-8859-6"}, {"ecma-114", "iso-8859-6"},
    {"iso-8859-6", "iso-8859-6"}, {"iso-8859-6-e", "iso-8859-6"}, {"iso-8859-6-i", "iso-8859-6"},
    {"iso-ir-127", "iso-8859-6"}, {"iso8859-6", "iso-8859-6"}, {"iso88596", "iso-8859-6"},
    {"iso_8859-6", "iso-8859-6"}, {"iso_8859-6:1987", "iso-8859-6"},
    {"csisolatingreek", "iso-8859-7"}, {"ecma-118", "iso-8859-7"}, {"elot_928", "iso-8859-7"},
    {"greek", "iso-8859-7"}, {"greek8", "iso-8859-7"}, {"iso-8859-7", "iso-8859-7"},
    {"iso-ir-126", "iso-8859-7"}, {"iso8859-7", "iso-8859-7"}, {"iso88597", "iso-8859-7"},
    {"iso_8859-7", "iso-8859-7"}, {"iso_8859-7:1987", "iso-8859-7"}, {"sun_eu_greek", "iso-8859-7"},
    {"csiso88598e", "iso-8859-8"}, {"csisolatinhebrew", "iso-8859-8"}, {"hebrew", "iso-8859-8"},
    {"iso-8859-8", "iso-8859-8"}, {"iso-8859-8-e", "iso-8859-8"}, {"iso-ir-138", "iso-8859-8"},
    {"iso8859-8", "iso-8859-8"}, {"iso88598", "iso-8859-8"}, {"iso_8859-8", "iso-8859-8"},
    {"iso_8859-8:1988", "iso-8859-8"}, {"visual", "iso-8859-8"},
    {"csiso88598i", "iso-8859-8-i"}, {"iso-8859-8-i", "iso-8859-8-i"}, {"logical", "iso-8859-8-i"},
    {"csisolatin6", "iso-8859-10"}, {"iso-8859-10", "iso-8859-10"}, {"iso-ir-157", "iso-8859-10"},
    {"iso8859-10", "iso-8859-10"}, {"iso885910", "iso-8859-10"}, {"l6", "iso-8859-10"},
    {"latin6", "iso-8859-10"},
    {"iso-8859-13", "iso-8859-13"}, {"iso8859-13", "iso-8859-13"}, {"iso885913", "iso-8859-13"},
    {"iso-8859-14", "iso-8859-14"}, {"iso8859-14", "iso-8859-14"}, {"iso885914", "iso-8859-14"},
    {"csisolatin9", "iso-8859-15"}, {"iso-8859-15", "iso-8859-15"}, {"iso8859-15", "iso-8859-15"},
    {"iso885915", "iso-8859-15"}, {"iso_8859-15", "iso-8859-15"}, {"l9", "iso-8859-15"},
    {"iso-8859-16", "iso-8859-16"},
    {"cskoi8r", "koi8-r"}, {"koi", "koi8-r"}, {"koi8", "koi8-r"}, {"koi8-r", "koi8-r"},
    {"koi8_r", "koi8-r"},
    {"koi8-ru", "koi8-u"}, {"koi8-u", "koi8-u"},
    {"csmacintosh", "macintosh"}, {"mac", "macintosh"}, {"macintosh", "macintosh"},
    {"x-mac-roman", "macintosh"},
    {"dos-874", "windows-874"}, {"iso-8859-11", "windows-874"}, {"iso8859-11", "windows-874"},
    {"iso885911", "windows-874"}, {"tis-620", "windows-874"}, {"windows-874", "windows-874"},
    {"cp1250", "windows-1250"}, {"windows-1250", "windows-1250"}, {"x-cp1250", "windows-1250"},
    {"cp1251", "windows-1251"}, {"windows-1251", "windows-1251"}, {"x-cp1251", "windows-1251"},
    {"ansi_x3.4-1968", "windows-1252"}, {"ascii", "windows-1252"}, {"cp1252", "windows-1252"},
    {"cp819", "windows-1252"}, {"csisolatin1", "windows-1252"}, {"ibm819", "windows-1252"},
    {"iso-8859-1", "windows-1252"}, {"iso-ir-100", "windows-1252"}, {"iso8859-1", "windows-1252"},
    {"iso88591", "windows-1252"}, {"iso_8859-1", "windows-1252"},
    {"iso_8859-1:1987", "windows-1252"}, {"l1", "windows-1252"}, {"latin1", "windows-1252"},
    {"us-ascii", "windows-1252"}, {"windows-1252", "windows-1252"}, {"x-cp1252", "windows-1252"},
    {"cp1253", "windows-1253"}, {"windows-1253", "windows-1253"}, {"x-cp1253", "windows-1253"},
    {"cp1254", "windows-1254"}, {"csisolatin5", "windows-1254"}, {"iso-8859-9", "windows-1254"},
    {"iso-ir-148", "windows-1254"}, {"iso8859-9", "windows-1254"}, {"iso88599", "windows-1254"},
    {"iso_8859-9", "windows-1254"}, {"iso_8859-9:1989", "windows-1254"}, {"l5", "windows-1254"},
    {"latin5", "windows-1254"}, {"windows-1254", "windows-1254"}, {"x-cp1254", "windows-1254"},
    {"cp1255", "windows-1255"}, {"windows-1255", "windows-1255"}, {"x-cp1255", "windows-1255"},
    {"cp1256", "windows-1256"}, {"windows-1256", "windows-1256"}, {"x-cp1256", "windows-1256"},
    {"cp1257", "windows-1257"}, {"windows-1257", "windows-1257"}, {"x-cp1257", "windows-1257"},
    {"cp1258", "windows-1258"}, {"windows-1258", "windows-1258"}, {"x-cp1258", "windows-1258"},
    {"x-mac-cyrillic", "x-mac-cyrillic"}, {"x-mac-ukrainian", "x-mac-cyrillic"},
    // legacy multi-byte
    {"chinese", "gbk"}, {"csgb2312", "gbk"}, {"csiso58gb231280", "gbk"}, {"gb2312", "gbk"},
    {"gb_2312", "gbk"}, {"gb_2312-80", "gbk"}, {"gbk", "gbk"}, {"iso-ir-58", "gbk"},
    {"x-gbk", "gbk"},
    {"gb18030", "gb18030"},
    {"big5", "big5"}, {"big5-hkscs", "big5"}, {"cn-big5", "big5"}, {"csbig5", "big5"},
    {"x-x-big5", "big5"},
    {"cseucpkdfmtjapanese", "euc-jp"}, {"euc-jp", "euc-jp"}, {"x-euc-jp", "euc-jp"},
    {"csiso2022jp", "iso-2022-jp"}, {"iso-2022-jp", "iso-2022-jp"},
    {"csshiftjis", "shift_jis"}, {"ms932", "shift_jis"}, {"ms_kanji", "shift_jis"},
    {"shift-jis", "shift_jis"}, {"shift_jis", "shift_jis"}, {"sjis", "shift_jis"},
    {"windows-31j", "shift_jis"}, {"x-sjis", "shift_jis"},
    {"cseuckr", "euc-kr"}, {"csksc56011987", "euc-kr"}, {"euc-kr", "euc-kr"},
    {"iso-ir-149", "euc-kr"}, {"korean", "euc-kr"}, {"ks_c_5601-1987", "euc-kr"},
    {"ks_c_5601-1989", "euc-kr"}, {"ksc5601", "euc-kr"}, {"ksc_5601", "euc-kr"},
    {"windows-949", "euc-kr"},
    // ISO-2022-KR, HZ and friends map to "replacement" (an XSS defence in browsers).
    {"csiso2022kr", "replacement"}, {"hz-gb-2312", "replacement"}, {"iso-2022-cn", "replacement"},
    {"iso-2022-cn-ext", "replacement"}, {"iso-2022-kr", "replacement"},
    {"replacement", "replacement"},
    {"unicodefffe", "utf-16be"}, {"utf-16be", "utf-16be"},
    {"csunicode", "utf-16le"}, {"iso-10646-ucs-2", "utf-16le"}, {"ucs-2", "utf-16le"},
    {"unicode", "utf-16le"}, {"unicodefeff", "utf-16le"}, {"utf-16", "utf-16le"},
    {"utf-16le", "utf-16le"},
    {"x-user-defined", "x-user-defined"},
};

// Names uchardet reports that are not WHATWG labels but have a WHATWG equivalent.
constexpr LabelEntry k_detector_aliases[] = {
    {"mac-cyrillic", "x-mac-cyrillic"},
    {"maccyrillic", "x-mac-cyrillic"},
};

enum class Decoder { utf8, utf16le, utf16be, windows1252, x_user_defined, iconv, unusable };

struct EncodingEntry {
    std::string_view name;
    Decoder decoder;
    const char* iconv_name;  // glibc name; only for Decoder::iconv
};

// How each WHATWG encoding is decoded. glibc names are chosen for the closest
// index: WHATWG's Shift_JIS and EUC-KR are Microsoft's supersets (CP932, CP949),
// gbk is decoded as its superset GB18030, koi8-u is KOI8-RU, big5 is Big5-HKSCS.
constexpr EncodingEntry k_encodings[] = {
    {"utf-8", Decoder::utf8, nullptr},
    {"utf-16le", Decoder::utf16le, nullptr},
    {"utf-16be", Decoder::utf16be, nullptr},
    {"windows-1252", Decoder::windows1252, nullptr},
    {"x-user-defined", Decoder::x_user_defined, nullptr},
    // Deliberate departure: browsers decode these to a single U+FFFD; an
    // extractor gains nothing from that, so the label is skipped as if unknown.
    {"replacement", Decoder::unusable, nullptr},
    {"ibm866", Decoder::iconv, "IBM866"},
    {"iso-8859-2", Decoder::iconv, "ISO-8859-2"},
    {"iso-8859-3", Decoder::iconv, "ISO-8859-3"},
    {"iso-8859-4", Decoder::iconv, "ISO-8859-4"},
    {"iso-8859-5", Decoder::iconv, "ISO-8859-5"},
    {"iso-8859-6", Decoder::iconv, "ISO-8859-6"},
    {"iso-8859-7", Decoder::iconv, "ISO-8859-7"},
    {"iso-8859-8", Decoder::iconv, "ISO-8859-8"},
    {"iso-8859-8-i", Decoder::iconv, "ISO-8859-8"},
    {"iso-8859-10", Decoder::iconv, "ISO-8859-10"},
    {"iso-8859-13", Decoder::iconv, "ISO-8859-13"},
    {"iso-8859-14", Decoder::iconv, "ISO-8859-14"},
    {"iso-8859-15", Decoder::iconv, "ISO-8859-15"},
    {"iso-8859-16", Decoder::iconv, "ISO-8859-16"},
    {"koi8-r", Decoder::iconv, "KOI8-R"},
    {"koi8-u", Decoder::iconv, "KOI8-RU"},
    {"macintosh", Decoder::iconv, "MACINTOSH"},
    // glibc's table differs from WHATWG's at 0xFF only (U+00A4 instead of U+20AC).
    {"x-mac-cyrillic", Decoder::iconv, "MAC-UK"},
    {"windows-874", Decoder::iconv, "CP874"},
    {"windows-1250", Decoder::iconv, "CP1250"},
    {"windows-1251", Decoder::iconv, "CP1251"},
    {"windows-1253", Decoder::iconv, "CP1253"},
    {"windows-1254", Decoder::iconv, "CP1254"},
    {"windows-1255", Decoder::iconv, "CP1255"},
    {"windows-1256", Decoder::iconv, "CP1256"},
    {"windows-1257", Decoder::iconv, "CP1257"},
    {"windows-1258", Decoder::iconv, "CP1258"},
    {"gbk", Decoder::iconv, "GB18030"},
    {"gb18030", Decoder::iconv, "GB18030"},
    {"big5", Decoder::iconv, "BIG5-HKSCS"},
    {"euc-jp", Decoder::iconv, "EUC-JP"},
    {"iso-2022-jp", Decoder::iconv, "ISO-2022-JP"},
    {"shift_jis", Decoder::iconv, "CP932"},
    {"euc-kr", Decoder::iconv, "CP949"},
};

// WHATWG index for windows-1252 bytes 0x80-0x9F; the rest is Latin-1. The five
// holes (0x81, 0x8D, 0x8F, 0x90, 0x9D) map to their C1 code points, as in
// browsers; glibc's CP1252 would reject them.
constexpr char16_t k_windows1252_c1[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

[[nodiscard]] constexpr bool is_ascii_space(unsigned char c) noexcept {
    return c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D || c == 0x20;
}

[[nodiscard]] constexpr unsigned char to_lower(unsigned char c) noexcept {
    return (c >= 'A' && c <= 'Z') ? static_cast<unsigned char>(c + 0x20) : c;
}

[[nodiscard]] constexpr bool is_ascii_alpha(unsigned char c) noexcept {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

[[nodiscard]] std::string_view trim_ascii_space(std::string_view s) noexcept {
    while (!s.empty() && is_ascii_space(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && is_ascii_space(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

[[nodiscard]] bool iequals(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (to_lower(static_cast<unsigned char>(a[i])) != to_lower(static_cast<unsigned char>(b[i]))) {
            return false;
        }
    }
    return true;
}

[[nodiscard]] const EncodingEntry* find_encoding(std::string_view name) noexcept {
    for (const auto& e : k_encodings) {
        if (e.name == name) return &e;
    }
    return nullptr;
}

void append_utf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

// ---------------------------------------------------------------- UTF-8

// Checks the sequence starting with the non-ASCII byte at s[i] against the
// WHATWG UTF-8 decoder's bounds (which exclude overlongs, surrogates and code
// points above U+10FFFF). Returns its length when valid; otherwise sets
// `consumed` to the maximal subpart (the bytes one U+FFFD stands for) and
// returns 0.
[[nodiscard]] std::size_t utf8_sequence(std::string_view s, std::size_t i, std::size_t& consumed) noexcept {
    const auto lead = static_cast<unsigned char>(s[i]);
    std::size_t needed = 0;
    unsigned char lower = 0x80;
    unsigned char upper = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        needed = 1;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        needed = 2;
        if (lead == 0xE0) lower = 0xA0;
        if (lead == 0xED) upper = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        needed = 3;
        if (lead == 0xF0) lower = 0x90;
        if (lead == 0xF4) upper = 0x8F;
    } else {
        consumed = 1;
        return 0;
    }
    std::size_t j = i + 1;
    for (std::size_t k = 0; k < needed; ++k, ++j) {
        if (j >= s.size()) {
            consumed = j - i;
            return 0;
        }
        const auto b = static_cast<unsigned char>(s[j]);
        if (b < lower || b > upper) {
            // The offending byte is not consumed: it may start the next sequence.
            consumed = j - i;
            return 0;
        }
        lower = 0x80;
        upper = 0xBF;
    }
    return needed + 1;
}

// The high bit of each byte that is non-ASCII or zero. Only the lowest set
// bit is exact: the has-zero-byte test can flag bytes above a zero byte.
[[nodiscard]] inline std::uint64_t bytes_needing_care(std::uint64_t w) noexcept {
    constexpr std::uint64_t high = 0x8080808080808080ULL;
    constexpr std::uint64_t ones = 0x0101010101010101ULL;
    return (w & high) | ((w - ones) & ~w & high);
}

// Offset of the first NUL byte or invalid sequence in `s`; s.size() when the
// whole input is valid UTF-8 without NUL. Skips ASCII eight bytes at a time.
[[nodiscard]] std::size_t first_problem(std::string_view s) noexcept {
    const std::size_t n = s.size();
    std::size_t i = 0;
    while (i < n) {
        if (i + 8 <= n) {
            std::uint64_t w;
            std::memcpy(&w, s.data() + i, sizeof w);
            const std::uint64_t care = bytes_needing_care(w);
            if (care == 0) {
                i += 8;
                continue;
            }
            // Little-endian: the lowest flagged bit is the first such byte.
            if constexpr (std::endian::native == std::endian::little) {
                i += static_cast<std::size_t>(std::countr_zero(care)) / 8U;
            }
        }
        const auto b = static_cast<unsigned char>(s[i]);
        if (b == 0) return i;
        if (b < 0x80) {
            ++i;
            continue;
        }
        std::size_t consumed = 0;
        const std::size_t len = utf8_sequence(s, i, consumed);
        if (len == 0) return i;
        i += len;
    }
    return n;
}

// Whether any byte of `s` is 0x80 or above, eight bytes at a time.
[[nodiscard]] bool has_non_ascii(std::string_view s) noexcept {
    constexpr std::uint64_t high = 0x8080808080808080ULL;
    std::size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, s.data() + i, sizeof w);
        if ((w & high) != 0) {
            return true;
        }
    }
    return std::any_of(s.begin() + static_cast<std::ptrdiff_t>(i), s.end(),
                       [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
}

// Appends `s` to `out` with invalid sequences and NUL replaced by U+FFFD.
// Clean runs are copied in bulk, so valid input costs one scan and one copy.
void append_sanitized(std::string& out, std::string_view s) {
    std::size_t i = 0;
    bool reserved = false;
    while (i < s.size()) {
        const std::size_t clean = first_problem(s.substr(i));
        if (!reserved && clean < s.size() - i) {
            out.reserve(out.size() + s.size() + 64);
            reserved = true;
        }
        out.append(s.data() + i, clean);
        i += clean;
        if (i >= s.size()) break;
        out += k_replacement;
        if (s[i] == '\0') {
            ++i;
            continue;
        }
        std::size_t consumed = 1;
        (void)utf8_sequence(s, i, consumed);
        i += consumed;
    }
}

// Valid UTF-8 apart from NUL bytes (which are not evidence of another encoding).
[[nodiscard]] bool is_valid_utf8_allowing_nul(std::string_view s) noexcept {
    std::size_t i = 0;
    while (i < s.size()) {
        const std::size_t p = first_problem(s.substr(i));
        i += p;
        if (i >= s.size()) return true;
        if (s[i] != '\0') return false;
        ++i;
    }
    return true;
}

// ---------------------------------------------------------------- other decoders

// WHATWG UTF-16 decoder: an unpaired surrogate or a trailing odd byte is one U+FFFD.
void decode_utf16(std::string_view s, bool big_endian, std::string& out) {
    out.reserve(s.size() + s.size() / 2);
    char16_t pending_lead = 0;
    const std::size_t pairs = s.size() / 2;
    for (std::size_t k = 0; k < pairs; ++k) {
        const auto b0 = static_cast<unsigned char>(s[2 * k]);
        const auto b1 = static_cast<unsigned char>(s[2 * k + 1]);
        const auto unit = static_cast<char16_t>(big_endian ? (b0 << 8) | b1 : (b1 << 8) | b0);
        if (pending_lead != 0) {
            if (unit >= 0xDC00 && unit <= 0xDFFF) {
                append_utf8(out, 0x10000 + ((static_cast<char32_t>(pending_lead) - 0xD800) << 10) +
                                     (static_cast<char32_t>(unit) - 0xDC00));
                pending_lead = 0;
                continue;
            }
            out += k_replacement;
            pending_lead = 0;
        }
        if (unit >= 0xD800 && unit <= 0xDBFF) {
            pending_lead = unit;
        } else if ((unit >= 0xDC00 && unit <= 0xDFFF) || unit == 0) {
            out += k_replacement;
        } else {
            append_utf8(out, unit);
        }
    }
    if (pending_lead != 0 || s.size() % 2 != 0) out += k_replacement;
}

void decode_windows1252(std::string_view s, std::string& out) {
    out.reserve(s.size() + s.size() / 4);
    std::size_t run = 0;  // start of the pending ASCII run, copied in bulk
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto b = static_cast<unsigned char>(s[i]);
        if (b != 0 && b < 0x80) continue;
        out.append(s.data() + run, i - run);
        run = i + 1;
        if (b == 0) {
            out += k_replacement;
        } else if (b < 0xA0) {
            append_utf8(out, k_windows1252_c1[b - 0x80]);
        } else {
            append_utf8(out, b);
        }
    }
    out.append(s.data() + run, s.size() - run);
}

void decode_x_user_defined(std::string_view s, std::string& out) {
    out.reserve(s.size());
    for (const char ch : s) {
        const auto b = static_cast<unsigned char>(ch);
        if (b == 0) {
            out += k_replacement;
        } else if (b < 0x80) {
            out += ch;
        } else {
            append_utf8(out, 0xF780 + b - 0x80);
        }
    }
}

struct IconvCloser {
    void operator()(void* cd) const noexcept { iconv_close(static_cast<iconv_t>(cd)); }
};

// Converts through glibc iconv in fixed-size output chunks. An invalid byte
// becomes U+FFFD and decoding resumes at the next byte; a truncated sequence at
// the end becomes one U+FFFD. False when glibc lacks the encoding.
[[nodiscard]] bool decode_with_iconv(std::string_view s, const char* from, std::string& out) {
    iconv_t raw = iconv_open("UTF-8", from);
    if (raw == reinterpret_cast<iconv_t>(-1)) return false;
    const std::unique_ptr<void, IconvCloser> cd(raw);

    out.reserve(s.size() + s.size() / 2);
    char chunk[16384];
    char* in = const_cast<char*>(s.data());  // iconv's signature; input is not written
    std::size_t in_left = s.size();
    while (in_left > 0) {
        char* dst = chunk;
        std::size_t dst_left = sizeof chunk;
        const std::size_t rc = iconv(raw, &in, &in_left, &dst, &dst_left);
        out.append(chunk, static_cast<std::size_t>(dst - chunk));
        if (rc != static_cast<std::size_t>(-1)) continue;
        const int err = errno;
        if (err == E2BIG) continue;
        out += k_replacement;
        if (err == EINVAL) break;  // incomplete sequence at the end of input
        // EILSEQ (or anything unexpected): skip one byte so decoding always progresses.
        ++in;
        --in_left;
    }
    // Flush the shift state of stateful encodings (ISO-2022-JP).
    char* dst = chunk;
    std::size_t dst_left = sizeof chunk;
    iconv(raw, nullptr, nullptr, &dst, &dst_left);
    out.append(chunk, static_cast<std::size_t>(dst - chunk));
    return true;
}

// Decodes `s` with the WHATWG encoding `name`; false when it is not usable.
[[nodiscard]] bool decode_as(std::string_view s, std::string_view name, std::string& out) {
    const EncodingEntry* e = find_encoding(name);
    if (e == nullptr) return false;
    switch (e->decoder) {
        case Decoder::utf8:
            append_sanitized(out, s);
            return true;
        case Decoder::utf16le:
            decode_utf16(s, false, out);
            return true;
        case Decoder::utf16be:
            decode_utf16(s, true, out);
            return true;
        case Decoder::windows1252:
            decode_windows1252(s, out);
            return true;
        case Decoder::x_user_defined:
            decode_x_user_defined(s, out);
            return true;
        case Decoder::iconv: {
            std::string raw;
            if (!decode_with_iconv(s, e->iconv_name, raw)) return false;
            // glibc passes NUL through; the sanitiser also guards against any
            // converter emitting something gumbo would choke on.
            if (first_problem(raw) == raw.size()) {
                out = std::move(raw);
            } else {
                append_sanitized(out, raw);
            }
            return true;
        }
        case Decoder::unusable:
            return false;
    }
    return false;
}

// ---------------------------------------------------------------- <meta> prescan

// HTML standard, "extract a character encoding from a meta element": the value
// after "charset=" in a content attribute, quoted or not. Empty when none.
[[nodiscard]] std::string_view charset_from_content(std::string_view s) noexcept {
    std::size_t pos = 0;
    while (true) {
        std::size_t at = std::string_view::npos;
        for (std::size_t i = pos; i + 7 <= s.size(); ++i) {
            if (iequals(s.substr(i, 7), "charset")) {
                at = i;
                break;
            }
        }
        if (at == std::string_view::npos) return {};
        pos = at + 7;
        while (pos < s.size() && is_ascii_space(static_cast<unsigned char>(s[pos]))) ++pos;
        if (pos >= s.size()) return {};
        if (s[pos] != '=') continue;  // "charset" not followed by '=': look further on
        ++pos;
        while (pos < s.size() && is_ascii_space(static_cast<unsigned char>(s[pos]))) ++pos;
        if (pos >= s.size()) return {};
        const char q = s[pos];
        if (q == '"' || q == '\'') {
            const std::size_t close = s.find(q, pos + 1);
            if (close == std::string_view::npos) return {};
            return s.substr(pos + 1, close - pos - 1);
        }
        std::size_t end = pos;
        while (end < s.size() && !is_ascii_space(static_cast<unsigned char>(s[end])) && s[end] != ';') {
            ++end;
        }
        return s.substr(pos, end - pos);
    }
}

struct Attribute {
    std::string name;
    std::string value;
};

// Byte cursor for the prescan. Reading past the end means "ran out of bytes",
// which aborts the prescan.
class Prescanner {
public:
    explicit Prescanner(std::string_view s) : s_(s) {}

    [[nodiscard]] std::string run();

private:
    [[nodiscard]] bool at_end() const noexcept { return pos_ >= s_.size(); }
    [[nodiscard]] unsigned char cur() const noexcept { return static_cast<unsigned char>(s_[pos_]); }
    [[nodiscard]] bool starts_with_ci(std::string_view prefix) const noexcept {
        return s_.size() - pos_ >= prefix.size() && iequals(s_.substr(pos_, prefix.size()), prefix);
    }

    // HTML standard, "get an attribute". False when there is no further attribute
    // (at '>' or out of bytes); `out_of_bytes_` says which.
    [[nodiscard]] bool get_attribute(Attribute& attr);
    // Returns the charset a <meta> tag declares, "" when it declares none.
    [[nodiscard]] std::string meta_tag();

    std::string_view s_;
    std::size_t pos_ = 0;
    bool out_of_bytes_ = false;
};

bool Prescanner::get_attribute(Attribute& attr) {
    attr.name.clear();
    attr.value.clear();
    while (!at_end() && (is_ascii_space(cur()) || cur() == '/')) ++pos_;
    if (at_end()) {
        out_of_bytes_ = true;
        return false;
    }
    if (cur() == '>') return false;

    // Name: a leading '=' is part of the name, a later one starts the value.
    bool has_value = false;
    while (true) {
        if (at_end()) {
            out_of_bytes_ = true;
            return false;
        }
        const unsigned char c = cur();
        if (c == '=' && !attr.name.empty()) {
            ++pos_;
            has_value = true;
            break;
        }
        if (is_ascii_space(c)) break;
        if (c == '/' || c == '>') return true;
        attr.name += static_cast<char>(to_lower(c));
        ++pos_;
    }
    if (!has_value) {
        // Spaces between the name and a possible '='.
        while (!at_end() && is_ascii_space(cur())) ++pos_;
        if (at_end()) {
            out_of_bytes_ = true;
            return false;
        }
        if (cur() != '=') return true;  // attribute without a value; cursor stays
        ++pos_;
    }

    while (!at_end() && is_ascii_space(cur())) ++pos_;
    if (at_end()) {
        out_of_bytes_ = true;
        return false;
    }
    if (cur() == '"' || cur() == '\'') {
        const unsigned char quote = cur();
        ++pos_;
        while (true) {
            if (at_end()) {
                out_of_bytes_ = true;
                return false;
            }
            if (cur() == quote) {
                ++pos_;
                return true;
            }
            attr.value += static_cast<char>(to_lower(cur()));
            ++pos_;
        }
    }
    if (cur() == '>') return true;
    while (true) {
        if (at_end()) {
            out_of_bytes_ = true;
            return false;
        }
        const unsigned char c = cur();
        if (is_ascii_space(c) || c == '>') return true;
        attr.value += static_cast<char>(to_lower(c));
        ++pos_;
    }
}

std::string Prescanner::meta_tag() {
    std::string seen_names;  // '\n'-separated: an attribute repeated later is ignored
    bool got_pragma = false;
    enum class NeedPragma { unset, yes, no } need_pragma = NeedPragma::unset;
    // nullopt until a charset is found; "" when the label found was unknown,
    // which still stops a later content attribute from supplying one.
    std::optional<std::string> charset;
    Attribute attr;
    while (get_attribute(attr)) {
        const std::string key = "\n" + attr.name + "\n";
        if (seen_names.find(key) != std::string::npos) continue;
        seen_names += key;
        if (attr.name == "http-equiv") {
            if (attr.value == "content-type") got_pragma = true;
        } else if (attr.name == "content") {
            if (!charset) {
                std::string name = canonical_charset(charset_from_content(attr.value));
                if (!name.empty()) {
                    charset = std::move(name);
                    need_pragma = NeedPragma::yes;
                }
            }
        } else if (attr.name == "charset") {
            charset = canonical_charset(attr.value);
            need_pragma = NeedPragma::no;
        }
    }
    if (out_of_bytes_) return {};
    if (need_pragma == NeedPragma::unset) return {};
    if (need_pragma == NeedPragma::yes && !got_pragma) return {};
    if (!charset || charset->empty()) return {};
    if (*charset == "utf-16le" || *charset == "utf-16be") return "utf-8";
    if (*charset == "x-user-defined") return "windows-1252";
    return *charset;
}

std::string Prescanner::run() {
    while (!at_end() && !out_of_bytes_) {
        if (starts_with_ci("<!--")) {
            // Ends at the first '>' preceded by "--", which may overlap "<!--" ("<!-->").
            const std::size_t close = s_.find("-->", pos_ + 2);
            if (close == std::string_view::npos) return {};
            pos_ = close + 3;
            continue;
        }
        if (starts_with_ci("<meta") && s_.size() - pos_ > 5 &&
            (is_ascii_space(static_cast<unsigned char>(s_[pos_ + 5])) || s_[pos_ + 5] == '/')) {
            pos_ += 6;
            std::string charset = meta_tag();
            if (out_of_bytes_) return {};
            if (!charset.empty()) return charset;
            ++pos_;
            continue;
        }
        const std::size_t rest = s_.size() - pos_;
        if (cur() == '<' && rest >= 2) {
            const auto c1 = static_cast<unsigned char>(s_[pos_ + 1]);
            const bool end_tag = c1 == '/';
            const bool tag = is_ascii_alpha(c1) ||
                             (end_tag && rest >= 3 && is_ascii_alpha(static_cast<unsigned char>(s_[pos_ + 2])));
            if (tag) {
                // A start or end tag: skip its name, then its attributes, so that
                // '>' or "<meta" inside an attribute value is not misread.
                while (!at_end() && !is_ascii_space(cur()) && cur() != '>') ++pos_;
                if (at_end()) return {};
                Attribute attr;
                while (get_attribute(attr)) {
                }
                if (out_of_bytes_) return {};
                ++pos_;
                continue;
            }
            if (c1 == '!' || c1 == '/' || c1 == '?') {
                const std::size_t close = s_.find('>', pos_ + 2);
                if (close == std::string_view::npos) return {};
                pos_ = close + 1;
                continue;
            }
        }
        ++pos_;
    }
    return {};
}

// uchardet's answer as a WHATWG encoding name usable without a BOM; "" otherwise.
[[nodiscard]] std::string detect_with_uchardet(std::string_view s) {
    const std::unique_ptr<std::remove_pointer_t<uchardet_t>, decltype(&uchardet_delete)> ud(
        uchardet_new(), &uchardet_delete);
    if (ud == nullptr) return {};
    const std::size_t len = std::min(s.size(), k_detect_max_bytes);
    std::string result;
    if (uchardet_handle_data(ud.get(), s.data(), len) == 0) {
        uchardet_data_end(ud.get());
        const char* name = uchardet_get_charset(ud.get());
        const std::string_view label = name != nullptr ? std::string_view(name) : std::string_view();
        // "ASCII" is a WHATWG label for windows-1252, but from the detector it
        // means "no opinion": leave the choice to the last resort.
        if (!iequals(label, "ascii")) result = canonical_charset(label);
        for (const auto& alias : k_detector_aliases) {
            if (result.empty() && iequals(alias.label, label)) result = alias.name;
        }
    }
    // Browsers never guess UTF-16 without a BOM, and the other two are not
    // real text encodings.
    if (result == "utf-16le" || result == "utf-16be" || result == "replacement" ||
        result == "x-user-defined") {
        return {};
    }
    return result;
}

}  // namespace

std::string_view charset_source_name(CharsetSource source) noexcept {
    switch (source) {
        case CharsetSource::bom: return "bom";
        case CharsetSource::caller: return "caller";
        case CharsetSource::meta: return "meta";
        case CharsetSource::detected: return "detected";
        case CharsetSource::fallback: return "fallback";
    }
    return "fallback";
}

std::string canonical_charset(std::string_view label) {
    const std::string_view trimmed = trim_ascii_space(label);
    if (trimmed.empty() || trimmed.size() > 32) return {};
    for (const auto& e : k_labels) {
        if (iequals(e.label, trimmed)) return std::string(e.name);
    }
    return {};
}

namespace {

// ---- text that was decoded twice ----

// The byte 0x80-0xFF that code point `c` stands for when a byte was read as
// windows-1252 or as Latin-1 (which keeps the C1 controls); -1 for any other.
[[nodiscard]] int byte_read_as(char32_t c) noexcept {
    if (c >= 0x80 && c <= 0xFF) return static_cast<int>(c);
    for (int i = 0; i < 32; ++i) {
        if (k_windows1252_c1[i] == c) return 0x80 + i;
    }
    return -1;
}

// The byte the character at s[at] (valid UTF-8) was read from, where it can
// be a UTF-8 continuation byte (0x80-0xBF), `at` moved past it; -1 otherwise.
[[nodiscard]] int continuation_read_as(std::string_view s, std::size_t& at) noexcept {
    if (at >= s.size()) return -1;
    const int byte = byte_read_as(text::next_code_point(s, at));
    return byte >= 0x80 && byte <= 0xBF ? byte : -1;
}

// Where s[i] holds U+00C2-U+00F4 (a UTF-8 lead byte read as one character):
// the character that byte and the ones read after it were written as, in
// `restored`, and the length of the text it replaces; 0 where those bytes
// form no UTF-8 character, or only a C1 control.
[[nodiscard]] std::size_t double_encoded_at(std::string_view s, std::size_t i, std::string& restored) {
    const auto lead = static_cast<unsigned char>(s[i + 1]) + 0x40U;  // C3 xx is U+00C0 + (xx - 0x80)
    const std::size_t continuations = lead < 0xE0 ? 1 : lead < 0xF0 ? 2 : 3;
    std::array<unsigned char, 4> bytes{static_cast<unsigned char>(lead)};
    std::size_t at = i + 2;
    for (std::size_t k = 1; k <= continuations; ++k) {
        const int byte = continuation_read_as(s, at);
        if (byte < 0) return 0;
        bytes[k] = static_cast<unsigned char>(byte);
    }
    restored.assign(reinterpret_cast<const char*>(bytes.data()), continuations + 1);
    // utf8_sequence rules out overlongs, surrogates and code points above U+10FFFF.
    std::size_t consumed = 0;
    if (utf8_sequence(restored, 0, consumed) != restored.size() || (lead == 0xC2 && bytes[1] < 0xA0)) {
        return 0;
    }
    return at - i;
}

// What scan_double_encoded() found: the double-encoded sequences, and the
// characters encoded C3 xx that begin none (the page's own accented letters).
struct DoubleEncodedCount {
    std::size_t found = 0;
    std::size_t others = 0;
};

// Counts the double-encoded sequences of `utf8` (valid UTF-8) and, when `out`
// is given, writes the text with each restored. Every such sequence begins
// with a character U+00C2-U+00F4, encoded C3 82 to C3 B4.
DoubleEncodedCount scan_double_encoded(std::string_view utf8, std::string* out) {
    DoubleEncodedCount count;
    std::size_t copied = 0;
    std::string restored;
    const char* const begin = utf8.data();
    for (std::size_t i = 0; i + 1 < utf8.size();) {
        const void* hit = std::memchr(begin + i, 0xC3, utf8.size() - i - 1);
        if (hit == nullptr) break;
        i = static_cast<std::size_t>(static_cast<const char*>(hit) - begin);
        const auto second = static_cast<unsigned char>(utf8[i + 1]);
        const std::size_t length = second >= 0x82 && second <= 0xB4 ? double_encoded_at(utf8, i, restored) : 0;
        if (length == 0) {
            ++count.others;
            i += 2;
            continue;
        }
        ++count.found;
        if (out != nullptr) {
            out->append(utf8.substr(copied, i - copied));
            out->append(restored);
            copied = i + length;
        }
        i += length;
    }
    if (out != nullptr) out->append(utf8.substr(copied));
    return count;
}

}  // namespace

std::size_t repair_double_encoding(std::string_view utf8, std::string& out) {
    const DoubleEncodedCount count = scan_double_encoded(utf8, nullptr);
    if (count.found < k_min_double_encoded || count.found <= count.others) return 0;
    out.clear();
    out.reserve(utf8.size());
    return scan_double_encoded(utf8, &out).found;
}

std::string prescan_meta_charset(std::string_view bytes) {
    return Prescanner(bytes.substr(0, std::min(bytes.size(), k_prescan_bytes))).run();
}

std::string sanitize_utf8(std::string_view bytes) {
    std::string out;
    append_sanitized(out, bytes);
    return out;
}

DecodedText to_utf8(std::string_view bytes, std::string_view declared_charset) {
    DecodedText result;

    // 1. A byte order mark wins over every label.
    if (bytes.size() >= 3 && bytes.substr(0, 3) == "\xEF\xBB\xBF") {
        result.charset = "utf-8";
        result.source = CharsetSource::bom;
        append_sanitized(result.utf8, bytes.substr(3));
        return result;
    }
    if (bytes.size() >= 2 && (bytes.substr(0, 2) == "\xFE\xFF" || bytes.substr(0, 2) == "\xFF\xFE")) {
        const bool big_endian = bytes[0] == '\xFE';
        result.charset = big_endian ? "utf-16be" : "utf-16le";
        result.source = CharsetSource::bom;
        decode_utf16(bytes.substr(2), big_endian, result.utf8);
        return result;
    }

    // 2. Valid UTF-8 that holds non-ASCII text is UTF-8, whatever the labels say:
    // legacy encodings almost never produce it by accident, while mislabelled
    // UTF-8 pages are common (Mozilla's test page "qq" declares gb2312).
    const std::string caller_name = canonical_charset(
        charset_from_content(declared_charset).empty() ? declared_charset : charset_from_content(declared_charset));
    const bool labelled_utf8 =
        caller_name == "utf-8" || (caller_name.empty() && prescan_meta_charset(bytes) == "utf-8");
    if (const std::size_t problem = first_problem(bytes); !labelled_utf8 && problem == bytes.size()) {
        if (has_non_ascii(bytes)) {
            result.utf8.assign(bytes);
            result.charset = "utf-8";
            result.source = CharsetSource::detected;
            return result;
        }
    }

    // 3. The caller's label (an HTTP charset). A whole Content-Type value is
    // accepted too, since that is what callers usually have at hand.
    std::string_view label = declared_charset;
    if (const std::string_view inner = charset_from_content(declared_charset); !inner.empty()) {
        label = inner;
    }
    if (const std::string name = canonical_charset(label); !name.empty()) {
        if (decode_as(bytes, name, result.utf8)) {
            result.charset = name;
            result.source = CharsetSource::caller;
            return result;
        }
        result.utf8.clear();
    }

    // 4. <meta charset> in the first 1024 bytes.
    if (const std::string name = prescan_meta_charset(bytes); !name.empty()) {
        if (decode_as(bytes, name, result.utf8)) {
            result.charset = name;
            result.source = CharsetSource::meta;
            return result;
        }
        result.utf8.clear();
    }

    // 5. Nothing declared. Valid UTF-8 is trusted before any statistics: legacy
    // encodings almost never produce it by accident, while detectors do
    // misjudge short or mostly-ASCII UTF-8 pages.
    const std::size_t problem = first_problem(bytes);
    if (problem == bytes.size()) {
        result.utf8.assign(bytes);
        result.charset = "utf-8";
        result.source = CharsetSource::detected;
        return result;
    }
    if (bytes[problem] == '\0' && is_valid_utf8_allowing_nul(bytes.substr(problem))) {
        append_sanitized(result.utf8, bytes);
        result.charset = "utf-8";
        result.source = CharsetSource::detected;
        return result;
    }
    const std::string detected = detect_with_uchardet(bytes);
    if (!detected.empty() && decode_as(bytes, detected, result.utf8)) {
        result.charset = detected;
        result.source = CharsetSource::detected;
        return result;
    }
    result.utf8.clear();

    // 6. Last resort, as browsers in most locales.
    decode_windows1252(bytes, result.utf8);
    result.charset = "windows-1252";
    result.source = CharsetSource::fallback;
    return result;
}

DecodedView to_utf8_view(std::string_view bytes, std::string_view declared_charset, std::string& storage) {
    const bool has_bom = (bytes.size() >= 3 && bytes.substr(0, 3) == "\xEF\xBB\xBF") ||
                         (bytes.size() >= 2 && (bytes.substr(0, 2) == "\xFE\xFF" || bytes.substr(0, 2) == "\xFF\xFE"));
    if (!has_bom && first_problem(bytes) == bytes.size()) {
        // Valid UTF-8: to_utf8 keeps it as is unless a legacy label names an
        // ASCII-only page, which that path still handles below.
        const std::string_view inner = charset_from_content(declared_charset);
        const std::string caller = canonical_charset(inner.empty() ? declared_charset : inner);
        if (caller == "utf-8") {
            return DecodedView{bytes, "utf-8", CharsetSource::caller};
        }
        const std::string meta = caller.empty() ? prescan_meta_charset(bytes) : std::string();
        if (caller.empty() && meta == "utf-8") {
            return DecodedView{bytes, "utf-8", CharsetSource::meta};
        }
        if ((caller.empty() && meta.empty()) || has_non_ascii(bytes)) {
            return DecodedView{bytes, "utf-8", CharsetSource::detected};
        }
    }
    DecodedText decoded = to_utf8(bytes, declared_charset);
    storage = std::move(decoded.utf8);
    return DecodedView{storage, std::move(decoded.charset), decoded.source};
}

}  // namespace pith::decode
