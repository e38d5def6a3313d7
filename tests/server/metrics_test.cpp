#include "pithd/metrics.hpp"

#include <gtest/gtest.h>

#include "pithd/metric_names.hpp"
#include "pithd.hpp"

namespace pith::server {
namespace {

TEST(Metrics, RendersEveryDeclaredMetricInTheTextFormat) {
    Metrics metrics;
    metrics.workers = 3;
    metrics.queue_capacity = 9;
    metrics.queue_depth = [] { return std::size_t{2}; };
    metrics.record_request(Route::extract, 200, 0.003);
    metrics.record_request(Route::extract, 200, 0.2);
    metrics.record_request(Route::healthz, 503, 0.0001);
    metrics.record_extraction(ExtractionOutcome::ok, 0.004, 2, 1234, 0.83);
    metrics.record_extraction(ExtractionOutcome::no_content, 0.001, 1, 0);
    metrics.record_budget(Budget::elements);
    metrics.record_fetch("blocked_address", 0.01, 0);
    const test::PromParse parsed = test::parse_prometheus(metrics.render());
    ASSERT_EQ(parsed.error, "");
    for (const MetricInfo& info : kMetrics) {
        ASSERT_EQ(parsed.types.count(std::string(info.name)), 1U) << info.name;
        EXPECT_EQ(parsed.types.at(std::string(info.name)), info.type) << info.name;
    }
    EXPECT_EQ(parsed.sum("pithd_http_requests_total", {{"route", "/extract"}, {"code", "200"}}), 2);
    EXPECT_EQ(parsed.sum("pithd_http_requests_total", {{"route", "/healthz"}, {"code", "503"}}), 1);
    EXPECT_EQ(parsed.sum("pithd_http_request_duration_seconds_bucket", {{"route", "/extract"}, {"le", "0.005"}}), 1);
    EXPECT_EQ(parsed.sum("pithd_http_request_duration_seconds_bucket", {{"route", "/extract"}, {"le", "+Inf"}}), 2);
    EXPECT_NEAR(parsed.sum("pithd_http_request_duration_seconds_sum", {{"route", "/extract"}}), 0.203, 1e-6);
    EXPECT_EQ(parsed.sum("pithd_extraction_passes_bucket", {{"le", "2"}}), 2);
    EXPECT_EQ(parsed.sum("pithd_extraction_passes_bucket", {{"le", "1"}}), 1);
    EXPECT_EQ(parsed.sum("pithd_extraction_confidence_count"), 1) << "only extractions with an article";
    EXPECT_EQ(parsed.sum("pithd_extraction_confidence_bucket", {{"le", "0.8"}}), 0);
    EXPECT_EQ(parsed.sum("pithd_extraction_confidence_bucket", {{"le", "0.9"}}), 1);
    EXPECT_NEAR(parsed.sum("pithd_extraction_confidence_sum"), 0.83, 1e-6);
    EXPECT_EQ(parsed.sum("pithd_input_bytes_total"), 1234);
    EXPECT_EQ(parsed.sum("pithd_extractions_total", {{"status", "no_content"}}), 1);
    EXPECT_EQ(parsed.sum("pithd_budget_exceeded_total", {{"budget", "elements"}}), 1);
    EXPECT_EQ(parsed.sum("pithd_fetches_total", {{"result", "blocked_address"}}), 1);
    EXPECT_EQ(parsed.sum("pithd_queue_depth"), 2);
    EXPECT_EQ(parsed.sum("pithd_queue_capacity"), 9);
    EXPECT_EQ(parsed.sum("pithd_workers"), 3);
}

TEST(Metrics, CounterNamesFollowPrometheusConventions) {
    for (const MetricInfo& info : kMetrics) {
        if (info.type == "counter") {
            EXPECT_TRUE(info.name.ends_with("_total")) << info.name;
        }
        if (info.name.find("duration") != std::string_view::npos) {
            EXPECT_TRUE(info.name.ends_with("_seconds")) << info.name;
        }
    }
}

TEST(ProcessStats, ReadsThisProcess) {
    const ProcessStats stats = read_process_stats();
    EXPECT_GT(stats.resident_bytes, 0);
    EXPECT_GT(stats.open_fds, 2);
    EXPECT_GT(stats.max_fds, stats.open_fds);
    EXPECT_GT(stats.start_time_seconds, 1.7e9);
}

}  // namespace
}  // namespace pith::server
