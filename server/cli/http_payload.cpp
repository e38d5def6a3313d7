#include "cli/http_payload.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <utility>

#include "cli/header_text.hpp"
#include "pithd/content_encoding.hpp"
#include "pithd/request.hpp"

namespace pith::cli {

namespace {

Error invalid(std::string message) { return Error{ErrorCode::invalid_argument, std::move(message)}; }

Error too_large(std::size_t max_body_bytes) {
    return Error{ErrorCode::too_large, "the body is over the limit of " + std::to_string(max_body_bytes) + " bytes"};
}

bool istarts_with(std::string_view s, std::string_view prefix) noexcept {
    return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

// The body of a chunked message, its chunk sizes and extensions dropped. A
// body cut short after whole chunks keeps them (crawlers store what came).
Result<std::string> dechunk(std::string_view body, std::size_t max_body_bytes) {
    std::string out;
    while (!body.empty()) {
        const std::size_t nl = body.find('\n');
        if (nl == std::string_view::npos) {
            break;  // cut inside a size line
        }
        std::string_view size_line = trim_field(body.substr(0, nl));
        size_line = size_line.substr(0, std::min(size_line.find(';'), size_line.size()));
        std::uint64_t size = 0;
        const auto [end, ec] = std::from_chars(size_line.data(), size_line.data() + size_line.size(), size, 16);
        if (ec != std::errc{} || end != size_line.data() + size_line.size()) {
            return invalid("a broken chunked body: chunk size \"" + std::string(size_line.substr(0, 40)) + "\"");
        }
        body.remove_prefix(nl + 1);
        if (size == 0) {
            break;  // the last chunk; trailers are not kept
        }
        if (out.size() + size > max_body_bytes) {
            return too_large(max_body_bytes);
        }
        const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(size, body.size()));
        out.append(body.substr(0, take));
        body.remove_prefix(take);
        if (body.starts_with("\r\n")) {
            body.remove_prefix(2);
        } else if (body.starts_with("\n")) {
            body.remove_prefix(1);
        }
    }
    return out;
}

}  // namespace

bool looks_like_html(std::string_view body) noexcept {
    if (body.starts_with("\xEF\xBB\xBF")) {
        body.remove_prefix(3);
    }
    for (int comments = 0; comments < 8; ++comments) {
        while (!body.empty() && (body.front() == ' ' || body.front() == '\t' || body.front() == '\r' ||
                                 body.front() == '\n' || body.front() == '\f')) {
            body.remove_prefix(1);
        }
        if (body.starts_with("<!--")) {
            const std::size_t end = body.find("-->");
            if (end == std::string_view::npos) {
                return false;
            }
            body.remove_prefix(end + 3);
            continue;
        }
        return istarts_with(body, "<!doctype html") || istarts_with(body, "<html") || istarts_with(body, "<head") ||
               istarts_with(body, "<body");
    }
    return false;
}

Result<HttpPayload> decode_http_response(std::string_view message, std::size_t max_body_bytes) {
    if (!message.starts_with("HTTP/")) {
        return invalid("not an HTTP response: no HTTP/ status line");
    }
    const std::size_t line_end = message.find('\n');
    if (line_end == std::string_view::npos) {
        return invalid("an HTTP response cut inside its status line");
    }
    HttpPayload payload;
    const std::string_view status_line = trim_field(message.substr(0, line_end));
    const std::size_t space = status_line.find(' ');
    const std::string_view code =
        space == std::string_view::npos ? std::string_view{} : status_line.substr(space + 1, 3);
    const auto [end, ec] = std::from_chars(code.data(), code.data() + code.size(), payload.status);
    if (code.size() != 3 || ec != std::errc{} || end != code.data() + 3) {
        return invalid("a bad HTTP status line \"" + std::string(status_line.substr(0, 60)) + "\"");
    }

    // Headers up to the empty line; a message cut inside them has no body.
    std::string_view rest = message.substr(line_end + 1);
    std::string content_encoding;
    bool chunked = false;
    std::optional<std::string_view> content_type;
    for (;;) {
        const std::size_t nl = rest.find('\n');
        const std::string_view line = trim_field(rest.substr(0, nl));
        rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
        if (line.empty()) {
            break;
        }
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos) {
            continue;
        }
        const std::string_view name = trim_field(line.substr(0, colon));
        const std::string_view value = trim_field(line.substr(colon + 1));
        if (iequals(name, "Content-Type") && !content_type) {
            content_type = value;
        } else if (iequals(name, "Content-Encoding")) {
            content_encoding += (content_encoding.empty() ? "" : ", ") + std::string(value);
        } else if (iequals(name, "Transfer-Encoding")) {
            std::string lowered(value);
            std::transform(lowered.begin(), lowered.end(), lowered.begin(), lower_ascii);
            chunked = chunked || lowered.find("chunked") != std::string::npos;
        }
    }
    if (rest.size() > max_body_bytes && !chunked && content_encoding.empty()) {
        return too_large(max_body_bytes);
    }
    std::string body(rest);
    if (chunked) {
        auto joined = dechunk(rest, max_body_bytes);
        if (!joined) {
            return std::move(joined).error();
        }
        body = std::move(joined).value();
    }
    if (!content_encoding.empty()) {
        auto decoded = server::decode_content(content_encoding, std::move(body), max_body_bytes);
        if (!decoded) {
            return std::move(decoded).error();
        }
        body = std::move(decoded).value();
    }
    if (content_type) {
        server::MediaType media = server::parse_media_type(*content_type);
        payload.content_type = std::move(media.type);
        payload.charset = std::move(media.charset);
    }
    payload.html = content_type && !payload.content_type.empty() ? server::is_html_media_type(payload.content_type)
                                                                 : looks_like_html(body);
    payload.body = std::move(body);
    return payload;
}

}  // namespace pith::cli
