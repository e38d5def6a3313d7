// Decoding a fetched body by its Content-Encoding: gzip and deflate (zlib),
// br (brotli), identity. The output is capped while it is produced, so a
// small compressed body cannot expand past the limit (compression bombs).
//
// Thread-safety: reentrant.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "pithd/memory_budget.hpp"
#include "pith/result.hpp"

namespace pith::server {

// Decodes `body` as `content_encoding` says ("gzip", "br", "deflate, br", "" or
// "identity"; codings are undone last-applied first). Errors: too_large when the
// decoded size would pass `max_bytes` (the message names it), upstream_error for
// a corrupt stream or an unknown coding. `hold`, when given, is asked before
// the output's buffer grows (with the input, and the old buffer while it is
// copied), and its error ends the decoding.
[[nodiscard]] Result<std::string> decode_content(std::string_view content_encoding, std::string body,
                                                 std::size_t max_bytes, const HoldMemory& hold = {});

}  // namespace pith::server
