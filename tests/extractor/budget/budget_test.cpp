#include "budget/budget.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace pith::extract {
namespace {

using Clock = std::chrono::steady_clock;

TEST(Budget, InputBytesOverTheLimitAreRefusedNamingBothNumbers) {
    Budgets budgets;
    budgets.max_input_bytes = 100;
    EXPECT_FALSE(input_over_budget(100, budgets).has_value());
    const auto refused = input_over_budget(101, budgets);
    ASSERT_TRUE(refused.has_value());
    EXPECT_EQ(refused->code, ErrorCode::input_too_large);
    EXPECT_EQ(refused->message, "input is 101 bytes, limit 100");
    budgets.max_input_bytes = 0;
    EXPECT_FALSE(input_over_budget(1'000'000'000, budgets).has_value()) << "0 is unlimited";
}

TEST(Budget, ParseLimitsComeFromTheOptionsAndTheCost) {
    ExtractOptions options;
    options.budgets.max_elements = 7;
    options.budgets.max_nesting_depth = 9;
    options.budgets.max_attributes_per_element = 11;
    CostEstimate cost;
    cost.parse_bytes = 12345;
    dom::ParseLimits limits = parse_limits(options, cost);
    EXPECT_EQ(limits.max_elements, 7U);
    EXPECT_EQ(limits.max_nesting_depth, 9U);
    EXPECT_EQ(limits.max_attributes_per_element, 11U);
    EXPECT_EQ(limits.max_parse_bytes, 12345U);
    options.budgets.max_memory_bytes = 0;
    EXPECT_EQ(parse_limits(options, cost).max_parse_bytes, 0U) << "no memory budget, no cap on gumbo";
}

TEST(Budget, RefusalsBeforeTheParseComeInOrderAndAdmissionLast) {
    ExtractOptions options;
    int admitted = 0;
    options.runtime.admit = [&admitted](const CostEstimate&) -> std::optional<Error> {
        ++admitted;
        return Error{ErrorCode::overloaded, "no room"};
    };
    dom::MarkupEstimate tags;
    tags.elements = 10;
    CostEstimate cost;
    cost.memory_bytes = 1000;

    options.budgets.max_elements = 5;
    auto refused = refuse_before_parse(tags, cost, options);
    ASSERT_TRUE(refused.has_value());
    EXPECT_EQ(refused->code, ErrorCode::too_many_elements);
    EXPECT_EQ(admitted, 0) << "nothing is reserved for a page the budgets refuse";

    options.budgets.max_elements = 0;
    options.budgets.max_memory_bytes = 999;
    refused = refuse_before_parse(tags, cost, options);
    ASSERT_TRUE(refused.has_value());
    EXPECT_EQ(refused->code, ErrorCode::too_much_memory);
    EXPECT_EQ(admitted, 0);

    options.budgets.max_memory_bytes = 0;
    cost.time = std::chrono::seconds(10);
    options.runtime.deadline = Clock::now() + std::chrono::seconds(1);
    refused = refuse_before_parse(tags, cost, options);
    ASSERT_TRUE(refused.has_value());
    EXPECT_EQ(refused->code, ErrorCode::deadline_exceeded);
    EXPECT_EQ(admitted, 0);

    options.runtime.deadline = Clock::time_point::max();
    refused = refuse_before_parse(tags, cost, options);
    ASSERT_TRUE(refused.has_value());
    EXPECT_EQ(refused->code, ErrorCode::overloaded);
    EXPECT_EQ(admitted, 1);

    options.runtime.admit = nullptr;
    EXPECT_FALSE(refuse_before_parse(tags, cost, options).has_value());
}

TEST(Budget, ThePassedDeadlineNamesTheNextStage) {
    RuntimeHooks runtime;
    EXPECT_FALSE(deadline_passed(runtime, "parsing").has_value());
    runtime.deadline = Clock::now() - std::chrono::milliseconds(1);
    const auto late = deadline_passed(runtime, "parsing");
    ASSERT_TRUE(late.has_value());
    EXPECT_EQ(late->code, ErrorCode::deadline_exceeded);
    EXPECT_EQ(late->message, "deadline passed before parsing");
}

TEST(Budget, ARefusedArticleKeepsWhatItHadAndSaysWhy) {
    Article article;
    article.charset = "utf-8";
    const Article out = refused(std::move(article), Error{ErrorCode::too_deep, "deep"});
    EXPECT_EQ(out.status, Status::budget_exceeded);
    ASSERT_TRUE(out.error.has_value());
    EXPECT_EQ(out.error->code, ErrorCode::too_deep);
    EXPECT_EQ(out.charset, "utf-8");
}

}  // namespace
}  // namespace pith::extract
