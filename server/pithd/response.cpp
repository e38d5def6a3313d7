// The answers of /extract: the one mapping from ErrorCode to HTTP status, the
// error body, and the article and inspection bodies (the article's JSON shape
// is pith/article_json.hpp's). proto-docs/openapi.yaml describes them.
#include "pithd/response.hpp"

#include <nlohmann/json.hpp>

#include "pith/article_json.hpp"

namespace pith::server {

using nlohmann::json;

unsigned http_status(ErrorCode code) noexcept {
    switch (code) {
    case ErrorCode::invalid_argument:
    case ErrorCode::invalid_json:
    case ErrorCode::bad_request:
    case ErrorCode::invalid_url: return 400;
    case ErrorCode::unauthorized: return 401;
    case ErrorCode::blocked_address: return 403;
    case ErrorCode::not_found: return 404;
    case ErrorCode::method_not_allowed: return 405;
    case ErrorCode::body_too_large:
    case ErrorCode::input_too_large: return 413;
    case ErrorCode::unsupported_media_type: return 415;
    case ErrorCode::too_many_elements:
    case ErrorCode::too_deep:
    case ErrorCode::too_many_attributes:
    case ErrorCode::too_much_memory:
    case ErrorCode::parse_failed:
    case ErrorCode::unsupported_content_type: return 422;
    case ErrorCode::header_too_large: return 431;
    case ErrorCode::io_error:
    case ErrorCode::internal: return 500;
    case ErrorCode::dns_failure:
    case ErrorCode::connect_failed:
    case ErrorCode::tls_error:
    case ErrorCode::too_many_redirects:
    case ErrorCode::too_large:
    case ErrorCode::upstream_status:
    case ErrorCode::upstream_error: return 502;
    case ErrorCode::overloaded:
    case ErrorCode::draining: return 503;
    case ErrorCode::deadline_exceeded:
    case ErrorCode::connect_timeout:
    case ErrorCode::fetch_timeout: return 504;
    }
    return 500;
}

std::string error_body(const Error& error, std::string_view request_id, unsigned upstream_status) {
    json body = {{"error", {{"code", error_code_name(error.code)}, {"message", error.message}}}};
    if (upstream_status != 0) {
        body["error"]["upstream_status"] = upstream_status;
    }
    if (!request_id.empty()) {
        body["request_id"] = request_id;
    }
    return body.dump(-1, ' ', false, json::error_handler_t::replace);
}

namespace {

// An answer's JSON with its request id, as sent.
std::string answer_text(json body, std::string_view request_id) {
    body["request_id"] = request_id;
    return body.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

std::string article_body(extract::Article&& article, const ExtractRequest& request,
                         std::string_view request_id) {
    extract::JsonOptions options;
    options.diagnostics = request.diagnostics;
    options.include_content = request.format != OutputFormat::text;
    options.include_text = request.format != OutputFormat::html;
    options.include_markdown = request.format == OutputFormat::markdown;
    options.include_clean_text = request.format == OutputFormat::text;
    return answer_text(extract::to_json(std::move(article), options), request_id);
}

std::string inspection_body(extract::Inspection&& inspection, std::string_view request_id) {
    extract::JsonOptions options;
    options.diagnostics = true;
    options.include_markdown = true;
    options.include_clean_text = true;
    json inspected = extract::inspection_json(inspection);
    json body = extract::to_json(std::move(inspection.article), options);
    body["inspection"] = std::move(inspected);
    return answer_text(std::move(body), request_id);
}

}  // namespace pith::server
