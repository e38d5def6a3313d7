// Text helpers with JavaScript's semantics, so that lengths and thresholds
// match Readability.js: `\s` and trim() use ECMAScript's white space set, and
// `.length` counts UTF-16 code units. All inputs are valid UTF-8. Strings
// only: the measures of a node's text are dom/inner_text.hpp's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace pith::text {

// Decodes one code point at `pos` and advances it. Input must be valid UTF-8.
[[nodiscard]] char32_t next_code_point(std::string_view s, std::size_t& pos) noexcept;

// ECMAScript WhiteSpace or LineTerminator (what `\s` and trim() match).
[[nodiscard]] bool is_js_space(char32_t c) noexcept;

// Length in UTF-16 code units (JavaScript's String.prototype.length).
[[nodiscard]] std::size_t utf16_length(std::string_view s) noexcept;

// The length in bytes of the JavaScript white space code point at `pos`; 0
// when there is none.
[[nodiscard]] std::size_t space_at(std::string_view s, std::size_t pos) noexcept;

// HTML's ASCII white space: space, tab, LF, FF and CR.
[[nodiscard]] constexpr bool is_html_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

[[nodiscard]] constexpr bool is_ascii_digit(char c) noexcept { return c >= '0' && c <= '9'; }

[[nodiscard]] constexpr bool is_ascii_letter(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

[[nodiscard]] constexpr bool is_ascii_alnum(char c) noexcept { return is_ascii_letter(c) || is_ascii_digit(c); }

// String.prototype.trim().
[[nodiscard]] std::string_view trim(std::string_view s) noexcept;

// Whether `s` is white space only: trim(s).empty(), without decoding the
// ASCII most text nodes between tags are made of.
[[nodiscard]] inline bool is_blank(std::string_view s) noexcept {
    for (std::size_t pos = 0; pos < s.size();) {
        const auto b = static_cast<unsigned char>(s[pos]);
        if (b < 0x80) {
            if (b != ' ' && (b < 0x09 || b > 0x0D)) {
                return false;
            }
            ++pos;
            continue;
        }
        const std::size_t n = space_at(s, pos);
        if (n == 0) {
            return false;
        }
        pos += n;
    }
    return true;
}

// s.replace(/\s{2,}/g, " "): runs of two or more white space become one space.
[[nodiscard]] std::string collapse_runs(std::string_view s);

// The words of a line whose white space is single spaces (collapse_runs):
// its runs of other characters.
[[nodiscard]] std::size_t count_words(std::string_view line) noexcept;

// Whether `s` holds a character that only guides line breaking: a soft
// hyphen (U+00AD), a zero-width space (U+200B), a word joiner (U+2060) or a
// zero-width no-break space (U+FEFF). A page that hyphenates "Ge\u00ADwürz"
// shows "Gewürz"; a search index or a language model that gets the hyphen
// sees two fragments.
[[nodiscard]] bool has_invisible(std::string_view s) noexcept;
// `s` without those characters.
[[nodiscard]] std::string without_invisible(std::string_view s);

// Whether `s` shows a reader nothing: it holds only white space, the
// characters above, joiners and direction marks (U+200C to U+200F), and
// private-use characters, which are an icon font's glyphs that text without
// the font cannot show. Webflow-style pages fill empty paragraphs with a
// zero-width joiner; a rendering that kept them would give lines of nothing.
[[nodiscard]] bool shows_nothing(std::string_view s) noexcept;

// ASCII lowercase copy (class names, ids, attribute values compared /i).
[[nodiscard]] std::string to_lower_ascii(std::string_view s);
[[nodiscard]] bool iequals_ascii(std::string_view a, std::string_view b) noexcept;
// Calls `visit` on each token of a list separated by HTML white space (space,
// tab, LF, FF, CR), such as a class or rel attribute, until it returns true.
template <typename Visit>
void for_each_token(std::string_view list, Visit&& visit) {
    constexpr std::string_view kHtmlSpace = " \t\n\f\r";
    for (std::size_t start = list.find_first_not_of(kHtmlSpace); start != std::string_view::npos;) {
        const std::size_t end = std::min(list.find_first_of(kHtmlSpace, start), list.size());
        if (visit(list.substr(start, end - start))) {
            return;
        }
        start = list.find_first_not_of(kHtmlSpace, end);
    }
}
// Whether such a list holds `token`, compared ASCII case-insensitively.
[[nodiscard]] bool has_token_ascii_ci(std::string_view list, std::string_view token) noexcept;
[[nodiscard]] bool istarts_with_ascii(std::string_view s, std::string_view prefix) noexcept;
// Case-insensitive (ASCII) substring search.
[[nodiscard]] bool icontains_ascii(std::string_view haystack, std::string_view needle) noexcept;

// Appends the UTF-8 encoding of `c`.
void append_utf8(std::string& out, char32_t c);

}  // namespace pith::text
