#include "pith/url.hpp"

#include <array>
#include <cstdint>
#include <vector>

// A port of the WHATWG URL standard's basic URL parser (without state
// overrides, which only the URL setters need) and its serialiser. Deliberate
// gaps: no IDNA (non-ASCII hosts are kept as UTF-8, ASCII is lowercased) and
// only UTF-8 query encoding. Input is treated byte by byte; the encode sets
// hold every byte >= 0x80, so percent-encoding bytes equals the standard's
// percent-encoding of code points as UTF-8.
namespace pith::url {
namespace {

struct Url {
    std::string scheme;
    std::string username;
    std::string password;
    std::optional<std::string> host;  // serialised host; "" is the empty host
    std::optional<std::uint16_t> port;
    bool opaque = false;               // mailto:, data:, javascript: ...
    std::string opaque_path;           // the path when `opaque`
    std::vector<std::string> path;     // segments otherwise
    std::optional<std::string> query;
    std::optional<std::string> fragment;
};

enum class State {
    scheme_start,
    scheme,
    no_scheme,
    special_relative_or_authority,
    path_or_authority,
    relative,
    relative_slash,
    special_authority_slashes,
    special_authority_ignore_slashes,
    authority,
    host,
    port,
    file,
    file_slash,
    file_host,
    path_start,
    path,
    opaque_path,
    query,
    fragment,
};

constexpr int k_eof = -1;

// ---------------------------------------------------------------- character classes

[[nodiscard]] constexpr bool is_alpha(int c) noexcept {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}
[[nodiscard]] constexpr bool is_digit(int c) noexcept { return c >= '0' && c <= '9'; }
[[nodiscard]] constexpr bool is_hex(int c) noexcept {
    return is_digit(c) || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f');
}
[[nodiscard]] constexpr int hex_value(int c) noexcept {
    if (is_digit(c)) return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return c - 'A' + 10;
}
[[nodiscard]] constexpr char to_lower(char c) noexcept {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 0x20) : c;
}

// Percent-encode sets, each a superset of the previous except where noted.
enum class EncodeSet { c0_control, fragment, query, special_query, path, userinfo };

[[nodiscard]] constexpr bool in_set(unsigned char b, EncodeSet set) noexcept {
    if (b < 0x20 || b > 0x7E) return true;  // C0 control percent-encode set
    switch (set) {
        case EncodeSet::c0_control:
            return false;
        case EncodeSet::fragment:
            return b == ' ' || b == '"' || b == '<' || b == '>' || b == '`';
        case EncodeSet::query:
            return b == ' ' || b == '"' || b == '#' || b == '<' || b == '>';
        case EncodeSet::special_query:
            return in_set(b, EncodeSet::query) || b == '\'';
        case EncodeSet::path:
            // '^' joined the set in 2025 (whatwg/url#846); jsdom's whatwg-url follows it.
            return in_set(b, EncodeSet::query) || b == '?' || b == '^' || b == '`' || b == '{' ||
                   b == '}';
        case EncodeSet::userinfo:
            return in_set(b, EncodeSet::path) || b == '/' || b == ':' || b == ';' || b == '=' ||
                   b == '@' || (b >= '[' && b <= ']') || b == '|';
    }
    return true;
}

void append_encoded(std::string& out, char ch, EncodeSet set) {
    const auto b = static_cast<unsigned char>(ch);
    if (!in_set(b, set)) {
        out += ch;
        return;
    }
    constexpr char k_hex[] = "0123456789ABCDEF";
    out += '%';
    out += k_hex[b >> 4];
    out += k_hex[b & 0x0F];
}

[[nodiscard]] bool is_special(std::string_view scheme) noexcept {
    return scheme == "http" || scheme == "https" || scheme == "ws" || scheme == "wss" ||
           scheme == "ftp" || scheme == "file";
}

[[nodiscard]] std::optional<std::uint16_t> default_port(std::string_view scheme) noexcept {
    if (scheme == "http" || scheme == "ws") return 80;
    if (scheme == "https" || scheme == "wss") return 443;
    if (scheme == "ftp") return 21;
    return std::nullopt;
}

// ---------------------------------------------------------------- Windows drive letters (file:)

[[nodiscard]] bool is_drive_letter(std::string_view s) noexcept {
    return s.size() == 2 && is_alpha(s[0]) && (s[1] == ':' || s[1] == '|');
}
[[nodiscard]] bool is_normalized_drive_letter(std::string_view s) noexcept {
    return s.size() == 2 && is_alpha(s[0]) && s[1] == ':';
}
[[nodiscard]] bool starts_with_drive_letter(std::string_view s) noexcept {
    if (s.size() < 2 || !is_drive_letter(s.substr(0, 2))) return false;
    if (s.size() == 2) return true;
    const char c = s[2];
    return c == '/' || c == '\\' || c == '?' || c == '#';
}

void shorten_path(Url& url) {
    if (url.scheme == "file" && url.path.size() == 1 && is_normalized_drive_letter(url.path[0])) return;
    if (!url.path.empty()) url.path.pop_back();
}

[[nodiscard]] bool iequals(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (to_lower(a[i]) != to_lower(b[i])) return false;
    }
    return true;
}

[[nodiscard]] bool is_single_dot(std::string_view s) noexcept { return s == "." || iequals(s, "%2e"); }
[[nodiscard]] bool is_double_dot(std::string_view s) noexcept {
    return s == ".." || iequals(s, ".%2e") || iequals(s, "%2e.") || iequals(s, "%2e%2e");
}

// ---------------------------------------------------------------- hosts

// Returns the number, or nullopt on failure. Values past 2^32 only need to be
// known as "too big", so accumulation saturates.
[[nodiscard]] std::optional<std::uint64_t> parse_ipv4_number(std::string_view s) {
    if (s.empty()) return std::nullopt;
    int radix = 10;
    if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        radix = 16;
        s.remove_prefix(2);
    } else if (s.size() >= 2 && s[0] == '0') {
        radix = 8;
        s.remove_prefix(1);
    }
    if (s.empty()) return 0;
    std::uint64_t value = 0;
    for (const char c : s) {
        int digit = -1;
        if (radix == 16 && is_hex(c)) digit = hex_value(c);
        if (radix == 10 && is_digit(c)) digit = c - '0';
        if (radix == 8 && c >= '0' && c <= '7') digit = c - '0';
        if (digit < 0) return std::nullopt;
        value = value * static_cast<std::uint64_t>(radix) + static_cast<std::uint64_t>(digit);
        if (value > (std::uint64_t{1} << 40)) value = std::uint64_t{1} << 40;
    }
    return value;
}

[[nodiscard]] std::vector<std::string_view> split_dots(std::string_view s) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = s.find('.', start);
        if (dot == std::string_view::npos) {
            parts.push_back(s.substr(start));
            return parts;
        }
        parts.push_back(s.substr(start, dot - start));
        start = dot + 1;
    }
}

// "ends in a number": such hosts must parse as IPv4 or the URL fails.
[[nodiscard]] bool ends_in_number(std::string_view host) {
    std::vector<std::string_view> parts = split_dots(host);
    if (parts.back().empty()) {
        if (parts.size() == 1) return false;
        parts.pop_back();
    }
    const std::string_view last = parts.back();
    if (!last.empty()) {
        bool all_digits = true;
        for (const char c : last) all_digits = all_digits && is_digit(c);
        if (all_digits) return true;
    }
    // "0x" followed by hex digits (or nothing) is a number too.
    if (last.size() >= 2 && last[0] == '0' && (last[1] == 'x' || last[1] == 'X')) {
        for (std::size_t i = 2; i < last.size(); ++i) {
            if (!is_hex(last[i])) return false;
        }
        return true;
    }
    return false;
}

[[nodiscard]] std::optional<std::string> parse_ipv4(std::string_view host) {
    std::vector<std::string_view> parts = split_dots(host);
    if (parts.back().empty() && parts.size() > 1) parts.pop_back();
    if (parts.size() > 4) return std::nullopt;
    std::vector<std::uint64_t> numbers;
    for (const std::string_view part : parts) {
        const auto n = parse_ipv4_number(part);
        if (!n) return std::nullopt;
        numbers.push_back(*n);
    }
    for (std::size_t i = 0; i + 1 < numbers.size(); ++i) {
        if (numbers[i] > 255) return std::nullopt;
    }
    const std::uint64_t limit = std::uint64_t{1} << (8 * (5 - numbers.size()));
    if (numbers.back() >= limit) return std::nullopt;
    std::uint64_t address = numbers.back();
    for (std::size_t i = 0; i + 1 < numbers.size(); ++i) {
        address += numbers[i] << (8 * (3 - i));
    }
    std::string out;
    for (int shift = 24; shift >= 0; shift -= 8) {
        out += std::to_string((address >> shift) & 0xFF);
        if (shift > 0) out += '.';
    }
    return out;
}

[[nodiscard]] std::optional<std::string> parse_ipv6(std::string_view s) {
    std::array<std::uint16_t, 8> address{};
    std::size_t piece = 0;
    std::optional<std::size_t> compress;
    std::size_t p = 0;
    const auto at = [&](std::size_t i) -> int {
        return i < s.size() ? static_cast<unsigned char>(s[i]) : k_eof;
    };

    if (at(p) == ':') {
        if (at(p + 1) != ':') return std::nullopt;
        p += 2;
        ++piece;
        compress = piece;
    }
    while (at(p) != k_eof) {
        if (piece == 8) return std::nullopt;
        if (at(p) == ':') {
            if (compress) return std::nullopt;
            ++p;
            ++piece;
            compress = piece;
            continue;
        }
        unsigned value = 0;
        std::size_t length = 0;
        while (length < 4 && is_hex(at(p))) {
            value = value * 16 + static_cast<unsigned>(hex_value(at(p)));
            ++p;
            ++length;
        }
        if (at(p) == '.') {
            // Embedded IPv4 in the last two pieces.
            if (length == 0) return std::nullopt;
            p -= length;
            if (piece > 6) return std::nullopt;
            int numbers_seen = 0;
            while (at(p) != k_eof) {
                int v4_piece = -1;
                if (numbers_seen > 0) {
                    if (at(p) == '.' && numbers_seen < 4) {
                        ++p;
                    } else {
                        return std::nullopt;
                    }
                }
                if (!is_digit(at(p))) return std::nullopt;
                while (is_digit(at(p))) {
                    const int digit = at(p) - '0';
                    if (v4_piece == -1) {
                        v4_piece = digit;
                    } else if (v4_piece == 0) {
                        return std::nullopt;  // leading zero
                    } else {
                        v4_piece = v4_piece * 10 + digit;
                    }
                    if (v4_piece > 255) return std::nullopt;
                    ++p;
                }
                address[piece] = static_cast<std::uint16_t>(address[piece] * 0x100 + v4_piece);
                ++numbers_seen;
                if (numbers_seen == 2 || numbers_seen == 4) ++piece;
            }
            if (numbers_seen != 4) return std::nullopt;
            break;
        }
        if (at(p) == ':') {
            ++p;
            if (at(p) == k_eof) return std::nullopt;
        } else if (at(p) != k_eof) {
            return std::nullopt;
        }
        address[piece] = static_cast<std::uint16_t>(value);
        ++piece;
    }
    if (compress) {
        std::size_t swaps = piece - *compress;
        piece = 7;
        while (piece != 0 && swaps > 0) {
            std::swap(address[piece], address[*compress + swaps - 1]);
            --piece;
            --swaps;
        }
    } else if (piece != 8) {
        return std::nullopt;
    }

    // Serialise: lowercase hex, the first longest run of two or more zero
    // pieces becomes "::".
    std::optional<std::size_t> zero_run_start;
    std::size_t best_len = 1;
    for (std::size_t i = 0; i < 8;) {
        if (address[i] != 0) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < 8 && address[j] == 0) ++j;
        if (j - i > best_len) {
            best_len = j - i;
            zero_run_start = i;
        }
        i = j;
    }
    std::string out;
    constexpr char k_hex[] = "0123456789abcdef";
    bool skipping_zeros = false;
    for (std::size_t i = 0; i < 8; ++i) {
        if (skipping_zeros && address[i] == 0) continue;
        skipping_zeros = false;
        if (zero_run_start && *zero_run_start == i) {
            out += i == 0 ? "::" : ":";
            skipping_zeros = true;
            continue;
        }
        bool started = false;
        for (int shift = 12; shift >= 0; shift -= 4) {
            const unsigned nibble = (address[i] >> shift) & 0xF;
            if (nibble != 0 || started || shift == 0) {
                out += k_hex[nibble];
                started = true;
            }
        }
        if (i != 7) out += ':';
    }
    return out;
}

[[nodiscard]] constexpr bool is_forbidden_host_byte(unsigned char c) noexcept {
    switch (c) {
        case 0x00: case 0x09: case 0x0A: case 0x0D: case ' ': case '#': case '/': case ':':
        case '<': case '>': case '?': case '@': case '[': case '\\': case ']': case '^': case '|':
            return true;
        default:
            return false;
    }
}

[[nodiscard]] constexpr bool is_forbidden_domain_byte(unsigned char c) noexcept {
    return is_forbidden_host_byte(c) || c <= 0x1F || c == '%' || c == 0x7F;
}

[[nodiscard]] std::string percent_decode(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && is_hex(s[i + 1]) && is_hex(s[i + 2])) {
            out += static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

// The host parser. `opaque` is true for non-special schemes, whose hosts are
// kept as written apart from percent-encoding.
[[nodiscard]] std::optional<std::string> parse_host(std::string_view input, bool opaque) {
    if (!input.empty() && input.front() == '[') {
        if (input.back() != ']' || input.size() < 2) return std::nullopt;
        const auto v6 = parse_ipv6(input.substr(1, input.size() - 2));
        if (!v6) return std::nullopt;
        return "[" + *v6 + "]";
    }
    if (opaque) {
        std::string out;
        for (const char c : input) {
            if (is_forbidden_host_byte(static_cast<unsigned char>(c))) return std::nullopt;
            append_encoded(out, c, EncodeSet::c0_control);
        }
        return out;
    }
    // Domain to ASCII without IDNA: lowercase ASCII, keep other bytes.
    std::string domain = percent_decode(input);
    for (char& c : domain) c = to_lower(c);
    if (domain.empty()) return std::nullopt;
    for (const char c : domain) {
        if (is_forbidden_domain_byte(static_cast<unsigned char>(c))) return std::nullopt;
    }
    if (ends_in_number(domain)) return parse_ipv4(domain);
    return domain;
}

// ---------------------------------------------------------------- the parser

class Parser {
public:
    Parser(std::string_view input, const Url* base) : base_(base) {
        // Trim C0 controls and spaces at both ends, then drop tabs and newlines.
        std::size_t begin = 0;
        std::size_t end = input.size();
        while (begin < end && static_cast<unsigned char>(input[begin]) <= 0x20) ++begin;
        while (end > begin && static_cast<unsigned char>(input[end - 1]) <= 0x20) --end;
        input_.reserve(end - begin);
        for (std::size_t i = begin; i < end; ++i) {
            const char c = input[i];
            if (c != '\t' && c != '\n' && c != '\r') input_ += c;
        }
    }

    [[nodiscard]] std::optional<Url> run();

private:
    [[nodiscard]] int at(std::ptrdiff_t i) const noexcept {
        return i >= 0 && static_cast<std::size_t>(i) < input_.size()
                   ? static_cast<unsigned char>(input_[static_cast<std::size_t>(i)])
                   : k_eof;
    }
    [[nodiscard]] std::string_view remaining_from(std::ptrdiff_t i) const noexcept {
        const auto start = static_cast<std::size_t>(i);
        return start < input_.size() ? std::string_view(input_).substr(start) : std::string_view();
    }
    [[nodiscard]] bool special() const noexcept { return is_special(url_.scheme); }
    // The character after the current one, as the standard's "remaining".
    [[nodiscard]] std::string_view remaining() const noexcept { return remaining_from(p_ + 1); }

    // One step of the state machine on character `c`; false on failure.
    [[nodiscard]] bool step(int c);

    const Url* base_;
    std::string input_;
    Url url_;
    State state_ = State::scheme_start;
    std::string buffer_;
    std::ptrdiff_t p_ = 0;
    bool at_sign_seen_ = false;
    bool inside_brackets_ = false;
    bool password_token_seen_ = false;
};

std::optional<Url> Parser::run() {
    while (true) {
        if (!step(at(p_))) return std::nullopt;
        // The machine stops once it has run on EOF and not stepped back.
        if (p_ >= static_cast<std::ptrdiff_t>(input_.size())) break;
        ++p_;
    }
    return std::move(url_);
}

bool Parser::step(int c) {
    const auto is_path_end = [&](int ch) {
        return ch == k_eof || ch == '/' || ch == '?' || ch == '#' || (special() && ch == '\\');
    };
    switch (state_) {
        case State::scheme_start:
            if (is_alpha(c)) {
                buffer_ += to_lower(static_cast<char>(c));
                state_ = State::scheme;
            } else {
                state_ = State::no_scheme;
                --p_;
            }
            return true;

        case State::scheme:
            if (is_alpha(c) || is_digit(c) || c == '+' || c == '-' || c == '.') {
                buffer_ += to_lower(static_cast<char>(c));
                return true;
            }
            if (c == ':') {
                url_.scheme = std::move(buffer_);
                buffer_.clear();
                if (url_.scheme == "file") {
                    state_ = State::file;
                } else if (special() && base_ != nullptr && base_->scheme == url_.scheme) {
                    state_ = State::special_relative_or_authority;
                } else if (special()) {
                    state_ = State::special_authority_slashes;
                } else if (at(p_ + 1) == '/') {
                    state_ = State::path_or_authority;
                    ++p_;
                } else {
                    url_.opaque = true;
                    state_ = State::opaque_path;
                }
                return true;
            }
            // Not a scheme after all: start over as a relative reference.
            buffer_.clear();
            state_ = State::no_scheme;
            p_ = -1;
            return true;

        case State::no_scheme:
            if (base_ == nullptr || (base_->opaque && c != '#')) return false;
            if (base_->opaque && c == '#') {
                url_.scheme = base_->scheme;
                url_.opaque = true;
                url_.opaque_path = base_->opaque_path;
                url_.query = base_->query;
                url_.fragment = std::string();
                state_ = State::fragment;
            } else if (base_->scheme != "file") {
                state_ = State::relative;
                --p_;
            } else {
                state_ = State::file;
                --p_;
            }
            return true;

        case State::special_relative_or_authority:
            if (c == '/' && at(p_ + 1) == '/') {
                state_ = State::special_authority_ignore_slashes;
                ++p_;
            } else {
                state_ = State::relative;
                --p_;
            }
            return true;

        case State::path_or_authority:
            if (c == '/') {
                state_ = State::authority;
            } else {
                state_ = State::path;
                --p_;
            }
            return true;

        case State::relative:
            url_.scheme = base_->scheme;
            if (c == '/' || (special() && c == '\\')) {
                state_ = State::relative_slash;
                return true;
            }
            url_.username = base_->username;
            url_.password = base_->password;
            url_.host = base_->host;
            url_.port = base_->port;
            url_.path = base_->path;
            url_.query = base_->query;
            if (c == '?') {
                url_.query = std::string();
                state_ = State::query;
            } else if (c == '#') {
                url_.fragment = std::string();
                state_ = State::fragment;
            } else if (c != k_eof) {
                url_.query.reset();
                shorten_path(url_);
                state_ = State::path;
                --p_;
            }
            return true;

        case State::relative_slash:
            if (special() && (c == '/' || c == '\\')) {
                state_ = State::special_authority_ignore_slashes;
            } else if (c == '/') {
                state_ = State::authority;
            } else {
                url_.username = base_->username;
                url_.password = base_->password;
                url_.host = base_->host;
                url_.port = base_->port;
                state_ = State::path;
                --p_;
            }
            return true;

        case State::special_authority_slashes:
            state_ = State::special_authority_ignore_slashes;
            if (c == '/' && at(p_ + 1) == '/') {
                ++p_;
            } else {
                --p_;
            }
            return true;

        case State::special_authority_ignore_slashes:
            if (c != '/' && c != '\\') {
                state_ = State::authority;
                --p_;
            }
            return true;

        case State::authority:
            if (c == '@') {
                if (at_sign_seen_) buffer_.insert(0, "%40");
                at_sign_seen_ = true;
                for (const char b : buffer_) {
                    if (b == ':' && !password_token_seen_) {
                        password_token_seen_ = true;
                        continue;
                    }
                    append_encoded(password_token_seen_ ? url_.password : url_.username, b,
                                   EncodeSet::userinfo);
                }
                buffer_.clear();
            } else if (is_path_end(c)) {
                if (at_sign_seen_ && buffer_.empty()) return false;  // "http://user@/"
                p_ -= static_cast<std::ptrdiff_t>(buffer_.size()) + 1;
                buffer_.clear();
                state_ = State::host;
            } else {
                buffer_ += static_cast<char>(c);
            }
            return true;

        case State::host:
            if (c == ':' && !inside_brackets_) {
                if (buffer_.empty()) return false;
                auto host = parse_host(buffer_, !special());
                if (!host) return false;
                url_.host = std::move(*host);
                buffer_.clear();
                state_ = State::port;
            } else if (is_path_end(c)) {
                --p_;
                if (special() && buffer_.empty()) return false;
                auto host = parse_host(buffer_, !special());
                if (!host) return false;
                url_.host = std::move(*host);
                buffer_.clear();
                state_ = State::path_start;
            } else {
                if (c == '[') inside_brackets_ = true;
                if (c == ']') inside_brackets_ = false;
                buffer_ += static_cast<char>(c);
            }
            return true;

        case State::port:
            if (is_digit(c)) {
                buffer_ += static_cast<char>(c);
                return true;
            }
            if (is_path_end(c)) {
                if (!buffer_.empty()) {
                    std::uint32_t port = 0;
                    for (const char d : buffer_) {
                        port = port * 10 + static_cast<std::uint32_t>(d - '0');
                        if (port > 65535) return false;
                    }
                    const auto value = static_cast<std::uint16_t>(port);
                    if (default_port(url_.scheme) == value) {
                        url_.port.reset();
                    } else {
                        url_.port = value;
                    }
                    buffer_.clear();
                }
                state_ = State::path_start;
                --p_;
                return true;
            }
            return false;

        case State::file:
            url_.scheme = "file";
            url_.host = std::string();
            if (c == '/' || c == '\\') {
                state_ = State::file_slash;
            } else if (base_ != nullptr && base_->scheme == "file") {
                url_.host = base_->host;
                url_.path = base_->path;
                url_.query = base_->query;
                if (c == '?') {
                    url_.query = std::string();
                    state_ = State::query;
                } else if (c == '#') {
                    url_.fragment = std::string();
                    state_ = State::fragment;
                } else if (c != k_eof) {
                    url_.query.reset();
                    if (!starts_with_drive_letter(remaining_from(p_))) {
                        shorten_path(url_);
                    } else {
                        url_.path.clear();
                    }
                    state_ = State::path;
                    --p_;
                }
            } else {
                state_ = State::path;
                --p_;
            }
            return true;

        case State::file_slash:
            if (c == '/' || c == '\\') {
                state_ = State::file_host;
                return true;
            }
            if (base_ != nullptr && base_->scheme == "file") {
                url_.host = base_->host;
                if (!starts_with_drive_letter(remaining_from(p_)) && !base_->path.empty() &&
                    is_normalized_drive_letter(base_->path[0])) {
                    url_.path.push_back(base_->path[0]);
                }
            }
            state_ = State::path;
            --p_;
            return true;

        case State::file_host:
            if (c == k_eof || c == '/' || c == '\\' || c == '?' || c == '#') {
                --p_;
                if (is_drive_letter(buffer_)) {
                    // "file://C:/x": the drive letter is the path, not a host;
                    // buffer_ is deliberately kept for the path state.
                    state_ = State::path;
                } else if (buffer_.empty()) {
                    url_.host = std::string();
                    state_ = State::path_start;
                } else {
                    auto host = parse_host(buffer_, !special());
                    if (!host) return false;
                    if (*host == "localhost") host->clear();
                    url_.host = std::move(*host);
                    buffer_.clear();
                    state_ = State::path_start;
                }
            } else {
                buffer_ += static_cast<char>(c);
            }
            return true;

        case State::path_start:
            if (special()) {
                state_ = State::path;
                if (c != '/' && c != '\\') --p_;
            } else if (c == '?') {
                url_.query = std::string();
                state_ = State::query;
            } else if (c == '#') {
                url_.fragment = std::string();
                state_ = State::fragment;
            } else if (c != k_eof) {
                state_ = State::path;
                if (c != '/') --p_;
            }
            return true;

        case State::path:
            if (is_path_end(c)) {
                const bool slash = c == '/' || (special() && c == '\\');
                if (is_double_dot(buffer_)) {
                    shorten_path(url_);
                    if (!slash) url_.path.emplace_back();
                } else if (is_single_dot(buffer_)) {
                    if (!slash) url_.path.emplace_back();
                } else {
                    if (url_.scheme == "file" && url_.path.empty() && is_drive_letter(buffer_)) {
                        buffer_[1] = ':';
                    }
                    url_.path.push_back(std::move(buffer_));
                }
                buffer_.clear();
                if (c == '?') {
                    url_.query = std::string();
                    state_ = State::query;
                } else if (c == '#') {
                    url_.fragment = std::string();
                    state_ = State::fragment;
                }
            } else {
                append_encoded(buffer_, static_cast<char>(c), EncodeSet::path);
            }
            return true;

        case State::opaque_path:
            if (c == '?') {
                url_.query = std::string();
                state_ = State::query;
            } else if (c == '#') {
                url_.fragment = std::string();
                state_ = State::fragment;
            } else if (c == ' ') {
                // A space right before '?' or '#' is encoded so that it survives
                // a round trip (whatwg/url, 2025).
                const int next = at(p_ + 1);
                url_.opaque_path += (next == '?' || next == '#') ? "%20" : " ";
            } else if (c != k_eof) {
                append_encoded(url_.opaque_path, static_cast<char>(c), EncodeSet::c0_control);
            }
            return true;

        case State::query:
            if (c == '#' || c == k_eof) {
                const EncodeSet set = special() ? EncodeSet::special_query : EncodeSet::query;
                for (const char b : buffer_) append_encoded(*url_.query, b, set);
                buffer_.clear();
                if (c == '#') {
                    url_.fragment = std::string();
                    state_ = State::fragment;
                }
            } else {
                buffer_ += static_cast<char>(c);
            }
            return true;

        case State::fragment:
            if (c != k_eof) append_encoded(*url_.fragment, static_cast<char>(c), EncodeSet::fragment);
            return true;
    }
    return false;
}

[[nodiscard]] std::string serialize(const Url& url) {
    std::string out = url.scheme;
    out += ':';
    if (url.host) {
        out += "//";
        if (!url.username.empty() || !url.password.empty()) {
            out += url.username;
            if (!url.password.empty()) {
                out += ':';
                out += url.password;
            }
            out += '@';
        }
        out += *url.host;
        if (url.port) {
            out += ':';
            out += std::to_string(*url.port);
        }
    }
    if (url.opaque) {
        out += url.opaque_path;
    } else {
        // "web+demo:/.//not-a-host/": keeps an empty first segment from being
        // read back as an authority.
        if (!url.host && url.path.size() > 1 && url.path[0].empty()) out += "/.";
        for (const auto& segment : url.path) {
            out += '/';
            out += segment;
        }
    }
    if (url.query) {
        out += '?';
        out += *url.query;
    }
    if (url.fragment) {
        out += '#';
        out += *url.fragment;
    }
    return out;
}

[[nodiscard]] std::optional<Url> parse(std::string_view input, const Url* base) {
    return Parser(input, base).run();
}

}  // namespace

std::optional<std::string> resolve(std::string_view reference, std::string_view base) {
    try {
        const std::optional<Url> base_url = parse(base, nullptr);
        // Unlike `new URL(ref, base)`, an unusable base does not matter when the
        // reference is absolute on its own.
        const std::optional<Url> url = parse(reference, base_url ? &*base_url : nullptr);
        if (!url) return std::nullopt;
        return serialize(*url);
    } catch (...) {
        // Allocation failure on absurd input; treat as unresolvable.
        return std::nullopt;
    }
}

bool is_absolute(std::string_view s) {
    try {
        return parse(s, nullptr).has_value();
    } catch (...) {
        return false;
    }
}

}  // namespace pith::url
