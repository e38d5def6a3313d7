// What every strategy does with one copy of the prepared document, and what
// it gives back. The readability strategy is grab_article (readability/);
// lectito and fitness live here, one to a file; auto runs them and chooses.
// Internal header.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <utility>

#include "pith/dom.hpp"
#include "pith/article.hpp"
#include "readability/pipeline.hpp"

namespace pith::extract {

// One strategy's answer on its copy of the prepared document.
struct StrategyResult {
    // The article: a detached <div> holding <div id="readability-page-1"
    // class="page">, as grab_article builds it (assemble_article), in the
    // copy's document; nullptr when the strategy found nothing.
    dom::Node* content = nullptr;
    std::size_t text_length = 0;  // UTF-16 units of content's normalised inner text
    // chosen_root, top_candidates, outcome ("accepted", "too_short",
    // "no_content", "no_body", "deadline"), timings.
    PassDiagnostics diagnostics;
    // Why there is no article (outcome no_content), e.g. "best score 12.5 is
    // under min_score 20"; "" otherwise.
    std::string reason;
};

// A pass's result under construction, timed from its creation.
class PassRecord {
public:
    explicit PassRecord(PassFlags flags) { result.diagnostics.flags = flags; }

    // The result, with its outcome and duration.
    [[nodiscard]] StrategyResult finish(std::string outcome) {
        result.diagnostics.outcome = std::move(outcome);
        result.diagnostics.duration_us =
            std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started_).count();
        return std::move(result);
    }

    StrategyResult result;

private:
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

// Lectito's scoring (seed 000) over every element of `doc`'s body.
[[nodiscard]] StrategyResult run_lectito(dom::Document& doc, const ExtractOptions& options, const PassInput& input);

// The fitness-weighted body text tagger (seed 002).
[[nodiscard]] StrategyResult run_fitness(dom::Document& doc, const ExtractOptions& options, const PassInput& input);

}  // namespace pith::extract
