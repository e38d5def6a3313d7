// The answers of /extract and the errors of every endpoint, with no HTTP
// library in sight: the status of each error code, the error body, and the
// bodies of an article and of an inspection.
//
// Thread-safety: every function is reentrant.
#pragma once

#include <string>
#include <string_view>

#include "pith/article.hpp"
#include "pith/inspect.hpp"
#include "pith/result.hpp"
#include "pithd/request.hpp"

namespace pith::server {

// The HTTP status for an error code (the only place that decides it).
[[nodiscard]] unsigned http_status(ErrorCode code) noexcept;

// {"error": {"code": ..., "message": ...}, "request_id": ...}; `upstream_status`
// is added to the error object when non-zero.
[[nodiscard]] std::string error_body(const Error& error, std::string_view request_id,
                                     unsigned upstream_status = 0);

// The article as the /extract answer: Article JSON plus "request_id".
// The article's content and text are moved into the answer.
[[nodiscard]] std::string article_body(extract::Article&& article, const ExtractRequest& request,
                                       std::string_view request_id);

// The inspector's answer: the article JSON with diagnostics, Markdown and
// clean text, plus "inspection" (article_json.hpp) and "request_id".
[[nodiscard]] std::string inspection_body(extract::Inspection&& inspection, std::string_view request_id);

}  // namespace pith::server
