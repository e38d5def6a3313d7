#include "pithd/memory_budget.hpp"

#include <fstream>
#include <string>
#include <utility>

namespace pith::server {

bool MemoryBudget::try_reserve(std::size_t bytes) noexcept {
    std::size_t current = reserved_.load(std::memory_order_relaxed);
    do {
        if (bytes > capacity_ || current > capacity_ - bytes) {
            return false;
        }
    } while (!reserved_.compare_exchange_weak(current, current + bytes, std::memory_order_relaxed));
    return true;
}

void MemoryBudget::release(std::size_t bytes) noexcept { reserved_.fetch_sub(bytes, std::memory_order_relaxed); }

Error MemoryBudget::refusal(std::size_t bytes) const {
    constexpr unsigned kMiB = 20;
    return Error{ErrorCode::overloaded, "the memory budget is taken: this request needs about " +
                                            std::to_string((bytes >> kMiB) + 1) + " MiB, " +
                                            std::to_string(reserved() >> kMiB) + " of " +
                                            std::to_string(capacity_ >> kMiB) + " MiB are reserved"};
}

std::optional<MemoryReservation> MemoryReservation::take(MemoryBudget& budget, std::size_t bytes) noexcept {
    if (!budget.try_reserve(bytes)) {
        return std::nullopt;
    }
    return MemoryReservation(budget, bytes);
}

MemoryReservation::MemoryReservation(MemoryReservation&& other) noexcept
    : budget_(other.budget_), bytes_(std::exchange(other.bytes_, 0)) {}

MemoryReservation& MemoryReservation::operator=(MemoryReservation&& other) noexcept {
    if (this != &other) {
        budget_->release(bytes_);
        budget_ = other.budget_;
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

MemoryReservation::~MemoryReservation() { budget_->release(bytes_); }

bool MemoryReservation::grow_to(std::size_t bytes) noexcept {
    if (bytes <= bytes_) {
        return true;
    }
    if (!budget_->try_reserve(bytes - bytes_)) {
        return false;
    }
    bytes_ = bytes;
    return true;
}

void MemoryReservation::absorb(MemoryReservation& other) noexcept {
    if (&other != this) {
        bytes_ += std::exchange(other.bytes_, 0);
    }
}

void MemoryReservation::shrink_to(std::size_t bytes) noexcept {
    if (bytes < bytes_) {
        budget_->release(bytes_ - bytes);
        bytes_ = bytes;
    }
}

namespace {

// A limit read from `path`: a number of bytes, or nullopt for "max", a
// missing file, or a value so large that it means "none" (cgroup v1 writes
// the largest page-aligned 64-bit number).
std::optional<std::size_t> read_limit(const char* path) {
    std::ifstream in(path);
    std::string text;
    if (!(in >> text) || text.empty() || text == "max") {
        return std::nullopt;
    }
    try {
        const unsigned long long value = std::stoull(text);
        constexpr unsigned long long kNoLimit = 1ULL << 60U;
        if (value == 0 || value >= kNoLimit) {
            return std::nullopt;
        }
        return static_cast<std::size_t>(value);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

}  // namespace

std::size_t default_memory_budget() {
    if (const std::optional<std::size_t> limit = cgroup_memory_limit()) {
        return *limit / 4 * 3;
    }
    return kDefaultMemoryBudget;
}

std::optional<std::size_t> cgroup_memory_limit() {
    if (auto v2 = read_limit("/sys/fs/cgroup/memory.max")) {
        return v2;
    }
    return read_limit("/sys/fs/cgroup/memory/memory.limit_in_bytes");
}

}  // namespace pith::server
