// The /extract request, with no HTTP library in sight: a JSON body, or a raw
// HTML body with options in the query string, read into an ExtractRequest.
// The extraction options are the option table's (pith/option_table.hpp); the
// request adds its own (format, diagnostics, inspect, timeout_ms and the
// request's own rule). proto-docs/openapi.yaml describes what it accepts.
//
// Thread-safety: every function is reentrant.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "config.hpp"
#include "pith/extract.hpp"
#include "pith/inspect.hpp"
#include "pith/rules.hpp"
#include "pith/result.hpp"

namespace pith::server {

// What the article JSON carries: json both content and textContent, html only
// content, text only textContent (the CLI's --format, as fields of one JSON).
// Which renderings the answer carries: json content and textContent; html
// content; text the clean text and textContent; markdown the Markdown,
// content and textContent.
enum class OutputFormat { json, html, text, markdown };

struct ExtractRequest {
    std::string html;    // the page; empty when only a URL was given
    bool has_html = false;
    std::string url;     // document URL (base for links), or the page to fetch
    extract::ExtractOptions options;  // the server's defaults with the request's options applied
    OutputFormat format = OutputFormat::json;
    bool diagnostics = false;
    // The inspector's answer: every strategy, the annotated page (inspect.hpp).
    bool inspect = false;
    std::optional<std::chrono::milliseconds> timeout;  // the request's own deadline, within the server's
    // The extraction options the request gave, by name: a preset (policy) may
    // not come with the options it sets (extract::conflicting_options).
    std::vector<std::string> given;
    // content_selector and remove_selectors: a rule of the request's own,
    // which options.rule points at.
    rules::InlineRule inline_rule;
    std::shared_ptr<const rules::SiteRule> rule;
};

// Memory a JSON body's parse holds beside the body, in multiples of its size:
// nlohmann's lexer keeps a string token twice (decoded, and its raw characters
// for error messages), each grown by doubling to at most twice its length, and
// one of them mid-growth holds its old buffer as well. The page's string is
// trimmed to its size before the parse returns.
inline constexpr std::size_t kJsonParseFactor = 5;

// A JSON body: {"html": "...", "url": "...", "options": {...}}. Unknown fields
// and options are refused so that typos do not pass silently, and so is a
// query string (options belong in the body). Errors: invalid_json for syntax
// or shape (the message gives the byte offset), invalid_argument for a value
// out of range or of the wrong JSON type (the message names the field).
[[nodiscard]] Result<ExtractRequest> parse_json_request(std::string_view body, std::string_view query,
                                                        const config::ServerConfig& config);

// A raw HTML body with options in the query string ("url=...&format=text").
// `charset` is the charset parameter of Content-Type ("" when none). Errors:
// invalid_argument naming the parameter.
[[nodiscard]] Result<ExtractRequest> parse_raw_request(std::string body, std::string_view query,
                                                       std::string_view charset,
                                                       const config::ServerConfig& config);

// Calls visit(name, value) for each parameter of `query`, percent-decoded, in
// order; a bad escape or a name given twice is refused, and the first error
// visit returns ends the walk and is returned.
[[nodiscard]] std::optional<Error> for_each_query_parameter(
    std::string_view query, const std::function<std::optional<Error>(const std::string&, const std::string&)>& visit);

// The order of POST /extract/batch's answer lines.
enum class BatchOrder {
    items,       // the items' order: a line waits for every line before it
    completion,  // each line as soon as its item is done; `item` tells which it is
};

// POST /extract/batch's query: "order=items" (the default) or
// "order=completion". Anything else is invalid_argument: the items' options
// are on their lines.
[[nodiscard]] Result<BatchOrder> parse_batch_query(std::string_view query);

// A Content-Type split into its lower-cased media type and charset parameter.
struct MediaType {
    std::string type;     // "text/html"
    std::string charset;  // "windows-1251", or ""
};
[[nodiscard]] MediaType parse_media_type(std::string_view content_type);

// The media types POST /extract takes as raw HTML.
[[nodiscard]] bool is_html_media_type(std::string_view type) noexcept;
// The media types POST /extract/batch takes: JSON lines.
[[nodiscard]] bool is_ndjson_media_type(std::string_view type) noexcept;

// Every option /extract takes, as a JSON array of {name, kind, type, group,
// help, minimum, maximum, choices, default, server_cap, preset}: the option
// table's rows (defaults as `config` sets them) and then the request's own
// options (group "request"). For `pithd --print-options` and the contract test.
[[nodiscard]] std::string options_json(const config::ServerConfig& config);

// Percent-decodes a query component ('+' is a space). nullopt on a bad escape.
[[nodiscard]] std::optional<std::string> percent_decode(std::string_view text);

}  // namespace pith::server
