// Soak: pithd under more load than it can take, for a bounded time, then
// SIGTERM while the load goes on (issue 7).
//
// Client threads, twice as many as the workers and the queue hold, POST
// corpus pages to /extract over keep-alive connections as fast as answers
// come back. A monitor samples pithd's resident memory every second. At the
// end pithd gets SIGTERM with the clients still sending; they stop when the
// listener refuses them. The report: answers by status, failures by kind,
// latency, resident memory after warm-up, in the middle and at the end (each
// the median of a window of samples as long as the warm-up, at most 60 s), and
// the requests pithd had read but not answered when it stopped (its own
// count, from its "stopped" log line), which must be zero.
//
// With --hostile 1, every fourth request is one of issue 11's hostile pages
// (tests/support/hostile_pages.hpp, up to 16 MiB each) instead of a corpus
// page: answers may then also be 422 (a page's budget) and 504 (its
// deadline), every 504 must come within the deadline plus 0.5 s, and corpus
// pages must still be served. --max-peak-mb checks pithd's peak resident
// memory (VmHWM) at the end.
//
// Usage: pith_bench_soak [--seconds N] [--workers N] [--queue N] [--clients N] [--warmup-seconds N]
//                        [--smoke 1] [--hostile 1] [--memory-budget-bytes N] [--max-peak-mb N]
// --smoke 1 is the short CI run: every check but memory growth, which means
// nothing over seconds (allocators are still warming up).
// Exit status: 0 when every check passes, 1 when one fails, 2 setup errors.
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "corpus.hpp"
#include "hostile_pages.hpp"
#include "pithd.hpp"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using pith::test::Connection;
using pith::test::HttpResult;

namespace {

struct Options {
    int seconds = 600;
    int warmup_seconds = 30;
    int workers = 2;
    int queue = 8;
    int clients = 0;  // 0: 2 x (workers + queue)
    bool smoke = false;
    bool hostile = false;
    long long memory_budget_bytes = 0;  // 0: pithd's default
    int max_peak_mb = 0;                // 0: not checked
};

// pithd's request deadline (limits.request_timeout_ms, its default).
constexpr double kDeadlineMs = 10'000;

std::string read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

// A field of /proc/PID/status in MB: "VmRSS" now, "VmHWM" the peak.
double status_mb(pid_t pid, std::string_view field) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(status, line);) {
        if (line.starts_with(field) && line.size() > field.size() && line[field.size()] == ':') {
            return std::atof(line.c_str() + field.size() + 1) / 1024.0;
        }
    }
    return 0.0;
}

// What the clients saw; guarded by `mutex`.
struct Tally {
    std::mutex mutex;
    std::map<unsigned, std::uint64_t> statuses;
    std::map<std::string, std::uint64_t> failures;  // by kind, before SIGTERM
    std::uint64_t unanswered_at_shutdown = 0;       // connection closed at shutdown before an answer
    std::vector<double> latencies_ms;
    std::uint64_t corpus_served = 0;    // 200s for corpus pages
    std::uint64_t late_504 = 0;         // 504s later than the deadline plus 0.5 s
    double slowest_504_ms = 0;
};

}  // namespace

int main(int argc, char** argv) {
    Options options;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        const int value = std::atoi(argv[i + 1]);
        if (flag == "--seconds") {
            options.seconds = value;
        } else if (flag == "--warmup-seconds") {
            options.warmup_seconds = value;
        } else if (flag == "--workers") {
            options.workers = value;
        } else if (flag == "--queue") {
            options.queue = value;
        } else if (flag == "--clients") {
            options.clients = value;
        } else if (flag == "--smoke") {
            options.smoke = value != 0;
        } else if (flag == "--hostile") {
            options.hostile = value != 0;
        } else if (flag == "--memory-budget-bytes") {
            options.memory_budget_bytes = std::atoll(argv[i + 1]);
        } else if (flag == "--max-peak-mb") {
            options.max_peak_mb = value;
        } else {
            std::fprintf(stderr, "usage: pith_bench_soak [--seconds N] [--warmup-seconds N] [--workers N] "
                                 "[--queue N] [--clients N] [--smoke 1] [--hostile 1] [--memory-budget-bytes N] "
                                 "[--max-peak-mb N]\n");
            return 2;
        }
    }
    if (options.clients == 0) {
        options.clients = 2 * (options.workers + options.queue);
    }
    options.warmup_seconds = std::min(options.warmup_seconds, options.seconds / 3);

    std::vector<std::string> pages;
    for (const char* subdir : {"readability-test-pages", "trafilatura-dev"}) {
        const pith::test::CorpusLookup lookup = pith::test::find_corpus_subdir(subdir);
        if (!lookup.dir) {
            std::fprintf(stderr, "corpus not found; looked in: %s\n", lookup.tried_text().c_str());
            return 2;
        }
        for (const auto& entry : fs::recursive_directory_iterator(*lookup.dir)) {
            if (entry.is_regular_file() && entry.path().extension() == ".html" &&
                entry.path().filename() != "expected.html") {
                pages.push_back(read_bytes(entry.path()));
            }
        }
    }
    std::vector<std::string> hostile_pages;
    if (options.hostile) {
        for (const pith::test::HostilePage& hostile : pith::test::hostile_pages()) {
            hostile_pages.push_back(pith::test::hostile_page_text(hostile));
        }
    }
    std::printf("command: pith_bench_soak --seconds %d --workers %d --queue %d --clients %d --hostile %d "
                "--memory-budget-bytes %lld (warm-up %d s)\n",
                options.seconds, options.workers, options.queue, options.clients, options.hostile ? 1 : 0,
                options.memory_budget_bytes, options.warmup_seconds);
    std::printf("pages: %zu corpus pages%s, POST /extract?format=text, raw HTML, keep-alive\n", pages.size(),
                options.hostile ? ", every fourth request one of 8 hostile pages" : "");

    std::vector<std::string> pithd_args = {"--listen", "127.0.0.1:0", "--workers", std::to_string(options.workers),
                                           "--queue-capacity", std::to_string(options.queue),
                                           "--log-access-log=false", "--max-connections",
                                           std::to_string(options.clients * 4)};
    if (options.memory_budget_bytes > 0) {
        pithd_args.insert(pithd_args.end(), {"--memory-budget-bytes", std::to_string(options.memory_budget_bytes)});
    }
    pith::test::PithdProcess pithd(pithd_args);
    if (pithd.port() == 0) {
        std::fprintf(stderr, "pithd did not start:\n%s\n", pithd.log().c_str());
        return 2;
    }

    Tally tally;
    std::atomic<std::size_t> next_page{0};
    std::atomic<bool> shutting_down{false};
    const std::vector<pith::test::Header> headers = {{"Content-Type", "text/html"}};
    auto client = [&] {
        std::optional<Connection> connection;
        for (;;) {
            if (!connection) {
                connection = Connection::open(pithd.port());
                if (!connection) {
                    if (shutting_down) {
                        return;  // the listener is closed: done
                    }
                    const std::lock_guard lock(tally.mutex);
                    ++tally.failures["connect refused before shutdown"];
                    std::this_thread::sleep_for(std::chrono::milliseconds(10));
                    continue;
                }
            }
            const std::size_t turn = next_page++;
            const bool hostile = !hostile_pages.empty() && turn % 4 == 3;
            const std::string& page =
                hostile ? hostile_pages[(turn / 4) % hostile_pages.size()] : pages[turn % pages.size()];
            const auto start = Clock::now();
            const bool sent =
                connection->send_all(pith::test::build_request("POST", "/extract?format=text", headers, page, true),
                                     std::chrono::seconds(60));
            HttpResult answer;
            if (sent) {
                answer = connection->read_response(std::chrono::seconds(60));
            } else {
                answer.error = "send failed";
            }
            const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
            const std::lock_guard lock(tally.mutex);
            if (answer.ok()) {
                ++tally.statuses[answer.status];
                tally.latencies_ms.push_back(ms);
                tally.corpus_served += !hostile && answer.status == 200 ? 1 : 0;
                if (answer.status == 504) {
                    tally.late_504 += ms > kDeadlineMs + 500 ? 1 : 0;
                    tally.slowest_504_ms = std::max(tally.slowest_504_ms, ms);
                }
                if (answer.header("connection") == "close") {
                    connection.reset();
                }
            } else {
                if (shutting_down) {
                    ++tally.unanswered_at_shutdown;
                } else {
                    ++tally.failures[answer.error];
                }
                connection.reset();
            }
        }
    };

    std::vector<std::pair<double, double>> rss_samples;  // (seconds, MB)
    const auto begin = Clock::now();
    std::vector<std::thread> clients;
    for (int i = 0; i < options.clients; ++i) {
        clients.emplace_back(client);
    }
    while (Clock::now() - begin < std::chrono::seconds(options.seconds)) {
        std::this_thread::sleep_for(std::chrono::seconds(1));
        rss_samples.emplace_back(std::chrono::duration<double>(Clock::now() - begin).count(),
                                 status_mb(pithd.pid(), "VmRSS"));
    }
    const double peak_mb = status_mb(pithd.pid(), "VmHWM");
    shutting_down = true;
    pithd.signal(SIGTERM);
    for (std::thread& t : clients) {
        t.join();
    }
    const std::optional<int> exit_status = pithd.wait_exit(std::chrono::seconds(60));
    const double elapsed = std::chrono::duration<double>(Clock::now() - begin).count();

    // pithd's own count of requests read but unanswered when it stopped.
    const std::string log = pithd.log();
    long lost = -1;
    if (const std::size_t at = log.find("stopped in_flight="); at != std::string::npos) {
        lost = std::atol(log.c_str() + at + 18);
    }

    std::uint64_t answered = 0;
    for (const auto& [status, n] : tally.statuses) {
        answered += n;
    }
    std::sort(tally.latencies_ms.begin(), tally.latencies_ms.end());
    const auto percentile = [&](double p) {
        if (tally.latencies_ms.empty()) {
            return 0.0;
        }
        const auto last = static_cast<double>(tally.latencies_ms.size() - 1);
        return tally.latencies_ms[static_cast<std::size_t>(p * last)];
    };
    // The median of the samples in a window of `window` seconds ending at
    // `seconds`: with pages of up to 16 MiB in flight, one sample says more
    // about what was being extracted that second than about the trend.
    const double window = std::max(1.0, std::min(60.0, static_cast<double>(options.warmup_seconds)));
    const auto rss_around = [&](double seconds) {
        std::vector<double> in_window;
        for (const auto& [t, mb] : rss_samples) {
            if (t > seconds - window - 0.5 && t <= seconds + 0.5) {
                in_window.push_back(mb);
            }
        }
        if (in_window.empty()) {
            return 0.0;
        }
        std::sort(in_window.begin(), in_window.end());
        return in_window[in_window.size() / 2];
    };
    const double rss_warm = rss_around(options.warmup_seconds + window);
    const double rss_middle = rss_around(options.seconds / 2.0);
    const double rss_end = rss_samples.empty() ? 0 : rss_around(rss_samples.back().first);
    double rss_peak = 0;
    for (const auto& [t, mb] : rss_samples) {
        rss_peak = std::max(rss_peak, mb);
    }
    const double growth = rss_warm > 0 ? 100.0 * (rss_end - rss_warm) / rss_warm : 0.0;

    std::printf("\nran %.0f s; answers: %llu (%.1f/s)", elapsed, static_cast<unsigned long long>(answered),
                static_cast<double>(answered) / std::max(1.0, static_cast<double>(options.seconds)));
    for (const auto& [status, n] : tally.statuses) {
        std::printf(", %u: %llu", status, static_cast<unsigned long long>(n));
    }
    std::printf("\nlatency: p50 %.0f ms, p99 %.0f ms, max %.0f ms\n", percentile(0.5), percentile(0.99),
                tally.latencies_ms.empty() ? 0.0 : tally.latencies_ms.back());
    std::printf("failures before SIGTERM:");
    if (tally.failures.empty()) {
        std::printf(" none");
    }
    for (const auto& [kind, n] : tally.failures) {
        std::printf(" [%s: %llu]", kind.c_str(), static_cast<unsigned long long>(n));
    }
    std::printf("\npithd RSS (medians of %.0f s windows): after warm-up (%d s) %.1f MB, middle %.1f MB, end "
                "%.1f MB; peak sampled %.1f MB, peak (VmHWM) %.1f MB; growth after warm-up %+.1f%%\n",
                window, options.warmup_seconds, rss_warm, rss_middle, rss_end, rss_peak, peak_mb, growth);
    std::printf("corpus pages answered 200: %llu; 504s: slowest %.0f ms, later than the deadline + 0.5 s: %llu\n",
                static_cast<unsigned long long>(tally.corpus_served), tally.slowest_504_ms,
                static_cast<unsigned long long>(tally.late_504));
    std::printf("shutdown: exit status %d; requests read but unanswered at stop (pithd's count): %ld; "
                "client requests cut off unread by the drain: %llu\n",
                exit_status.value_or(-1), lost, static_cast<unsigned long long>(tally.unanswered_at_shutdown));

    std::uint64_t other_statuses = 0;
    for (const auto& [status, n] : tally.statuses) {
        const bool expected =
            status == 200 || status == 503 || (options.hostile && (status == 422 || status == 504));
        other_statuses += expected ? 0 : n;
    }
    const std::string peak_check = "pithd's peak resident memory at most " + std::to_string(options.max_peak_mb) + " MB";
    const struct {
        const char* what;
        bool ok;
    } checks[] = {
        {options.hostile ? "answers other than 200, 422, 503 and 504: none" : "answers other than 200 and 503: none",
         other_statuses == 0},
        {"every 504 within the deadline plus 0.5 s", tally.late_504 == 0},
        {"corpus pages still served", tally.corpus_served > 0},
        {options.max_peak_mb > 0 ? peak_check.c_str() : "peak resident memory (no bound given)",
         options.max_peak_mb == 0 || peak_mb <= options.max_peak_mb},
        {"failures before SIGTERM: none", tally.failures.empty()},
        {options.smoke ? "resident memory growth (not checked in a smoke run)"
                       : "resident memory after warm-up grows less than 5%",
         options.smoke || growth < 5.0},
        {"pithd exits 0 after SIGTERM", exit_status == 0},
        {"zero accepted requests lost on SIGTERM", lost == 0},
    };
    bool all = true;
    std::printf("\nchecks:\n");
    for (const auto& check : checks) {
        std::printf("  %s  %s\n", check.ok ? "PASS" : "FAIL", check.what);
        all = all && check.ok;
    }
    return all ? 0 : 1;
}
