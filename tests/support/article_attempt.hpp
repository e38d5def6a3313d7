// An article as a strategy ends with it, for the tests of the steps that
// finish one (strategies/thread.hpp, strategies/left_out.hpp): `html`'s body's
// first element is the article, as a pass leaves it (a <div> holding the
// page's <div>).
#pragma once

#include <string_view>

#include "dom/inner_text.hpp"
#include "parse_or_fail.hpp"
#include "strategies/run.hpp"

namespace pith::test {

inline extract::Attempt article_attempt(std::string_view html) {
    extract::Attempt attempt{parse_or_fail(html)};
    attempt.content = attempt.doc.body()->first_element_child();
    attempt.text_length = dom::inner_text_length(attempt.content);
    return attempt;
}

}  // namespace pith::test
