// What auto leaves out of an answer (issue 24): by the kind of page, a
// product's customer reviews and a forum post's signature, each what a reader
// of that kind of page does not count as its content and what the page's
// markup names as such; on any page, the text it shows twice. Internal
// header.
#pragma once

#include <cstddef>

#include "strategies/run.hpp"

namespace pith::extract {

// A product page: removes from `chosen`'s article the elements that hold
// customer reviews, schema.org Review microdata or a class or id naming a
// review ("reviews", "review-list"). The reader wants the product's name,
// description and specifications; the reviews are what its buyers wrote
// about it, as comments are to an article, and on a page with many of them
// they are most of its text. Returns how many elements went.
std::size_t remove_customer_reviews(Attempt& chosen);

// A forum thread: removes the elements whose class or id names a signature,
// the lines a poster's every post ends with (issue 24 asks for the thread's
// posts without them). Returns how many went.
std::size_t remove_signatures(Attempt& chosen);

// Neither removes an element that holds the page's headline (an <h1>) or the
// article's first text: a wrapper that happens to carry such a name keeps
// the page and what comes with it.

// Any page: removes the later copies of a passage the article shows twice or
// three times: blocks (a paragraph, list item, heading or cell; its text of
// 40 bytes or more, case and white space aside) that repeat an earlier block,
// beside another such copy, in another container than the first. A
// responsive page lays its content out twice (once for narrow screens), a
// teaser comes back above its full text, plans repeat their features; the
// reader reads them once. A line in four cards or more is a part of each (an
// offer's terms), a paragraph that comes back alone or beside its first copy
// is the author's repetition, and code repeats its lines: those stay.
// Returns how many blocks went.
std::size_t remove_repeated_blocks(Attempt& chosen);

}  // namespace pith::extract
