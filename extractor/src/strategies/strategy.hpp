// What every strategy does with one copy of the prepared document, and what
// it gives back: one pass of readability (readability.cpp), lectito
// (lectito.cpp) or fitness (fitness.cpp). run.hpp runs a strategy's passes,
// and auto (auto.cpp) runs two strategies and chooses. Internal header.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "pith/article.hpp"
#include "pith/dom.hpp"
#include "pith/options.hpp"
#include "pith/scorer.hpp"

namespace pith::extract {

// What one pass needs from outside.
struct PassInput {
    PassFlags flags = PassFlags::all;
    std::string_view article_title;    // for the duplicate-title header check
    bool metadata_has_byline = false;  // Readability skips byline capture then
    const ContentScorer* scorer = nullptr;
    PageType page_type = PageType::article;  // what classify/ found, or the option forced
    bool page_type_forced = false;            // the page_type option named it
    std::array<double, kPageTypeCount> page_type_probabilities{};  // the classifier's
    int model_fold = -1;                      // options.runtime.model_fold
    std::size_t page_text_length = 0;         // UTF-16 units of the page's <body> text (PreparedPage's)
};
// What readability carries across passes, as Readability keeps them on `this`.
struct PassState {
    std::optional<std::string> byline;
    std::optional<std::string> byline_lines;  // the byline as it reads line by line (dom::text_lines), for names
    std::optional<std::string> lang;
    std::optional<std::string> dir;
};

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

// One _grabArticle pass of Readability.js over `doc` (mutates it), its
// prep_article included.
[[nodiscard]] StrategyResult grab_article(dom::Document& doc, const ExtractOptions& options, const PassInput& input,
                                          PassState& state);

// Lectito's scoring (seed 000) over every element of `doc`'s body.
[[nodiscard]] StrategyResult run_lectito(dom::Document& doc, const ExtractOptions& options, const PassInput& input);

// The fitness-weighted body text tagger (seed 002).
[[nodiscard]] StrategyResult run_fitness(dom::Document& doc, const ExtractOptions& options, const PassInput& input);

// The page's main region without its furniture (region.cpp): auto's pass for
// listings, collections, service pages, documentation and forums.
[[nodiscard]] StrategyResult run_region(dom::Document& doc, const ExtractOptions& options, const PassInput& input);

}  // namespace pith::extract
