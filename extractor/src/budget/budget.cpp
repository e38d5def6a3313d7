// The budgets and the deadline (budget.hpp).
#include "budget/budget.hpp"

#include <algorithm>
#include <chrono>
#include <string>

namespace pith::extract {

using Clock = std::chrono::steady_clock;

std::optional<Error> input_over_budget(std::size_t bytes, const Budgets& budgets) {
    if (budgets.max_input_bytes == 0 || bytes <= budgets.max_input_bytes) {
        return std::nullopt;
    }
    return Error{ErrorCode::input_too_large,
                 "input is " + std::to_string(bytes) + " bytes, limit " + std::to_string(budgets.max_input_bytes)};
}

dom::ParseLimits parse_limits(const ExtractOptions& options, const CostEstimate& cost) {
    dom::ParseLimits limits{options.budgets.max_elements, options.budgets.max_nesting_depth, options.budgets.max_attributes_per_element};
    limits.max_parse_bytes = options.budgets.max_memory_bytes > 0 ? cost.parse_bytes : 0;
    limits.deadline = options.runtime.deadline;
    limits.block_cache = options.runtime.block_cache;
    return limits;
}

std::optional<Error> refuse_before_parse(const dom::MarkupEstimate& estimate, const CostEstimate& cost,
                                         const ExtractOptions& options) {
    if (Result<bool> within = dom::check_markup_budgets(estimate, parse_limits(options, cost)); !within.ok()) {
        return std::move(within).error();
    }
    if (options.budgets.max_memory_bytes > 0 && cost.memory_bytes > options.budgets.max_memory_bytes) {
        return Error{ErrorCode::too_much_memory,
                     "the page would need about " + std::to_string(cost.memory_bytes >> 20U) + " MiB (" +
                         std::to_string(cost.elements) + " elements, " + std::to_string(cost.attributes) +
                         " attributes, " + std::to_string(cost.markup_bytes) + " bytes of markup), limit " +
                         std::to_string(options.budgets.max_memory_bytes >> 20U) + " MiB"};
    }
    if (options.runtime.deadline != Clock::time_point::max() && Clock::now() + cost.time > options.runtime.deadline) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(options.runtime.deadline - Clock::now());
        return Error{ErrorCode::deadline_exceeded, "the page would take about " +
                                                       std::to_string(cost.time.count() / 1000) + " ms, " +
                                                       std::to_string(std::max<std::int64_t>(left.count(), 0)) +
                                                       " ms are left"};
    }
    return options.runtime.admit ? options.runtime.admit(cost) : std::nullopt;
}

Article refused(Article article, Error error) {
    article.status = Status::budget_exceeded;
    article.error = std::move(error);
    return article;
}

std::optional<Error> deadline_passed(const RuntimeHooks& runtime, std::string_view next_stage) {
    if (Clock::now() < runtime.deadline) {
        return std::nullopt;
    }
    return Error{ErrorCode::deadline_exceeded, "deadline passed before " + std::string(next_stage)};
}

}  // namespace pith::extract
