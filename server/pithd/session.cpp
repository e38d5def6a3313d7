// A connection of pithd: session.hpp says how one request goes through it.
#include "pithd/session.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>

#include <chrono>
#include <utility>

#include "pithd/listener.hpp"
#include "pithd/logging.hpp"
#include "pithd/metrics.hpp"
#include "pithd/request.hpp"
#include "pithd/response.hpp"

namespace pith::server {

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

// The head's fields every answer has, streamed or not.
void set_head(http::response_header<>& head, const HttpResponse& response, std::string_view request_id) {
    head.version(11);
    head.result(response.status);
    head.set(http::field::content_type, response.content_type);
    head.set(http::field::cache_control, "no-store");
    head.set("X-Request-Id", request_id);
    for (const auto& [name, value] : response.headers) {
        head.insert(name, value);  // a name may come twice (two WWW-Authenticate challenges)
    }
}

void fail(const error_code& ec, std::string_view what) {
    if (is_quiet(ec)) {
        return;
    }
    log::debug("connection error", {{"during", what}, {"error", ec.message()}});
}

}  // namespace

Session::Session(tcp::socket&& socket, std::shared_ptr<Listener> listener)
    : stream_(std::move(socket)),
      deadline_timer_(stream_.get_executor()),
      listener_(std::move(listener)),
      service_(listener_->service()),
      limits_(service_.config().limits) {
    error_code ec;
    const tcp::endpoint peer = stream_.socket().remote_endpoint(ec);
    remote_ = ec ? std::string("-") : peer.address().to_string();
    listener_->metrics().connections_open.fetch_add(1, std::memory_order_relaxed);
}

Session::~Session() {
    if (request_open_) {
        listener_->request_finished();
    }
    listener_->metrics().connections_open.fetch_sub(1, std::memory_order_relaxed);
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
    listener_->request_started();
    request_start_ = Clock::now();
    request_bytes_ = 0;
    request_read_ = false;
    extraction_status_.clear();
    head_ = HttpRequest{};
    lines_parser_.reset();
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
    http_10_ = message.version() < 11;

    if (std::optional<HttpResponse> refusal = service_.check_head(head_)) {
        // An unread body leaves the connection unable to carry another request.
        request_read_ = parser_->is_done();
        do_write(std::move(*refusal), !request_read_);
        return;
    }
    const bool expect_continue = beast::iequals(message[http::field::expect], "100-continue");
    if (route_of(path_of(head_.target)) == Route::extract_batch) {
        // Its lines are read into strings of their own, which its items give
        // back to the budget one by one (check_head took the whole route's
        // checks: a batch here is a POST of JSON lines).
        lines_parser_.emplace(std::move(*parser_), limits_.max_batch_items);
        parser_.reset();  // `message` with it
        lines_parser_->body_limit(limits_.max_body_bytes);
    } else {
        parser_->body_limit(limits_.max_body_bytes);  // before any body octet is parsed
    }
    if (expect_continue) {
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
    if (lines_parser_) {
        http::async_read(stream_, buffer_, *lines_parser_,
                         beast::bind_front_handler(&Session::on_read_body, shared_from_this()));
        return;
    }
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&Session::on_read_body, shared_from_this()));
}

void Session::on_read_body(error_code ec, std::size_t bytes) {
    request_bytes_ += bytes;
    if (end_on_read_error(ec, "request body")) {
        return;
    }
    request_read_ = true;
    if (lines_parser_) {
        head_.batch_lines = std::move(lines_parser_->release().body());
        lines_parser_.reset();
    } else {
        head_.body = parser_->release().body();
    }
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
    std::optional<BatchLines> lines = std::move(head_.batch_lines);
    head_.batch_lines.reset();
    HttpRequest request = head_;
    request.body = std::move(body);
    request.batch_lines = std::move(lines);
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
        if (response.stream) {
            response.stream->cancel();  // nobody will read it
        }
        return;  // answered already, at the deadline
    }
    awaiting_reply_ = false;
    if (response.stream) {
        do_write_stream(std::move(response));  // the deadline timer stays: it ends a stream still open
        return;
    }
    deadline_timer_.cancel();
    do_write(std::move(response), false);
}

void Session::on_deadline(std::uint64_t sequence, error_code ec) {
    if (!ec && sequence == sequence_ && body_stream_) {
        // The items of a batch end before the request deadline, so its lines
        // should all be out: the client reads too slowly, or an item did not
        // stop. The head is sent, so no 504: the answer ends without its last
        // chunk, which a client reads as a cut-off body.
        service_.metrics().record_budget(Budget::deadline);
        extraction_status_ = "deadline_exceeded";
        body_stream_->cancel();
        body_stream_.reset();
        record_request(static_cast<unsigned>(stream_head_.result_int()), streamed_bytes_);
        do_close();
        return;
    }
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
    set_head(response_, response, head_.request_id);
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

void Session::record_request(unsigned status, std::size_t bytes_written) {
    const std::string_view path = path_of(head_.target);
    service_.metrics().record_request(route_of(path), status, millis_since(request_start_) / 1000.0);
    log::access(log::AccessRecord{remote_, head_.method.empty() ? std::string_view("-") : head_.method,
                                  path.substr(0, std::min(path.size(), kLoggedPathMax)), status, request_bytes_,
                                  bytes_written, millis_since(request_start_), head_.request_id, extraction_status_});
    finish_request();
}

void Session::on_write(bool close, error_code ec, std::size_t bytes) {
    response_.body() = std::string();  // written (or failed): the answer and its reservation go
    response_memory_.reset();
    record_request(static_cast<unsigned>(response_.result_int()), bytes);
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

void Session::do_write_stream(HttpResponse response) {
    // HTTP/1.0 has no chunks: the body ends where the connection does.
    stream_chunked_ = !http_10_;
    stream_keep_alive_ = stream_chunked_ && keep_alive_ && !service_.draining();
    extraction_status_ = std::move(response.extraction_status);
    body_stream_ = std::move(response.stream);
    streamed_bytes_ = 0;
    stream_head_ = {};
    set_head(stream_head_, response, head_.request_id);
    stream_head_.keep_alive(stream_keep_alive_);
    stream_head_.chunked(stream_chunked_);
    stream_serializer_.emplace(stream_head_);
    stream_.expires_after(limits_.write_timeout);
    http::async_write_header(stream_, *stream_serializer_,
                             beast::bind_front_handler(&Session::on_stream_written, shared_from_this(), false));
}

void Session::do_next_piece() {
    body_stream_->next([self = shared_from_this(), sequence = sequence_](std::optional<ResponseStream::Piece> piece) {
        net::post(self->stream_.get_executor(), [self, sequence, piece = std::move(piece)]() mutable {
            self->on_piece(sequence, std::move(piece));
        });
    });
}

void Session::on_piece(std::uint64_t sequence, std::optional<ResponseStream::Piece> piece) {
    if (sequence != sequence_ || !body_stream_) {
        return;  // the stream was ended (the deadline) while this piece was on its way
    }
    const bool last = !piece;
    auto written = beast::bind_front_handler(&Session::on_stream_written, shared_from_this(), last);
    stream_.expires_after(limits_.write_timeout);
    if (last) {
        if (stream_chunked_) {
            net::async_write(stream_, http::make_chunk_last(), std::move(written));
        } else {
            end_stream({});  // the close ends the body
        }
        return;
    }
    piece_ = std::move(*piece);
    if (piece_.bytes.empty()) {  // an empty chunk would end the body
        do_next_piece();
    } else if (stream_chunked_) {
        net::async_write(stream_, http::make_chunk(net::buffer(piece_.bytes)), std::move(written));
    } else {
        net::async_write(stream_, net::buffer(piece_.bytes), std::move(written));
    }
}

void Session::on_stream_written(bool last, error_code ec, std::size_t bytes) {
    streamed_bytes_ += bytes;
    piece_ = {};  // written (or failed): the line and its reservation go
    if (!body_stream_) {
        return;  // ended at the deadline while this was written
    }
    if (!ec && !last) {
        do_next_piece();
        return;
    }
    end_stream(ec);
}

void Session::end_stream(error_code ec) {
    deadline_timer_.cancel();
    if (ec) {
        body_stream_->cancel();  // what the client will not read need not run
    }
    body_stream_.reset();
    stream_serializer_.reset();
    record_request(static_cast<unsigned>(stream_head_.result_int()), streamed_bytes_);
    if (ec) {
        fail(ec, "writing a streamed response");
        do_close();
        return;
    }
    if (!stream_keep_alive_) {
        do_close();
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
        listener_->request_finished();
    }
}

void Session::do_close() {
    finish_request();
    deadline_timer_.cancel();
    error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.close();
}

// ---- Listener ----

}  // namespace pith::server
