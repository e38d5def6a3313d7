// Result<T>: a value or an Error{code, message}. The extractor reports failures
// through these instead of throwing; callers check them where they can act.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace pith {

// One code per way a request can fail, in the extractor or in the service
// around it: the project's single error vocabulary. Each value is spelled
// exactly like the error code the API puts on the wire (see error_code_name);
// pithd maps each to an HTTP status in one place (http_status in server/pithd/response.cpp).
enum class ErrorCode {
    // extraction
    invalid_argument,          // a caller-supplied option or field is out of range
    input_too_large,           // input bytes over max_input_bytes, refused before decoding
    too_many_elements,         // element count over max_elements, refused before extraction
    too_deep,                  // nesting estimate over max_nesting_depth, refused before parsing
    too_many_attributes,       // an element over max_attributes_per_element, refused before parsing
    too_much_memory,           // estimated or actual working memory over max_memory_bytes
    deadline_exceeded,         // the request's deadline passed before the work finished
    parse_failed,              // the HTML parser returned no document
    io_error,                  // a file or stream could not be read
    internal,                  // a bug or resource exhaustion caught at a boundary
    // the HTTP service (pithd)
    invalid_json,              // the request body is not the JSON the endpoint takes
    unsupported_media_type,    // the request's Content-Type is not one the endpoint takes
    body_too_large,            // the request body is over the server's max_body_bytes
    header_too_large,          // the request header is over the server's max_header_bytes
    unauthorized,              // a bearer token is required and was missing or wrong
    not_found,                 // no such endpoint
    method_not_allowed,        // the endpoint exists but not for this method
    overloaded,                // the work queue or the connection limit is full; retry later
    draining,                  // the server is shutting down and takes no new work
    bad_request,               // the request is not valid HTTP/1.1
    // fetching URLs (pithd)
    invalid_url,               // the URL to fetch is not an absolute http(s) URL
    blocked_address,           // the URL's host resolves to an address the fetch policy refuses
    dns_failure,               // the URL's host could not be resolved
    connect_failed,            // no connection could be made to the URL's host
    connect_timeout,           // connecting to the URL's host took longer than the connect timeout
    fetch_timeout,             // the upstream did not answer within the fetch timeouts
    tls_error,                 // the TLS handshake or certificate verification failed
    too_many_redirects,        // the fetch followed more redirects than max_redirects
    too_large,                 // the fetched body, or its decompressed size, is over the limit
    unsupported_content_type,  // the fetched document is not HTML
    upstream_status,           // the upstream answered with a status other than 2xx
    upstream_error,            // the upstream's answer was not valid HTTP or its encoding was corrupt
};

// Every ErrorCode, in declaration order (for contract checks and metrics).
inline constexpr ErrorCode kAllErrorCodes[] = {
    ErrorCode::invalid_argument,
    ErrorCode::input_too_large,
    ErrorCode::too_many_elements,
    ErrorCode::too_deep,
    ErrorCode::too_many_attributes,
    ErrorCode::too_much_memory,
    ErrorCode::deadline_exceeded,
    ErrorCode::parse_failed,
    ErrorCode::io_error,
    ErrorCode::internal,
    ErrorCode::invalid_json,
    ErrorCode::unsupported_media_type,
    ErrorCode::body_too_large,
    ErrorCode::header_too_large,
    ErrorCode::unauthorized,
    ErrorCode::not_found,
    ErrorCode::method_not_allowed,
    ErrorCode::overloaded,
    ErrorCode::draining,
    ErrorCode::bad_request,
    ErrorCode::invalid_url,
    ErrorCode::blocked_address,
    ErrorCode::dns_failure,
    ErrorCode::connect_failed,
    ErrorCode::connect_timeout,
    ErrorCode::fetch_timeout,
    ErrorCode::tls_error,
    ErrorCode::too_many_redirects,
    ErrorCode::too_large,
    ErrorCode::unsupported_content_type,
    ErrorCode::upstream_status,
    ErrorCode::upstream_error,
};

// The wire spelling of `code`, e.g. "too_many_elements".
[[nodiscard]] constexpr std::string_view error_code_name(ErrorCode code) noexcept {
    switch (code) {
    case ErrorCode::invalid_argument: return "invalid_argument";
    case ErrorCode::input_too_large: return "input_too_large";
    case ErrorCode::too_many_elements: return "too_many_elements";
    case ErrorCode::too_deep: return "too_deep";
    case ErrorCode::too_many_attributes: return "too_many_attributes";
    case ErrorCode::too_much_memory: return "too_much_memory";
    case ErrorCode::deadline_exceeded: return "deadline_exceeded";
    case ErrorCode::parse_failed: return "parse_failed";
    case ErrorCode::io_error: return "io_error";
    case ErrorCode::internal: return "internal";
    case ErrorCode::invalid_json: return "invalid_json";
    case ErrorCode::unsupported_media_type: return "unsupported_media_type";
    case ErrorCode::body_too_large: return "body_too_large";
    case ErrorCode::header_too_large: return "header_too_large";
    case ErrorCode::unauthorized: return "unauthorized";
    case ErrorCode::not_found: return "not_found";
    case ErrorCode::method_not_allowed: return "method_not_allowed";
    case ErrorCode::overloaded: return "overloaded";
    case ErrorCode::draining: return "draining";
    case ErrorCode::bad_request: return "bad_request";
    case ErrorCode::invalid_url: return "invalid_url";
    case ErrorCode::blocked_address: return "blocked_address";
    case ErrorCode::dns_failure: return "dns_failure";
    case ErrorCode::connect_failed: return "connect_failed";
    case ErrorCode::connect_timeout: return "connect_timeout";
    case ErrorCode::fetch_timeout: return "fetch_timeout";
    case ErrorCode::tls_error: return "tls_error";
    case ErrorCode::too_many_redirects: return "too_many_redirects";
    case ErrorCode::too_large: return "too_large";
    case ErrorCode::unsupported_content_type: return "unsupported_content_type";
    case ErrorCode::upstream_status: return "upstream_status";
    case ErrorCode::upstream_error: return "upstream_error";
    }
    return "internal";
}

struct Error {
    ErrorCode code = ErrorCode::internal;
    std::string message;  // names the number that tripped a limit
};

template <typename T>
class [[nodiscard]] Result {
public:
    Result(T value) : state_(std::move(value)) {}          // NOLINT: implicit by design
    Result(Error error) : state_(std::move(error)) {}      // NOLINT: implicit by design

    [[nodiscard]] bool ok() const noexcept { return state_.index() == 0; }
    explicit operator bool() const noexcept { return ok(); }

    [[nodiscard]] T& value() & { return std::get<0>(state_); }
    [[nodiscard]] const T& value() const& { return std::get<0>(state_); }
    [[nodiscard]] T&& value() && { return std::get<0>(std::move(state_)); }
    [[nodiscard]] const Error& error() const& { return std::get<1>(state_); }
    [[nodiscard]] Error&& error() && { return std::get<1>(std::move(state_)); }

    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

private:
    std::variant<T, Error> state_;
};

}  // namespace pith
