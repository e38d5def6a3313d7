// How sure pith is that `content` is the page's article, in [0, 1].
#pragma once

#include <cstddef>

#include "pith/extract.hpp"

namespace pith::extract {

struct ConfidenceInputs {
    Status status = Status::no_content;
    std::size_t text_length = 0;      // UTF-16 units of the article text
    std::size_t char_threshold = 500;
    std::size_t pass_index = 0;       // 0 = the first (strictest) pass was accepted
    double link_density = 0.0;        // of the final content
    double runner_up_ratio = 0.0;     // second-best candidate score / best, 0 when none
    bool readerable = false;
};

// A product of independent penalties, each a plain reading of one signal; it is
// not yet calibrated against labelled outcomes (a later issue does that):
//  - status: ok 1.0, best_attempt 0.5, no_content and budget_exceeded 0;
//  - length: min(1, 0.5 + text_length / (4 * char_threshold)), so a text at the
//    threshold scores 0.75 and one at twice the threshold 1.0;
//  - pass: each relaxed pass before success costs 10% (0.9^pass_index);
//  - link density: (1 - link_density), links are rarely the article;
//  - competition: a runner-up within 75% of the winner (Readability's own
//    "alternative candidate" ratio) costs 10%;
//  - preflight: a page the readerable check rejects costs 20%.
[[nodiscard]] double compute_confidence(const ConfidenceInputs& in) noexcept;

}  // namespace pith::extract
