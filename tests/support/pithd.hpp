// Helpers for tests that run pithd as a subprocess on 127.0.0.1 and talk raw
// HTTP/1.1 to it over POSIX sockets: every read and write has a timeout, so a
// hung server fails a test instead of hanging it. No HTTP library is used, so
// tests can also send what a library never would (slow, partial, malformed).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace pith::test {

using namespace std::chrono_literals;
using std::chrono::milliseconds;

struct HttpResult {
    std::string error;  // "" when a whole response was read
    unsigned status = 0;
    std::map<std::string, std::string> headers;  // names lower-cased; a repeated name's values joined by ", "
    std::string body;
    std::size_t chunks = 0;  // the chunks of a chunked body, 0 for one framed by Content-Length

    [[nodiscard]] bool ok() const { return error.empty(); }
    [[nodiscard]] std::string header(const std::string& name) const {
        const auto it = headers.find(name);
        return it == headers.end() ? std::string() : it->second;
    }
};

// One client connection to 127.0.0.1.
class Connection {
public:
    Connection() = default;
    explicit Connection(int fd) : fd_(fd) {}
    ~Connection();
    Connection(Connection&& other) noexcept : fd_(std::exchange(other.fd_, -1)), buffer_(std::move(other.buffer_)) {}
    Connection& operator=(Connection&& other) noexcept;

    // Connects to 127.0.0.1:port; nullopt (with the reason in `error`) on failure.
    // A `receive_window` (bytes) caps what the server can send ahead of reads.
    static std::optional<Connection> open(std::uint16_t port, std::string* error = nullptr,
                                          std::optional<int> receive_window = std::nullopt);

    [[nodiscard]] bool is_open() const { return fd_ >= 0; }
    // Sends all of `data` within `timeout`.
    bool send_all(std::string_view data, milliseconds timeout = 10s);
    // Reads one response (Content-Length framed or chunked) within `timeout`.
    // The answer to a HEAD request has no body whatever its Content-Length says.
    HttpResult read_response(milliseconds timeout = 10s, bool answers_head = false);
    // Reads until what has arrived (and is not yet read as a response) holds
    // `needle`; false when it does not within `timeout`.
    bool wait_for(std::string_view needle, milliseconds timeout);
    // Reads, keeping what arrives, until the server closes the connection;
    // false when it does not within `timeout`.
    bool read_until_closed(milliseconds timeout);
    // What has arrived and is not yet read as a response.
    [[nodiscard]] const std::string& unread() const { return buffer_; }
    // True when the server closes the connection within `timeout` (pending
    // response bytes are read and dropped).
    bool wait_closed(milliseconds timeout);
    void close();

private:
    void read_chunked_body(std::chrono::steady_clock::time_point deadline, HttpResult& result);
    // Appends what arrives within the deadline; false on timeout, close or error.
    bool fill(std::chrono::steady_clock::time_point deadline, std::string* error);

    int fd_ = -1;
    std::string buffer_;
};

struct Header {
    std::string name;
    std::string value;
};

// The bytes of one request; Content-Length is added when there is a body.
std::string build_request(std::string_view method, std::string_view target, const std::vector<Header>& headers,
                          std::string_view body, bool keep_alive = false);

// One request on a fresh connection.
HttpResult http_request(std::uint16_t port, std::string_view method, std::string_view target,
                        const std::vector<Header>& headers = {}, std::string_view body = {},
                        milliseconds timeout = 20s);

// What PithdProcess does when pithd's log holds a sanitizer report as it
// ends; standard error by default, a failure of the running test in GoogleTest
// suites.
using FailureReporter = void (*)(const std::string& what);
void set_failure_reporter(FailureReporter reporter);

// pithd, started with `args` and an environment of only `env` (plus PATH);
// its standard error is collected for the test to read.
class PithdProcess {
public:
    PithdProcess(const std::vector<std::string>& args, const std::map<std::string, std::string>& env = {});
    ~PithdProcess();  // SIGKILL when still running
    PithdProcess(const PithdProcess&) = delete;
    PithdProcess& operator=(const PithdProcess&) = delete;

    // The port from its "listening" line; 0 when it did not start within 10 s.
    [[nodiscard]] std::uint16_t port() const { return port_; }
    [[nodiscard]] pid_t pid() const { return pid_; }
    void signal(int sig) const;
    // The exit status (or 128 + signal) within `timeout`; nullopt if still running.
    std::optional<int> wait_exit(milliseconds timeout);
    bool wait_for_log(std::string_view needle, milliseconds timeout);
    [[nodiscard]] std::string log() const;

private:
    pid_t pid_ = -1;
    int stderr_fd_ = -1;
    std::uint16_t port_ = 0;
    std::optional<int> exit_status_;
    mutable std::mutex mutex_;          // guards log_ and reader_done_
    std::condition_variable log_grew_;
    std::string log_;
    bool reader_done_ = false;
    std::thread reader_;
};

// The path of the pithd binary under test.
std::string pithd_path();

// A page of `paragraphs` paragraphs of ordinary prose: about 120 bytes each.
std::string article_page(std::size_t paragraphs);

// A simple Prometheus text-format (0.0.4) reader: families with their TYPE,
// and samples with labels. `error` names the first malformed line.
struct PromSample {
    std::string name;
    std::map<std::string, std::string> labels;
    double value = 0;
};
struct PromParse {
    std::string error;
    std::map<std::string, std::string> types;  // family -> counter, gauge, histogram, ...
    std::vector<PromSample> samples;

    // Sum of the samples named `name` whose labels include `match`.
    [[nodiscard]] double sum(const std::string& name, const std::map<std::string, std::string>& match = {}) const;
    [[nodiscard]] bool has(const std::string& name) const;
};
PromParse parse_prometheus(std::string_view text);

// pithd_memory_reserved_bytes once it is 0, or what it still is after a few
// seconds: an answer holds its reservation until its write completes, which
// pithd learns a moment after the client has read it.
double settled_reserved_bytes(std::uint16_t port);

}  // namespace pith::test
