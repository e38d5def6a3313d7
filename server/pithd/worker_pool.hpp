// A fixed pool of extraction threads fed by a bounded queue. A full queue is
// an immediate refusal (the caller answers 503), never a longer queue: under
// overload pithd sheds load instead of buffering it.
//
// Thread-safety: try_submit, depth and shutdown may be called from any thread.
// Jobs run on the pool's threads; a job must not throw (each job is the
// catch-all boundary of its own work).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace pith::server {

class WorkerPool {
public:
    using Job = std::function<void()>;

    WorkerPool(std::size_t threads, std::size_t queue_capacity);
    ~WorkerPool();  // shutdown()
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    // Queues `job`; false when the queue is full or the pool is shut down.
    [[nodiscard]] bool try_submit(Job job);
    // Jobs waiting for a thread (not those running).
    [[nodiscard]] std::size_t depth() const;
    [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }
    [[nodiscard]] std::size_t threads() const noexcept { return threads_.size(); }
    // Stops taking jobs, lets the threads finish what is queued, joins them.
    void shutdown();

private:
    void run();

    const std::size_t capacity_;
    mutable std::mutex mutex_;         // guards queue_ and stopping_
    std::condition_variable ready_;    // signalled when a job is queued or on shutdown
    std::deque<Job> queue_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace pith::server
