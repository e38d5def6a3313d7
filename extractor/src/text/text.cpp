#include "text/text.hpp"

namespace pith::text {

char32_t next_code_point(std::string_view s, std::size_t& pos) noexcept {
    const auto lead = static_cast<unsigned char>(s[pos]);
    if (lead < 0x80) {
        ++pos;
        return lead;
    }
    int extra = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : 1;
    char32_t c = lead & (0x3FU >> static_cast<unsigned>(extra));
    ++pos;
    for (; extra > 0 && pos < s.size(); --extra, ++pos) {
        c = (c << 6U) | (static_cast<unsigned char>(s[pos]) & 0x3FU);
    }
    return c;
}

bool is_js_space(char32_t c) noexcept {
    if (c < 0x80) {
        return c == ' ' || (c >= 0x09 && c <= 0x0D);
    }
    return c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 ||
           c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

std::size_t utf16_length(std::string_view s) noexcept {
    std::size_t units = 0;
    for (const char ch : s) {
        const auto b = static_cast<unsigned char>(ch);
        // Lead bytes start a code point; 4-byte sequences need a surrogate pair.
        units += static_cast<std::size_t>((b & 0xC0U) != 0x80U) + static_cast<std::size_t>(b >= 0xF0U);
    }
    return units;
}

std::size_t space_at(std::string_view s, std::size_t pos) noexcept {
    const auto b = static_cast<unsigned char>(s[pos]);
    if (b < 0x80) {
        return (b == ' ' || (b >= 0x09 && b <= 0x0D)) ? 1 : 0;
    }
    if (b != 0xC2 && b != 0xE1 && b != 0xE2 && b != 0xE3 && b != 0xEF) {
        return 0;  // no JS white space starts with any other lead byte
    }
    std::size_t next = pos;
    const char32_t c = next_code_point(s, next);
    return is_js_space(c) ? next - pos : 0;
}

namespace {

// Length in bytes of the white space code point starting at `pos`, or 0.
// Length of the white space code point that ends just before `end`, or 0.
std::size_t space_before(std::string_view s, std::size_t end) noexcept {
    std::size_t start = end - 1;
    while (start > 0 && (static_cast<unsigned char>(s[start]) & 0xC0U) == 0x80U && end - start < 4) {
        --start;
    }
    return space_at(s, start) == end - start ? end - start : 0;
}

}  // namespace

std::string_view trim(std::string_view s) noexcept {
    std::size_t begin = 0;
    while (begin < s.size()) {
        const std::size_t n = space_at(s, begin);
        if (n == 0) {
            break;
        }
        begin += n;
    }
    std::size_t end = s.size();
    while (end > begin) {
        const std::size_t n = space_before(s, end);
        if (n == 0) {
            break;
        }
        end -= n;
    }
    return s.substr(begin, end - begin);
}

namespace {

// The length of the invisible character at `s[i]`, 0 when there is none.
std::size_t invisible_at(std::string_view s, std::size_t i) noexcept {
    constexpr std::string_view kInvisible[] = {"\u00AD", "\u200B", "\u2060", "\uFEFF"};
    for (const std::string_view c : kInvisible) {
        if (s.substr(i, c.size()) == c) {
            return c.size();
        }
    }
    return 0;
}

// The first invisible character of `s`, npos when there is none. Every one
// starts with one of these lead bytes.
std::size_t first_invisible(std::string_view s) noexcept {
    std::size_t i = s.find_first_of("\xC2\xE2\xEF");
    while (i != std::string_view::npos && invisible_at(s, i) == 0) {
        i = s.find_first_of("\xC2\xE2\xEF", i + 1);
    }
    return i;
}

}  // namespace

bool has_invisible(std::string_view s) noexcept { return first_invisible(s) != std::string_view::npos; }

bool shows_nothing(std::string_view s) noexcept {
    for (std::size_t pos = 0; pos < s.size();) {
        const char32_t c = next_code_point(s, pos);
        const bool nothing = is_js_space(c) || c == 0xAD || (c >= 0x200B && c <= 0x200F) || c == 0x2060 ||
                             (c >= 0xE000 && c <= 0xF8FF) || c >= 0xF0000;  // planes 15 and 16 are private use
        if (!nothing) {
            return false;
        }
    }
    return true;
}

std::string without_invisible(std::string_view s) {
    std::size_t i = first_invisible(s);
    if (i == std::string_view::npos) {
        return std::string(s);
    }
    std::string out(s.substr(0, i));
    while (i < s.size()) {
        if (const std::size_t skip = invisible_at(s, i); skip != 0) {
            i += skip;
        } else {
            out.push_back(s[i++]);
        }
    }
    return out;
}

std::size_t count_words(std::string_view line) noexcept {
    std::size_t words = 0;
    bool in_word = false;
    for (const char c : line) {
        const bool space = c == ' ';
        words += static_cast<std::size_t>(!space && !in_word);
        in_word = !space;
    }
    return words;
}

std::string collapse_runs(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    std::size_t pos = 0;
    while (pos < s.size()) {
        const std::size_t n = space_at(s, pos);
        if (n == 0) {
            out.push_back(s[pos++]);
            continue;
        }
        std::size_t run_end = pos + n;
        std::size_t run_count = 1;
        while (run_end < s.size()) {
            const std::size_t m = space_at(s, run_end);
            if (m == 0) {
                break;
            }
            run_end += m;
            ++run_count;
        }
        if (run_count >= 2) {
            out.push_back(' ');
        } else {
            out.append(s.substr(pos, n));
        }
        pos = run_end;
    }
    return out;
}

std::string to_lower_ascii(std::string_view s) {
    std::string out(s);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return out;
}

namespace {
constexpr char lower(char c) noexcept {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}
}  // namespace

bool has_token_ascii_ci(std::string_view list, std::string_view token) noexcept {
    bool found = false;
    for_each_token(list, [&](std::string_view t) {
        found = iequals_ascii(t, token);
        return found;
    });
    return found;
}

bool iequals_ascii(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (lower(a[i]) != lower(b[i])) {
            return false;
        }
    }
    return true;
}

bool istarts_with_ascii(std::string_view s, std::string_view prefix) noexcept {
    return s.size() >= prefix.size() && iequals_ascii(s.substr(0, prefix.size()), prefix);
}

bool icontains_ascii(std::string_view haystack, std::string_view needle) noexcept {
    if (needle.empty()) {
        return true;
    }
    if (needle.size() > haystack.size()) {
        return false;
    }
    const char first = lower(needle[0]);
    for (std::size_t i = 0; i + needle.size() <= haystack.size(); ++i) {
        if (lower(haystack[i]) == first && iequals_ascii(haystack.substr(i, needle.size()), needle)) {
            return true;
        }
    }
    return false;
}

void append_utf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (c >> 6U)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3FU)));
    } else if (c < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (c >> 12U)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6U) & 0x3FU)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3FU)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (c >> 18U)));
        out.push_back(static_cast<char>(0x80 | ((c >> 12U) & 0x3FU)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6U) & 0x3FU)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3FU)));
    }
}

}  // namespace pith::text
