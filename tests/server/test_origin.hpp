// A test origin for pithd's URL fetching: an HTTP/1.1 server on a loopback
// address (127.0.0.1, 127.0.0.2, ::1), optionally over TLS, answering each
// request with what the test's handler says, slowly if asked. It counts the
// connections it accepts, so a test can prove that a refused fetch never
// reached it. One thread per connection; every socket has timeouts.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "pithd.hpp"

namespace pith::test {

struct OriginResponse {
    unsigned status = 200;
    std::vector<Header> headers;  // Content-Length is added unless close_delimited
    std::string body;
    milliseconds header_delay{0};   // silence before anything is sent
    milliseconds drip_interval{0};  // the body one byte at a time, with this pause
    bool close_delimited = false;   // no Content-Length: the body ends at the close
};

using OriginHandler = std::function<OriginResponse(const std::string& target)>;

struct TlsFiles {
    std::string certificate;  // PEM chain
    std::string private_key;  // PEM
};

class TestOrigin {
public:
    TestOrigin(std::string bind_address, OriginHandler handler, std::optional<TlsFiles> tls = std::nullopt);
    ~TestOrigin();
    TestOrigin(const TestOrigin&) = delete;
    TestOrigin& operator=(const TestOrigin&) = delete;

    [[nodiscard]] std::uint16_t port() const { return port_; }
    [[nodiscard]] std::size_t connections() const { return connections_.load(); }
    // The request heads received so far.
    [[nodiscard]] std::vector<std::string> requests() const;
    // "http://127.0.0.1:PORT" + path (https with TLS, brackets for IPv6).
    [[nodiscard]] std::string url(const std::string& path) const;

private:
    void accept_loop();
    void serve(int fd);

    std::string address_;
    OriginHandler handler_;
    void* tls_context_ = nullptr;  // SSL_CTX*, kept out of this header
    int listen_fd_ = -1;
    std::uint16_t port_ = 0;
    std::atomic<bool> stopping_{false};
    std::atomic<std::size_t> connections_{0};
    mutable std::mutex mutex_;  // guards requests_ and workers_
    std::vector<std::string> requests_;
    std::vector<std::thread> workers_;
    std::thread acceptor_;
};

// A path under tests/fixtures.
std::string fixture_path(const std::string& relative);

// gzip, zlib-wrapped deflate and brotli encodings of `data`, for origins.
std::string gzip(const std::string& data);
std::string zlib_deflate(const std::string& data);
std::string brotli(const std::string& data);

}  // namespace pith::test
