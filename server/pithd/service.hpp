// What pithd does with a request, apart from the bytes on the wire: routing,
// authentication, the checks made before a body is read, the ops endpoints,
// and /extract's hand-off to the worker pool (and to the fetcher for URLs).
// The HTTP session (session.cpp) turns wire requests into HttpRequest and
// HttpResponse into wire responses; nothing here includes Beast.
//
// Thread-safety: check_head and handle may be called from any I/O thread
// concurrently; `reply` callbacks run on I/O or worker threads and must hand
// the response to the session's own executor.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config.hpp"
#include "pithd/batch_lines.hpp"
#include "pithd/memory_budget.hpp"
#include "pithd/metrics.hpp"
#include "pith/inspect.hpp"
#include "pith/result.hpp"
#include "pith/rules.hpp"
#include "pithd/worker_pool.hpp"

namespace pith::server {

using Clock = std::chrono::steady_clock;

struct HttpRequest {
    std::string method;  // "GET", "POST", ...
    std::string target;  // path and query, as sent
    std::string content_type;
    std::string authorization;
    std::optional<std::uint64_t> content_length;  // nullopt for chunked or absent
    std::string request_id;
    std::string body;
    // POST /extract/batch: the body's lines, split as it was read (body then
    // stays empty). Without them a batch's body is split when it starts.
    std::optional<BatchLines> batch_lines;
    // The request's share of the memory budget, taken by check_head; shared
    // by the copies a request makes on its way to a worker, and released
    // with the last of them.
    std::shared_ptr<MemoryReservation> memory;
};

// A response body given piece by piece, as the pieces are ready: the lines of
// a batch. The session asks for one piece at a time and asks for the next
// once the last is written, so a client that reads slowly slows the pieces
// down instead of piling them up.
class ResponseStream {
public:
    struct Piece {
        std::string bytes;
        std::shared_ptr<MemoryReservation> memory;  // the piece's share of the budget, until it is written
    };
    // Called once with the next piece, or with nullopt when the body is
    // complete: at once when it is there, else from the thread that completes
    // it (a worker or an I/O thread).
    using Ready = std::function<void(std::optional<Piece>)>;
    virtual ~ResponseStream() = default;
    virtual void next(Ready ready) = 0;
    // The client is gone or out of time: nothing more is asked for, and what
    // has not started need not run.
    virtual void cancel() = 0;
};

struct HttpResponse {
    unsigned status = 200;
    std::string content_type = "application/json";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;  // Retry-After, Allow, ...
    std::string extraction_status;  // for the access log; "" when nothing was extracted
    // An extraction's answer keeps its request's reservation, cut to the
    // answer's size, until it is written: a client that does not read cannot
    // make pithd hold answers outside the budget.
    std::shared_ptr<MemoryReservation> memory;
    // When set, the body is this stream's pieces, written as they come
    // (chunked), and `body` is empty.
    std::shared_ptr<ResponseStream> stream;
};

// A page a fetch brought back, or why it did not.
struct FetchResult {
    std::optional<Error> error;
    unsigned upstream_status = 0;  // with error upstream_status
    std::string body;              // decoded from its Content-Encoding
    std::string charset;           // from the response's Content-Type, may be ""
    std::string final_url;         // after redirects: the base for links
};

// Fetches URLs on the I/O threads (fetcher.cpp). `done` is called exactly
// once, on an I/O thread.
class Fetcher {
public:
    using Done = std::function<void(FetchResult)>;
    virtual ~Fetcher() = default;
    // `hold` is asked before the fetch holds more of the body, raw or decoded;
    // its error ends the fetch.
    virtual void fetch(std::string url, Clock::time_point deadline, HoldMemory hold, Done done) = 0;
};

class Service {
public:
    using Reply = std::function<void(HttpResponse)>;

    // `fetcher` may be null: URL requests then get invalid_argument.
    Service(const config::ServerConfig& config, Metrics& metrics, WorkerPool& pool, MemoryBudget& memory,
            Fetcher* fetcher);

    // The answer to send instead of reading the body, when the head alone
    // decides it: body too large (any path), unknown route, wrong method,
    // missing token, draining, full queue, unsupported media type, or a body
    // the memory budget has no room for. When it lets an /extract request
    // through, the body's bytes are reserved in head.memory.
    [[nodiscard]] std::optional<HttpResponse> check_head(HttpRequest& head) const;

    // Answers a request whose body has been read (for POST /extract/batch, an
    // NDJSON answer line per item, in order, streamed as each line and those
    // before it are done). Calls `reply` exactly once: before returning, or
    // later from a worker or I/O thread. `deadline` is when the answer is due
    // (the session answers 504 itself past it, or ends a stream still open).
    void handle(HttpRequest request, Clock::time_point deadline, Reply reply);

    // After SIGTERM: /readyz answers 503 from not_ready on; /extract is
    // refused from draining on.
    // Set once, before serving (the fetcher lives on the I/O context).
    void set_fetcher(Fetcher* fetcher) noexcept { fetcher_ = fetcher; }

    void set_not_ready() noexcept;
    void set_draining() noexcept;
    [[nodiscard]] bool draining() const noexcept { return draining_.load(std::memory_order_acquire); }

    [[nodiscard]] const config::ServerConfig& config() const noexcept { return config_; }
    [[nodiscard]] Metrics& metrics() const noexcept { return metrics_; }

private:
    struct ExtractJob;
    struct BatchJob;
    void run_extract_job(const std::shared_ptr<ExtractJob>& job);
    // POST /extract/batch: its items start as /extract requests, a few at a
    // time, and the answer is a stream of their lines in the items' order.
    void start_batch(HttpRequest request, Clock::time_point deadline, Reply reply);
    void start_batch_items(const std::shared_ptr<BatchJob>& batch);
    void finish_batch_item(const std::shared_ptr<BatchJob>& batch, std::size_t item, HttpResponse answer);
    // Puts an item refused for room back in line when other items of its
    // batch are running (their end gives the room back): it starts again once
    // one more item has finished. False when none runs.
    static bool requeue_batch_item(BatchJob& batch, std::size_t item);
    using Step = void (Service::*)(const std::shared_ptr<ExtractJob>&);
    void extract_and_reply(const std::shared_ptr<ExtractJob>& job);
    // An article over several pages: adds the page in hand, then fetches the
    // next (fetch_next_page) or answers what was read (finish_walk).
    void walk_and_reply(const std::shared_ptr<ExtractJob>& job);
    void fetch_next_page(const std::shared_ptr<ExtractJob>& job, std::string url);
    void finish_walk(const std::shared_ptr<ExtractJob>& job);
    // The extraction's runtime hooks on this worker: the deadline, the
    // thread's block cache, the site rules, and the memory admission on top
    // of `held_bytes` the request already keeps.
    void bind_runtime(extract::ExtractOptions& options, const std::shared_ptr<ExtractJob>& job,
                      std::size_t held_bytes);
    void reply_with_article(const std::shared_ptr<ExtractJob>& job, extract::Article article,
                            std::optional<extract::Inspection> inspection, double seconds, std::size_t html_bytes);
    void run_step(const std::shared_ptr<ExtractJob>& job, Step step);
    void submit(std::shared_ptr<ExtractJob> job, Step step);
    // Grows `reservation` (taking one when there is none) to `bytes` in all;
    // the overloaded error, counted, when the budget has no room.
    std::optional<Error> hold_memory(std::shared_ptr<MemoryReservation>& reservation, std::size_t bytes);

    const config::ServerConfig& config_;
    Metrics& metrics_;
    WorkerPool& pool_;
    MemoryBudget& memory_;
    Fetcher* fetcher_;
    rules::RuleSet rules_;               // from config rules.dir, loaded once
    std::atomic<bool> ready_{true};      // false from set_not_ready on
    std::atomic<bool> draining_{false};  // true from set_draining on
};

// An error as an HTTP response: status from http_status(), JSON error body.
[[nodiscard]] HttpResponse error_response(const Error& error, std::string_view request_id,
                                          unsigned upstream_status = 0);

// The request id to use: the client's X-Request-Id when it is 1..128
// characters of [A-Za-z0-9._:-], else a fresh random one (16 hex digits).
[[nodiscard]] std::string request_id_for(std::string_view incoming);

// The path of a request target, without its query.
[[nodiscard]] std::string_view path_of(std::string_view target) noexcept;
// The query of a request target, without the '?'; "" when there is none.
[[nodiscard]] std::string_view query_of(std::string_view target) noexcept;

}  // namespace pith::server
