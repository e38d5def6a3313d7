// How an article's text reads: its lines (the confidence reads their shape)
// and whether it is page furniture rather than content (extract() drops such
// an article; auto tries its other candidate first). Internal header.
#pragma once

#include <cstddef>

#include "pith/dom.hpp"

namespace pith::extract {

// How the article's text reads as lines: one line per block (an element
// that is not phrasing content) holding words of its own.
struct ContentShape {
    std::size_t lines = 0;
    std::size_t words = 0;
    std::size_t short_line_words = 0;  // words of lines of under six words
    std::size_t sentence_lines = 0;    // lines that end a sentence
    std::size_t digit_lines = 0;       // lines with a digit
    std::size_t repeated_lines = 0;    // lines whose text an earlier line has
};

// `content`'s shape, walked iteratively.
[[nodiscard]] ContentShape content_shape(const dom::Node* content);

// Whether `content`, an article whose text is `text_length` of the page's
// `page_text_length` (UTF-16 units, as dom::inner_text_length), is page
// furniture rather than content: a few words, not one sentence among them, no
// image, and under half of the page's text. That is what is left of a page
// whose content a script draws ("Loading...", a cart, a menu, a grid's "Sold
// out" labels); a page that holds nothing more keeps its few words.
[[nodiscard]] bool reads_as_furniture(const dom::Node* content, std::size_t text_length,
                                      std::size_t page_text_length);

}  // namespace pith::extract
