#include "test_origin.hpp"

#include <arpa/inet.h>
#include <brotli/encode.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <cstring>
#include <stdexcept>

namespace pith::test {

namespace {

SSL_CTX* as_ctx(void* p) { return static_cast<SSL_CTX*>(p); }

// One connection's reads and writes, over TLS or not.
class Channel {
public:
    Channel(int fd, SSL* ssl) : fd_(fd), ssl_(ssl) {}
    bool write(const std::string& data) {
        std::size_t sent = 0;
        while (sent < data.size()) {
            const int n = ssl_ != nullptr
                              ? SSL_write(ssl_, data.data() + sent, static_cast<int>(data.size() - sent))
                              : static_cast<int>(::send(fd_, data.data() + sent, data.size() - sent, MSG_NOSIGNAL));
            if (n <= 0) {
                return false;
            }
            sent += static_cast<std::size_t>(n);
        }
        return true;
    }
    int read(char* buffer, int size) {
        return ssl_ != nullptr ? SSL_read(ssl_, buffer, size) : static_cast<int>(::recv(fd_, buffer, static_cast<std::size_t>(size), 0));
    }

private:
    int fd_;
    SSL* ssl_;
};

// Sleeps in small steps so a stopping origin is not held up.
bool pause_for(milliseconds total, const std::atomic<bool>& stopping) {
    const auto until = std::chrono::steady_clock::now() + total;
    while (std::chrono::steady_clock::now() < until) {
        if (stopping.load()) {
            return false;
        }
        std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(10ms, until - std::chrono::steady_clock::now()));
    }
    return !stopping.load();
}

std::string reason(unsigned status) {
    switch (status) {
    case 200: return "OK";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 404: return "Not Found";
    case 500: return "Internal Server Error";
    default: return "Status";
    }
}

}  // namespace

TestOrigin::TestOrigin(std::string bind_address, OriginHandler handler, std::optional<TlsFiles> tls)
    : address_(std::move(bind_address)), handler_(std::move(handler)) {
    if (tls) {
        SSL_CTX* ctx = SSL_CTX_new(TLS_server_method());
        if (ctx == nullptr || SSL_CTX_use_certificate_chain_file(ctx, tls->certificate.c_str()) != 1 ||
            SSL_CTX_use_PrivateKey_file(ctx, tls->private_key.c_str(), SSL_FILETYPE_PEM) != 1) {
            throw std::runtime_error("test origin: cannot load " + tls->certificate);
        }
        tls_context_ = ctx;
    }
    const bool v6 = address_.find(':') != std::string::npos;
    listen_fd_ = ::socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int one = 1;
    ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_storage storage{};
    socklen_t length = 0;
    if (v6) {
        auto* a = reinterpret_cast<sockaddr_in6*>(&storage);
        a->sin6_family = AF_INET6;
        ::inet_pton(AF_INET6, address_.c_str(), &a->sin6_addr);
        length = sizeof(sockaddr_in6);
    } else {
        auto* a = reinterpret_cast<sockaddr_in*>(&storage);
        a->sin_family = AF_INET;
        ::inet_pton(AF_INET, address_.c_str(), &a->sin_addr);
        length = sizeof(sockaddr_in);
    }
    if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&storage), length) != 0 || ::listen(listen_fd_, 64) != 0) {
        throw std::runtime_error("test origin: cannot listen on " + address_ + ": " + std::strerror(errno));
    }
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&storage), &length);
    port_ = ntohs(v6 ? reinterpret_cast<sockaddr_in6*>(&storage)->sin6_port
                     : reinterpret_cast<sockaddr_in*>(&storage)->sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
}

TestOrigin::~TestOrigin() {
    stopping_ = true;
    acceptor_.join();
    std::vector<std::thread> workers;
    {
        const std::lock_guard lock(mutex_);
        workers.swap(workers_);
    }
    for (std::thread& worker : workers) {
        worker.join();
    }
    ::close(listen_fd_);
    if (tls_context_ != nullptr) {
        SSL_CTX_free(as_ctx(tls_context_));
    }
}

std::vector<std::string> TestOrigin::requests() const {
    const std::lock_guard lock(mutex_);
    return requests_;
}

std::string TestOrigin::url(const std::string& path) const {
    const std::string host = address_.find(':') != std::string::npos ? "[" + address_ + "]" : address_;
    return std::string(tls_context_ != nullptr ? "https" : "http") + "://" + host + ":" + std::to_string(port_) + path;
}

void TestOrigin::accept_loop() {
    while (!stopping_) {
        pollfd p{listen_fd_, POLLIN, 0};
        if (::poll(&p, 1, 20) <= 0) {
            continue;
        }
        const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) {
            continue;
        }
        ++connections_;
        const std::lock_guard lock(mutex_);
        workers_.emplace_back([this, fd] { serve(fd); });
    }
}

void TestOrigin::serve(int fd) {
    timeval timeout{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    SSL* ssl = nullptr;
    if (tls_context_ != nullptr) {
        ssl = SSL_new(as_ctx(tls_context_));
        SSL_set_fd(ssl, fd);
        if (SSL_accept(ssl) != 1) {
            SSL_free(ssl);
            ::close(fd);
            return;
        }
    }
    Channel channel(fd, ssl);
    std::string head;
    char buffer[4096];
    while (head.find("\r\n\r\n") == std::string::npos && head.size() < 65536) {
        const int n = channel.read(buffer, sizeof buffer);
        if (n <= 0) {
            break;
        }
        head.append(buffer, static_cast<std::size_t>(n));
    }
    if (head.find("\r\n\r\n") != std::string::npos) {
        {
            const std::lock_guard lock(mutex_);
            requests_.push_back(head.substr(0, head.find("\r\n\r\n")));
        }
        const std::size_t space = head.find(' ');
        const std::string target = head.substr(space + 1, head.find(' ', space + 1) - space - 1);
        const OriginResponse response = handler_(target);
        std::string out = "HTTP/1.1 " + std::to_string(response.status) + " " + reason(response.status) + "\r\n";
        for (const Header& header : response.headers) {
            out += header.name + ": " + header.value + "\r\n";
        }
        if (!response.close_delimited) {
            out += "Content-Length: " + std::to_string(response.body.size()) + "\r\n";
        }
        out += "Connection: close\r\n\r\n";
        if (pause_for(response.header_delay, stopping_) && channel.write(out)) {
            if (response.drip_interval.count() == 0) {
                channel.write(response.body);
            } else {
                for (const char c : response.body) {
                    if (!pause_for(response.drip_interval, stopping_) || !channel.write(std::string(1, c))) {
                        break;
                    }
                }
            }
        }
    }
    if (ssl != nullptr) {
        SSL_shutdown(ssl);
        SSL_free(ssl);
    }
    ::shutdown(fd, SHUT_RDWR);
    ::close(fd);
}

std::string fixture_path(const std::string& relative) {
    return std::string(PITH_SOURCE_DIR) + "/tests/fixtures/" + relative;
}

namespace {

std::string deflate_with(const std::string& data, int window_bits) {
    z_stream stream{};
    deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, window_bits, 9, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&stream, static_cast<uLong>(data.size())), '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    stream.avail_in = static_cast<uInt>(data.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return out;
}

}  // namespace

std::string gzip(const std::string& data) { return deflate_with(data, 15 + 16); }

std::string zlib_deflate(const std::string& data) { return deflate_with(data, 15); }

std::string brotli(const std::string& data) {
    std::size_t size = BrotliEncoderMaxCompressedSize(data.size());
    std::string out(size, '\0');
    BrotliEncoderCompress(BROTLI_DEFAULT_QUALITY, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT, data.size(),
                          reinterpret_cast<const std::uint8_t*>(data.data()), &size,
                          reinterpret_cast<std::uint8_t*>(out.data()));
    out.resize(size);
    return out;
}

}  // namespace pith::test
