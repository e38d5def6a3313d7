// libFuzzer harness: the /extract request path without sockets. The input is
// split into a request head (method, target, Content-Type, Authorization) and
// a body; the head goes through Service::check_head, the body through the JSON
// or raw-HTML parser with the query's options, and a small parsed page through
// the extractor and the article body, as a worker would run them.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "pithd/request.hpp"
#include "pithd/response.hpp"
#include "config.hpp"
#include "pithd/metrics.hpp"
#include "pith/extract.hpp"
#include "pithd/service.hpp"
#include "pithd/worker_pool.hpp"

namespace {

// Splits off the text before the next '\n'.
std::string_view take_line(std::string_view& rest) {
    const std::size_t newline = rest.find('\n');
    const std::string_view line = rest.substr(0, newline);
    rest = newline == std::string_view::npos ? std::string_view{} : rest.substr(newline + 1);
    return line;
}

struct Fixture {
    Fixture() {
        config.auth_token = "fuzz-token";
        config.limits.max_body_bytes = 1U << 20U;
        config.extract.budgets.max_elements = 5000;
    }
    pith::config::ServerConfig config;
    pith::server::Metrics metrics;
    pith::server::WorkerPool pool{0, 1};  // no threads: handle() is never called
    pith::server::MemoryBudget memory{std::size_t{1} << 30U};
    pith::server::Service service{config, metrics, pool, memory, nullptr};
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static Fixture fixture;
    std::string_view rest(reinterpret_cast<const char*>(data), size);
    pith::server::HttpRequest head;
    head.method = std::string(take_line(rest));
    head.target = std::string(take_line(rest));
    head.content_type = std::string(take_line(rest));
    head.authorization = std::string(take_line(rest));
    head.request_id = pith::server::request_id_for(take_line(rest));
    head.content_length = rest.size();
    (void)fixture.service.check_head(head);

    const pith::server::MediaType media = pith::server::parse_media_type(head.content_type);
    const std::string_view query = pith::server::query_of(head.target);
    auto parsed = media.type == "application/json"
                      ? pith::server::parse_json_request(rest, query, fixture.config)
                      : pith::server::parse_raw_request(std::string(rest), query, media.charset, fixture.config);
    if (!parsed) {
        (void)pith::server::error_body(parsed.error(), head.request_id);
        return 0;
    }
    if (parsed->html.size() <= 64U * 1024U) {
        parsed->options.runtime.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
        pith::extract::Article article = pith::extract::extract(parsed->html, parsed->options);
        (void)pith::server::article_body(std::move(article), *parsed, head.request_id);
    }
    return 0;
}
