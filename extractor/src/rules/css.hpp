// CSS selectors as XPath 1.0, so that one engine (xpath.hpp) serves both the
// rule files' XPath and the API's content_selector and remove_selectors.
#pragma once

#include <string>
#include <string_view>

#include "pith/result.hpp"

namespace pith::rules {

// Translates a selector list to an XPath expression selecting the same
// elements anywhere in the document. Supported: type and *, #id, .class,
// [attr], [attr=v], [attr~=v], [attr|=v], [attr^=v], [attr$=v], [attr*=v]
// (quoted or not), the combinators " ", ">", "+" and "~", lists with ",",
// and :first-child, :last-child, :only-child, :first-of-type,
// :last-of-type, :empty, :nth-child(an+b | odd | even) and :not(simple).
// Errors: invalid_argument naming what is not understood and where.
[[nodiscard]] Result<std::string> css_to_xpath(std::string_view selector);

}  // namespace pith::rules
