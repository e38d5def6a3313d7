#include "pithd/service.hpp"

#include <algorithm>
#include <deque>
#include <exception>
#include <mutex>
#include <new>
#include <random>

#include <nlohmann/json.hpp>

#include "pithd/request.hpp"
#include "pithd/response.hpp"
#include "pithd/inspector.hpp"
#include "pithd/logging.hpp"
#include "pith/extract.hpp"
#include "pith/pages.hpp"

#ifndef PITH_VERSION
#define PITH_VERSION "0.0.0"
#endif

namespace pith::server {

namespace {

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

HttpResponse json_response(unsigned status, const nlohmann::json& body) {
    HttpResponse response;
    response.status = status;
    response.body = body.dump();
    return response;
}

// Compares without an early exit, so the time taken does not reveal how much
// of a guessed token was right.
bool same_secret(std::string_view a, std::string_view b) noexcept {
    unsigned char diff = a.size() == b.size() ? 0 : 1;
    const std::size_t n = std::max(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
        const auto x = static_cast<unsigned char>(i < a.size() ? a[i] : 0);
        const auto y = static_cast<unsigned char>(i < b.size() ? b[i] : 0);
        diff = static_cast<unsigned char>(diff | (x ^ y));
    }
    return diff == 0;
}

// Base64 (RFC 4648, padded) decoded; nullopt when it is not base64.
std::optional<std::string> decode_base64(std::string_view text) {
    constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const auto value = [kAlphabet](char c) -> int {
        const std::size_t at = kAlphabet.find(c);
        return at == std::string_view::npos ? -1 : static_cast<int>(at);
    };
    while (!text.empty() && text.back() == '=') {
        text.remove_suffix(1);
    }
    std::string out;
    std::uint32_t bits = 0;
    int held = 0;
    for (const char c : text) {
        const int v = value(c);
        if (v < 0) {
            return std::nullopt;
        }
        bits = (bits << 6U) | static_cast<std::uint32_t>(v);
        held += 6;
        if (held >= 8) {
            held -= 8;
            out.push_back(static_cast<char>((bits >> static_cast<unsigned>(held)) & 0xFFU));
        }
    }
    return out;
}

bool iequals(std::string_view a, std::string_view b) noexcept {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [&](char x, char y) {
               return lower(x) == lower(y);
           });
}

// "Bearer <token>", or "Basic base64(user:token)" with any user name: a
// browser can only send the latter, on its own, to load the inspector.
bool carries_token(std::string_view authorization, std::string_view token) {
    const std::size_t space = authorization.find(' ');
    if (space == std::string_view::npos) {
        return false;
    }
    const std::string_view scheme = authorization.substr(0, space);
    std::string_view credentials = authorization.substr(space + 1);
    while (!credentials.empty() && credentials.front() == ' ') {
        credentials.remove_prefix(1);
    }
    if (iequals(scheme, "Bearer")) {
        return same_secret(credentials, token);
    }
    if (iequals(scheme, "Basic")) {
        const std::optional<std::string> decoded = decode_base64(credentials);
        const std::size_t colon = decoded ? decoded->find(':') : std::string::npos;
        return colon != std::string::npos && same_secret(std::string_view(*decoded).substr(colon + 1), token);
    }
    return false;
}

HttpResponse overloaded_response(const WorkerPool& pool, std::string_view request_id) {
    return error_response(
        Error{ErrorCode::overloaded, "all " + std::to_string(pool.capacity()) + " queue slots are taken"}, request_id);
}

std::optional<Budget> budget_of(ErrorCode code) noexcept {
    switch (code) {
    case ErrorCode::input_too_large: return Budget::input_bytes;
    case ErrorCode::too_many_elements: return Budget::elements;
    case ErrorCode::too_deep: return Budget::depth;
    case ErrorCode::too_many_attributes: return Budget::attributes;
    case ErrorCode::too_much_memory: return Budget::memory;
    case ErrorCode::deadline_exceeded: return Budget::deadline;
    default: return std::nullopt;
    }
}

}  // namespace

// One /extract request on its way through the pool (and the fetcher).
struct Service::ExtractJob {
    HttpRequest request;
    Clock::time_point deadline;
    Reply reply;
    ExtractRequest parsed;  // filled by run_extract_job
    // An article followed over its pages (max_pages above 1): the walk, the
    // page to add next (its HTML is parsed.html), when pages after the
    // first must end, and the time and bytes spent so far.
    std::optional<extract::ArticleWalk> walk;
    std::string page_url;
    std::string page_charset;
    Clock::time_point follow_deadline;
    double seconds = 0.0;
    std::size_t html_bytes = 0;
};

// One POST /extract/batch: its lines, and their answers as they come. It is
// also the answer's body: the session takes the answer lines from it in the
// items' order, each once it and every line before it are done, or, with
// order=completion, each as soon as it is done.
struct Service::BatchJob : ResponseStream {
    HttpRequest request;                  // its reservation holds the lines not yet answered
    Clock::time_point deadline;           // the items' own, a little before the request's
    // The lines; each is emptied once its item is answered (guarded by mutex then).
    std::vector<std::string> items;
    std::size_t concurrency = 1;          // items in flight at most
    std::mutex mutex;
    std::size_t item_bytes = 0;           // guarded by mutex: the lines not yet answered
    bool in_completion_order = false;     // order=completion: a line goes out as soon as it is done
    // Guarded by mutex: the answer lines with their share of the budget,
    // until the session takes them: by item in the items' order, in the
    // order they were done with order=completion.
    std::vector<std::optional<Piece>> answers;
    std::deque<Piece> done;
    std::size_t taken = 0;                // guarded by mutex: the lines the session has taken
    Ready waiting;                        // guarded by mutex: the session, waiting for its next line
    bool cancelled = false;               // guarded by mutex: the session wants no more
    std::size_t next_item = 0;            // guarded by mutex: the next item to start
    // Guarded by mutex: items refused for room, to start again (before
    // `next_item`) once more items have finished than when they were refused.
    std::deque<std::pair<std::size_t, std::size_t>> retry;  // (item, finished then)
    std::size_t in_flight = 0;            // guarded by mutex
    std::size_t finished = 0;             // guarded by mutex
    bool starting = false;                // guarded by mutex: start_batch_items is running

    void next(Ready ready) override {
        std::optional<Piece> piece;
        {
            const std::lock_guard lock(mutex);
            if (taken < items.size()) {  // else every line is out: none is the end
                piece = take_next();
                if (!piece) {
                    waiting = std::move(ready);
                    return;
                }
            }
        }
        ready(std::move(piece));
    }

    void cancel() override {
        const std::lock_guard lock(mutex);
        cancelled = true;
        waiting = nullptr;
        answers.assign(answers.size(), std::nullopt);  // what was not written gives its room back
        done.clear();
    }

    // The next line to write, if it is done (mutex held, a line left to take).
    std::optional<Piece> take_next() {
        if (in_completion_order) {
            if (done.empty()) {
                return std::nullopt;
            }
            Piece piece = std::move(done.front());
            done.pop_front();
            ++taken;
            return piece;
        }
        if (!answers[taken]) {
            return std::nullopt;
        }
        return std::exchange(answers[taken++], std::nullopt);
    }

    // Stores item's line and, when the session waits for it, hands it over.
    // The item's request line leaves the budget: its answer is made.
    void finish(std::size_t item, Piece line) {
        Ready ready;
        std::optional<Piece> piece;
        {
            const std::lock_guard lock(mutex);
            --in_flight;
            ++finished;
            item_bytes -= items[item].size();
            items[item] = std::string();
            if (request.memory) {
                request.memory->shrink_to(item_bytes);
            }
            if (cancelled) {
                return;
            }
            if (waiting && (in_completion_order || item == taken)) {
                ready = std::move(waiting);
                waiting = nullptr;
                piece = std::move(line);
                ++taken;
            } else if (in_completion_order) {
                done.push_back(std::move(line));
            } else {
                answers[item] = std::move(line);
            }
        }
        if (ready) {
            ready(std::move(piece));
        }
    }
};

HttpResponse error_response(const Error& error, std::string_view request_id, unsigned upstream_status) {
    HttpResponse response;
    response.status = http_status(error.code);
    response.body = error_body(error, request_id, upstream_status);
    if (error.code == ErrorCode::overloaded || error.code == ErrorCode::draining) {
        response.headers.emplace_back("Retry-After", "1");
    }
    return response;
}

std::string request_id_for(std::string_view incoming) {
    const bool usable = !incoming.empty() && incoming.size() <= 128 &&
                        std::all_of(incoming.begin(), incoming.end(), [](char c) {
                            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                                   c == '.' || c == '_' || c == ':' || c == '-';
                        });
    if (usable) {
        return std::string(incoming);
    }
    thread_local std::mt19937_64 generator{std::random_device{}()};
    const std::uint64_t value = generator();
    static constexpr char kHex[] = "0123456789abcdef";
    std::string id(16, '0');
    for (std::size_t i = 0; i < 16; ++i) {
        id[i] = kHex[(value >> (60U - 4U * i)) & 0xFU];
    }
    return id;
}

std::string_view path_of(std::string_view target) noexcept {
    return target.substr(0, std::min(target.find('?'), target.size()));
}

std::string_view query_of(std::string_view target) noexcept {
    const std::size_t question = target.find('?');
    return question == std::string_view::npos ? std::string_view{} : target.substr(question + 1);
}

Service::Service(const config::ServerConfig& config, Metrics& metrics, WorkerPool& pool, MemoryBudget& memory,
                 Fetcher* fetcher)
    : config_(config), metrics_(metrics), pool_(pool), memory_(memory), fetcher_(fetcher) {
    if (config.rules_dir.empty()) {
        return;
    }
    rules::LoadReport report;
    rules_ = rules::RuleSet::load_directory(config.rules_dir, report);
    log::info("site rules loaded", {{"dir", std::string_view(config.rules_dir)},
                                        {"files", static_cast<std::int64_t>(report.files)},
                                        {"rules", static_cast<std::int64_t>(report.rules)},
                                        {"expressions", static_cast<std::int64_t>(report.expressions)},
                                        {"rejected", static_cast<std::int64_t>(report.rejected.size())}});
    for (const rules::FileNote& note : report.rejected) {
        log::warn("site rule file rejected", {{"path", std::string_view(note.path)},
                                                  {"line", static_cast<std::int64_t>(note.line)},
                                                  {"reason", std::string_view(note.reason)}});
    }
}

void Service::set_not_ready() noexcept { ready_.store(false, std::memory_order_release); }

void Service::set_draining() noexcept {
    ready_.store(false, std::memory_order_release);
    draining_.store(true, std::memory_order_release);
}

std::optional<HttpResponse> Service::check_head(HttpRequest& head) const {
    const Route route = route_of(path_of(head.target));
    const auto refuse = [&](ErrorCode code, std::string message) {
        return error_response(Error{code, std::move(message)}, head.request_id);
    };
    // The body limit holds on every path, before anything else is decided.
    if (head.content_length && *head.content_length > config_.limits.max_body_bytes) {
        metrics_.record_budget(Budget::body_bytes);
        return refuse(ErrorCode::body_too_large, "body is " + std::to_string(*head.content_length) +
                                                     " bytes, limit " +
                                                     std::to_string(config_.limits.max_body_bytes));
    }
    if (route == Route::other || (route == Route::inspect && !config_.inspector)) {
        return refuse(ErrorCode::not_found, "no endpoint " + std::string(path_of(head.target)));
    }
    // The ops endpoints answer HEAD as GET, without the body (probes use it).
    const bool posted = route == Route::extract || route == Route::extract_batch;
    const bool allowed = posted ? head.method == "POST" : (head.method == "GET" || head.method == "HEAD");
    if (!allowed) {
        const std::string_view allow = posted ? "POST" : "GET, HEAD";
        HttpResponse response =
            refuse(ErrorCode::method_not_allowed, std::string(route_label(route)) + " takes " + std::string(allow));
        response.headers.emplace_back("Allow", std::string(allow));
        return response;
    }
    if (!posted && route != Route::inspect) {
        return std::nullopt;
    }
    if (!config_.auth_token.empty() && !carries_token(head.authorization, config_.auth_token)) {
        HttpResponse response = refuse(ErrorCode::unauthorized, "this endpoint needs a valid bearer token");
        // A browser asks its user for Basic credentials; other clients send the bearer token.
        if (route == Route::inspect) {
            response.headers.emplace_back("WWW-Authenticate", "Basic realm=\"pithd\", charset=\"UTF-8\"");
        }
        response.headers.emplace_back("WWW-Authenticate", "Bearer realm=\"pithd\"");
        return response;
    }
    if (route == Route::inspect) {
        return std::nullopt;
    }
    if (draining()) {
        return refuse(ErrorCode::draining, "the server is shutting down");
    }
    if (pool_.depth() >= pool_.capacity()) {
        // Refused before the body is read: under overload, reading bodies only
        // to refuse them would take the I/O thread from the work that is queued.
        return overloaded_response(pool_, head.request_id);
    }
    const MediaType media = parse_media_type(head.content_type);
    if (route == Route::extract_batch) {
        if (!is_ndjson_media_type(media.type)) {
            return refuse(ErrorCode::unsupported_media_type,
                          "POST /extract/batch takes application/x-ndjson (one /extract request a line), got " +
                              (media.type.empty() ? std::string("no Content-Type") : "\"" + media.type + "\""));
        }
        if (Result<BatchOrder> order = parse_batch_query(query_of(head.target)); !order) {
            return error_response(std::move(order).error(), head.request_id);
        }
    } else if (media.type == "application/json") {
        if (!media.charset.empty() && media.charset != "utf-8" && media.charset != "utf8") {
            return refuse(ErrorCode::unsupported_media_type,
                          "JSON bodies are UTF-8; got charset " + media.charset);
        }
    } else if (!is_html_media_type(media.type)) {
        return refuse(ErrorCode::unsupported_media_type,
                      "POST /extract takes application/json or text/html, got " +
                          (media.type.empty() ? std::string("no Content-Type") : "\"" + media.type + "\""));
    }
    // A chunked body may grow to the limit, so the limit is what it holds.
    const std::size_t body_bytes = head.content_length.value_or(config_.limits.max_body_bytes);
    std::optional<MemoryReservation> reservation = MemoryReservation::take(memory_, body_bytes);
    if (!reservation) {
        metrics_.record_memory_refusal();
        return error_response(memory_.refusal(body_bytes), head.request_id);
    }
    head.memory = std::make_shared<MemoryReservation>(std::move(*reservation));
    return std::nullopt;
}

void Service::handle(HttpRequest request, Clock::time_point deadline, Reply reply) {
    const Route route = route_of(path_of(request.target));
    switch (route) {
    case Route::healthz:
        reply(json_response(200, {{"status", "ok"}}));
        return;
    case Route::readyz:
        if (ready_.load(std::memory_order_acquire)) {
            reply(json_response(200, {{"status", "ready"}}));
        } else {
            reply(json_response(503, {{"status", "draining"}}));
        }
        return;
    case Route::metrics: {
        HttpResponse response;
        response.content_type = "text/plain; version=0.0.4; charset=utf-8";
        response.body = metrics_.render();
        reply(std::move(response));
        return;
    }
    case Route::version:
        reply(json_response(200, {{"name", "pithd"}, {"version", PITH_VERSION}}));
        return;
    case Route::inspect: {
        const InspectorPage& page = inspector_page();
        HttpResponse response;
        response.content_type = "text/html; charset=utf-8";
        response.body = page.html;
        response.headers = page.headers;
        reply(std::move(response));
        return;
    }
    case Route::extract: break;
    case Route::extract_batch: start_batch(std::move(request), deadline, std::move(reply)); return;
    case Route::other:
    case Route::count_:
        reply(error_response(Error{ErrorCode::not_found, "no endpoint"}, request.request_id));
        return;
    }
    auto job = std::make_shared<ExtractJob>();
    job->request = std::move(request);
    job->deadline = deadline;
    job->reply = std::move(reply);
    submit(std::move(job), &Service::run_extract_job);
}

void Service::run_step(const std::shared_ptr<ExtractJob>& job, Step step) {
    metrics_.workers_busy.fetch_add(1, std::memory_order_relaxed);
    try {
        (this->*step)(job);
    } catch (const std::bad_alloc&) {
        job->reply(error_response(Error{ErrorCode::internal, "out of memory"}, job->request.request_id));
    } catch (const std::exception& e) {
        job->reply(error_response(Error{ErrorCode::internal, e.what()}, job->request.request_id));
    }
    metrics_.workers_busy.fetch_sub(1, std::memory_order_relaxed);
}

void Service::submit(std::shared_ptr<ExtractJob> job, Step step) {
    const bool queued = pool_.try_submit([this, job, step] { run_step(job, step); });
    if (!queued) {
        job->reply(overloaded_response(pool_, job->request.request_id));
    }
}

// On a worker: parse the request (JSON parsing of a large body belongs off the
// I/O threads), then extract, or fetch first when only a URL was given.
void Service::run_extract_job(const std::shared_ptr<ExtractJob>& job) {
    const std::string& request_id = job->request.request_id;
    if (Clock::now() >= job->deadline) {
        metrics_.record_budget(Budget::deadline);
        metrics_.record_extraction(ExtractionOutcome::deadline_exceeded, 0, 0, 0);
        HttpResponse response =
            error_response(Error{ErrorCode::deadline_exceeded, "deadline passed while the request waited for a worker"},
                           request_id);
        response.extraction_status = "deadline_exceeded";
        job->reply(std::move(response));
        return;
    }
    const MediaType media = parse_media_type(job->request.content_type);
    const bool is_json = media.type == "application/json";
    // A JSON parse holds copies of the page beside the body until it ends
    // (kJsonParseFactor); a text/html body is moved, not copied.
    std::shared_ptr<MemoryReservation> parse_memory;
    if (is_json) {
        if (std::optional<Error> refused = hold_memory(parse_memory, kJsonParseFactor * job->request.body.size())) {
            job->reply(error_response(*refused, request_id));
            return;
        }
    }
    Result<ExtractRequest> parsed =
        is_json ? parse_json_request(job->request.body, query_of(job->request.target), config_)
                : parse_raw_request(std::move(job->request.body), query_of(job->request.target), media.charset, config_);
    job->request.body = std::string();  // the page lives in the parsed request now
    parse_memory.reset();
    if (!parsed) {
        job->reply(error_response(parsed.error(), request_id));
        return;
    }
    job->parsed = std::move(parsed).value();
    if (job->parsed.timeout) {
        job->deadline = std::min(job->deadline, Clock::now() + *job->parsed.timeout);
    }
    const bool follow = job->parsed.options.pages.max_pages > 1 && !job->parsed.url.empty() && !job->parsed.inspect;
    if (follow) {
        // Pages after the first end a little before the request's deadline,
        // so that the ones read are answered before the session's 504.
        const Clock::duration left = std::max(Clock::duration::zero(), job->deadline - Clock::now());
        job->follow_deadline = job->deadline - std::min<Clock::duration>(std::chrono::milliseconds(500), left / 10);
        job->walk.emplace(job->parsed.options);
    }
    if (job->parsed.has_html) {
        if (follow) {
            job->page_url = job->parsed.url;
            job->page_charset = job->parsed.options.input.charset;
            walk_and_reply(job);
        } else {
            extract_and_reply(job);
        }
        return;
    }
    if (fetcher_ == nullptr || !config_.fetch.enabled) {
        job->reply(error_response(
            Error{ErrorCode::invalid_argument, "fetching URLs is disabled on this server: give \"html\""},
            request_id));
        return;
    }
    // The fetched body is held in the request's reservation (its own body is
    // gone), which the extraction then grows to the page's estimate.
    HoldMemory hold = [this, job](std::size_t bytes) { return hold_memory(job->request.memory, bytes); };
    fetcher_->fetch(job->parsed.url, job->deadline, std::move(hold), [this, job](FetchResult fetched) {
        if (fetched.error) {
            HttpResponse response = error_response(*fetched.error, job->request.request_id, fetched.upstream_status);
            response.extraction_status = "fetch_failed";
            job->reply(std::move(response));
            return;
        }
        job->parsed.html = std::move(fetched.body);
        job->parsed.has_html = true;
        if (job->walk) {
            job->page_url = std::move(fetched.final_url);
            job->page_charset = std::move(fetched.charset);
            submit(job, &Service::walk_and_reply);
            return;
        }
        job->parsed.options.input.charset = std::move(fetched.charset);
        job->parsed.options.input.url = fetched.final_url;
        submit(job, &Service::extract_and_reply);
    });
}

void Service::walk_and_reply(const std::shared_ptr<ExtractJob>& job) {
    extract::ArticleWalk& walk = *job->walk;
    const std::size_t held = walk.held_bytes();
    bind_runtime(walk.options(), job, held);
    if (walk.pages_read() > 0) {
        walk.options().runtime.deadline = job->follow_deadline;
    }
    const Clock::time_point start = Clock::now();
    job->html_bytes += job->parsed.html.size();
    std::optional<std::string> next =
        walk.add_page(job->parsed.html, std::move(job->page_url), std::move(job->page_charset));
    job->parsed.html = std::string();
    job->seconds += seconds_since(start);
    // The page's HTML is gone: the reservation keeps the article so far.
    if (job->request.memory) {
        job->request.memory->shrink_to(walk.held_bytes());
    }
    if (next) {
        if (fetcher_ == nullptr || !config_.fetch.enabled) {
            walk.stop("fetch_failed", "fetching URLs is disabled on this server");
        } else if (Clock::now() >= job->follow_deadline) {
            walk.stop("deadline", "no time was left before the request's deadline");
        } else {
            fetch_next_page(job, std::move(*next));
            return;
        }
    }
    finish_walk(job);
}

void Service::fetch_next_page(const std::shared_ptr<ExtractJob>& job, std::string url) {
    // The fetched page is held beside the article read so far.
    HoldMemory hold = [this, job](std::size_t bytes) {
        return hold_memory(job->request.memory, job->walk->held_bytes() + bytes);
    };
    fetcher_->fetch(std::move(url), job->follow_deadline, std::move(hold), [this, job](FetchResult fetched) {
        if (fetched.error) {
            const ErrorCode code = fetched.error->code;
            job->walk->stop(code == ErrorCode::deadline_exceeded ? "deadline"
                            : code == ErrorCode::overloaded     ? "refused"
                                                                : "fetch_failed",
                            fetched.error->message);
        } else {
            job->parsed.html = std::move(fetched.body);
            job->page_url = std::move(fetched.final_url);
            job->page_charset = std::move(fetched.charset);
        }
        const auto step = fetched.error ? &Service::finish_walk : &Service::walk_and_reply;
        if (!pool_.try_submit([this, job, step] { run_step(job, step); })) {
            // The pages read so far are answered rather than lost.
            job->parsed.html = std::string();
            job->walk->stop("refused", "all worker queue slots were taken");
            finish_walk(job);
        }
    });
}

void Service::finish_walk(const std::shared_ptr<ExtractJob>& job) {
    reply_with_article(job, job->walk->finish(), std::nullopt, job->seconds, job->html_bytes);
}

std::optional<Error> Service::hold_memory(std::shared_ptr<MemoryReservation>& reservation, std::size_t bytes) {
    if (!reservation) {
        if (std::optional<MemoryReservation> taken = MemoryReservation::take(memory_, bytes)) {
            reservation = std::make_shared<MemoryReservation>(std::move(*taken));
            return std::nullopt;
        }
    } else if (reservation->grow_to(bytes)) {
        return std::nullopt;
    }
    metrics_.record_memory_refusal();
    return memory_.refusal(bytes);
}

void Service::bind_runtime(extract::ExtractOptions& options, const std::shared_ptr<ExtractJob>& job,
                           std::size_t held_bytes) {
    options.runtime.deadline = job->deadline;
    // Each worker keeps its arena blocks from one page to the next; they are
    // held outside the memory budget, up to kDefaultBlockCacheBytes a worker.
    thread_local dom::BlockCache blocks(dom::kDefaultBlockCacheBytes);
    options.runtime.block_cache = &blocks;
    if (rules_.size() > 0) {
        options.rules = &rules_;
    }
    // The page's working memory joins what the request holds (its body, or
    // the fetched page, and the pages of its article read before) in its
    // reservation before the parse.
    // A plain pointer: the options live in the job, and only run while it does.
    options.runtime.admit = [this, request = &job->request, held_bytes](const extract::CostEstimate& cost) {
        return hold_memory(request->memory, held_bytes + cost.memory_bytes);
    };
}

void Service::extract_and_reply(const std::shared_ptr<ExtractJob>& job) {
    ExtractRequest& request = job->parsed;
    bind_runtime(request.options, job, 0);
    const Clock::time_point start = Clock::now();
    // The inspector's request runs every strategy; its metrics are the asked one's.
    std::optional<extract::Inspection> inspection;
    extract::Article extracted;
    if (request.inspect) {
        inspection = extract::inspect(request.html, request.options);
    } else {
        extracted = extract::extract(request.html, request.options);
    }
    const std::size_t html_bytes = request.html.size();
    request.html = std::string();
    reply_with_article(job, std::move(extracted), std::move(inspection), seconds_since(start), html_bytes);
}

void Service::reply_with_article(const std::shared_ptr<ExtractJob>& job, extract::Article extracted,
                                 std::optional<extract::Inspection> inspection, double seconds,
                                 std::size_t html_bytes) {
    const std::string& request_id = job->request.request_id;
    extract::Article& article = inspection ? inspection->article : extracted;
    const ExtractionOutcome outcome = outcome_of(article);
    const bool has_article = !article.confidence_features.empty();
    metrics_.record_extraction(outcome, seconds, article.passes.size(), html_bytes,
                               has_article ? std::optional<double>(article.confidence) : std::nullopt);
    if (article.error) {
        if (const std::optional<Budget> budget = budget_of(article.error->code)) {
            metrics_.record_budget(*budget);
        }
    }

    HttpResponse response;
    const bool refused = article.status == extract::Status::budget_exceeded ||
                         (article.error && article.error->code == ErrorCode::internal);
    if (refused && article.error) {
        response = error_response(*article.error, request_id);
    } else {
        response.body = inspection ? inspection_body(std::move(*inspection), request_id)
                                   : article_body(std::move(article), job->parsed, request_id);
    }
    response.extraction_status = std::string(outcome_label(outcome));
    if (job->request.memory) {
        job->request.memory->shrink_to(response.body.size());
        response.memory = job->request.memory;
    }
    job->reply(std::move(response));
}

void Service::start_batch(HttpRequest request, Clock::time_point deadline, Reply reply) {
    auto batch = std::make_shared<BatchJob>();
    batch->request = std::move(request);
    // The items end a little before the request's deadline, with
    // deadline_exceeded for those that did not finish, so that every line is
    // written before the session ends the stream.
    const Clock::duration left = std::max(Clock::duration::zero(), deadline - Clock::now());
    batch->deadline = deadline - std::min<Clock::duration>(std::chrono::milliseconds(500), left / 10);
    Result<BatchOrder> order = parse_batch_query(query_of(batch->request.target));
    if (!order) {  // check_head refused it already, but a caller may come without a head
        reply(error_response(std::move(order).error(), batch->request.request_id));
        return;
    }
    batch->in_completion_order = order.value() == BatchOrder::completion;
    const bool split_on_read = batch->request.batch_lines.has_value();
    BatchLines lines = split_on_read ? std::move(*batch->request.batch_lines)
                                     : BatchLines(config_.limits.max_batch_items);
    batch->request.batch_lines.reset();
    if (!split_on_read) {  // a body read whole, by a caller other than the session
        lines.add(batch->request.body);
        lines.finish();
        batch->request.body = std::string();
    }
    if (lines.too_many()) {
        reply(error_response(Error{ErrorCode::invalid_argument,
                                   "the batch holds more than " + std::to_string(config_.limits.max_batch_items) +
                                       " items (limits.max_batch_items)"},
                             batch->request.request_id));
        return;
    }
    batch->item_bytes = lines.bytes();
    batch->items = lines.take();
    if (batch->request.memory) {
        batch->request.memory->shrink_to(batch->item_bytes);  // the head reserved the body's length, or the limit
    }
    if (batch->items.empty()) {
        HttpResponse response;
        response.content_type = "application/x-ndjson";
        reply(std::move(response));
        return;
    }
    if (!batch->in_completion_order) {
        batch->answers.resize(batch->items.size());
    }
    // One item a worker at a time: a batch throttles itself instead of
    // filling the queue that single requests wait in.
    batch->concurrency = std::max<std::size_t>(1, pool_.threads());
    HttpResponse response;
    response.content_type = "application/x-ndjson";
    response.extraction_status = "batch";
    response.stream = batch;
    reply(std::move(response));
    start_batch_items(batch);
}

void Service::start_batch_items(const std::shared_ptr<BatchJob>& batch) {
    {
        const std::lock_guard lock(batch->mutex);
        if (batch->starting) {
            return;  // the loop below, further up the stack, takes the free slot
        }
        batch->starting = true;
    }
    for (;;) {
        std::size_t item = 0;
        bool last_chance_refused = false;
        {
            const std::lock_guard lock(batch->mutex);
            const bool retry_ready = !batch->retry.empty() && batch->retry.front().second < batch->finished;
            // New items start while one waits for room. Holding them back until
            // it had its chance gave 80 of PithdBatch's 110 equal pages in a
            // 6 MiB budget instead of 48 to 58 (no answers queued behind the
            // waiting one), but 53 of batch_stream.py's 60 mixed pages in 16
            // MiB instead of 57 to 59: a small page that fits then waits too.
            if (batch->cancelled || batch->in_flight >= batch->concurrency ||
                (!retry_ready && batch->next_item >= batch->items.size() &&
                 (batch->retry.empty() || batch->in_flight > 0))) {
                batch->starting = false;
                return;
            }
            if (retry_ready || batch->next_item >= batch->items.size()) {
                // A retry whose wait is over, or, with nothing left running
                // that could give room back, one refused for good.
                last_chance_refused = !retry_ready;
                item = batch->retry.front().first;
                batch->retry.pop_front();
            } else {
                item = batch->next_item++;
            }
            ++batch->in_flight;
        }
        const std::string item_id = batch->request.request_id + "-" + std::to_string(item);
        if (last_chance_refused) {
            finish_batch_item(batch, item,
                              error_response(Error{ErrorCode::overloaded,
                                                   "no room in the memory budget or the queue for this item, "
                                                   "even once the batch's other items were done"},
                                             item_id));
            continue;
        }
        if (Clock::now() >= batch->deadline) {
            finish_batch_item(batch, item,
                              error_response(Error{ErrorCode::deadline_exceeded,
                                                   "the batch's deadline passed before this item started"},
                                             item_id));
            continue;
        }
        // Each item is an /extract request with a JSON body: the same parse,
        // fetch, memory budget, deadline and answer.
        auto job = std::make_shared<ExtractJob>();
        job->request.method = "POST";
        job->request.target = "/extract";
        job->request.content_type = "application/json";
        job->request.request_id = item_id;
        // Its line's bytes are already in the batch's reservation, until it is answered.
        job->request.body = batch->items[item];
        job->deadline = batch->deadline;
        job->reply = [this, batch, item](HttpResponse answer) {
            // Refused for room (memory or queue) while other items of the
            // batch run: it waits for one of them to end instead.
            if (answer.status != 503 || !requeue_batch_item(*batch, item)) {
                finish_batch_item(batch, item, std::move(answer));
            }
            start_batch_items(batch);
        };
        submit(std::move(job), &Service::run_extract_job);
    }
}

bool Service::requeue_batch_item(BatchJob& batch, std::size_t item) {
    const std::lock_guard lock(batch.mutex);
    if (batch.in_flight <= 1 || Clock::now() >= batch.deadline) {
        return false;  // nothing else of the batch will give room back
    }
    batch.retry.emplace_back(item, batch.finished);
    --batch.in_flight;
    return true;
}

void Service::finish_batch_item(const std::shared_ptr<BatchJob>& batch, std::size_t item, HttpResponse answer) {
    metrics_.record_batch_item(answer.status == 200);
    // The item's answer as a line: its position and HTTP status first.
    std::string line = "{\"item\":" + std::to_string(item) + ",\"http_status\":" + std::to_string(answer.status);
    if (answer.body.size() > 2 && answer.body.front() == '{') {
        line.reserve(line.size() + answer.body.size() + 1);
        line += ',';
        line.append(answer.body, 1);
    } else {
        line += '}';
    }
    line += '\n';
    answer.body = std::string();
    batch->finish(item, ResponseStream::Piece{std::move(line), std::move(answer.memory)});
}

}  // namespace pith::server
