#include "pithd/memory_budget.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace pith::server {
namespace {

TEST(MemoryBudget, ReservationsNeverPassTheCapacity) {
    MemoryBudget budget(100);
    std::optional<MemoryReservation> a = MemoryReservation::take(budget, 60);
    ASSERT_TRUE(a.has_value());
    EXPECT_FALSE(MemoryReservation::take(budget, 41).has_value());
    std::optional<MemoryReservation> b = MemoryReservation::take(budget, 40);
    ASSERT_TRUE(b.has_value());
    EXPECT_EQ(budget.reserved(), 100U);
    EXPECT_FALSE(MemoryReservation::take(budget, 1).has_value());
    b.reset();
    EXPECT_EQ(budget.reserved(), 60U);
}

TEST(MemoryBudget, GrowingAReservationTakesOnlyTheDifferenceAndFailsWhole) {
    MemoryBudget budget(100);
    std::optional<MemoryReservation> body = MemoryReservation::take(budget, 30);
    ASSERT_TRUE(body.has_value());
    EXPECT_TRUE(body->grow_to(80));
    EXPECT_EQ(budget.reserved(), 80U);
    EXPECT_TRUE(body->grow_to(50));  // never shrinks
    EXPECT_EQ(body->bytes(), 80U);
    EXPECT_FALSE(body->grow_to(101));
    EXPECT_EQ(body->bytes(), 80U);
    EXPECT_EQ(budget.reserved(), 80U);
    MemoryReservation moved = std::move(*body);
    body.reset();  // a moved-from reservation releases nothing
    EXPECT_EQ(budget.reserved(), 80U);
}

TEST(MemoryBudget, ShrinkingGivesBackTheExcessAndNeverGrows) {
    MemoryBudget budget(100);
    std::optional<MemoryReservation> page = MemoryReservation::take(budget, 90);
    ASSERT_TRUE(page.has_value());
    page->shrink_to(20);
    EXPECT_EQ(page->bytes(), 20U);
    EXPECT_EQ(budget.reserved(), 20U);
    page->shrink_to(60);  // never grows
    EXPECT_EQ(budget.reserved(), 20U);
    EXPECT_TRUE(MemoryReservation::take(budget, 80).has_value()) << "what was given back can be taken";
    page.reset();
    EXPECT_EQ(budget.reserved(), 0U);
}

TEST(MemoryBudget, RefusalIsOverloadedAndNamesTheFigures) {
    MemoryBudget budget(std::size_t{768} << 20U);
    std::optional<MemoryReservation> held = MemoryReservation::take(budget, std::size_t{700} << 20U);
    ASSERT_TRUE(held.has_value());
    const Error error = budget.refusal(std::size_t{100} << 20U);
    EXPECT_EQ(error.code, ErrorCode::overloaded);
    EXPECT_NE(error.message.find("700 of 768 MiB"), std::string::npos) << error.message;
}

TEST(MemoryBudget, ConcurrentReservationsStayWithinTheCapacity) {
    MemoryBudget budget(1000);
    std::atomic<bool> over{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < 20000; ++i) {
                if (std::optional<MemoryReservation> r = MemoryReservation::take(budget, 300)) {
                    if (budget.reserved() > budget.capacity()) {
                        over = true;
                    }
                }
            }
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    EXPECT_FALSE(over.load());
    EXPECT_EQ(budget.reserved(), 0U);
}

TEST(MemoryBudget, DefaultIsThreeQuartersOfTheCgroupLimitOrTheConstant) {
    const std::optional<std::size_t> limit = cgroup_memory_limit();
    EXPECT_EQ(default_memory_budget(), limit ? *limit / 4 * 3 : kDefaultMemoryBudget);
}

}  // namespace
}  // namespace pith::server
