#include "pithd/metrics.hpp"

#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "pithd/metric_names.hpp"

#ifndef PITH_VERSION
#define PITH_VERSION "0.0.0"
#endif

namespace pith::server {

std::string_view route_label(Route route) noexcept {
    switch (route) {
    case Route::extract: return "/extract";
    case Route::extract_batch: return "/extract/batch";
    case Route::inspect: return "/inspect";
    case Route::healthz: return "/healthz";
    case Route::readyz: return "/readyz";
    case Route::metrics: return "/metrics";
    case Route::version: return "/version";
    case Route::other:
    case Route::count_: break;
    }
    return "other";
}

Route route_of(std::string_view path) noexcept {
    for (std::size_t i = 0; i < static_cast<std::size_t>(Route::other); ++i) {
        if (route_label(static_cast<Route>(i)) == path) {
            return static_cast<Route>(i);
        }
    }
    return Route::other;
}

std::string_view outcome_label(ExtractionOutcome outcome) noexcept {
    switch (outcome) {
    case ExtractionOutcome::ok: return "ok";
    case ExtractionOutcome::best_attempt: return "best_attempt";
    case ExtractionOutcome::no_content: return "no_content";
    case ExtractionOutcome::budget_exceeded: return "budget_exceeded";
    case ExtractionOutcome::deadline_exceeded: return "deadline_exceeded";
    case ExtractionOutcome::low_confidence: return "low_confidence";
    case ExtractionOutcome::error:
    case ExtractionOutcome::count_: break;
    }
    return "error";
}

ExtractionOutcome outcome_of(const extract::Article& article) noexcept {
    if (article.error && article.error->code == ErrorCode::deadline_exceeded) {
        return ExtractionOutcome::deadline_exceeded;
    }
    if (article.error && article.error->code == ErrorCode::internal) {
        return ExtractionOutcome::error;
    }
    switch (article.status) {
    case extract::Status::ok: return ExtractionOutcome::ok;
    case extract::Status::best_attempt: return ExtractionOutcome::best_attempt;
    case extract::Status::no_content: return ExtractionOutcome::no_content;
    case extract::Status::budget_exceeded: return ExtractionOutcome::budget_exceeded;
    case extract::Status::low_confidence: return ExtractionOutcome::low_confidence;
    }
    return ExtractionOutcome::error;
}

std::string_view budget_label(Budget budget) noexcept {
    switch (budget) {
    case Budget::body_bytes: return "body_bytes";
    case Budget::header_bytes: return "header_bytes";
    case Budget::input_bytes: return "input_bytes";
    case Budget::elements: return "elements";
    case Budget::depth: return "depth";
    case Budget::attributes: return "attributes";
    case Budget::memory: return "memory";
    case Budget::deadline:
    case Budget::count_: break;
    }
    return "deadline";
}

namespace {

// Bounds in seconds: 1 ms to 10 s, the span between a small page and the
// default request deadline.
const std::vector<double> kDurationBounds = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                                             0.25,  0.5,    1.0,   2.5,  5.0,   10.0};
constexpr double kMicros = 1e6;

std::string format_number(double value) {
    if (std::isinf(value)) {
        return value > 0 ? "+Inf" : "-Inf";
    }
    if (value == std::floor(value) && std::fabs(value) < 1e15) {
        return std::to_string(static_cast<long long>(value));
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

void header(std::string& out, std::string_view name) {
    for (const MetricInfo& info : kMetrics) {
        if (info.name == name) {
            out.append("# HELP ").append(name).append(" ").append(info.help).append("\n");
            out.append("# TYPE ").append(name).append(" ").append(info.type).append("\n");
            return;
        }
    }
}

void sample(std::string& out, std::string_view name, std::string_view labels, double value) {
    out.append(name);
    if (!labels.empty()) {
        out.append("{").append(labels).append("}");
    }
    out.append(" ").append(format_number(value)).append("\n");
}

template <typename Number>
void single(std::string& out, std::string_view name, Number value) {
    header(out, name);
    sample(out, name, "", static_cast<double>(value));
}

}  // namespace

Histogram::Histogram(std::vector<double> upper_bounds, double scale)
    : upper_bounds_(std::move(upper_bounds)), scale_(scale), buckets_(upper_bounds_.size() + 1) {}

void Histogram::observe(double value) noexcept {
    std::size_t i = 0;
    while (i < upper_bounds_.size() && value > upper_bounds_[i]) {
        ++i;
    }
    buckets_[i].fetch_add(1, std::memory_order_relaxed);
    count_.fetch_add(1, std::memory_order_relaxed);
    const double scaled = std::max(0.0, std::round(value * scale_));
    scaled_sum_.fetch_add(static_cast<std::uint64_t>(scaled), std::memory_order_relaxed);
}

void Histogram::render(std::string& out, std::string_view name, std::string_view labels) const {
    const std::string bucket = std::string(name) + "_bucket";
    const std::string prefix = labels.empty() ? std::string() : std::string(labels) + ",";
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i <= upper_bounds_.size(); ++i) {
        cumulative += buckets_[i].load(std::memory_order_relaxed);
        const double bound = i < upper_bounds_.size() ? upper_bounds_[i] : INFINITY;
        sample(out, bucket, prefix + "le=\"" + format_number(bound) + "\"", static_cast<double>(cumulative));
    }
    sample(out, std::string(name) + "_sum", labels,
           static_cast<double>(scaled_sum_.load(std::memory_order_relaxed)) / scale_);
    // _count equals the +Inf bucket; reading buckets first keeps it from lagging.
    sample(out, std::string(name) + "_count", labels, static_cast<double>(cumulative));
}

Metrics::Metrics()
    : extraction_duration_(kDurationBounds, kMicros),
      passes_({1, 2, 3, 4}, 1),
      // Tenths: a dashboard's quantiles of confidence, and the share of
      // pages under a routing threshold, read off these.
      confidence_({0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}, kMicros),
      fetch_results_{"ok"},
      fetch_duration_(kDurationBounds, kMicros) {
    for (std::size_t i = 0; i < kRoutes; ++i) {
        request_duration_.push_back(std::make_unique<Histogram>(kDurationBounds, kMicros));
    }
    for (const ErrorCode code :
         {ErrorCode::invalid_url, ErrorCode::blocked_address, ErrorCode::dns_failure, ErrorCode::connect_failed,
          ErrorCode::connect_timeout, ErrorCode::fetch_timeout, ErrorCode::tls_error, ErrorCode::too_many_redirects,
          ErrorCode::too_large, ErrorCode::unsupported_content_type, ErrorCode::upstream_status,
          ErrorCode::upstream_error, ErrorCode::deadline_exceeded, ErrorCode::overloaded, ErrorCode::internal}) {
        fetch_results_.emplace_back(error_code_name(code));
    }
    fetches_ = std::vector<std::atomic<std::uint64_t>>(fetch_results_.size());
}

void Metrics::record_request(Route route, unsigned status, double seconds) noexcept {
    const auto r = static_cast<std::size_t>(route);
    requests_[r][status < kCodes ? status : 0].fetch_add(1, std::memory_order_relaxed);
    request_duration_[r]->observe(seconds);
}

void Metrics::record_extraction(ExtractionOutcome outcome, double seconds, std::size_t passes,
                                std::size_t input_bytes, std::optional<double> confidence) noexcept {
    if (confidence) {
        confidence_.observe(*confidence);
    }
    extractions_[static_cast<std::size_t>(outcome)].fetch_add(1, std::memory_order_relaxed);
    extraction_duration_.observe(seconds);
    if (passes > 0) {
        passes_.observe(static_cast<double>(passes));
    }
    input_bytes_.fetch_add(input_bytes, std::memory_order_relaxed);
}

void Metrics::record_budget(Budget budget) noexcept {
    budgets_[static_cast<std::size_t>(budget)].fetch_add(1, std::memory_order_relaxed);
}

void Metrics::record_fetch(std::string_view result, double seconds, std::size_t bytes) noexcept {
    std::size_t index = fetch_results_.size() - 1;  // "internal" for anything unlisted
    for (std::size_t i = 0; i < fetch_results_.size(); ++i) {
        if (fetch_results_[i] == result) {
            index = i;
            break;
        }
    }
    fetches_[index].fetch_add(1, std::memory_order_relaxed);
    fetch_duration_.observe(seconds);
    fetched_bytes_.fetch_add(bytes, std::memory_order_relaxed);
}

std::string Metrics::render() const {
    std::string out;
    out.reserve(16 * 1024);

    header(out, "pithd_http_requests_total");
    for (std::size_t r = 0; r < kRoutes; ++r) {
        for (std::size_t code = 0; code < kCodes; ++code) {
            if (const std::uint64_t n = requests_[r][code].load(std::memory_order_relaxed); n > 0) {
                sample(out, "pithd_http_requests_total",
                       "route=\"" + std::string(route_label(static_cast<Route>(r))) + "\",code=\"" +
                           std::to_string(code) + "\"",
                       static_cast<double>(n));
            }
        }
    }
    header(out, "pithd_http_request_duration_seconds");
    for (std::size_t r = 0; r < kRoutes; ++r) {
        request_duration_[r]->render(out, "pithd_http_request_duration_seconds",
                                     "route=\"" + std::string(route_label(static_cast<Route>(r))) + "\"");
    }
    header(out, "pithd_extractions_total");
    for (std::size_t i = 0; i < extractions_.size(); ++i) {
        sample(out, "pithd_extractions_total",
               "status=\"" + std::string(outcome_label(static_cast<ExtractionOutcome>(i))) + "\"",
               static_cast<double>(extractions_[i].load(std::memory_order_relaxed)));
    }
    header(out, "pithd_extraction_duration_seconds");
    extraction_duration_.render(out, "pithd_extraction_duration_seconds", "");
    header(out, "pithd_extraction_passes");
    passes_.render(out, "pithd_extraction_passes", "");
    header(out, "pithd_extraction_confidence");
    confidence_.render(out, "pithd_extraction_confidence", "");
    header(out, "pithd_budget_exceeded_total");
    for (std::size_t i = 0; i < budgets_.size(); ++i) {
        sample(out, "pithd_budget_exceeded_total",
               "budget=\"" + std::string(budget_label(static_cast<Budget>(i))) + "\"",
               static_cast<double>(budgets_[i].load(std::memory_order_relaxed)));
    }
    single(out, "pithd_input_bytes_total", input_bytes_.load(std::memory_order_relaxed));
    header(out, "pithd_batch_items_total");
    sample(out, "pithd_batch_items_total", "outcome=\"answered\"",
           static_cast<double>(batch_items_answered_.load(std::memory_order_relaxed)));
    sample(out, "pithd_batch_items_total", "outcome=\"error\"",
           static_cast<double>(batch_items_failed_.load(std::memory_order_relaxed)));
    single(out, "pithd_queue_depth", queue_depth ? queue_depth() : 0);
    single(out, "pithd_queue_capacity", queue_capacity);
    single(out, "pithd_memory_budget_bytes", memory_budget);
    single(out, "pithd_memory_reserved_bytes", memory_reserved ? memory_reserved() : 0);
    single(out, "pithd_memory_refusals_total", memory_refusals_.load(std::memory_order_relaxed));
    single(out, "pithd_requests_in_flight", requests_in_flight.load(std::memory_order_relaxed));
    single(out, "pithd_workers", workers);
    single(out, "pithd_workers_busy", workers_busy.load(std::memory_order_relaxed));
    single(out, "pithd_connections_open", connections_open.load(std::memory_order_relaxed));
    single(out, "pithd_connections_accepted_total", connections_accepted.load(std::memory_order_relaxed));
    single(out, "pithd_connections_rejected_total", connections_rejected.load(std::memory_order_relaxed));
    single(out, "pithd_ready", ready.load(std::memory_order_relaxed) ? 1 : 0);
    header(out, "pithd_build_info");
    sample(out, "pithd_build_info", "version=\"" PITH_VERSION "\"", 1);

    header(out, "pithd_fetches_total");
    for (std::size_t i = 0; i < fetch_results_.size(); ++i) {
        sample(out, "pithd_fetches_total", "result=\"" + fetch_results_[i] + "\"",
               static_cast<double>(fetches_[i].load(std::memory_order_relaxed)));
    }
    header(out, "pithd_fetch_duration_seconds");
    fetch_duration_.render(out, "pithd_fetch_duration_seconds", "");
    single(out, "pithd_fetched_bytes_total", fetched_bytes_.load(std::memory_order_relaxed));
    single(out, "pithd_fetches_in_flight", fetches_in_flight.load(std::memory_order_relaxed));

    const ProcessStats process = read_process_stats();
    single(out, "process_cpu_seconds_total", process.cpu_seconds);
    single(out, "process_resident_memory_bytes", process.resident_bytes);
    single(out, "process_virtual_memory_bytes", process.virtual_bytes);
    single(out, "process_start_time_seconds", process.start_time_seconds);
    single(out, "process_open_fds", process.open_fds);
    single(out, "process_max_fds", process.max_fds);
    return out;
}

ProcessStats read_process_stats() {
    ProcessStats stats;
    const double ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
    const double page_size = static_cast<double>(::sysconf(_SC_PAGESIZE));
    std::ifstream stat_file("/proc/self/stat");
    std::string stat((std::istreambuf_iterator<char>(stat_file)), std::istreambuf_iterator<char>());
    // Fields after the command name, which is in parentheses and may hold spaces.
    if (const std::size_t close = stat.rfind(')'); close != std::string::npos && ticks > 0) {
        std::istringstream fields(stat.substr(close + 2));
        std::vector<std::string> f;
        for (std::string field; fields >> field;) {
            f.push_back(field);
        }
        // f[0] is field 3 (state): utime is field 14, stime 15, starttime 22,
        // vsize 23, rss 24 (proc(5)).
        if (f.size() > 21) {
            stats.cpu_seconds = (std::stod(f[11]) + std::stod(f[12])) / ticks;
            stats.virtual_bytes = std::stod(f[20]);
            stats.resident_bytes = std::stod(f[21]) * page_size;
            std::ifstream proc_stat("/proc/stat");
            for (std::string line; std::getline(proc_stat, line);) {
                if (line.starts_with("btime ")) {
                    stats.start_time_seconds = std::stod(line.substr(6)) + std::stod(f[19]) / ticks;
                    break;
                }
            }
        }
    }
    if (DIR* dir = ::opendir("/proc/self/fd")) {
        std::size_t count = 0;
        while (const dirent* entry = ::readdir(dir)) {
            if (entry->d_name[0] != '.') {
                ++count;
            }
        }
        ::closedir(dir);
        stats.open_fds = static_cast<double>(count > 0 ? count - 1 : 0);  // minus the one opendir holds
    }
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) == 0) {
        stats.max_fds = static_cast<double>(limit.rlim_cur);
    }
    return stats;
}

}  // namespace pith::server
