// The listener, the sessions and the lifecycle of pithd, on Boost.Beast.
//
// A session serves one connection on its own strand, one request at a time:
//   wait for the first byte (idle_timeout) -> read the header (read_timeout
//   from that first byte) -> check the head (route, method, token, size, media
//   type; answered before the body is read) -> read the body (same deadline)
//   -> hand the request to the Service -> answer when the reply arrives or at
//   the request deadline, whichever is first -> write (write_timeout) -> next.
// The Service's reply comes from a worker thread and is posted back to the
// session's strand; a worker never touches a session.
//
// Shutdown (SIGTERM, SIGINT): /readyz turns 503; after shutdown_delay the
// listener closes, idle connections close, new requests on open connections
// get 503 draining, and in-flight requests get until drain_timeout to finish.
// Then the I/O threads stop and the worker pool is joined. A second signal
// skips the wait.
#include "http_server.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <csignal>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "api.hpp"
#include "fetcher.hpp"
#include "logging.hpp"
#include "metrics.hpp"
#include "service.hpp"
#include "worker_pool.hpp"

namespace pith::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;

namespace {

constexpr std::size_t kFirstReadBytes = 4096;
// After answering a request whose body was not read (a refusal from the head,
// 413, 431, 400), the rest of what the client sends is read and dropped for at
// most this long before the socket closes. Closing with unread bytes would send
// a reset, and a client still writing its body would lose the answer.
// It also ends when the client sends nothing for kLingerIdle.
constexpr std::chrono::seconds kLingerTime{5};
constexpr std::chrono::seconds kLingerIdle{1};
constexpr std::size_t kLingerReadBytes = 64U * 1024U;
// Request paths longer than this are cut in the access log.
constexpr std::size_t kLoggedPathMax = 256;

double millis_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// A client going away or a timeout is normal; only the rest is worth a line.
bool is_quiet(const error_code& ec) {
    return ec == net::error::operation_aborted || ec == http::error::end_of_stream || ec == beast::error::timeout ||
           ec == net::error::connection_reset || ec == net::error::broken_pipe || ec == net::error::eof ||
           ec == net::error::not_connected || ec == net::error::bad_descriptor;
}

// Errors of Beast's HTTP parser: the client sent something that is not HTTP.
bool is_parse_error(const error_code& ec) {
    return ec.category() == make_error_code(http::error::bad_method).category() &&
           ec != http::error::end_of_stream && ec != http::error::partial_message;
}

void fail(const error_code& ec, std::string_view what) {
    if (is_quiet(ec)) {
        return;
    }
    log::debug("connection error", {{"during", what}, {"error", ec.message()}});
}

class Server;

class Session : public std::enable_shared_from_this<Session> {
public:
    Session(tcp::socket&& socket, std::shared_ptr<Server> server);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    void start();
    [[nodiscard]] beast::tcp_stream::executor_type executor() { return stream_.get_executor(); }
    // Posted to the session's strand when the server starts draining.
    void on_drain();

private:
    void do_wait_for_request();
    void on_first_bytes(error_code ec, std::size_t bytes);
    void do_read_header();
    void on_read_header(error_code ec, std::size_t bytes);
    void do_read_body();
    void on_read_body(error_code ec, std::size_t bytes);
    // Ends the request on a read error of `part` ("request", "request body");
    // false when there was none.
    bool end_on_read_error(const error_code& ec, std::string_view part);
    void dispatch_request();
    void on_reply(std::uint64_t sequence, HttpResponse response);
    void on_deadline(std::uint64_t sequence, error_code ec);
    void do_write(HttpResponse response, bool close);
    void on_write(bool close, error_code ec, std::size_t bytes);
    // A failure while a request is open: answer it when the wire still works.
    void answer_error(ErrorCode code, std::string message);
    void finish_request();
    void do_linger();
    void on_linger(error_code ec, std::size_t bytes);
    void do_close();

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    http::response<http::string_body> response_;
    std::shared_ptr<MemoryReservation> response_memory_;  // the answer's share of the budget while it is written
    net::steady_timer deadline_timer_;
    std::shared_ptr<Server> server_;
    Service& service_;
    const config::Limits& limits_;
    std::string remote_;

    // State of the current request; touched on the strand only.
    HttpRequest head_;
    std::uint64_t sequence_ = 0;
    bool idle_ = false;             // waiting for a request's first byte
    bool request_open_ = false;     // counted in requests_in_flight
    bool awaiting_reply_ = false;
    bool keep_alive_ = true;
    bool request_read_ = false;     // the whole current request, body included, was read
    std::uint64_t request_bytes_ = 0;
    Clock::time_point request_start_;
    Clock::time_point linger_until_;
    std::string extraction_status_;
};

class Server : public std::enable_shared_from_this<Server> {
public:
    Server(net::io_context& ioc, const config::ServerConfig& config, Service& service, Metrics& metrics)
        : ioc_(ioc),
          config_(config),
          service_(service),
          metrics_(metrics),
          acceptor_(net::make_strand(ioc)),
          signals_(ioc, SIGINT, SIGTERM),
          lifecycle_timer_(ioc),
          accept_retry_timer_(acceptor_.get_executor()) {}

    // Opens the listener; false (logged) when the address cannot be bound.
    bool listen();
    void start();

    Service& service() noexcept { return service_; }
    Metrics& metrics() noexcept { return metrics_; }

    void register_session(const std::shared_ptr<Session>& session);
    void request_started() noexcept { metrics_.requests_in_flight.fetch_add(1, std::memory_order_relaxed); }
    void request_finished();

private:
    void do_accept();
    void on_accept(error_code ec, tcp::socket socket);
    void reject(tcp::socket& socket);
    void on_signal(error_code ec, int signal);
    void start_drain();
    void finish();

    net::io_context& ioc_;
    const config::ServerConfig& config_;
    Service& service_;
    Metrics& metrics_;
    tcp::acceptor acceptor_;
    net::signal_set signals_;
    net::steady_timer lifecycle_timer_;  // shutdown delay, then drain timeout
    net::steady_timer accept_retry_timer_;
    std::mutex sessions_mutex_;                     // guards sessions_
    std::vector<std::weak_ptr<Session>> sessions_;  // for closing idle ones on drain
    std::atomic<bool> draining_{false};
    std::atomic<bool> finished_{false};
    int signals_seen_ = 0;  // on the signal handler's path only
};

// ---- Session ----

Session::Session(tcp::socket&& socket, std::shared_ptr<Server> server)
    : stream_(std::move(socket)),
      deadline_timer_(stream_.get_executor()),
      server_(std::move(server)),
      service_(server_->service()),
      limits_(service_.config().limits) {
    error_code ec;
    const tcp::endpoint peer = stream_.socket().remote_endpoint(ec);
    remote_ = ec ? std::string("-") : peer.address().to_string();
    server_->metrics().connections_open.fetch_add(1, std::memory_order_relaxed);
}

Session::~Session() {
    if (request_open_) {
        server_->request_finished();
    }
    server_->metrics().connections_open.fetch_sub(1, std::memory_order_relaxed);
}

void Session::start() {
    net::dispatch(stream_.get_executor(), beast::bind_front_handler(&Session::do_wait_for_request, shared_from_this()));
}

void Session::on_drain() {
    if (idle_) {
        do_close();
    }
}

void Session::do_wait_for_request() {
    if (service_.draining()) {
        do_close();
        return;
    }
    if (buffer_.size() > 0) {  // a pipelined request is already here
        do_read_header();
        return;
    }
    idle_ = true;
    stream_.expires_after(limits_.idle_timeout);
    stream_.async_read_some(buffer_.prepare(kFirstReadBytes),
                            beast::bind_front_handler(&Session::on_first_bytes, shared_from_this()));
}

void Session::on_first_bytes(error_code ec, std::size_t bytes) {
    idle_ = false;
    if (ec) {
        fail(ec, "waiting for a request");
        do_close();
        return;
    }
    buffer_.commit(bytes);
    do_read_header();
}

void Session::do_read_header() {
    request_open_ = true;
    server_->request_started();
    request_start_ = Clock::now();
    request_bytes_ = 0;
    request_read_ = false;
    extraction_status_.clear();
    head_ = HttpRequest{};
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(limits_.max_header_bytes));
    // No body limit while the header is read: Service::check_head answers an
    // oversized Content-Length, with the request's own id and method.
    parser_->body_limit(boost::none);
    stream_.expires_after(limits_.read_timeout);
    http::async_read_header(stream_, buffer_, *parser_,
                            beast::bind_front_handler(&Session::on_read_header, shared_from_this()));
}

bool Session::end_on_read_error(const error_code& ec, std::string_view part) {
    if (!ec) {
        return false;
    }
    keep_alive_ = false;
    if (ec == http::error::header_limit) {
        service_.metrics().record_budget(Budget::header_bytes);
        answer_error(ErrorCode::header_too_large,
                     "request header over " + std::to_string(limits_.max_header_bytes) + " bytes");
    } else if (ec == http::error::body_limit) {  // a chunked or unframed body grew past it
        service_.metrics().record_budget(Budget::body_bytes);
        answer_error(ErrorCode::body_too_large,
                     "body over the limit of " + std::to_string(limits_.max_body_bytes) + " bytes");
    } else if (is_quiet(ec) || !is_parse_error(ec)) {
        fail(ec, "reading a " + std::string(part));
        do_close();
    } else {
        answer_error(ErrorCode::bad_request, "malformed HTTP " + std::string(part) + ": " + ec.message());
    }
    return true;
}

void Session::on_read_header(error_code ec, std::size_t bytes) {
    request_bytes_ += bytes;
    if (end_on_read_error(ec, "request")) {
        return;
    }
    const auto& message = parser_->get();
    head_.method = std::string(message.method_string());
    head_.target = std::string(message.target());
    head_.content_type = std::string(message[http::field::content_type]);
    head_.authorization = std::string(message[http::field::authorization]);
    if (const auto length = parser_->content_length()) {
        head_.content_length = *length;
    }
    head_.request_id = request_id_for(message["X-Request-Id"]);
    keep_alive_ = message.keep_alive();

    if (std::optional<HttpResponse> refusal = service_.check_head(head_)) {
        // An unread body leaves the connection unable to carry another request.
        request_read_ = parser_->is_done();
        do_write(std::move(*refusal), !request_read_);
        return;
    }
    parser_->body_limit(limits_.max_body_bytes);  // before any body octet is parsed
    if (beast::iequals(message[http::field::expect], "100-continue")) {
        static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
        net::async_write(stream_, net::buffer(kContinue.data(), kContinue.size()),
                         [self = shared_from_this()](error_code write_ec, std::size_t) {
                             if (write_ec) {
                                 fail(write_ec, "writing 100 Continue");
                                 self->do_close();
                                 return;
                             }
                             self->do_read_body();
                         });
        return;
    }
    do_read_body();
}

void Session::do_read_body() {
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&Session::on_read_body, shared_from_this()));
}

void Session::on_read_body(error_code ec, std::size_t bytes) {
    request_bytes_ += bytes;
    if (end_on_read_error(ec, "request body")) {
        return;
    }
    request_read_ = true;
    head_.body = parser_->release().body();
    dispatch_request();
}

void Session::dispatch_request() {
    const std::uint64_t sequence = ++sequence_;
    awaiting_reply_ = true;
    const Clock::time_point deadline = Clock::now() + limits_.request_timeout;
    deadline_timer_.expires_at(deadline);
    deadline_timer_.async_wait(
        [self = shared_from_this(), sequence](error_code ec) { self->on_deadline(sequence, ec); });
    // The body leaves first, so that copying the head never copies it.
    std::string body = std::move(head_.body);
    head_.body.clear();
    HttpRequest request = head_;
    request.body = std::move(body);
    head_.memory.reset();  // the request carries it now; an idle connection holds none
    service_.handle(std::move(request), deadline,
                    [self = shared_from_this(), sequence](HttpResponse response) {
                        net::post(self->stream_.get_executor(),
                                  [self, sequence, response = std::move(response)]() mutable {
                                      self->on_reply(sequence, std::move(response));
                                  });
                    });
}

void Session::on_reply(std::uint64_t sequence, HttpResponse response) {
    if (sequence != sequence_ || !awaiting_reply_) {
        return;  // answered already, at the deadline
    }
    awaiting_reply_ = false;
    deadline_timer_.cancel();
    do_write(std::move(response), false);
}

void Session::on_deadline(std::uint64_t sequence, error_code ec) {
    if (ec || sequence != sequence_ || !awaiting_reply_) {
        return;
    }
    awaiting_reply_ = false;
    service_.metrics().record_budget(Budget::deadline);
    HttpResponse response = error_response(
        Error{ErrorCode::deadline_exceeded,
              "no answer within the request deadline of " + std::to_string(limits_.request_timeout.count()) + " ms"},
        head_.request_id);
    response.extraction_status = "deadline_exceeded";
    do_write(std::move(response), false);
}

void Session::answer_error(ErrorCode code, std::string message) {
    if (!stream_.socket().is_open()) {
        do_close();
        return;
    }
    if (head_.request_id.empty()) {
        head_.request_id = request_id_for({});
    }
    do_write(error_response(Error{code, std::move(message)}, head_.request_id), true);
}

void Session::do_write(HttpResponse response, bool close) {
    const bool keep_alive = keep_alive_ && !close && !service_.draining();
    extraction_status_ = std::move(response.extraction_status);
    response_memory_ = std::move(response.memory);
    response_ = {};
    response_.version(11);
    response_.result(response.status);
    response_.set(http::field::content_type, response.content_type);
    response_.set(http::field::cache_control, "no-store");
    response_.set("X-Request-Id", head_.request_id);
    for (const auto& [name, value] : response.headers) {
        response_.insert(name, value);  // a name may come twice (two WWW-Authenticate challenges)
    }
    response_.keep_alive(keep_alive);
    if (head_.method == "HEAD") {
        // The length the GET would have, and no body (RFC 9110, 9.3.2).
        response_.content_length(response.body.size());
    } else {
        response_.body() = std::move(response.body);
        response_.prepare_payload();
    }
    stream_.expires_after(limits_.write_timeout);
    http::async_write(stream_, response_,
                      beast::bind_front_handler(&Session::on_write, shared_from_this(), !keep_alive));
}

void Session::on_write(bool close, error_code ec, std::size_t bytes) {
    response_.body() = std::string();  // written (or failed): the answer and its reservation go
    response_memory_.reset();
    const std::string_view path = path_of(head_.target);
    const Route route = route_of(path);
    const auto status = static_cast<unsigned>(response_.result_int());
    service_.metrics().record_request(route, status, millis_since(request_start_) / 1000.0);
    log::access(log::AccessRecord{remote_, head_.method.empty() ? std::string_view("-") : head_.method,
                                  path.substr(0, std::min(path.size(), kLoggedPathMax)), status, request_bytes_,
                                  bytes, millis_since(request_start_), head_.request_id, extraction_status_});
    finish_request();
    if (ec) {
        fail(ec, "writing a response");
        do_close();
        return;
    }
    if (close) {
        if (request_read_) {
            do_close();
        } else {
            do_linger();
        }
        return;
    }
    do_wait_for_request();
}

void Session::do_linger() {
    error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    linger_until_ = Clock::now() + kLingerTime;
    stream_.expires_at(std::min(linger_until_, Clock::now() + kLingerIdle));
    stream_.async_read_some(buffer_.prepare(kLingerReadBytes),
                            beast::bind_front_handler(&Session::on_linger, shared_from_this()));
}

void Session::on_linger(error_code ec, std::size_t) {
    buffer_.consume(buffer_.size());
    if (ec) {  // the client closed, or the linger time is up
        do_close();
        return;
    }
    stream_.expires_at(std::min(linger_until_, Clock::now() + kLingerIdle));
    stream_.async_read_some(buffer_.prepare(kLingerReadBytes),
                            beast::bind_front_handler(&Session::on_linger, shared_from_this()));
}

void Session::finish_request() {
    if (request_open_) {
        request_open_ = false;
        server_->request_finished();
    }
}

void Session::do_close() {
    finish_request();
    deadline_timer_.cancel();
    error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.close();
}

// ---- Server ----

bool Server::listen() {
    auto address = config::parse_listen(config_.listen);
    if (!address) {
        log::error("invalid listen address", {{"listen", config_.listen}});
        return false;
    }
    error_code ec;
    tcp::resolver resolver(ioc_);
    const auto results = resolver.resolve(address->host, std::to_string(address->port),
                                          tcp::resolver::passive | tcp::resolver::numeric_service, ec);
    if (ec || results.empty()) {
        log::error("cannot resolve the listen address", {{"listen", config_.listen}, {"error", ec.message()}});
        return false;
    }
    const tcp::endpoint endpoint = results.begin()->endpoint();
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) {
        acceptor_.set_option(net::socket_base::reuse_address(true), ec);
    }
    if (!ec) {
        acceptor_.bind(endpoint, ec);
    }
    if (!ec) {
        acceptor_.listen(net::socket_base::max_listen_connections, ec);
    }
    if (ec) {
        log::error("cannot listen", {{"listen", config_.listen}, {"error", ec.message()}});
        return false;
    }
    const tcp::endpoint bound = acceptor_.local_endpoint(ec);
    const std::string shown = bound.address().is_v6() ? "[" + bound.address().to_string() + "]:" + std::to_string(bound.port())
                                                      : bound.address().to_string() + ":" + std::to_string(bound.port());
    log::info("listening", {{"address", shown}});
    return true;
}

void Server::start() {
    metrics_.ready.store(true, std::memory_order_relaxed);
    signals_.async_wait(beast::bind_front_handler(&Server::on_signal, shared_from_this()));
    do_accept();
}

void Server::register_session(const std::shared_ptr<Session>& session) {
    const std::lock_guard lock(sessions_mutex_);
    // Prune the dead before growing, so the list stays near the open count.
    if (sessions_.size() >= 64 && sessions_.size() == sessions_.capacity()) {
        std::erase_if(sessions_, [](const std::weak_ptr<Session>& s) { return s.expired(); });
    }
    sessions_.push_back(session);
}

void Server::request_finished() {
    const auto left = metrics_.requests_in_flight.fetch_sub(1, std::memory_order_acq_rel) - 1;
    if (left == 0 && draining_.load(std::memory_order_acquire)) {
        net::post(ioc_, [self = shared_from_this()] { self->finish(); });
    }
}

void Server::do_accept() {
    acceptor_.async_accept(net::make_strand(ioc_), beast::bind_front_handler(&Server::on_accept, shared_from_this()));
}

void Server::on_accept(error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted || !acceptor_.is_open()) {
        return;  // the listener was closed for the drain
    }
    if (ec) {
        // Out of descriptors or memory: wait a moment instead of spinning.
        log::warn("accept failed", {{"error", ec.message()}});
        accept_retry_timer_.expires_after(std::chrono::milliseconds(50));
        accept_retry_timer_.async_wait([self = shared_from_this()](error_code timer_ec) {
            if (!timer_ec) {
                self->do_accept();
            }
        });
        return;
    }
    metrics_.connections_accepted.fetch_add(1, std::memory_order_relaxed);
    if (static_cast<std::size_t>(metrics_.connections_open.load(std::memory_order_relaxed)) >=
        config_.limits.max_connections) {
        reject(socket);
    } else {
        auto session = std::make_shared<Session>(std::move(socket), shared_from_this());
        register_session(session);
        session->start();
    }
    do_accept();
}

// Past max_connections: one best-effort 503 without blocking, then close.
void Server::reject(tcp::socket& socket) {
    metrics_.connections_rejected.fetch_add(1, std::memory_order_relaxed);
    const std::string request_id = request_id_for({});
    const std::string body = error_body(Error{ErrorCode::overloaded, "too many open connections"}, request_id);
    const std::string busy = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                             "Cache-Control: no-store\r\nX-Request-Id: " + request_id +
                             "\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: " +
                             std::to_string(body.size()) + "\r\n\r\n" + body;
    error_code ec;
    socket.non_blocking(true, ec);
    socket.write_some(net::buffer(busy), ec);
    socket.shutdown(tcp::socket::shutdown_both, ec);
    socket.close(ec);
}

void Server::on_signal(error_code ec, int signal) {
    if (ec) {
        return;
    }
    ++signals_seen_;
    if (signals_seen_ > 1) {
        log::warn("second signal: stopping without waiting for in-flight requests",
                  {{"signal", std::int64_t{signal}}, {"in_flight", metrics_.requests_in_flight.load()}});
        finish();
        return;
    }
    log::info("shutting down", {{"signal", std::int64_t{signal}},
                                {"shutdown_delay_ms", static_cast<std::int64_t>(config_.shutdown_delay.count())},
                                {"drain_timeout_ms", static_cast<std::int64_t>(config_.drain_timeout.count())}});
    service_.set_not_ready();
    metrics_.ready.store(false, std::memory_order_relaxed);
    signals_.async_wait(beast::bind_front_handler(&Server::on_signal, shared_from_this()));
    if (config_.shutdown_delay.count() == 0) {
        start_drain();
        return;
    }
    lifecycle_timer_.expires_after(config_.shutdown_delay);
    lifecycle_timer_.async_wait([self = shared_from_this()](error_code timer_ec) {
        if (!timer_ec) {
            self->start_drain();
        }
    });
}

void Server::start_drain() {
    service_.set_draining();
    draining_.store(true, std::memory_order_release);
    net::post(acceptor_.get_executor(), [self = shared_from_this()] {
        error_code ec;
        self->acceptor_.close(ec);
        self->accept_retry_timer_.cancel();
    });
    {
        const std::lock_guard lock(sessions_mutex_);
        for (const std::weak_ptr<Session>& weak : sessions_) {
            if (const std::shared_ptr<Session> session = weak.lock()) {
                net::post(session->executor(), [session] { session->on_drain(); });
            }
        }
    }
    log::info("draining", {{"in_flight", metrics_.requests_in_flight.load()}});
    lifecycle_timer_.expires_after(config_.drain_timeout);
    lifecycle_timer_.async_wait([self = shared_from_this()](error_code ec) {
        if (!ec) {
            log::warn("drain timeout: stopping with requests in flight",
                      {{"in_flight", self->metrics_.requests_in_flight.load()}});
            self->finish();
        }
    });
    if (metrics_.requests_in_flight.load(std::memory_order_acquire) == 0) {
        finish();
    }
}

void Server::finish() {
    if (finished_.exchange(true)) {
        return;
    }
    log::info("stopped", {{"in_flight", metrics_.requests_in_flight.load()}});
    ioc_.stop();
}

}  // namespace

int run_pithd(const config::ServerConfig& config) {
    Metrics metrics;
    WorkerPool pool(config.effective_workers(), config.limits.queue_capacity);
    metrics.queue_depth = [&pool] { return pool.depth(); };
    metrics.queue_capacity = pool.capacity();
    metrics.workers = pool.threads();
    MemoryBudget memory(config.limits.memory_budget_bytes != 0 ? config.limits.memory_budget_bytes
                                                               : default_memory_budget());
    metrics.memory_budget = memory.capacity();
    metrics.memory_reserved = [&memory] { return memory.reserved(); };
    Service service(config, metrics, pool, memory, nullptr);
    int status = 0;
    {
        // Declared after the service and the pool: destroying the context
        // destroys pending handlers, and with them sessions that use both.
        net::io_context ioc(static_cast<int>(config.io_threads));
        Result<std::unique_ptr<Fetcher>> fetcher = make_http_fetcher(ioc, config.fetch, metrics);
        if (!fetcher) {
            log::error("cannot set up URL fetching", {{"error", fetcher.error().message}});
            pool.shutdown();
            return 2;
        }
        service.set_fetcher(fetcher->get());
        auto server = std::make_shared<Server>(ioc, config, service, metrics);
        if (!server->listen()) {
            status = 1;
        } else {
            server->start();
            log::info("started", {{"io_threads", static_cast<std::int64_t>(config.io_threads)},
                                  {"workers", static_cast<std::int64_t>(pool.threads())},
                                  {"queue_capacity", static_cast<std::int64_t>(pool.capacity())},
                                  {"memory_budget_bytes", static_cast<std::int64_t>(memory.capacity())}});
            std::vector<std::thread> io_threads;
            for (std::size_t i = 1; i < config.io_threads; ++i) {
                io_threads.emplace_back([&ioc] { ioc.run(); });
            }
            ioc.run();
            for (std::thread& thread : io_threads) {
                thread.join();
            }
        }
        // No worker may post into the context once it is gone.
        pool.shutdown();
        server.reset();
        service.set_fetcher(nullptr);
    }
    return status;
}

}  // namespace pith::server
