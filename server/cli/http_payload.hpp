// The HTTP response a WARC response record holds: status line, headers,
// chunked transfer coding, gzip/deflate/br content coding, the charset, and
// whether the payload is HTML (by Content-Type, or sniffed when it has none).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "pith/result.hpp"

namespace pith::cli {

struct HttpPayload {
    int status = 0;
    std::string content_type;  // the media type, lower case, without parameters ("" when absent)
    std::string charset;       // Content-Type's charset parameter, "" when absent
    std::string body;          // decoded: transfer and content codings undone
    bool html = false;
};

// Decodes `message`. Errors: invalid_argument (not an HTTP response, a broken
// chunked body), too_large (the decoded body passes `max_body_bytes`),
// upstream_error (a corrupt or unknown content coding).
[[nodiscard]] Result<HttpPayload> decode_http_response(std::string_view message, std::size_t max_body_bytes);

// Whether `body` starts like an HTML document (after a BOM and white space:
// a doctype, <html>, <head>, <body>, or a comment before one of them).
[[nodiscard]] bool looks_like_html(std::string_view body) noexcept;

}  // namespace pith::cli
