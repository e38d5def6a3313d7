#include "pith/cost.hpp"

#include <gtest/gtest.h>

namespace pith::extract {
namespace {

dom::MarkupEstimate tags(std::size_t elements, std::size_t attributes, std::size_t comments = 0) {
    dom::MarkupEstimate e;
    e.elements = elements;
    e.attributes = attributes;
    e.comments = comments;
    return e;
}

TEST(Cost, GrowsWithEveryCountItReads) {
    const CostEstimate base = estimate_cost(10'000, 10'000, 0, tags(100, 50));
    EXPECT_EQ(base.input_bytes, 10'000U);
    EXPECT_EQ(base.markup_bytes, 10'000U);
    EXPECT_EQ(base.elements, 100U);
    EXPECT_EQ(base.attributes, 50U);
    EXPECT_GT(estimate_cost(10'000, 10'000, 0, tags(1000, 50)).memory_bytes, base.memory_bytes);
    EXPECT_GT(estimate_cost(10'000, 10'000, 0, tags(100, 500)).memory_bytes, base.memory_bytes);
    EXPECT_GT(estimate_cost(10'000, 10'000, 0, tags(100, 50, 100)).memory_bytes, base.memory_bytes);
    EXPECT_GT(estimate_cost(10'000, 100'000, 0, tags(100, 50)).memory_bytes, base.memory_bytes);
    EXPECT_GT(estimate_cost(10'000, 10'000, 50'000, tags(100, 50)).memory_bytes, base.memory_bytes);
    EXPECT_GT(estimate_cost(10'000, 10'000, 0, tags(100'000, 50)).time, base.time);
}

TEST(Cost, CountsThePagesOwnBytesAndGivesTheParseAShare) {
    const CostEstimate cost = estimate_cost(1'000'000, 800'000, 300'000, tags(10'000, 20'000, 100));
    EXPECT_GE(cost.memory_bytes, cost.input_bytes + 300'000U) << "the page and its copies live throughout";
    EXPECT_GT(cost.parse_bytes, 0U);
    EXPECT_LT(cost.parse_bytes, cost.memory_bytes);
}

TEST(Cost, TheAnnotatedSourceCostsACopyOfTheDomAndItsHtml) {
    const CostEstimate small = estimate_cost(10'000, 10'000, 0, tags(100, 50));
    const CostEstimate large = estimate_cost(1'000'000, 1'000'000, 0, tags(10'000, 5'000));
    EXPECT_GT(annotated_source_bytes(small), small.markup_bytes) << "the serialisation alone is the markup";
    EXPECT_GT(annotated_source_bytes(large), annotated_source_bytes(small));
}

}  // namespace
}  // namespace pith::extract
