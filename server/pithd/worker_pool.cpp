#include "pithd/worker_pool.hpp"

#include <utility>

namespace pith::server {

WorkerPool::WorkerPool(std::size_t threads, std::size_t queue_capacity) : capacity_(queue_capacity) {
    threads_.reserve(threads);
    for (std::size_t i = 0; i < threads; ++i) {
        threads_.emplace_back([this] { run(); });
    }
}

WorkerPool::~WorkerPool() { shutdown(); }

bool WorkerPool::try_submit(Job job) {
    {
        const std::lock_guard lock(mutex_);
        if (stopping_ || queue_.size() >= capacity_) {
            return false;
        }
        queue_.push_back(std::move(job));
    }
    ready_.notify_one();
    return true;
}

std::size_t WorkerPool::depth() const {
    const std::lock_guard lock(mutex_);
    return queue_.size();
}

void WorkerPool::shutdown() {
    {
        const std::lock_guard lock(mutex_);
        if (stopping_ && threads_.empty()) {
            return;
        }
        stopping_ = true;
    }
    ready_.notify_all();
    for (std::thread& thread : threads_) {
        if (thread.joinable()) {
            thread.join();
        }
    }
    threads_.clear();
}

void WorkerPool::run() {
    for (;;) {
        Job job;
        {
            std::unique_lock lock(mutex_);
            ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) {
                return;  // stopping, and nothing left to run
            }
            job = std::move(queue_.front());
            queue_.pop_front();
        }
        job();
    }
}

}  // namespace pith::server
