// One connection of pithd, served on its own strand, one request at a time:
//   wait for the first byte (idle_timeout) -> read the header (read_timeout
//   from that first byte) -> check the head (route, method, token, size, media
//   type; answered before the body is read) -> read the body (same deadline)
//   -> hand the request to the Service -> answer when the reply arrives or at
//   the request deadline, whichever is first -> write (write_timeout) -> next.
// A batch's answer is streamed: its lines are written as chunks as they are
// done, each within write_timeout, the whole within the request deadline.
// The Service's reply comes from a worker thread and is posted back to the
// session's strand; a worker never touches a session. Internal header: Beast
// is behind it.
#pragma once

#include <boost/asio/steady_timer.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "config.hpp"
#include "pithd/asio.hpp"
#include "pithd/batch_lines.hpp"
#include "pithd/memory_budget.hpp"
#include "pithd/service.hpp"

namespace pith::server {

class Listener;

// A POST /extract/batch body read straight into its lines (BatchLines), each
// line its own string as it arrives: Beast's Body concept, for reading only.
struct BatchLinesBody {
    using value_type = BatchLines;

    class reader {
    public:
        template <bool isRequest, class Fields>
        reader(http::header<isRequest, Fields>& /*head*/, value_type& lines) : lines_(lines) {}
        void init(const boost::optional<std::uint64_t>& /*length*/, error_code& ec) { ec = {}; }
        template <class ConstBufferSequence>
        std::size_t put(const ConstBufferSequence& buffers, error_code& ec) {
            std::size_t bytes = 0;
            for (const net::const_buffer buffer : beast::buffers_range_ref(buffers)) {
                lines_.add(std::string_view(static_cast<const char*>(buffer.data()), buffer.size()));
                bytes += buffer.size();
            }
            ec = {};
            return bytes;
        }
        void finish(error_code& ec) {
            lines_.finish();
            ec = {};
        }

    private:
        value_type& lines_;
    };
};

class Session : public std::enable_shared_from_this<Session> {
public:
    Session(tcp::socket&& socket, std::shared_ptr<Listener> listener);
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
    // A streamed answer (HttpResponse::stream): the head, then each piece as
    // a chunk once the one before is written (write_timeout each), then the
    // last chunk. The request deadline ends a stream still open by closing.
    void do_write_stream(HttpResponse response);
    void do_next_piece();
    void on_piece(std::uint64_t sequence, std::optional<ResponseStream::Piece> piece);
    void on_stream_written(bool last, error_code ec, std::size_t bytes);
    void end_stream(error_code ec);
    // The request's line in the metrics and the access log.
    void record_request(unsigned status, std::size_t bytes_written);
    // A failure while a request is open: answer it when the wire still works.
    void answer_error(ErrorCode code, std::string message);
    void finish_request();
    void do_linger();
    void on_linger(error_code ec, std::size_t bytes);
    void do_close();

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    // A batch's body: the head read by parser_, which then gives way to this one.
    std::optional<http::request_parser<BatchLinesBody>> lines_parser_;
    http::response<http::string_body> response_;
    std::shared_ptr<MemoryReservation> response_memory_;  // the answer's share of the budget while it is written
    http::response<http::empty_body> stream_head_;
    std::optional<http::response_serializer<http::empty_body>> stream_serializer_;
    std::shared_ptr<ResponseStream> body_stream_;  // set while a streamed answer is written
    ResponseStream::Piece piece_;                   // the piece being written
    std::size_t streamed_bytes_ = 0;
    bool stream_keep_alive_ = false;
    bool stream_chunked_ = true;  // false for an HTTP/1.0 client: the close ends the body
    net::steady_timer deadline_timer_;
    std::shared_ptr<Listener> listener_;
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
    bool http_10_ = false;          // the request came as HTTP/1.0
    bool request_read_ = false;     // the whole current request, body included, was read
    std::uint64_t request_bytes_ = 0;
    Clock::time_point request_start_;
    Clock::time_point linger_until_;
    std::string extraction_status_;
};

}  // namespace pith::server
