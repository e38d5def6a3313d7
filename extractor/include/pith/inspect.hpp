// Every strategy on one page, for the inspector (pithd's /inspect): the
// extraction asked for, with the page annotated, and what each strategy makes
// of the same page, with how far their articles agree.
//
// Thread-safety: reentrant, as extract() is.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pith/article.hpp"

namespace pith::extract {

struct StrategySummary {
    Strategy strategy = Strategy::readability;
    Status status = Status::no_content;
    double confidence = 0.0;
    std::size_t length = 0;  // UTF-16 units of its textContent
    std::string chosen_root;
    std::uint32_t chosen_root_index = 0;  // as PassDiagnostics's
    std::string text;                     // its article as clean text
    // agreement[i]: the share of this article's words that Inspection::strategies[i]'s
    // article holds too (each word counted as often as it occurs); 0 when
    // either has no words.
    std::vector<double> agreement;
};

struct Inspection {
    // The extraction `options` ask for, with annotate_source, markdown and
    // clean_text set.
    Article article;
    // readability, lectito, fitness and auto, in that order, each under
    // `options` with only the strategy changed.
    std::vector<StrategySummary> strategies;
};

// Runs the asked strategy and then the other three on `html_bytes`. Each
// extraction is under the same budgets and deadline; one stopped by a budget
// shows as its status.
[[nodiscard]] Inspection inspect(std::string_view html_bytes, const ExtractOptions& options);

// The share of `a`'s words (white-space separated; CJK and other scripts
// written without spaces, one word a character) that `b` holds too.
[[nodiscard]] double words_held(std::string_view a, std::string_view b);

}  // namespace pith::extract
