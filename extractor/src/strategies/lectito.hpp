// Lectito's strategy (seeds 000 and 001): every element under <body> gets
// (tag score + class/id weight + content density + container bonus) x (1 -
// link density), the best scored element above min_score is the article, and
// its adjacent siblings of similar score and the headings just before them
// join it. Internal header.
#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

#include "pith/article.hpp"
#include "pith/dom.hpp"
#include "strategies/walk.hpp"

namespace pith::extract {

// What the score is computed from: an element's whole text.
struct LectitoMeasures {
    std::size_t text_length = 0;  // UTF-16 units of the collapsed text (inner_text_length)
    std::size_t link_length = 0;  // of that, inside <a> elements (outermost <a> only)
    std::size_t punctuation = 0;  // commas and full stops (see lectito.cpp for the set)
};

// An element's score and its parts (seed 000, "Score Formula").
struct LectitoScore {
    double tag = 0.0;                // base tag score
    double class_weight = 0.0;       // class/id weight, 0 without weight_classes
    double char_score = 0.0;         // min(floor(text_length / 100), 3)
    double punctuation_score = 0.0;  // min(floor(punctuation / 5), 3)
    double container_bonus = 0.0;    // +2 for article, section, main
    double link_density = 0.0;       // link_length / text_length, 0 without text
    // (tag + class_weight + char_score + punctuation_score + container_bonus)
    // x (1 - link_density); 0 for an element without text (seed 000, "Empty
    // Elements").
    double total = 0.0;
};

// Seed 000's base tag score: article +10, section +8, div +5, blockquote +3,
// td +3, address -3, ol/ul/li -3, form -3, header/footer/nav/th/h1-h6 -5,
// everything else 0.
[[nodiscard]] double lectito_tag_score(dom::Tag tag) noexcept;
// Seed 000's class/id weight under `flags`: like Readability's
// _getClassWeight, class and id are judged separately, each +25 when it
// contains a positive word and -25 when it contains a negative word (both
// when it contains both), so the weight is in [-50, 50].
[[nodiscard]] double lectito_class_weight(const dom::Node* element, PassFlags flags);
// The score of `element` from its measures.
[[nodiscard]] LectitoScore lectito_score(const dom::Node* element, const LectitoMeasures& measures, PassFlags flags);
// Measures `element`'s subtree on its own (linear in the subtree; the
// strategy itself measures every element in one walk instead).
[[nodiscard]] LectitoMeasures lectito_measure(const dom::Node* element);
// lectito_score(element, lectito_measure(element), flags).
[[nodiscard]] LectitoScore lectito_score(const dom::Node* element, PassFlags flags);

struct LectitoElement {
    dom::Node* node = nullptr;
    std::size_t order = 0;  // position among the walked elements, in document order
    LectitoMeasures measures;
    LectitoScore score;
};
struct LectitoWalk {
    // Elements with at least min_text_length units of text, in document order.
    std::vector<LectitoElement> elements;
    std::size_t elements_seen = 0;  // elements visited, removed ones included
    bool deadline_passed = false;   // elements is then incomplete
};

// Preprocesses `body` (removes what preprocessing_removes says) and scores every
// element left under it in one post-order walk, linear in the subtree. Every
// scored element keeps its total in score.content_score; score.initialized
// marks the candidates: recorded elements whose total is above 0. Looks at the
// clock every 4096 elements and stops once `deadline` has passed.
[[nodiscard]] LectitoWalk lectito_walk(dom::Node* body, PassFlags flags, std::size_t min_text_length = 0,
                                       std::chrono::steady_clock::time_point deadline =
                                           std::chrono::steady_clock::time_point::max());

}  // namespace pith::extract
