// What auto leaves out of an answer by the kind of page (issue 24): a
// product's customer reviews, a forum post's signature. Each is what a reader
// of that kind of page does not count as its content, and what the page's
// markup names as such. Internal header.
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

}  // namespace pith::extract
