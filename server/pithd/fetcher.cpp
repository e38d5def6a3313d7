// The fetch of one URL, hop by hop:
//   parse (http and https only) -> resolve (or take the literal address) ->
//   keep only the addresses the AddressPolicy permits -> connect to one of
//   exactly those -> TLS handshake with SNI and verification (https) -> GET ->
//   response header: a redirect starts the next hop at the top, a non-2xx or a
//   non-HTML type ends the fetch -> body, capped -> Content-Encoding undone,
//   capped again.
// Connect (with DNS and TLS), header and total timeouts each bound their
// phase; the request's deadline bounds all of them. Everything of one fetch
// runs on its own strand.
#include "pithd/fetcher.hpp"

#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/ssl.hpp>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <charconv>
#include <mutex>
#include <unordered_map>

#include "pithd/address_policy.hpp"
#include "pithd/asio.hpp"
#include "pithd/request.hpp"
#include "pithd/response.hpp"
#include "pithd/content_encoding.hpp"
#include "pith/url.hpp"

namespace pith::server {

namespace ssl = net::ssl;

namespace {

constexpr std::uint32_t kMaxResponseHeaderBytes = 64U * 1024U;
// The most one read of the body takes from the socket (Beast's read size).
constexpr std::size_t kReadBytes = 64U * 1024U;

struct FetchUrl {
    bool tls = false;
    std::string host;         // without brackets
    std::string port;         // "80", "443" or as given
    unsigned short port_number = 0;
    std::string host_header;  // as the Host header carries it
    std::string target;       // path and query
};

// Splits a URL already normalised by url::resolve.
Result<FetchUrl> parse_fetch_url(std::string_view url) {
    const auto bad = [&](const std::string& why) {
        return Error{ErrorCode::invalid_url, "cannot fetch \"" + std::string(url.substr(0, 200)) + "\": " + why};
    };
    const std::optional<std::string> normalised = url::resolve(url, {});
    if (!normalised) {
        return bad("not an absolute URL");
    }
    std::string_view rest = *normalised;
    FetchUrl out;
    if (rest.starts_with("https://")) {
        out.tls = true;
        rest.remove_prefix(8);
    } else if (rest.starts_with("http://")) {
        rest.remove_prefix(7);
    } else {
        return bad("only http and https URLs are fetched");
    }
    const std::size_t authority_end = std::min(rest.find_first_of("/?#"), rest.size());
    std::string_view authority = rest.substr(0, authority_end);
    std::string_view target = rest.substr(authority_end);
    target = target.substr(0, std::min(target.find('#'), target.size()));
    out.target = target.empty() || target.front() == '?' ? "/" + std::string(target) : std::string(target);
    if (authority.find('@') != std::string_view::npos) {
        return bad("URLs with credentials are not fetched");
    }
    std::string_view host = authority;
    std::string_view port;
    if (authority.starts_with('[')) {
        const std::size_t close = authority.find(']');
        if (close == std::string_view::npos) {
            return bad("bad IPv6 host");
        }
        host = authority.substr(1, close - 1);
        if (close + 1 < authority.size() && authority[close + 1] == ':') {
            port = authority.substr(close + 2);
        }
    } else if (const std::size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
        host = authority.substr(0, colon);
        port = authority.substr(colon + 1);
    }
    if (host.empty()) {
        return bad("no host");
    }
    out.host = std::string(host);
    out.port = port.empty() ? (out.tls ? "443" : "80") : std::string(port);
    unsigned number = 0;
    const auto [ptr, ec] = std::from_chars(out.port.data(), out.port.data() + out.port.size(), number);
    if (ec != std::errc{} || ptr != out.port.data() + out.port.size() || number == 0 || number > 65535) {
        return bad("bad port");
    }
    out.port_number = static_cast<unsigned short>(number);
    out.host_header = std::string(authority);
    return out;
}

bool is_redirect(unsigned status) {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

// What every fetch shares: settings, the guard, the TLS context, the limits.
struct Shared {
    Shared(net::io_context& io, const config::FetchConfig& fetch_config, Metrics& fetch_metrics, AddressPolicy guard)
        : ioc(io), config(fetch_config), metrics(fetch_metrics), policy(std::move(guard)) {}

    net::io_context& ioc;
    const config::FetchConfig& config;
    Metrics& metrics;
    const AddressPolicy policy;
    ssl::context tls{ssl::context::tls_client};

    // Concurrency slots; false when the global or the per-host limit is reached.
    bool acquire(const std::string& host) {
        const std::lock_guard lock(mutex);
        std::size_t& host_count = per_host[host];
        if (in_flight >= config.max_concurrent || host_count >= config.max_per_host) {
            if (host_count == 0) {
                per_host.erase(host);
            }
            return false;
        }
        ++in_flight;
        ++host_count;
        return true;
    }
    void release(const std::string& host) {
        const std::lock_guard lock(mutex);
        --in_flight;
        if (const auto it = per_host.find(host); it != per_host.end() && --it->second == 0) {
            per_host.erase(it);
        }
    }

    std::mutex mutex;  // guards in_flight and per_host
    std::size_t in_flight = 0;
    std::unordered_map<std::string, std::size_t> per_host;
};

class FetchOperation : public std::enable_shared_from_this<FetchOperation> {
public:
    FetchOperation(std::shared_ptr<Shared> shared, std::string url, Clock::time_point request_deadline,
                   HoldMemory hold, Fetcher::Done done)
        : shared_(std::move(shared)),
          url_(std::move(url)),
          request_deadline_(request_deadline),
          start_(Clock::now()),
          deadline_(std::min(request_deadline, start_ + shared_->config.total_timeout)),
          hold_(std::move(hold)),
          done_(std::move(done)),
          strand_(net::make_strand(shared_->ioc)),
          resolver_(strand_),
          resolve_timer_(strand_) {}

    void start() {
        net::dispatch(strand_, [self = shared_from_this()] { self->begin(); });
    }

private:
    enum class Phase { connecting, requesting, reading };

    void begin() {
        auto parsed = parse_fetch_url(url_);
        if (!parsed) {
            finish_error(std::move(parsed).error());
            return;
        }
        slot_host_ = parsed->host;
        if (!shared_->acquire(slot_host_)) {
            slot_host_.clear();
            finish_error(Error{ErrorCode::overloaded, "too many fetches in progress (to " + parsed->host + " or in all)"});
            return;
        }
        shared_->metrics.fetches_in_flight.fetch_add(1, std::memory_order_relaxed);
        begin_hop(std::move(parsed).value());
    }

    void begin_hop(FetchUrl target) {
        target_ = std::move(target);
        phase_ = Phase::connecting;
        if (const auto literal = IpAddress::parse(target_.host)) {
            if (auto refused = shared_->policy.refusal(target_.host, *literal)) {
                finish_error(Error{ErrorCode::blocked_address, "refused to connect: " + *refused});
                return;
            }
            connect({tcp::endpoint(net::ip::make_address(target_.host), target_.port_number)});
            return;
        }
        resolve_timed_out_ = false;
        resolve_timer_.expires_at(phase_deadline(shared_->config.connect_timeout));
        resolve_timer_.async_wait([self = shared_from_this()](error_code ec) {
            if (!ec) {
                self->resolve_timed_out_ = true;
                self->resolver_.cancel();
            }
        });
        resolver_.async_resolve(target_.host, target_.port,
                                beast::bind_front_handler(&FetchOperation::on_resolve, shared_from_this()));
    }

    void on_resolve(error_code ec, const tcp::resolver::results_type& results) {
        resolve_timer_.cancel();
        if (resolve_timed_out_) {
            finish_error(timeout_error());
            return;
        }
        if (ec) {
            finish_error(Error{ErrorCode::dns_failure, "cannot resolve " + target_.host + ": " + ec.message()});
            return;
        }
        std::vector<tcp::endpoint> permitted;
        std::string first_refusal;
        for (const auto& entry : results) {
            const tcp::endpoint endpoint = entry.endpoint();
            const std::optional<IpAddress> address = IpAddress::parse(endpoint.address().to_string());
            if (!address) {
                continue;
            }
            if (auto refused = shared_->policy.refusal(target_.host, *address)) {
                if (first_refusal.empty()) {
                    first_refusal = std::move(*refused);
                }
                continue;
            }
            permitted.push_back(endpoint);
        }
        if (permitted.empty()) {
            finish_error(Error{ErrorCode::blocked_address,
                               "refused to connect to " + target_.host +
                                   (first_refusal.empty() ? ": no usable address" : ": " + first_refusal)});
            return;
        }
        connect(std::move(permitted));
    }

    // Connects to one of `endpoints`, every one of which passed the guard.
    void connect(std::vector<tcp::endpoint> endpoints) {
        secure_.reset();
        plain_.emplace(strand_);
        plain_->expires_at(phase_deadline(shared_->config.connect_timeout));
        // The connect operation keeps its own copy of the sequence.
        plain_->async_connect(endpoints, beast::bind_front_handler(&FetchOperation::on_connect, shared_from_this()));
    }

    void on_connect(error_code ec, const tcp::endpoint&) {
        if (ec) {
            finish_error(ec == beast::error::timeout
                             ? timeout_error()
                             : Error{ErrorCode::connect_failed, "cannot connect to " + target_.host_header + ": " +
                                                                    ec.message()});
            return;
        }
        if (!target_.tls) {
            send_request();
            return;
        }
        secure_.emplace(std::move(*plain_), shared_->tls);
        plain_.reset();
        if (!IpAddress::parse(target_.host)) {
            // SNI: the name the server picks its certificate by.
            SSL_set_tlsext_host_name(secure_->native_handle(), target_.host.c_str());
        }
        secure_->set_verify_callback(ssl::host_name_verification(target_.host));
        beast::get_lowest_layer(*secure_).expires_at(phase_deadline(shared_->config.connect_timeout));
        secure_->async_handshake(ssl::stream_base::client,
                                 beast::bind_front_handler(&FetchOperation::on_handshake, shared_from_this()));
    }

    void on_handshake(error_code ec) {
        if (ec) {
            if (ec == beast::error::timeout) {
                finish_error(timeout_error());
                return;
            }
            std::string why = ec.message();
            if (const long verify = SSL_get_verify_result(secure_->native_handle()); verify != X509_V_OK) {
                why += " (certificate: " + std::string(X509_verify_cert_error_string(verify)) + ")";
            }
            finish_error(Error{ErrorCode::tls_error, "TLS with " + target_.host_header + " failed: " + why});
            return;
        }
        send_request();
    }

    void send_request() {
        phase_ = Phase::requesting;
        request_ = {};
        request_.method(http::verb::get);
        request_.target(target_.target);
        request_.version(11);
        request_.set(http::field::host, target_.host_header);
        request_.set(http::field::user_agent, shared_->config.user_agent);
        request_.set(http::field::accept, shared_->config.accept);
        request_.set(http::field::accept_encoding, "gzip, deflate, br");
        request_.set(http::field::connection, "close");
        lowest().expires_at(phase_deadline(shared_->config.header_timeout));
        with_stream([&](auto& stream) {
            http::async_write(stream, request_,
                              beast::bind_front_handler(&FetchOperation::on_write, shared_from_this()));
        });
    }

    void on_write(error_code ec, std::size_t) {
        if (ec) {
            finish_error(ec == beast::error::timeout ? timeout_error()
                                                     : Error{ErrorCode::upstream_error,
                                                             "sending the request failed: " + ec.message()});
            return;
        }
        buffer_.clear();
        parser_.emplace();
        parser_->header_limit(kMaxResponseHeaderBytes);
        parser_->body_limit(shared_->config.max_response_bytes);
        with_stream([&](auto& stream) {
            http::async_read_header(stream, buffer_, *parser_,
                                    beast::bind_front_handler(&FetchOperation::on_header, shared_from_this()));
        });
    }

    void on_header(error_code ec, std::size_t bytes) {
        bytes_ += bytes;
        if (ec) {
            finish_error(read_error(ec));
            return;
        }
        const auto& response = parser_->get();
        const auto status = static_cast<unsigned>(response.result_int());
        if (is_redirect(status) && response.count(http::field::location) != 0) {
            if (++redirects_ > shared_->config.max_redirects) {
                finish_error(Error{ErrorCode::too_many_redirects,
                                   "more than " + std::to_string(shared_->config.max_redirects) + " redirects"});
                return;
            }
            const std::optional<std::string> next = url::resolve(response[http::field::location], url_);
            if (!next) {
                finish_error(Error{ErrorCode::upstream_error, "a redirect to an unusable Location"});
                return;
            }
            auto parsed = parse_fetch_url(*next);
            if (!parsed) {
                finish_error(std::move(parsed).error());
                return;
            }
            close_streams();
            url_ = *next;
            begin_hop(std::move(parsed).value());  // the guard checks the new hop again
            return;
        }
        if (status < 200 || status >= 300) {
            upstream_status_ = status;
            finish_error(Error{ErrorCode::upstream_status, "the upstream answered " + std::to_string(status)});
            return;
        }
        const MediaType media = parse_media_type(response[http::field::content_type]);
        if (!media.type.empty() && !is_html_media_type(media.type)) {
            finish_error(Error{ErrorCode::unsupported_content_type, "the upstream sent " + media.type + ", not HTML"});
            return;
        }
        charset_ = media.charset;
        content_encoding_ = std::string(response[http::field::content_encoding]);
        phase_ = Phase::reading;
        lowest().expires_at(deadline_);
        read_body();
    }

    // The body is read a part at a time, each one admitted by the memory
    // budget before it is read.
    void read_body() {
        if (std::optional<Error> refused = hold_ ? hold_(held_after_next_read()) : std::nullopt) {
            finish_error(std::move(*refused));
            return;
        }
        with_stream([&](auto& stream) {
            http::async_read_some(stream, buffer_, *parser_,
                                  beast::bind_front_handler(&FetchOperation::on_body_part, shared_from_this()));
        });
    }

    // What the fetch holds once the next read is in: the body's string (which,
    // to grow, copies itself into a buffer twice its capacity) and the read
    // buffer. The string was given the Content-Length's room when there is one.
    [[nodiscard]] std::size_t held_after_next_read() const {
        const std::string& body = parser_->get().body();
        const std::size_t most = parser_->content_length().value_or(shared_->config.max_response_bytes);
        const std::size_t wanted = std::min(body.size() + kReadBytes, static_cast<std::size_t>(most));
        const std::size_t strings =
            wanted <= body.capacity() ? body.capacity() : body.capacity() + std::max(wanted, 2 * body.capacity());
        return strings + std::max(buffer_.capacity(), kReadBytes);
    }

    void on_body_part(error_code ec, std::size_t bytes) {
        bytes_ += bytes;
        if (ec == ssl::error::stream_truncated) {
            // Servers often close TLS without close_notify; for a body framed by
            // the close, that is its end.
            error_code eof_ec;
            parser_->put_eof(eof_ec);
            ec = eof_ec;
        }
        if (ec) {
            finish_error(read_error(ec));
            return;
        }
        if (!parser_->is_done()) {
            read_body();
            return;
        }
        std::string body = parser_->release().body();
        Result<std::string> decoded =
            decode_content(content_encoding_, std::move(body), shared_->config.max_decompressed_bytes, hold_);
        if (!decoded) {
            finish_error(std::move(decoded).error());
            return;
        }
        FetchResult result;
        result.body = std::move(decoded).value();
        result.charset = charset_;
        result.final_url = url_;
        finish(std::move(result));
    }

    Error read_error(const error_code& ec) const {
        if (ec == beast::error::timeout) {
            return timeout_error();
        }
        if (ec == http::error::body_limit) {
            return Error{ErrorCode::too_large, "the upstream body is over the limit of " +
                                                   std::to_string(shared_->config.max_response_bytes) + " bytes"};
        }
        return Error{ErrorCode::upstream_error, "reading the upstream response failed: " + ec.message()};
    }

    // Which limit a timeout hit: the request's deadline, the connect phase's
    // (DNS and TLS included), or the header or total timeout.
    Error timeout_error() const {
        if (Clock::now() >= request_deadline_ && request_deadline_ <= deadline_) {
            return Error{ErrorCode::deadline_exceeded, "the request deadline passed while fetching " + target_.host_header};
        }
        if (phase_ == Phase::connecting) {
            return Error{ErrorCode::connect_timeout, "connecting to " + target_.host_header + " took longer than " +
                                                         std::to_string(shared_->config.connect_timeout.count()) +
                                                         " ms"};
        }
        return Error{ErrorCode::fetch_timeout, "fetching from " + target_.host_header + " timed out"};
    }

    Clock::time_point phase_deadline(std::chrono::milliseconds phase) const {
        return std::min(deadline_, Clock::now() + phase);
    }

    beast::tcp_stream& lowest() { return secure_ ? beast::get_lowest_layer(*secure_) : *plain_; }

    template <typename Action>
    void with_stream(Action&& action) {
        if (secure_) {
            action(*secure_);
        } else {
            action(*plain_);
        }
    }

    void close_streams() {
        error_code ec;
        if (secure_) {
            beast::get_lowest_layer(*secure_).socket().close(ec);
        }
        if (plain_) {
            plain_->socket().close(ec);
        }
        buffer_.clear();
    }

    void finish_error(Error error) {
        FetchResult result;
        result.upstream_status = upstream_status_;
        result.error = std::move(error);
        finish(std::move(result));
    }

    void finish(FetchResult result) {
        if (finished_) {
            return;
        }
        finished_ = true;
        resolve_timer_.cancel();
        close_streams();
        if (!slot_host_.empty()) {
            shared_->release(slot_host_);
            shared_->metrics.fetches_in_flight.fetch_sub(1, std::memory_order_relaxed);
        }
        const std::string_view outcome = result.error ? error_code_name(result.error->code) : "ok";
        shared_->metrics.record_fetch(outcome, std::chrono::duration<double>(Clock::now() - start_).count(), bytes_);
        Fetcher::Done done = std::move(done_);
        done(std::move(result));
    }

    std::shared_ptr<Shared> shared_;
    std::string url_;  // the current hop's URL
    const Clock::time_point request_deadline_;
    const Clock::time_point start_;
    const Clock::time_point deadline_;  // the sooner of the request deadline and the total timeout
    HoldMemory hold_;                   // the request's memory, asked before the body grows
    Fetcher::Done done_;
    net::strand<net::io_context::executor_type> strand_;
    tcp::resolver resolver_;
    net::steady_timer resolve_timer_;
    bool resolve_timed_out_ = false;
    std::optional<beast::tcp_stream> plain_;
    std::optional<ssl::stream<beast::tcp_stream>> secure_;
    beast::flat_buffer buffer_;
    http::request<http::empty_body> request_;
    std::optional<http::response_parser<http::string_body>> parser_;
    FetchUrl target_;
    Phase phase_ = Phase::connecting;
    std::string slot_host_;  // the host whose concurrency slot this fetch holds
    std::size_t redirects_ = 0;
    std::size_t bytes_ = 0;
    unsigned upstream_status_ = 0;
    std::string charset_;
    std::string content_encoding_;
    bool finished_ = false;
};

class HttpFetcher final : public Fetcher {
public:
    explicit HttpFetcher(std::shared_ptr<Shared> shared) : shared_(std::move(shared)) {}

    void fetch(std::string url, Clock::time_point deadline, HoldMemory hold, Done done) override {
        std::make_shared<FetchOperation>(shared_, std::move(url), deadline, std::move(hold), std::move(done))
            ->start();
    }

private:
    std::shared_ptr<Shared> shared_;
};

}  // namespace

Result<std::unique_ptr<Fetcher>> make_http_fetcher(net::io_context& ioc, const config::FetchConfig& config,
                                                   Metrics& metrics) {
    Result<AddressPolicy> policy = AddressPolicy::from_allowlist(config.allow);
    if (!policy) {
        return std::move(policy).error();
    }
    auto shared = std::make_shared<Shared>(ioc, config, metrics, std::move(policy).value());
    error_code ec;
    shared->tls.set_default_verify_paths(ec);
    if (ec) {
        return Error{ErrorCode::invalid_argument, "the system CA store cannot be read: " + ec.message()};
    }
    if (!config.ca_file.empty()) {
        shared->tls.load_verify_file(config.ca_file, ec);
        if (ec) {
            return Error{ErrorCode::invalid_argument, "fetch.ca_file: " + config.ca_file + ": " + ec.message()};
        }
    }
    shared->tls.set_verify_mode(ssl::verify_peer);
    SSL_CTX_set_min_proto_version(shared->tls.native_handle(), TLS1_2_VERSION);
    return std::unique_ptr<Fetcher>(std::make_unique<HttpFetcher>(std::move(shared)));
}

FetchResult fetch_now(const config::FetchConfig& config, std::string url, Clock::time_point deadline) {
    net::io_context ioc;
    Metrics metrics;  // read by no one: the CLI has no /metrics
    Result<std::unique_ptr<Fetcher>> fetcher = make_http_fetcher(ioc, config, metrics);
    FetchResult result;
    if (!fetcher) {
        result.error = fetcher.error();
        return result;
    }
    const HoldMemory hold = [](std::size_t) -> std::optional<Error> { return std::nullopt; };
    fetcher.value()->fetch(std::move(url), deadline, hold, [&result](FetchResult fetched) { result = std::move(fetched); });
    ioc.run();
    return result;
}

}  // namespace pith::server
