// The listener and the lifecycle of pithd, on Boost.Beast (the sessions are
// session.cpp's).
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
#include "pithd/listener.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>

#include <pthread.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <thread>

#include "pithd/fetcher.hpp"
#include "pithd/logging.hpp"
#include "pithd/response.hpp"
#include "pithd/run.hpp"
#include "pithd/session.hpp"
#include "pithd/worker_pool.hpp"

namespace pith::server {

bool Listener::listen() {
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

void Listener::start() {
    metrics_.ready.store(true, std::memory_order_relaxed);
    wait_for_signal();
    do_accept();
}

void Listener::register_session(const std::shared_ptr<Session>& session) {
    const std::lock_guard lock(sessions_mutex_);
    // Prune the dead before growing, so the list stays near the open count.
    if (sessions_.size() >= 64 && sessions_.size() == sessions_.capacity()) {
        std::erase_if(sessions_, [](const std::weak_ptr<Session>& s) { return s.expired(); });
    }
    sessions_.push_back(session);
}

void Listener::request_finished() {
    const auto left = metrics_.requests_in_flight.fetch_sub(1, std::memory_order_acq_rel) - 1;
    if (left == 0 && draining_.load(std::memory_order_acquire)) {
        net::post(ioc_, [self = shared_from_this()] { self->finish(); });
    }
}

void Listener::do_accept() {
    acceptor_.async_accept(net::make_strand(ioc_), beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
}

void Listener::on_accept(error_code ec, tcp::socket socket) {
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
void Listener::reject(tcp::socket& socket) {
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

void Listener::wait_for_signal() {
    signals_.async_read_some(net::buffer(&signal_info_, sizeof signal_info_),
                             beast::bind_front_handler(&Listener::on_signal, shared_from_this()));
}

void Listener::on_signal(error_code ec, std::size_t bytes) {
    if (ec || bytes != sizeof signal_info_) {
        return;
    }
    const auto signal = static_cast<std::int64_t>(signal_info_.ssi_signo);
    ++signals_seen_;
    if (signals_seen_ > 1) {
        log::warn("second signal: stopping without waiting for in-flight requests",
                  {{"signal", signal}, {"in_flight", metrics_.requests_in_flight.load()}});
        finish();
        return;
    }
    log::info("shutting down", {{"signal", signal},
                                {"shutdown_delay_ms", static_cast<std::int64_t>(config_.shutdown_delay.count())},
                                {"drain_timeout_ms", static_cast<std::int64_t>(config_.drain_timeout.count())}});
    service_.set_not_ready();
    metrics_.ready.store(false, std::memory_order_relaxed);
    wait_for_signal();
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

void Listener::start_drain() {
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

void Listener::finish() {
    if (finished_.exchange(true)) {
        return;
    }
    log::info("stopped", {{"in_flight", metrics_.requests_in_flight.load()}});
    ioc_.stop();
}

namespace {

// SIGINT and SIGTERM are read from a signalfd on the I/O loop instead of being
// caught by a handler. They are blocked before any thread starts, so every
// thread inherits the mask: no worker takes one, no code runs in signal
// context, and a signal that comes while the loop is busy waits in the fd.
// (A handler-based wait lost such signals under ThreadSanitizer's deferred
// delivery.) -1 when the signals cannot be set up.
int open_shutdown_signals() {
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    if (pthread_sigmask(SIG_BLOCK, &signals, nullptr) != 0) {
        return -1;
    }
    return ::signalfd(-1, &signals, SFD_NONBLOCK | SFD_CLOEXEC);
}

}  // namespace

int run_pithd(const config::ServerConfig& config) {
    const int shutdown_signals = open_shutdown_signals();
    if (shutdown_signals < 0) {
        log::error("cannot set up the shutdown signals", {{"error", std::string(std::strerror(errno))}});
        return 2;
    }
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
            ::close(shutdown_signals);
            pool.shutdown();
            return 2;
        }
        service.set_fetcher(fetcher->get());
        auto server = std::make_shared<Listener>(ioc, config, service, metrics, shutdown_signals);
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
