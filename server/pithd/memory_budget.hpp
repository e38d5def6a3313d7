// pithd admits work by memory as well as by count. Every /extract request holds
// a reservation from its head on: first its body's size (with the JSON parse's
// copies beside it while it runs, kJsonParseFactor), or a fetched page as it
// arrives and is decoded; then, once the worker has scanned the page's tags,
// the extraction's estimated working memory (which counts the page itself);
// last, cut to its answer's size, until the answer is written. The sum of
// reservations never passes the budget; a request that does not fit is
// answered 503 with Retry-After, like a full queue.
//
// Thread-safety: MemoryBudget is shared by every I/O and worker thread (its
// counter is atomic); a MemoryReservation belongs to one request at a time.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "pith/result.hpp"

namespace pith::server {

class MemoryBudget {
public:
    explicit MemoryBudget(std::size_t capacity_bytes) noexcept : capacity_(capacity_bytes) {}
    MemoryBudget(const MemoryBudget&) = delete;
    MemoryBudget& operator=(const MemoryBudget&) = delete;

    // Adds `bytes` to what is reserved when the total stays within capacity.
    [[nodiscard]] bool try_reserve(std::size_t bytes) noexcept;
    void release(std::size_t bytes) noexcept;
    [[nodiscard]] std::size_t reserved() const noexcept { return reserved_.load(std::memory_order_relaxed); }
    [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }
    // The overloaded error for a request of `bytes` that did not fit.
    [[nodiscard]] Error refusal(std::size_t bytes) const;

private:
    const std::size_t capacity_;
    std::atomic<std::size_t> reserved_{0};  // the sum of live reservations
};

// Asked before work holds more memory: the bytes it would then hold in all.
// An error (overloaded) refuses them, and the work ends with it.
using HoldMemory = std::function<std::optional<Error>(std::size_t bytes)>;

// One request's share of the budget, released when it is destroyed.
class MemoryReservation {
public:
    // nullopt when `bytes` do not fit.
    [[nodiscard]] static std::optional<MemoryReservation> take(MemoryBudget& budget, std::size_t bytes) noexcept;
    MemoryReservation(MemoryReservation&& other) noexcept;
    MemoryReservation& operator=(MemoryReservation&& other) noexcept;
    MemoryReservation(const MemoryReservation&) = delete;
    MemoryReservation& operator=(const MemoryReservation&) = delete;
    ~MemoryReservation();

    // Grows the reservation to `bytes` (never shrinks it); false, unchanged,
    // when the growth does not fit.
    [[nodiscard]] bool grow_to(std::size_t bytes) noexcept;
    // Gives back what is over `bytes` (never grows it).
    void shrink_to(std::size_t bytes) noexcept;
    // Takes over `other`'s bytes (of the same budget), which then holds none:
    // nothing is released or reserved on the way.
    void absorb(MemoryReservation& other) noexcept;
    [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }

private:
    MemoryReservation(MemoryBudget& budget, std::size_t bytes) noexcept : budget_(&budget), bytes_(bytes) {}
    MemoryBudget* budget_;
    std::size_t bytes_;
};

// The memory limit of this process's cgroup (v2 memory.max, else v1
// memory.limit_in_bytes), nullopt when there is none.
[[nodiscard]] std::optional<std::size_t> cgroup_memory_limit();

// limits.memory_budget_bytes when it is 0: three quarters of the cgroup's
// limit (the rest is the process, the sockets' buffers and the allocator's
// slack), or kDefaultMemoryBudget without a limit.
inline constexpr std::size_t kDefaultMemoryBudget = std::size_t{2} << 30U;
[[nodiscard]] std::size_t default_memory_budget();

}  // namespace pith::server
