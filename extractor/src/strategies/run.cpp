#include "strategies/run.hpp"

#include <algorithm>
#include <chrono>
#include <iterator>

#include "budget/budget.hpp"
#include "dom/inner_text.hpp"
#include "page/prep.hpp"
#include "strategies/strategy.hpp"

namespace pith::extract {

Attempt own_attempt(const ExtractOptions& options) {
    return Attempt{dom::Document(64U * 1024U, options.runtime.block_cache)};
}

bool assemble_attempt(Attempt& attempt, const std::vector<dom::Node*>& blocks, const ExtractOptions& options,
                      PassFlags flags) {
    attempt.content = assemble_article(attempt.doc, blocks, options.readability, flags, options.runtime.deadline);
    attempt.text_length = attempt.content != nullptr ? dom::inner_text_length(attempt.content) : 0;
    return attempt.content != nullptr;
}

std::size_t remove_from_article(Attempt& chosen, const std::vector<dom::Node*>& nodes) {
    for (dom::Node* node : nodes) {
        dom::detach(node);
    }
    if (!nodes.empty()) {
        chosen.text_length = dom::inner_text_length(chosen.content);
    }
    return nodes.size();
}

namespace {

using Clock = std::chrono::steady_clock;

// The order in which retry passes drop heuristics (Readability.js, seed 003).
constexpr PassFlags kDropOrder[] = {PassFlags::strip_unlikelys, PassFlags::weight_classes,
                                    PassFlags::clean_conditionally};

double runner_up_ratio(const PassDiagnostics& diag) {
    if (diag.top_candidates.size() < 2 || diag.top_candidates[0].score <= 0) {
        return 0.0;
    }
    return diag.top_candidates[1].score / diag.top_candidates[0].score;
}

// A pass's copy of the prepared document: <html> with <head> and <body>.
// Its strings stay views into `prepared`'s arena, which outlives it.
dom::Document pass_copy(const dom::Document& prepared, dom::BlockCache* cache) {
    // A copy holds at most what the prepared document does (its text stays
    // shared), so one block of that size is all it needs.
    dom::Document copy(prepared.arena_bytes_used(), cache);
    if (const dom::Node* html = prepared.document_element()) {
        dom::append_child(copy.root(), copy.clone(html));
    }
    return copy;
}

}  // namespace

namespace {

// One pass of `strategy` over `doc`, a fresh copy of the prepared document.
StrategyResult run_pass(Strategy strategy, dom::Document& doc, const ExtractOptions& options, const PassInput& input,
                        PassState& state) {
    switch (strategy) {
    case Strategy::lectito:
        return run_lectito(doc, options, input);
    case Strategy::fitness:
        return run_fitness(doc, options, input);
    case Strategy::region:
        return run_region(doc, options, input);
    case Strategy::readability:
    case Strategy::automatic:
        break;
    }
    return grab_article(doc, options, input, state);
}

}  // namespace


// `strategy`'s passes, each on its own copy of the prepared document, as
// Readability restores page.innerHTML before a retry; the prepared document
// stays untouched as the source of the next copy. A pass shorter than the
// strategy's char threshold is followed by one that drops the next heuristic
// flag; when none reaches it, the longest attempt is kept (best_attempt). A
// copy has its own arena, so an attempt that loses gives its memory back at
// once: at most two copies (the running pass and the longest short attempt)
// are alive. Diagnostics of every pass are appended to `passes`.
StrategyRun run_staged(Strategy strategy, const dom::Document& prepared, const ExtractOptions& options,
                       PassInput input, PassState& state, std::vector<PassDiagnostics>& passes) {
    StrategyRun run;
    const std::size_t threshold =
        strategy == Strategy::lectito ? options.lectito.char_threshold : options.passes.char_threshold;
    std::optional<Attempt> longest;  // the longest attempt under the threshold so far
    for (std::size_t pass = 0;; ++pass) {
        if (auto late = deadline_passed(options.runtime, std::string(strategy_name(strategy)) + " pass " +
                                                     std::to_string(pass + 1))) {
            run.stopped = std::move(late);
            return run;
        }
        Attempt attempt(pass_copy(prepared, options.runtime.block_cache));
        StrategyResult out = run_pass(strategy, attempt.doc, options, input, state);
        out.diagnostics.strategy = strategy;
        out.diagnostics.reason = std::move(out.reason);
        attempt.runner_up_ratio = runner_up_ratio(out.diagnostics);
        const bool stopped = out.diagnostics.outcome == "deadline";
        const bool no_body = out.diagnostics.outcome == "no_body";
        passes.push_back(std::move(out.diagnostics));
        if (stopped) {
            run.stopped = Error{ErrorCode::deadline_exceeded, "deadline passed during " +
                                                                  std::string(strategy_name(strategy)) + " pass " +
                                                                  std::to_string(pass + 1)};
            return run;
        }
        if (no_body) {
            break;  // nothing any pass could find
        }
        if (out.content != nullptr) {
            attempt.content = out.content;
            attempt.text_length = out.text_length;
            attempt.pass_index = passes.size() - 1;
            attempt.relaxation = pass;
            attempt.dir = state.dir;
            if (out.text_length >= threshold) {
                run.chosen = std::move(attempt);
                run.status = Status::ok;
                return run;
            }
            // Ties go to the earliest attempt (Readability sorts with a stable sort).
            if (!longest || attempt.text_length > longest->text_length) {
                longest = std::move(attempt);
            }
        }
        // Lectito keeps its class weights: without them no element reaches
        // min_score (an <article> scores 18 at most), so a retry without
        // them could only end in no_content.
        const auto next_drop =
            std::find_if(std::begin(kDropOrder), std::end(kDropOrder), [&](PassFlags f) {
                return has(input.flags, f) && !(strategy == Strategy::lectito && f == PassFlags::weight_classes);
            });
        if (!options.passes.retry || next_drop == std::end(kDropOrder)) {
            break;
        }
        input.flags = without(input.flags, *next_drop);
    }
    if (longest && longest->text_length > 0) {
        run.chosen = std::move(longest);
        run.chosen->dir = state.dir;  // Readability reads dir off the last pass's candidate
        run.status = Status::best_attempt;
        passes[run.chosen->pass_index].outcome = "best_attempt";
    }
    return run;
}

StrategyRun run_strategy(const dom::Document& prepared, const ExtractOptions& options, const PassInput& input,
                         PassState& state, Article& article) {
    if (options.strategy == Strategy::automatic) {
        return run_auto(prepared, options, input, state, article);
    }
    return run_staged(options.strategy, prepared, options, input, state, article.passes);
}

}  // namespace pith::extract
