// What auto leaves out of a forum thread's article: a reply's quote of an
// earlier post that the thread shows in full (issue 24: a reader of a thread
// wants each post once; forum software repeats the quoted post in every
// reply that quotes it). Internal header.
#pragma once

#include <cstddef>

#include "strategies/run.hpp"

namespace pith::extract {

// Removes from `chosen`'s article each outermost <blockquote> whose longest
// line (40 bytes or more, white space collapsed) is also in the article
// outside every quote, and updates its text length. A quote of a post the
// article does not hold, or of a source outside the thread, stays. Returns
// how many were removed.
std::size_t remove_repeated_quotes(Attempt& chosen);

}  // namespace pith::extract
