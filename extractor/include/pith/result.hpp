// Result<T>: a value or an Error{code, message}. The extractor reports failures
// through these instead of throwing; callers check them where they can act.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace pith {

// One code per way a request can fail. Each value is spelled exactly like the
// error code the API puts on the wire (see error_code_name).
enum class ErrorCode {
    invalid_argument,    // a caller-supplied option or field is out of range
    input_too_large,     // input bytes over max_input_bytes, refused before decoding
    too_many_elements,   // element count over max_elements, refused before extraction
    too_deep,            // nesting estimate over max_nesting_depth, refused before parsing
    parse_failed,        // the HTML parser returned no document
    io_error,            // a file or stream could not be read
    internal,            // a bug or resource exhaustion caught at a boundary
};

// The wire spelling of `code`, e.g. "too_many_elements".
[[nodiscard]] constexpr std::string_view error_code_name(ErrorCode code) noexcept {
    switch (code) {
    case ErrorCode::invalid_argument: return "invalid_argument";
    case ErrorCode::input_too_large: return "input_too_large";
    case ErrorCode::too_many_elements: return "too_many_elements";
    case ErrorCode::too_deep: return "too_deep";
    case ErrorCode::parse_failed: return "parse_failed";
    case ErrorCode::io_error: return "io_error";
    case ErrorCode::internal: return "internal";
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
