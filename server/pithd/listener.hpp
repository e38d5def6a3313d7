// pithd's listener and lifecycle: it accepts connections (one Session each),
// refuses those past max_connections, and on SIGTERM or SIGINT turns /readyz
// to 503, waits shutdown_delay, closes the listener and idle connections, and
// gives in-flight requests until drain_timeout. Internal header: Beast and
// Asio are behind it (pithd/run.hpp is what main includes).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include <sys/signalfd.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "config.hpp"
#include "pithd/asio.hpp"
#include "pithd/metrics.hpp"
#include "pithd/service.hpp"

namespace pith::server {

class Session;

class Listener : public std::enable_shared_from_this<Listener> {
public:
    // shutdown_signals: a signalfd for SIGINT and SIGTERM (see open_shutdown_signals).
    Listener(net::io_context& ioc, const config::ServerConfig& config, Service& service, Metrics& metrics,
             int shutdown_signals)
        : ioc_(ioc),
          config_(config),
          service_(service),
          metrics_(metrics),
          acceptor_(net::make_strand(ioc)),
          signals_(ioc, shutdown_signals),
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
    void wait_for_signal();
    void on_signal(error_code ec, std::size_t bytes);
    void start_drain();
    void finish();

    net::io_context& ioc_;
    const config::ServerConfig& config_;
    Service& service_;
    Metrics& metrics_;
    tcp::acceptor acceptor_;
    net::posix::stream_descriptor signals_;
    signalfd_siginfo signal_info_{};
    net::steady_timer lifecycle_timer_;  // shutdown delay, then drain timeout
    net::steady_timer accept_retry_timer_;
    std::mutex sessions_mutex_;                     // guards sessions_
    std::vector<std::weak_ptr<Session>> sessions_;  // for closing idle ones on drain
    std::atomic<bool> draining_{false};
    std::atomic<bool> finished_{false};
    int signals_seen_ = 0;  // on the signal handler's path only
};

}  // namespace pith::server
