// The cost model behind the memory and time budgets. Each coefficient is a
// measurement, not a guess: bench/cost_model.py runs `pith extract` on 16
// generated shapes (tiny inline elements, <br> runs, entities, tables,
// implied cells, attributes, one huge text node, divs, paragraphs, links,
// nested and formatting elements, comments, scripts) at 1, 4 and 15 MB, and
// the peak resident memory stayed below the estimate made here on every one
// (issue 11, readability alone: ratios 0.25 to 0.91; auto's fourth tree
// pushed element-heavy shapes to 1.20, so the per-element figure went from
// 680 to 920 bytes; the block model's measures of the main region, about 50
// bytes an element while the region's copy is alive, took tables with
// implied rows to 1.05, so it went to 1000; one text node of 1 MB peaked at
// 0.86 to 1.02 of 12 bytes a markup byte from run to run, as the allocator
// reuses freed large blocks or not, so that went to 13; and when the
// page-type classifier's second model came, its peak measured 0.88 to 1.02
// of 13 over six runs where the build before gave 0.81 to 0.95, the
// baseline of an empty page up 0.7 MiB as well, so it went to 14); the suite
// runs it at 1 MB. On real pages the largest
// estimate over both corpora is 28.3 MiB (a 1 MB page of 9,888 elements).
//
// Memory, by phase (pith's DOM node is 112 bytes; gumbo's about 150 with its
// child vector):
//  - the parse: gumbo's tree and pith's DOM built from it are alive together;
//  - the passes: the prepared DOM, the running pass's copy and the longest
//    short attempt, and with auto (the default) the other strategy's article
//    held for the comparison (four trees of nodes; text is shared, attribute
//    arrays are not), plus the article's HTML and text;
//  - the page's own bytes and any decoded or cut copy of them live throughout.
// The figures per element count the text node that usually follows it.
#include "pith/cost.hpp"

#include <algorithm>

namespace pith::extract {

namespace {

struct Coefficients {
    double per_element = 0;
    double per_attribute = 0;
    double per_comment = 0;
    double per_markup_byte = 0;
};

// Working memory at the peak, bytes per unit: gumbo's tree and pith's DOM
// while one is copied into the other, or pith's DOM and two pass copies with
// the answer's strings, whichever is larger. An element's figure counts the
// text node that usually follows it and the element a table implies.
constexpr Coefficients kMemory{1000.0, 165.0, 250.0, 14.0};
// gumbo's heap alone; the parse is stopped past it (a guard against the
// elements the tree builder makes on its own, which no scan counts).
constexpr Coefficients kParse{420.0, 190.0, 175.0, 6.0};
// Time in nanoseconds per unit on one core of the build machine: a typical
// figure, not a bound, so only work that clearly cannot finish is refused.
constexpr Coefficients kTimeNanos{1500.0, 250.0, 300.0, 50.0};
// The DOM arena's first block, the tag tables, small strings.
constexpr std::size_t kFixedBytes = 1U << 20U;

double apply(const Coefficients& c, std::size_t markup_bytes, const dom::MarkupEstimate& estimate) {
    return c.per_element * static_cast<double>(estimate.elements) +
           c.per_attribute * static_cast<double>(estimate.attributes) +
           c.per_comment * static_cast<double>(estimate.comments) +
           c.per_markup_byte * static_cast<double>(markup_bytes);
}

}  // namespace

CostEstimate estimate_cost(std::size_t input_bytes, std::size_t markup_bytes, std::size_t decoded_copy_bytes,
                           const dom::MarkupEstimate& estimate) {
    CostEstimate cost;
    cost.input_bytes = input_bytes;
    cost.markup_bytes = markup_bytes;
    cost.elements = estimate.elements;
    cost.attributes = estimate.attributes;
    cost.comments = estimate.comments;
    cost.memory_bytes = input_bytes + decoded_copy_bytes +
                        static_cast<std::size_t>(apply(kMemory, markup_bytes, estimate)) + kFixedBytes;
    cost.parse_bytes = static_cast<std::size_t>(apply(kParse, markup_bytes, estimate)) + kFixedBytes;
    cost.time = std::chrono::microseconds(
        static_cast<std::int64_t>(apply(kTimeNanos, markup_bytes, estimate) / 1000.0));
    return cost;
}

std::size_t annotated_source_bytes(const CostEstimate& cost) noexcept {
    // Two nodes of 112 bytes an element (it and its text), 32 bytes an
    // attribute; the serialisation escapes at most six bytes for one ('"' in
    // an attribute), and pithd's JSON string of it may escape again.
    constexpr std::size_t kPerElement = 240;
    constexpr std::size_t kPerAttribute = 32;
    constexpr std::size_t kPerMarkupByte = 8;
    return kPerElement * cost.elements + kPerAttribute * cost.attributes + kPerMarkupByte * cost.markup_bytes;
}

}  // namespace pith::extract
