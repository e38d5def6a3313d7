// URL resolution as browsers do it (the WHATWG URL standard's common cases),
// so that absolutised links match what Readability.js produces through `new URL`.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace pith::url {

// Resolves `reference` against `base` and returns the serialised absolute URL
// (scheme and host lowercased, default port dropped, dot segments removed,
// spaces and non-ASCII percent-encoded). nullopt when `base` is not an absolute
// URL and `reference` is not absolute either, or when either fails to parse.
[[nodiscard]] std::optional<std::string> resolve(std::string_view reference, std::string_view base);

// True when `s` parses as an absolute URL on its own (`new URL(s)` succeeds).
[[nodiscard]] bool is_absolute(std::string_view s);

}  // namespace pith::url
