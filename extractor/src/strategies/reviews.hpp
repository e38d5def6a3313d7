// What auto leaves out of a product page's answer: the customers' reviews.
// A reader of a product page wants the product's name, description and
// specifications (issue 24); the reviews are what its buyers wrote about it,
// as comments are to an article, and on a page with many of them they are
// most of its text. Internal header.
#pragma once

#include <cstddef>

#include "strategies/run.hpp"

namespace pith::extract {

// Removes from `chosen`'s article the elements that hold customer reviews:
// schema.org Review microdata, or a class or id naming a review ("reviews",
// "review-list"), unless the element holds the page's headline (an <h1>),
// so a wrapper that happens to carry such a class keeps the product. Returns
// how many elements went.
std::size_t remove_customer_reviews(Attempt& chosen);

}  // namespace pith::extract
