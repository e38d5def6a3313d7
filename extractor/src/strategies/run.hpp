// Running strategies: each pass on its own copy of the prepared document,
// retries that drop one heuristic flag at a time, and `auto`'s choice between
// strategies; find_article, step 5 of extract(), puts a site rule's body
// first. Internal header.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pith/article.hpp"
#include "pith/dom.hpp"
#include "strategies/strategy.hpp"

namespace pith::extract {

// One pass's article, with the copy of the document that owns it.
struct Attempt {
    explicit Attempt(dom::Document copy) : doc(std::move(copy)) {}

    dom::Document doc;  // the pass's copy of the prepared document; owns content
    dom::Node* content = nullptr;
    std::size_t text_length = 0;
    std::size_t pass_index = 0;  // into Article::passes
    std::size_t relaxation = 0;  // flags dropped before it: 0 = the strategy's first pass
    std::optional<std::string> dir;
    double runner_up_ratio = 0.0;
};

// An article no pass found (a site rule's body, the body a page declares):
// an empty document of its own, which the caller fills with the article's
// blocks before assemble_attempt.
[[nodiscard]] Attempt own_attempt(const ExtractOptions& options);

// Assembles `attempt`'s article from `blocks`, elements of its own document,
// cleaned as `flags` say, and measures its text. False when the deadline
// passed first (no content then).
[[nodiscard]] bool assemble_attempt(Attempt& attempt, const std::vector<dom::Node*>& blocks,
                                    const ExtractOptions& options, PassFlags flags);

// Detaches `nodes` (none inside another) from `chosen`'s article and
// measures its text again: what a step that leaves parts of the chosen
// article out ends with. Returns how many went.
std::size_t remove_from_article(Attempt& chosen, const std::vector<dom::Node*>& nodes);

// What a strategy (or auto) ends with.
struct StrategyRun {
    std::optional<Attempt> chosen;
    Status status = Status::no_content;
    std::optional<Error> stopped;  // the deadline passed
};

// Runs options.strategy over copies of `prepared`, which it never changes.
// Appends every pass's diagnostics to article.passes and, for auto, fills
// article.strategies and article.decision.
[[nodiscard]] StrategyRun run_strategy(const dom::Document& prepared, const ExtractOptions& options,
                                       const PassInput& input, PassState& state, Article& article);

// ---- run.cpp's pieces that auto.cpp composes ----

// `strategy`'s staged passes (never automatic).
[[nodiscard]] StrategyRun run_staged(Strategy strategy, const dom::Document& prepared, const ExtractOptions& options,
                                     PassInput input, PassState& state, std::vector<PassDiagnostics>& passes);

// auto: see auto.cpp.
[[nodiscard]] StrategyRun run_auto(const dom::Document& prepared, const ExtractOptions& options,
                                   const PassInput& input, PassState& state, Article& article);

struct PreparedPage;

// The article of `page`: its site rule's body when the rule has a body that
// selects something; nothing when it selects nothing and forbids falling
// back; else options.strategy's (run_strategy). Fills article.strategy, the
// rule's outcome, status, article_pass and the passes' time; the deadline
// passing stops it with run.stopped set and `article` as it was then.
[[nodiscard]] StrategyRun find_article(PreparedPage& page, const ExtractOptions& options, PassState& state,
                                       Article& article);

}  // namespace pith::extract
