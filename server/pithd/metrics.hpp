// pithd's metrics: lock-free counters, gauges and histograms with the label
// sets known up front, rendered in the Prometheus text format (0.0.4).
//
// Thread-safety: every record_* and set_* may be called from any thread; all
// state is std::atomic (relaxed: a scrape may see one counter a moment ahead of
// another, as Prometheus clients allow). render() may run concurrently with them.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <optional>
#include <string_view>
#include <vector>

#include "pith/extract.hpp"
#include "pith/result.hpp"

namespace pith::server {

// The routes pithd labels its requests with.
enum class Route : std::uint8_t { extract, extract_batch, inspect, healthz, readyz, metrics, version, other, count_ };
[[nodiscard]] std::string_view route_label(Route route) noexcept;
[[nodiscard]] Route route_of(std::string_view path) noexcept;

// What a finished extraction request counts as in pithd_extractions_total.
enum class ExtractionOutcome : std::uint8_t {
    ok,
    best_attempt,
    no_content,
    budget_exceeded,
    deadline_exceeded,
    low_confidence,
    error,
    count_
};
[[nodiscard]] std::string_view outcome_label(ExtractionOutcome outcome) noexcept;
[[nodiscard]] ExtractionOutcome outcome_of(const extract::Article& article) noexcept;

enum class Budget : std::uint8_t { body_bytes, header_bytes, input_bytes, elements, depth, attributes, memory, deadline, count_ };
[[nodiscard]] std::string_view budget_label(Budget budget) noexcept;

// A histogram with fixed upper bounds; values are kept as integers scaled by
// `scale` (1e6 for seconds: microsecond resolution) so the sum stays atomic.
class Histogram {
public:
    Histogram(std::vector<double> upper_bounds, double scale);
    void observe(double value) noexcept;
    // Lines of the text format for `name` with extra `labels` ("" or `route="x"`).
    void render(std::string& out, std::string_view name, std::string_view labels) const;

private:
    std::vector<double> upper_bounds_;
    double scale_;
    std::vector<std::atomic<std::uint64_t>> buckets_;  // per bound, not cumulative; last is +Inf
    std::atomic<std::uint64_t> count_{0};
    std::atomic<std::uint64_t> scaled_sum_{0};
};

class Metrics {
public:
    Metrics();

    void record_request(Route route, unsigned status, double seconds) noexcept;
    // `confidence` is observed only for an extraction that has an article
    // (nullopt otherwise: a page without one would only crowd bucket 0).
    void record_extraction(ExtractionOutcome outcome, double seconds, std::size_t passes, std::size_t input_bytes,
                           std::optional<double> confidence = std::nullopt) noexcept;
    void record_budget(Budget budget) noexcept;
    // A request answered 503 because the memory budget had no room for it.
    void record_memory_refusal() noexcept { memory_refusals_.fetch_add(1, std::memory_order_relaxed); }
    void record_fetch(std::string_view result, double seconds, std::size_t bytes) noexcept;
    // One item of POST /extract/batch answered: with the /extract answer it
    // would have had (`answered`), or with an error of its own.
    void record_batch_item(bool answered) noexcept {
        (answered ? batch_items_answered_ : batch_items_failed_).fetch_add(1, std::memory_order_relaxed);
    }

    std::atomic<std::int64_t> requests_in_flight{0};
    std::atomic<std::int64_t> connections_open{0};
    std::atomic<std::uint64_t> connections_accepted{0};
    std::atomic<std::uint64_t> connections_rejected{0};
    std::atomic<std::int64_t> fetches_in_flight{0};
    std::atomic<std::int64_t> workers_busy{0};
    std::atomic<bool> ready{false};

    // Set once before serving: values owned by other components.
    std::function<std::size_t()> queue_depth;
    std::size_t queue_capacity = 0;
    std::size_t workers = 0;
    std::function<std::size_t()> memory_reserved;
    std::size_t memory_budget = 0;

    // The whole exposition, process_* metrics included.
    [[nodiscard]] std::string render() const;

private:
    static constexpr std::size_t kRoutes = static_cast<std::size_t>(Route::count_);
    static constexpr std::size_t kCodes = 600;  // HTTP status codes 0..599
    std::array<std::array<std::atomic<std::uint64_t>, kCodes>, kRoutes> requests_{};
    std::vector<std::unique_ptr<Histogram>> request_duration_;  // per route
    std::array<std::atomic<std::uint64_t>, static_cast<std::size_t>(ExtractionOutcome::count_)> extractions_{};
    Histogram extraction_duration_;
    Histogram passes_;
    Histogram confidence_;
    std::array<std::atomic<std::uint64_t>, static_cast<std::size_t>(Budget::count_)> budgets_{};
    std::atomic<std::uint64_t> input_bytes_{0};
    std::atomic<std::uint64_t> memory_refusals_{0};
    std::atomic<std::uint64_t> batch_items_answered_{0};
    std::atomic<std::uint64_t> batch_items_failed_{0};
    // Fetch results: "ok" and the fetch error codes, fixed at construction.
    std::vector<std::string> fetch_results_;
    std::vector<std::atomic<std::uint64_t>> fetches_;
    Histogram fetch_duration_;
    std::atomic<std::uint64_t> fetched_bytes_{0};
};

// The standard process_* metrics of this process, read from /proc.
struct ProcessStats {
    double cpu_seconds = 0;
    double resident_bytes = 0;
    double virtual_bytes = 0;
    double start_time_seconds = 0;
    double open_fds = 0;
    double max_fds = 0;
};
[[nodiscard]] ProcessStats read_process_stats();

}  // namespace pith::server
