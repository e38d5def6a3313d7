#include "pithd.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <set>

#include "time_scale.hpp"

#ifndef PITHD_PATH
#error "PITHD_PATH must name the pithd binary (set by tests/CMakeLists.txt)"
#endif

extern char** environ;  // NOLINT: POSIX

namespace pith::test {

using Clock = std::chrono::steady_clock;

namespace {

// Where a sanitizer report from pithd goes: standard error until a test suite
// sets its own (tests/server/gtest_failures.cpp makes it a test failure).
void print_failure(const std::string& what) { std::fprintf(stderr, "%s\n", what.c_str()); }
FailureReporter g_failure_reporter = print_failure;

}  // namespace

void set_failure_reporter(FailureReporter reporter) { g_failure_reporter = reporter; }

namespace {

int millis_until(Clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now()).count();
    return static_cast<int>(std::clamp<long long>(left, 0, 1'000'000));
}

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

std::string trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
        text.remove_suffix(1);
    }
    return std::string(text);
}

}  // namespace

// ---- Connection ----

Connection::~Connection() { close(); }

Connection& Connection::operator=(Connection&& other) noexcept {
    if (this != &other) {
        close();
        fd_ = std::exchange(other.fd_, -1);
        buffer_ = std::move(other.buffer_);
    }
    return *this;
}

std::optional<Connection> Connection::open(std::uint16_t port, std::string* error, std::optional<int> receive_window) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        if (error != nullptr) {
            *error = std::string("socket: ") + std::strerror(errno);
        }
        return std::nullopt;
    }
    if (receive_window) {  // before connect, so that the window offered is small from the start
        ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &*receive_window, sizeof *receive_window);
    }
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
        if (error != nullptr) {
            *error = std::string("connect: ") + std::strerror(errno);
        }
        ::close(fd);
        return std::nullopt;
    }
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    return Connection(fd);
}

void Connection::close() {
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
}

bool Connection::send_all(std::string_view data, milliseconds timeout) {
    const Clock::time_point deadline = Clock::now() + timeout;
    while (!data.empty()) {
        const ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
        if (n > 0) {
            data.remove_prefix(static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            return false;
        }
        pollfd p{fd_, POLLOUT, 0};
        if (::poll(&p, 1, millis_until(deadline)) <= 0) {
            return false;
        }
    }
    return true;
}

bool Connection::fill(Clock::time_point deadline, std::string* error) {
    for (;;) {
        char chunk[65536];
        const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
        if (n > 0) {
            buffer_.append(chunk, static_cast<std::size_t>(n));
            return true;
        }
        if (n == 0) {
            *error = "connection closed by the server";
            return false;
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            *error = std::string("recv: ") + std::strerror(errno);
            return false;
        }
        pollfd p{fd_, POLLIN, 0};
        const int ready = ::poll(&p, 1, millis_until(deadline));
        if (ready == 0) {
            *error = "timed out";
            return false;
        }
        if (ready < 0 && errno != EINTR) {
            *error = std::string("poll: ") + std::strerror(errno);
            return false;
        }
    }
}

HttpResult Connection::read_response(milliseconds timeout, bool answers_head) {
    HttpResult result;
    const Clock::time_point deadline = Clock::now() + timeout;
    std::size_t header_end;
    // 1xx answers (100 Continue) come before the real one; skip them.
    for (;;) {
        while ((header_end = buffer_.find("\r\n\r\n")) == std::string::npos) {
            if (!fill(deadline, &result.error)) {
                result.error += " (before the end of the response header)";
                return result;
            }
        }
        if (buffer_.starts_with("HTTP/1.1 1")) {
            buffer_.erase(0, header_end + 4);
            continue;
        }
        break;
    }
    const std::string head = buffer_.substr(0, header_end);
    buffer_.erase(0, header_end + 4);
    std::size_t line_end = head.find("\r\n");
    const std::string status_line = head.substr(0, line_end);
    if (!status_line.starts_with("HTTP/1.1 ") || status_line.size() < 12) {
        result.error = "bad status line: " + status_line;
        return result;
    }
    result.status = static_cast<unsigned>(std::atoi(status_line.c_str() + 9));
    while (line_end != std::string::npos) {
        const std::size_t start = line_end + 2;
        line_end = head.find("\r\n", start);
        const std::string line = head.substr(start, line_end == std::string::npos ? std::string::npos : line_end - start);
        const std::size_t colon = line.find(':');
        if (colon != std::string::npos) {
            // A name sent twice is one list, as HTTP allows (RFC 9110, 5.3).
            std::string& value = result.headers[lower(line.substr(0, colon))];
            value += (value.empty() ? "" : ", ") + std::string(trim(line.substr(colon + 1)));
        }
    }
    if (!answers_head && lower(result.header("transfer-encoding")).find("chunked") != std::string::npos) {
        read_chunked_body(deadline, result);
        return result;
    }
    const std::size_t length =
        answers_head ? 0 : static_cast<std::size_t>(std::atoll(result.header("content-length").c_str()));
    while (buffer_.size() < length) {
        if (!fill(deadline, &result.error)) {
            result.error += " (in the body)";
            return result;
        }
    }
    result.body = buffer_.substr(0, length);
    buffer_.erase(0, length);
    return result;
}

void Connection::read_chunked_body(Clock::time_point deadline, HttpResult& result) {
    const auto line = [&](std::string& out) {
        std::size_t end;
        while ((end = buffer_.find("\r\n")) == std::string::npos) {
            if (!fill(deadline, &result.error)) {
                result.error += " (in a chunked body)";
                return false;
            }
        }
        out = buffer_.substr(0, end);
        buffer_.erase(0, end + 2);
        return true;
    };
    std::string size_line;
    for (;;) {
        if (!line(size_line)) {
            return;
        }
        char* end = nullptr;
        const unsigned long long size = std::strtoull(size_line.c_str(), &end, 16);
        if (end == size_line.c_str()) {
            result.error = "bad chunk size line: " + size_line;
            return;
        }
        if (size == 0) {
            std::string trailer;
            do {
                if (!line(trailer)) {
                    return;
                }
            } while (!trailer.empty());
            return;
        }
        while (buffer_.size() < size + 2) {
            if (!fill(deadline, &result.error)) {
                result.error += " (in a chunk)";
                return;
            }
        }
        result.body.append(buffer_, 0, size);
        buffer_.erase(0, size + 2);
        ++result.chunks;
    }
}

bool Connection::wait_for(std::string_view needle, milliseconds timeout) {
    const Clock::time_point deadline = Clock::now() + timeout;
    std::string error;
    while (buffer_.find(needle) == std::string::npos) {
        if (!fill(deadline, &error)) {
            return false;
        }
    }
    return true;
}

bool Connection::read_until_closed(milliseconds timeout) {
    const Clock::time_point deadline = Clock::now() + timeout;
    std::string error;
    while (fill(deadline, &error)) {
    }
    return error == "connection closed by the server";
}

bool Connection::wait_closed(milliseconds timeout) {
    const Clock::time_point deadline = Clock::now() + timeout;
    std::string error;
    while (fill(deadline, &error)) {
        buffer_.clear();
    }
    return error != "timed out";
}

std::string build_request(std::string_view method, std::string_view target, const std::vector<Header>& headers,
                          std::string_view body, bool keep_alive) {
    std::string request = std::string(method) + " " + std::string(target) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    for (const Header& header : headers) {
        request += header.name + ": " + header.value + "\r\n";
    }
    if (!body.empty() || method == "POST") {
        request += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    }
    request += keep_alive ? "" : "Connection: close\r\n";
    request += "\r\n";
    request.append(body);
    return request;
}

HttpResult http_request(std::uint16_t port, std::string_view method, std::string_view target,
                        const std::vector<Header>& headers, std::string_view body, milliseconds timeout) {
    HttpResult failed;
    auto connection = Connection::open(port, &failed.error);
    if (!connection) {
        return failed;
    }
    if (!connection->send_all(build_request(method, target, headers, body), timeout)) {
        failed.error = "could not send the request";
        return failed;
    }
    return connection->read_response(timeout);
}

// ---- PithdProcess ----

std::string pithd_path() { return PITHD_PATH; }

PithdProcess::PithdProcess(const std::vector<std::string>& args, const std::map<std::string, std::string>& env) {
    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
        return;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    std::vector<std::string> argv_storage = {pithd_path()};
    argv_storage.insert(argv_storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& arg : argv_storage) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    std::vector<std::string> env_storage = {"PATH=/usr/bin:/bin"};
    // Sanitizer settings reach the server under test, so a sanitized pithd
    // halts on the first report as the tests do.
    for (const char* name : {"ASAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS", "LSAN_OPTIONS"}) {
        if (const char* value = std::getenv(name)) {
            env_storage.push_back(std::string(name) + "=" + value);
        }
    }
    for (const auto& [name, value] : env) {
        env_storage.push_back(name + "=" + value);
    }
    std::vector<char*> envp;
    for (std::string& entry : env_storage) {
        envp.push_back(entry.data());
    }
    envp.push_back(nullptr);
    const int spawned = ::posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipe_fds[1]);
    if (spawned != 0) {
        pid_ = -1;
        ::close(pipe_fds[0]);
        return;
    }
    stderr_fd_ = pipe_fds[0];
    reader_ = std::thread([this] {
        char chunk[4096];
        for (;;) {
            const ssize_t n = ::read(stderr_fd_, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            const std::lock_guard lock(mutex_);
            if (n <= 0) {
                reader_done_ = true;
                log_grew_.notify_all();
                return;
            }
            log_.append(chunk, static_cast<std::size_t>(n));
            log_grew_.notify_all();
        }
    });
    // The "listening" line, in text (address=HOST:PORT) or JSON ("address":"HOST:PORT").
    if (wait_for_log("listening", 10s) && wait_for_log("address", 1s)) {
        const std::string text = log();
        const std::size_t at = text.find("address", text.find("listening"));
        const std::size_t end = text.find_first_of("\"\n", text.find_first_of("=:", at) + 2);
        const std::string address = text.substr(at, end - at);
        port_ = static_cast<std::uint16_t>(std::atoi(address.c_str() + address.rfind(':') + 1));
    }
}

PithdProcess::~PithdProcess() {
    if (pid_ > 0 && !exit_status_) {
        ::kill(pid_, SIGKILL);
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
    if (reader_.joinable()) {
        reader_.join();
    }
    if (stderr_fd_ >= 0) {
        ::close(stderr_fd_);
    }
    // A sanitizer report from the server fails the test that ran it.
    for (const char* marker : {"ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "WARNING: ThreadSanitizer",
                               "runtime error:"}) {
        if (log_.find(marker) != std::string::npos) {
            g_failure_reporter("pithd reported \"" + std::string(marker) + "\":\n" + log_);
            break;
        }
    }
}

void PithdProcess::signal(int sig) const {
    if (pid_ > 0) {
        ::kill(pid_, sig);
    }
}

std::optional<int> PithdProcess::wait_exit(milliseconds timeout) {
    if (exit_status_) {
        return exit_status_;
    }
    const Clock::time_point deadline = Clock::now() + timeout;
    for (;;) {
        int status = 0;
        const pid_t done = ::waitpid(pid_, &status, WNOHANG);
        if (done == pid_) {
            exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            return exit_status_;
        }
        if (Clock::now() >= deadline) {
            return std::nullopt;
        }
        // waitpid has no timeout; the reader thread sees EOF when the child
        // exits, so wait for that instead of sleeping.
        std::unique_lock lock(mutex_);
        log_grew_.wait_until(lock, std::min(deadline, Clock::now() + 20ms), [this] { return reader_done_; });
    }
}

bool PithdProcess::wait_for_log(std::string_view needle, milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return log_grew_.wait_for(lock, timeout, [&] {
        return log_.find(needle) != std::string::npos || reader_done_;
    }) && log_.find(needle) != std::string::npos;
}

std::string PithdProcess::log() const {
    const std::lock_guard lock(mutex_);
    return log_;
}

std::string article_page(std::size_t paragraphs) {
    std::string html = "<html><head><title>A long page</title></head><body><article>";
    for (std::size_t i = 0; i < paragraphs; ++i) {
        html += "<p>Paragraph " + std::to_string(i) +
                " carries ordinary prose, with commas, clauses and a full stop, so that it scores like text.</p>";
    }
    html += "</article></body></html>";
    return html;
}

// ---- Prometheus text format ----

namespace {

bool is_metric_name(std::string_view name) {
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) {
        return false;
    }
    return std::all_of(name.begin(), name.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':'; });
}

bool is_label_name(std::string_view name) {
    return is_metric_name(name) && name.find(':') == std::string_view::npos;
}

std::optional<double> parse_value(std::string_view text) {
    if (text == "+Inf") {
        return INFINITY;
    }
    if (text == "-Inf") {
        return -INFINITY;
    }
    if (text == "NaN") {
        return NAN;
    }
    double value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || ptr != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

// The family a sample belongs to: itself, or a histogram's without its suffix.
std::string family_of(const std::string& name, const std::map<std::string, std::string>& types) {
    if (types.count(name) != 0) {
        return name;
    }
    for (const char* suffix : {"_bucket", "_sum", "_count"}) {
        if (name.ends_with(suffix)) {
            const std::string base = name.substr(0, name.size() - std::strlen(suffix));
            const auto it = types.find(base);
            if (it != types.end() && (it->second == "histogram" || it->second == "summary")) {
                return base;
            }
        }
    }
    return {};
}

}  // namespace

double PromParse::sum(const std::string& name, const std::map<std::string, std::string>& match) const {
    double total = 0;
    for (const PromSample& s : samples) {
        if (s.name != name) {
            continue;
        }
        const bool matches = std::all_of(match.begin(), match.end(), [&](const auto& kv) {
            const auto it = s.labels.find(kv.first);
            return it != s.labels.end() && it->second == kv.second;
        });
        if (matches) {
            total += s.value;
        }
    }
    return total;
}

bool PromParse::has(const std::string& name) const {
    return std::any_of(samples.begin(), samples.end(), [&](const PromSample& s) { return s.name == name; });
}

PromParse parse_prometheus(std::string_view text) {
    PromParse out;
    std::set<std::string> seen_help;
    std::size_t line_number = 0;
    const auto fail = [&](const std::string& what, std::string_view line) {
        if (out.error.empty()) {
            out.error = "line " + std::to_string(line_number) + ": " + what + ": " + std::string(line);
        }
    };
    if (!text.empty() && text.back() != '\n') {
        out.error = "the exposition must end with a newline";
        return out;
    }
    while (!text.empty() && out.error.empty()) {
        const std::size_t end = text.find('\n');
        const std::string_view line = text.substr(0, end);
        text.remove_prefix(end + 1);
        ++line_number;
        if (line.empty()) {
            continue;
        }
        if (line.starts_with("# HELP ") || line.starts_with("# TYPE ")) {
            const std::string_view rest = line.substr(7);
            const std::size_t space = rest.find(' ');
            const std::string name(rest.substr(0, space));
            if (!is_metric_name(name) || space == std::string_view::npos) {
                fail("bad metric name in comment", line);
                break;
            }
            if (line.starts_with("# TYPE ")) {
                const std::string type(rest.substr(space + 1));
                static const std::set<std::string> kTypes = {"counter", "gauge", "histogram", "summary", "untyped"};
                if (kTypes.count(type) == 0) {
                    fail("unknown type", line);
                } else if (out.types.count(name) != 0) {
                    fail("second TYPE for a family", line);
                } else if (std::any_of(out.samples.begin(), out.samples.end(),
                                       [&](const PromSample& s) { return family_of(s.name, {{name, type}}) == name; })) {
                    fail("TYPE after samples of its family", line);
                }
                out.types[name] = type;
            } else if (!seen_help.insert(name).second) {
                fail("second HELP for a family", line);
            }
            continue;
        }
        if (line.starts_with("#")) {
            continue;
        }
        PromSample sample;
        std::size_t i = 0;
        while (i < line.size() && line[i] != '{' && line[i] != ' ') {
            ++i;
        }
        sample.name = std::string(line.substr(0, i));
        if (!is_metric_name(sample.name)) {
            fail("bad metric name", line);
            break;
        }
        if (i < line.size() && line[i] == '{') {
            ++i;
            while (i < line.size() && line[i] != '}') {
                const std::size_t eq = line.find('=', i);
                if (eq == std::string_view::npos || eq + 1 >= line.size() || line[eq + 1] != '"') {
                    fail("bad label", line);
                    break;
                }
                const std::string label(line.substr(i, eq - i));
                if (!is_label_name(label)) {
                    fail("bad label name", line);
                    break;
                }
                std::string value;
                std::size_t j = eq + 2;
                for (; j < line.size() && line[j] != '"'; ++j) {
                    if (line[j] == '\\' && j + 1 < line.size()) {
                        ++j;
                        value.push_back(line[j] == 'n' ? '\n' : line[j]);
                    } else {
                        value.push_back(line[j]);
                    }
                }
                if (j >= line.size()) {
                    fail("unterminated label value", line);
                    break;
                }
                if (!sample.labels.emplace(label, value).second) {
                    fail("label given twice", line);
                }
                i = j + 1;
                if (i < line.size() && line[i] == ',') {
                    ++i;
                }
            }
            if (i >= line.size()) {
                fail("unterminated label set", line);
                break;
            }
            ++i;  // '}'
        }
        if (i >= line.size() || line[i] != ' ') {
            fail("no value", line);
            break;
        }
        std::string_view value_text = line.substr(i + 1);
        value_text = value_text.substr(0, value_text.find(' '));  // an optional timestamp follows
        const std::optional<double> value = parse_value(value_text);
        if (!value) {
            fail("bad value", line);
            break;
        }
        sample.value = *value;
        if (family_of(sample.name, out.types).empty()) {
            fail("sample without a TYPE line for its family", line);
            break;
        }
        out.samples.push_back(std::move(sample));
    }
    if (!out.error.empty()) {
        return out;
    }
    // Histograms: cumulative buckets ending in +Inf, which equals _count.
    for (const auto& [family, type] : out.types) {
        if (type == "counter" && !family.ends_with("_total")) {
            out.error = "counter " + family + " does not end in _total";
            return out;
        }
        if (type != "histogram") {
            continue;
        }
        std::map<std::map<std::string, std::string>, std::vector<std::pair<double, double>>> buckets;
        for (const PromSample& s : out.samples) {
            if (s.name == family + "_bucket") {
                auto labels = s.labels;
                const auto le = labels.find("le");
                if (le == labels.end()) {
                    out.error = family + "_bucket without le";
                    return out;
                }
                const double bound = parse_value(le->second).value_or(NAN);
                labels.erase(le);
                buckets[labels].emplace_back(bound, s.value);
            }
        }
        for (const auto& [labels, series] : buckets) {
            for (std::size_t k = 1; k < series.size(); ++k) {
                if (!(series[k].first > series[k - 1].first) || series[k].second < series[k - 1].second) {
                    out.error = family + ": buckets not cumulative in increasing le";
                    return out;
                }
            }
            if (series.empty() || !std::isinf(series.back().first)) {
                out.error = family + ": no +Inf bucket";
                return out;
            }
            double count = -1;
            for (const PromSample& s : out.samples) {
                if (s.name == family + "_count" && s.labels == labels) {
                    count = s.value;
                }
            }
            if (count != series.back().second) {
                out.error = family + ": _count differs from the +Inf bucket";
                return out;
            }
        }
    }
    return out;
}

double settled_reserved_bytes(std::uint16_t port) {
    double reserved = -1;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::duration<double>(5.0 * kTimeScale);
    do {
        if (reserved >= 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        reserved = parse_prometheus(http_request(port, "GET", "/metrics").body).sum("pithd_memory_reserved_bytes", {});
    } while (reserved != 0 && std::chrono::steady_clock::now() < give_up);
    return reserved;
}

}  // namespace pith::test
