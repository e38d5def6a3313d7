// The measuring walk lectito, fitness and auto's boilerplate removal share:
// text lengths summarised bottom-up and the preprocessing that drops hidden
// and unlikely elements, on dom/walk.hpp's post-order walk. Internal header.
#pragma once

#include <chrono>
#include <cstddef>
#include <string_view>
#include <vector>

#include "pith/dom.hpp"
#include "dom/walk.hpp"
#include "pith/options.hpp"

namespace pith::extract {

using dom::Visit;
using dom::walk_post_order;

// Whitespace-collapsed text length built bottom-up: the summary of a piece of
// text that concatenates with its neighbours' in O(1), so that every element's
// length comes from its children's in one post-order walk. length() equals
// dom::inner_text_length(node) (trimmed, every interior white space run one
// unit: runs of two or more collapse to one space and every JS white space
// code point is a single UTF-16 unit).
struct CollapsedText {
    std::size_t units = 0;     // UTF-16 units from the first to the last non-space character
    bool content = false;      // holds a non-space character
    bool lead_space = false;   // white space before the first character (or anywhere, when !content)
    bool trail_space = false;  // white space after the last character

    void add_space() noexcept {
        if (content) {
            trail_space = true;
        } else {
            lead_space = true;
        }
    }
    void add_character(std::size_t utf16_units) noexcept {
        if (content && trail_space) {
            ++units;
        }
        units += utf16_units;
        content = true;
        trail_space = false;
    }
    void append(const CollapsedText& next) noexcept {
        if (!next.content) {
            if (next.lead_space) {
                add_space();
            }
            return;
        }
        if (!content) {
            const bool space_before = lead_space || next.lead_space;
            *this = next;
            lead_space = space_before;
            return;
        }
        units += static_cast<std::size_t>(trail_space || next.lead_space) + next.units;
        trail_space = next.trail_space;
    }
    [[nodiscard]] std::size_t length() const noexcept { return units; }
};

// Adds the characters of one text node's data to `text`, and its commas and
// full stops (lectito.cpp says which) to `punctuation`.
void measure_text(std::string_view s, CollapsedText& text, std::size_t& punctuation) noexcept;

// The text and link text of every element under a root, measured once
// bottom-up, so that asking about each element costs nothing per level of
// nesting: readability's candidates' link densities, auto's boilerplate
// removal. The figures are the subtree's when measured; a caller that removes
// elements afterwards reads them as upper bounds. Numbers the elements in
// ScoreState::index (0 is "not measured").
class Measures {
public:
    explicit Measures(dom::Node* root);

    // UTF-16 units of the element's text, as dom::inner_text_length.
    [[nodiscard]] std::size_t text(const dom::Node* element) const;
    // Readability's link density (page/predicates.hpp): the text of the links
    // inside the element (in-page links weigh 0.3) over its text.
    [[nodiscard]] double link_density(const dom::Node* element) const;
    // The same with the element itself counted when it is a link.
    [[nodiscard]] double link_density_with_self(const dom::Node* element) const;

private:
    struct Measure {
        std::size_t text = 0;
        double links_below = 0.0;  // the link text inside the element, weighed
    };
    [[nodiscard]] const Measure& find(const dom::Node* element) const;
    // What `element`'s own link adds to its ancestors' link text.
    [[nodiscard]] static double own_link_text(const dom::Node* element, std::size_t text);

    std::vector<Measure> measures_;  // [0] is the empty measure
};

// The preprocessing lectito and fitness share (seed 001, "Preprocessing"):
// true for elements to drop before scoring: hidden ones (is_probably_visible
// false), <iframe>s, and under strip_unlikelys those whose class and id match
// Readability's unlikely candidates and not its maybe-candidates (never <html>,
// <body> or <a>, never within three levels of a <table> or <code>: the check
// grab_article makes).
[[nodiscard]] bool preprocessing_removes(const dom::Node* element, PassFlags flags);

// What the preprocessing walks of lectito and fitness do on entering an
// element: count it, read the clock every 4096 elements (as grab_article's
// walk), and drop what preprocessing_removes says.
enum class WalkStep { enter, removed, deadline };
// `cur` moves to its next sibling when the element is removed.
[[nodiscard]] WalkStep preprocess_step(dom::Node*& cur, PassFlags flags, std::size_t& elements_seen,
                                       std::chrono::steady_clock::time_point deadline);

}  // namespace pith::extract
