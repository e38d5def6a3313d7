#include "pithd/worker_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <future>

namespace pith::server {
namespace {

// Each test declares the pool after what its jobs use, so the pool is
// destroyed, and its threads joined, first.

TEST(WorkerPool, RunsJobsOnItsThreads) {
    std::atomic<int> done{0};
    std::promise<void> all;
    WorkerPool pool(2, 8);
    for (int i = 0; i < 8; ++i) {
        ASSERT_TRUE(pool.try_submit([&] {
            if (++done == 8) {
                all.set_value();
            }
        }));
    }
    EXPECT_EQ(all.get_future().wait_for(std::chrono::seconds(10)), std::future_status::ready);
}

TEST(WorkerPool, RefusesAtOnceWhenTheQueueIsFull) {
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::promise<void> started;
    WorkerPool pool(1, 2);
    ASSERT_TRUE(pool.try_submit([&] {
        started.set_value();
        released.wait();
    }));
    started.get_future().wait();  // the one thread is busy now
    EXPECT_TRUE(pool.try_submit([] {}));
    EXPECT_TRUE(pool.try_submit([] {}));
    EXPECT_EQ(pool.depth(), 2U);
    EXPECT_FALSE(pool.try_submit([] {})) << "a full queue refuses instead of growing";
    release.set_value();
}

TEST(WorkerPool, ShutdownRunsWhatIsQueuedThenRefuses) {
    std::atomic<int> ran{0};
    WorkerPool pool(1, 16);  // shut down explicitly below
    for (int i = 0; i < 16; ++i) {
        ASSERT_TRUE(pool.try_submit([&] { ++ran; }));
    }
    pool.shutdown();
    EXPECT_EQ(ran.load(), 16);
    EXPECT_FALSE(pool.try_submit([] {}));
}

}  // namespace
}  // namespace pith::server
