// What auto leaves out of a forum thread's article, a reply's quote of an
// earlier post that the thread shows in full (issue 24: a reader of a thread
// wants each post once; forum software repeats the quoted post in every
// reply that quotes it), and what it keeps in: each post's author line.
// Internal header.
#pragma once

#include <cstddef>
#include <vector>

#include "pith/dom.hpp"
#include "strategies/run.hpp"

namespace pith::extract {

// Removes from `chosen`'s article each outermost <blockquote> whose longest
// line (40 bytes or more, white space collapsed) is also in the article
// outside every quote, and updates its text length. A quote of a post the
// article does not hold, or of a source outside the thread, stays. Returns
// how many were removed.
std::size_t remove_repeated_quotes(Attempt& chosen);

// Each post's author line as a thread shows it above the post: the author's
// name, a short link to their profile (or one whose class names the author
// or user), and the post's date, a short <time>. The region's cleaning
// reads them as furniture (a line of one link, a date line) and a reader of
// the thread wants each post with them (issue 24). Found before the
// cleaning, put back after it, each on a line of its own before the first
// text that stayed after it, unless another name (another date) comes
// before that text: its post went, or it was not the post's (a list of who
// liked a post names users too).
class PostHeaders {
public:
    explicit PostHeaders(dom::Node* content);
    // Puts back those the cleaning took from `content`; returns how many.
    std::size_t restore(dom::Document& doc, dom::Node* content) const;

private:
    struct Header {
        dom::Node* node = nullptr;
        std::size_t first_text_after = 0;  // the index in texts_ of the first text after it
        std::size_t next_header = 0;       // the index in texts_ of the next one of its kind
    };
    std::vector<Header> headers_;     // in document order
    std::vector<dom::Node*> texts_;   // the content's text nodes that are not white space, in order
};

}  // namespace pith::extract
