// Character references left in text that was escaped twice.
#pragma once

#include <string>

namespace pith::text {

// Replaces each complete named character reference in `text` ("&reg;",
// "&eacute;") with what it stands for, as HTML defines the names; a name HTML
// does not define, or a legacy name with more letters after it ("&notaname;"),
// stays as written. For strings a page escaped twice: "&amp;rsquo;" in a meta
// tag reaches pith as "&rsquo;".
void decode_named_references(std::string& text);

}  // namespace pith::text
