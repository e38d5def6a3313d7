// Budgets and deadlines in one place: what a page may cost, judged before the
// work that would spend it, and the deadline looked at between stages. The
// cost model itself is cost.cpp's (pith/cost.hpp). Internal header.
#pragma once

#include <optional>
#include <string_view>

#include "pith/article.hpp"
#include "pith/cost.hpp"
#include "pith/dom.hpp"
#include "pith/options.hpp"
#include "pith/result.hpp"

namespace pith::extract {

// input_too_large when `bytes` is over budgets.max_input_bytes: checked before
// anything reads the page.
[[nodiscard]] std::optional<Error> input_over_budget(std::size_t bytes, const Budgets& budgets);

// The parse's limits under `options`, gumbo's heap capped at the share of the
// memory budget that `cost` gives it, stopped at the deadline.
[[nodiscard]] dom::ParseLimits parse_limits(const ExtractOptions& options, const CostEstimate& cost);

// Why the page must not be parsed, judged before the parse: the budgets on
// its tags, then on its estimated memory, then the time left, then the
// caller's own admission (which reserves what it admits, so it comes last).
[[nodiscard]] std::optional<Error> refuse_before_parse(const dom::MarkupEstimate& estimate, const CostEstimate& cost,
                                                       const ExtractOptions& options);

// The deadline_exceeded error when the deadline has passed, naming the stage
// that was about to start.
[[nodiscard]] std::optional<Error> deadline_passed(const RuntimeHooks& runtime, std::string_view next_stage);

// `article` refused by a budget: status budget_exceeded, `error` its error.
[[nodiscard]] Article refused(Article article, Error error);

}  // namespace pith::extract
