// Every metric pithd exports, declared once. The /metrics renderer, the
// dashboard and alert-rule checks (tests/contract) and the README's metrics
// list all read this list, so a name cannot drift between them.
#pragma once

#include <string_view>

namespace pith::server {

struct MetricInfo {
    std::string_view name;
    std::string_view type;    // Prometheus type: counter, gauge, histogram
    std::string_view labels;  // comma-separated label names, "" for none
    std::string_view help;
};

inline constexpr MetricInfo kMetrics[] = {
    {"pithd_http_requests_total", "counter", "route,code", "HTTP requests answered, by route and status code."},
    {"pithd_http_request_duration_seconds", "histogram", "route",
     "Time from a request's first byte to its answer written, by route."},
    {"pithd_extractions_total", "counter", "status",
     "Extractions by outcome: ok, best_attempt, no_content, budget_exceeded, deadline_exceeded, low_confidence, "
     "error."},
    {"pithd_extraction_duration_seconds", "histogram", "", "Time a worker spent on one extraction."},
    {"pithd_extraction_confidence", "histogram", "",
     "Confidence of each extraction that found an article: the estimated probability that its word F1 is 0.8 or more."},
    {"pithd_extraction_passes", "histogram", "",
     "Passes one extraction ran; 1 means the first pass was accepted."},
    {"pithd_budget_exceeded_total", "counter", "budget",
     "Requests refused by a budget: body_bytes, header_bytes, input_bytes, elements, depth, attributes, memory "
     "(a page's own working memory), deadline."},
    {"pithd_input_bytes_total", "counter", "", "HTML bytes handed to the extractor."},
    {"pithd_batch_items_total", "counter", "outcome",
     "Items of POST /extract/batch: answered (as /extract would answer them) or error (refused, malformed, "
     "failed)."},
    {"pithd_queue_depth", "gauge", "", "Extraction jobs waiting for a worker."},
    {"pithd_queue_capacity", "gauge", "", "Extraction jobs that may wait before requests get 503."},
    {"pithd_memory_budget_bytes", "gauge", "",
     "Memory that request bodies and the pages' estimated working memory may hold at once."},
    {"pithd_memory_reserved_bytes", "gauge", "", "Memory reserved now by requests being read, queued or extracted."},
    {"pithd_memory_refusals_total", "counter", "",
     "Requests answered 503 because the memory budget had no room for them."},
    {"pithd_requests_in_flight", "gauge", "", "Requests being read, queued, extracted or answered."},
    {"pithd_workers", "gauge", "", "Extraction worker threads."},
    {"pithd_workers_busy", "gauge", "", "Extraction worker threads running a job."},
    {"pithd_connections_open", "gauge", "", "Open client connections."},
    {"pithd_connections_accepted_total", "counter", "", "Client connections accepted."},
    {"pithd_connections_rejected_total", "counter", "", "Client connections refused at max_connections."},
    {"pithd_ready", "gauge", "", "1 while the server takes work, 0 while it drains."},
    {"pithd_build_info", "gauge", "version", "Always 1; the labels name the build."},
    {"pithd_fetches_total", "counter", "result", "URL fetches by result: ok or an error code."},
    {"pithd_fetch_duration_seconds", "histogram", "", "Time one URL fetch took, redirects included."},
    {"pithd_fetched_bytes_total", "counter", "", "Body bytes received by URL fetches, before decompression."},
    {"pithd_fetches_in_flight", "gauge", "", "URL fetches in progress."},
    {"process_cpu_seconds_total", "counter", "", "User and system CPU time spent, in seconds."},
    {"process_resident_memory_bytes", "gauge", "", "Resident memory size in bytes."},
    {"process_virtual_memory_bytes", "gauge", "", "Virtual memory size in bytes."},
    {"process_start_time_seconds", "gauge", "", "Start time of the process since the Unix epoch, in seconds."},
    {"process_open_fds", "gauge", "", "Open file descriptors."},
    {"process_max_fds", "gauge", "", "Maximum number of open file descriptors."},
};

}  // namespace pith::server
