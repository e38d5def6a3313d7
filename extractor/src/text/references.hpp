// Character references left in text that was escaped twice.
#pragma once

#include <string>

namespace pith::text {

// Replaces each complete character reference in `text`, named ("&reg;",
// "&eacute;") or numeric ("&#x26;", "&#8217;"), with what it stands for, as
// HTML decodes it; a name HTML does not define, or a legacy name with more
// letters after it ("&notaname;"), stays as written, and so does a reference
// without its semicolon. For strings a page escaped twice: "&amp;rsquo;" in a
// meta tag reaches pith as "&rsquo;", "&amp;#x26;" in an <h1> as "&#x26;".
void decode_character_references(std::string& text);

}  // namespace pith::text
