// What one page is expected to cost before it is parsed: the figures behind
// the memory and time budgets (extractor/src/budget/cost.cpp says how each
// coefficient was measured).
//
// Thread-safety: pure functions.
#pragma once

#include <chrono>
#include <cstddef>

#include "pith/dom.hpp"

namespace pith::extract {

// What extract() expects one document to cost, from the scan of its tags that
// runs before the parse. memory_bytes is an upper bound of the peak working
// memory over every shape of page tried, time a typical figure on one core.
struct CostEstimate {
    std::size_t input_bytes = 0;   // the page as given
    std::size_t markup_bytes = 0;  // what gumbo parses: decoded, script and style text cut
    std::size_t elements = 0;      // start tags
    std::size_t attributes = 0;    // on all start tags
    std::size_t comments = 0;      // comment nodes the parser will make
    std::size_t memory_bytes = 0;  // peak working memory, the page's own bytes included
    std::size_t parse_bytes = 0;   // gumbo's share of memory_bytes, enforced as a cap on its heap
    std::chrono::microseconds time{0};
};

// The cost of extracting a page of `input_bytes` whose decoded markup has
// `markup_bytes`, `decoded_copy_bytes` of copies made while decoding and
// cutting, and the tags `estimate` counts.
[[nodiscard]] CostEstimate estimate_cost(std::size_t input_bytes, std::size_t markup_bytes,
                                         std::size_t decoded_copy_bytes, const dom::MarkupEstimate& estimate);

// What RenderOptions::annotate_source adds to `cost`'s memory: a copy of the
// page's DOM and the annotated page's HTML, upper bounds by its counts.
[[nodiscard]] std::size_t annotated_source_bytes(const CostEstimate& cost) noexcept;

}  // namespace pith::extract
