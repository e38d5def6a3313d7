// Character references left in text that was escaped twice.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace pith::text {

// Replaces each complete character reference in `text`, named ("&reg;",
// "&eacute;") or numeric ("&#x26;", "&#8217;"), with what it stands for, as
// HTML decodes it; a name HTML does not define, or a legacy name with more
// letters after it ("&notaname;"), stays as written, and so does a reference
// without its semicolon. For strings a page escaped twice: "&amp;rsquo;" in a
// meta tag reaches pith as "&rsquo;", "&amp;#x26;" in an <h1> as "&#x26;".
void decode_character_references(std::string& text);

// The character of the numeric reference that begins at `amp` in `text`
// ("&#x26;", "&#8217;": '&', "#", decimal digits or 'x' and hex digits, ';'),
// with `end` set to its ';'; nullopt when none begins there. A code point HTML
// does not allow (0, a surrogate, past U+10FFFF) is U+FFFD, as a conforming
// parser substitutes.
[[nodiscard]] std::optional<char32_t> numeric_reference_at(std::string_view text, std::size_t amp, std::size_t& end);

}  // namespace pith::text
