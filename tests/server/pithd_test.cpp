// pithd end to end: each test starts the real binary on 127.0.0.1 port 0 with
// the settings it needs, talks HTTP/1.1 to it and checks statuses, headers,
// bodies, metrics and the process's exit.
#include <signal.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include <nlohmann/json.hpp>

#include "hostile_pages.hpp"
#include "time_scale.hpp"

#include "pithd.hpp"
#include "test_origin.hpp"

namespace pith::test {
namespace {

using nlohmann::json;

const std::vector<Header> kJson = {{"Content-Type", "application/json"}};
const std::vector<Header> kHtml = {{"Content-Type", "text/html"}};

std::vector<std::string> args_with(std::vector<std::string> extra) {
    std::vector<std::string> args = {"--listen", "127.0.0.1:0", "--workers", "2"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

json body_json(const HttpResult& r) {
    return json::parse(r.body, nullptr, false);
}

std::string error_code_of(const HttpResult& r) {
    const json body = body_json(r);
    return body.is_object() && body.contains("error") ? body["error"].value("code", "") : "";
}

std::string json_request(const std::string& html, const json& options = json::object(), const std::string& url = "") {
    json body = {{"html", html}};
    if (!url.empty()) {
        body["url"] = url;
    }
    if (!options.empty()) {
        body["options"] = options;
    }
    return body.dump();
}

// A page that takes a worker a good fraction of a second: about 8 MB.
const std::string& slow_page() {
    static const std::string page = article_page(70'000);
    return page;
}

PromParse scrape(std::uint16_t port) {
    const HttpResult r = http_request(port, "GET", "/metrics");
    EXPECT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.status, 200U);
    PromParse parsed = parse_prometheus(r.body);
    EXPECT_EQ(parsed.error, "") << r.body.substr(0, 2000);
    return parsed;
}

#define START_PITHD(name, ...)                                   \
    PithdProcess name(__VA_ARGS__);                              \
    ASSERT_NE(name.port(), 0) << "pithd did not start:\n" << name.log()

// ---- endpoints ----

TEST(Pithd, HealthzReadyzAndVersionAnswerJson) {
    START_PITHD(pithd, args_with({}));
    const HttpResult health = http_request(pithd.port(), "GET", "/healthz");
    ASSERT_TRUE(health.ok()) << health.error;
    EXPECT_EQ(health.status, 200U);
    EXPECT_EQ(body_json(health)["status"], "ok");
    EXPECT_EQ(health.header("content-type"), "application/json");

    const HttpResult ready = http_request(pithd.port(), "GET", "/readyz");
    EXPECT_EQ(ready.status, 200U);
    EXPECT_EQ(body_json(ready)["status"], "ready");

    const HttpResult version = http_request(pithd.port(), "GET", "/version");
    EXPECT_EQ(version.status, 200U);
    EXPECT_EQ(body_json(version)["name"], "pithd");
    EXPECT_FALSE(body_json(version)["version"].get<std::string>().empty());
}

TEST(Pithd, ExtractsFromJsonBody) {
    START_PITHD(pithd, args_with({}));
    const HttpResult r = http_request(pithd.port(), "POST", "/extract", kJson,
                                      json_request(article_page(20), {}, "https://example.com/a/b.html"));
    ASSERT_TRUE(r.ok()) << r.error;
    ASSERT_EQ(r.status, 200U) << r.body;
    const json article = body_json(r);
    EXPECT_EQ(article["status"], "ok");
    EXPECT_EQ(article["title"], "A long page");
    EXPECT_NE(article["textContent"].get<std::string>().find("Paragraph 19 carries ordinary prose"), std::string::npos);
    EXPECT_TRUE(article["content"].is_string());
    EXPECT_GT(article["length"].get<int>(), 1000);
    EXPECT_EQ(article["request_id"], r.header("x-request-id"));
    EXPECT_FALSE(article.contains("diagnostics"));
}

TEST(Pithd, ExtractsFromRawHtmlWithQueryOptions) {
    START_PITHD(pithd, args_with({}));
    const std::string page =
        "<html><head><title>T</title></head><body><article><p>The story goes on in <a href=\"/next\">the next "
        "part</a>, after the flood had passed and the valley was dry again.</p>" +
        article_page(10).substr(60) + "</article></body></html>";
    const HttpResult r = http_request(pithd.port(), "POST",
                                      "/extract?url=https%3A%2F%2Fexample.com%2Fdir%2Fpage.html&format=html&diagnostics=true",
                                      kHtml, page);
    ASSERT_EQ(r.status, 200U) << r.body;
    const json article = body_json(r);
    EXPECT_TRUE(article.contains("content"));
    EXPECT_FALSE(article.contains("textContent")) << "format=html carries only content";
    EXPECT_NE(article["content"].get<std::string>().find("https://example.com/next"), std::string::npos)
        << "links resolve against the url parameter";
    ASSERT_TRUE(article.contains("diagnostics"));
    EXPECT_GE(article["diagnostics"]["passes"].size(), 1U);
}

TEST(Pithd, CharsetOfContentTypeFeedsTheDecoder) {
    START_PITHD(pithd, args_with({}));
    // "Привет, мир" in windows-1251, in a page that declares no charset.
    const std::string greeting = "\xCF\xF0\xE8\xE2\xE5\xF2, \xEC\xE8\xF0";
    std::string page = "<html><head><title>Test</title></head><body><article>";
    for (int i = 0; i < 12; ++i) {
        page += "<p>" + greeting + " " + greeting + ", " + greeting + " " + greeting + " " + greeting + ", " +
                greeting + ".</p>";
    }
    page += "</article></body></html>";
    const HttpResult r =
        http_request(pithd.port(), "POST", "/extract?format=text",
                     {{"Content-Type", "text/html; charset=windows-1251"}}, page);
    ASSERT_EQ(r.status, 200U) << r.body;
    const json article = body_json(r);
    EXPECT_EQ(article["charset"], "windows-1251");
    EXPECT_NE(article["textContent"].get<std::string>().find("Привет, мир"), std::string::npos) << r.body;
}

TEST(Pithd, NothingReadableIsA200WithItsStatus) {
    START_PITHD(pithd, args_with({}));
    const HttpResult r = http_request(pithd.port(), "POST", "/extract", kHtml, "<html><body></body></html>");
    ASSERT_EQ(r.status, 200U) << r.body;
    EXPECT_EQ(body_json(r)["status"], "no_content");
}

TEST(Pithd, EchoesAUsableRequestIdAndReplacesOthers) {
    START_PITHD(pithd, args_with({}));
    const HttpResult given = http_request(pithd.port(), "GET", "/healthz", {{"X-Request-Id", "crawl-42.a_b:c"}});
    EXPECT_EQ(given.header("x-request-id"), "crawl-42.a_b:c");
    const HttpResult replaced = http_request(pithd.port(), "GET", "/healthz", {{"X-Request-Id", "two words"}});
    EXPECT_EQ(replaced.header("x-request-id").size(), 16U);
    const HttpResult error = http_request(pithd.port(), "POST", "/extract", {{"Content-Type", "application/json"},
                                                                             {"X-Request-Id", "req-7"}}, "{");
    EXPECT_EQ(body_json(error)["request_id"], "req-7");
}

TEST(Pithd, KeepAliveServesSeveralRequestsOnOneConnection) {
    START_PITHD(pithd, args_with({}));
    auto connection = Connection::open(pithd.port());
    ASSERT_TRUE(connection);
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(connection->send_all(
            build_request("POST", "/extract?format=text", kHtml, article_page(5), /*keep_alive=*/true)));
        const HttpResult r = connection->read_response();
        ASSERT_TRUE(r.ok()) << "request " << i << ": " << r.error;
        EXPECT_EQ(r.status, 200U);
    }
}

// Sends a POST's head asking for 100 Continue, and checks that no final
// answer comes before the body is sent.
void send_head_expecting_continue(Connection& connection, const std::string& target, const std::string& type,
                                  std::size_t length) {
    ASSERT_TRUE(connection.send_all("POST " + target + " HTTP/1.1\r\nHost: x\r\nContent-Type: " + type +
                                    "\r\nExpect: 100-continue\r\nContent-Length: " + std::to_string(length) +
                                    "\r\n\r\n"));
    auto probe = connection.read_response(2s);
    ASSERT_FALSE(probe.ok()) << "a final answer came before the body was sent";
    ASSERT_EQ(probe.error.find("timed out"), 0U) << probe.error;
}

TEST(Pithd, AnswersExpectContinueBeforeTheBody) {
    START_PITHD(pithd, args_with({}));
    auto connection = Connection::open(pithd.port());
    ASSERT_TRUE(connection);
    const std::string body = article_page(5);
    // The interim answer must come without the body being sent.
    ASSERT_NO_FATAL_FAILURE(send_head_expecting_continue(*connection, "/extract", "text/html", body.size()));
    ASSERT_TRUE(connection->send_all(body));
    const HttpResult r = connection->read_response();
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.status, 200U);
}

// ---- errors ----

TEST(Pithd, UnknownRouteIs404AndWrongMethodIs405WithAllow) {
    START_PITHD(pithd, args_with({}));
    const HttpResult missing = http_request(pithd.port(), "GET", "/nope");
    EXPECT_EQ(missing.status, 404U);
    EXPECT_EQ(error_code_of(missing), "not_found");
    const HttpResult get_extract = http_request(pithd.port(), "GET", "/extract");
    EXPECT_EQ(get_extract.status, 405U);
    EXPECT_EQ(get_extract.header("allow"), "POST");
    EXPECT_EQ(error_code_of(get_extract), "method_not_allowed");
    const HttpResult post_health = http_request(pithd.port(), "POST", "/healthz", kJson, "{}");
    EXPECT_EQ(post_health.status, 405U);
    EXPECT_EQ(post_health.header("allow"), "GET, HEAD");
}

TEST(Pithd, HeadAnswersWithoutABodyAndKeepsTheConnectionInStep) {
    START_PITHD(pithd, args_with({}));
    auto connection = Connection::open(pithd.port());
    ASSERT_TRUE(connection);
    ASSERT_TRUE(connection->send_all(build_request("HEAD", "/healthz", {}, "", true) +
                                     build_request("GET", "/healthz", {}, "", true)));
    // A HEAD answer announces the GET's length but carries no body, so the
    // reader must not consume one.
    const HttpResult head = connection->read_response(10s, /*answers_head=*/true);
    ASSERT_TRUE(head.ok()) << head.error;
    EXPECT_EQ(head.status, 200U);
    EXPECT_EQ(head.header("content-length"), "15");
    const HttpResult get = connection->read_response();
    ASSERT_TRUE(get.ok()) << get.error;
    EXPECT_EQ(get.status, 200U);
    EXPECT_EQ(get.body, R"({"status":"ok"})");
}

TEST(Pithd, MalformedJsonIs400InvalidJson) {
    START_PITHD(pithd, args_with({}));
    for (const std::string body : {"{", "not json", "[1,2]", "{\"html\": \"x\"} trailing", ""}) {
        const HttpResult r = http_request(pithd.port(), "POST", "/extract", kJson, body);
        EXPECT_EQ(r.status, 400U) << body;
        EXPECT_EQ(error_code_of(r), "invalid_json") << body << " -> " << r.body;
    }
}

TEST(Pithd, BadFieldsAndOptionsAre400InvalidArgumentNamingThem) {
    START_PITHD(pithd, args_with({}));
    const std::vector<std::pair<std::string, std::string>> cases = {
        {R"({"html": 12})", "html"},
        {R"({"html": "<p>x</p>", "colour": "red"})", "colour"},
        {R"({"html": "<p>x</p>", "options": {"char_threshold": -1}})", "char_threshold"},
        {R"({"html": "<p>x</p>", "options": {"n_top_candidates": 0}})", "n_top_candidates"},
        {R"({"html": "<p>x</p>", "options": {"format": "pdf"}})", "format"},
        {R"({"html": "<p>x</p>", "options": {"diagnostics": "yes please"}})", "diagnostics"},
        {R"({"html": "<p>x</p>", "options": {"nested": {"a": 1}}})", "nested"},
        {R"({"html": "<p>x</p>", "url": "not a url"})", "url"},
        {R"({"options": {}})", "html"},
    };
    for (const auto& [body, named] : cases) {
        const HttpResult r = http_request(pithd.port(), "POST", "/extract", kJson, body);
        EXPECT_EQ(r.status, 400U) << body;
        EXPECT_EQ(error_code_of(r), "invalid_argument") << body << " -> " << r.body;
        EXPECT_NE(body_json(r)["error"]["message"].get<std::string>().find(named), std::string::npos)
            << body << " -> " << r.body;
    }
    const HttpResult query = http_request(pithd.port(), "POST", "/extract?char_treshold=10", kHtml, "<p>x</p>");
    EXPECT_EQ(query.status, 400U);
    EXPECT_NE(query.body.find("char_treshold"), std::string::npos) << query.body;
}

TEST(Pithd, WrongMediaTypeIs415) {
    START_PITHD(pithd, args_with({}));
    for (const std::vector<Header>& headers : std::vector<std::vector<Header>>{
             {{"Content-Type", "image/png"}}, {}, {{"Content-Type", "application/json; charset=latin1"}}}) {
        const HttpResult r = http_request(pithd.port(), "POST", "/extract", headers, "<p>x</p>");
        EXPECT_EQ(r.status, 415U) << r.body;
        EXPECT_EQ(error_code_of(r), "unsupported_media_type");
    }
}

TEST(Pithd, OversizedBodyIs413BeforeTheBodyIsRead) {
    START_PITHD(pithd, args_with({"--max-body-bytes", "65536"}));
    auto connection = Connection::open(pithd.port());
    ASSERT_TRUE(connection);
    // Announce 100 MB and send none of it: the answer must not wait for it.
    ASSERT_TRUE(connection->send_all(
        "POST /extract HTTP/1.1\r\nHost: x\r\nContent-Type: text/html\r\nContent-Length: 100000000\r\n\r\n"));
    const HttpResult r = connection->read_response(5s);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.status, 413U);
    EXPECT_EQ(error_code_of(r), "body_too_large");
    EXPECT_NE(body_json(r)["error"]["message"].get<std::string>().find("65536"), std::string::npos);
    EXPECT_TRUE(connection->wait_closed(5s)) << "the unread body cannot be skipped: the connection closes";
}

TEST(Pithd, OversizedChunkedBodyIs413) {
    START_PITHD(pithd, args_with({"--max-body-bytes", "65536"}));
    auto connection = Connection::open(pithd.port());
    ASSERT_TRUE(connection);
    std::string request = "POST /extract HTTP/1.1\r\nHost: x\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n";
    const std::string chunk(16384, 'a');
    for (int i = 0; i < 8; ++i) {
        request += "4000\r\n" + chunk + "\r\n";
    }
    request += "0\r\n\r\n";
    connection->send_all(request);  // the server may close before it all went out
    const HttpResult r = connection->read_response(5s);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.status, 413U);
    EXPECT_EQ(error_code_of(r), "body_too_large");
}

TEST(Pithd, OversizedHeaderIs431) {
    START_PITHD(pithd, args_with({"--max-header-bytes", "2048"}));
    const HttpResult r =
        http_request(pithd.port(), "GET", "/healthz", {{"X-Padding", std::string(8192, 'p')}});
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.status, 431U);
    EXPECT_EQ(error_code_of(r), "header_too_large");
}

TEST(Pithd, GarbageIs400BadRequest) {
    START_PITHD(pithd, args_with({}));
    auto connection = Connection::open(pithd.port());
    ASSERT_TRUE(connection);
    ASSERT_TRUE(connection->send_all("HELLO THERE\r\n\r\n"));
    const HttpResult r = connection->read_response(5s);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.status, 400U);
    EXPECT_EQ(error_code_of(r), "bad_request");
}

TEST(Pithd, ElementBudgetIs422) {
    START_PITHD(pithd, args_with({"--extract-max-elements", "100000"}));
    const HttpResult r = http_request(pithd.port(), "POST", "/extract?max_elements=50", kHtml, article_page(200));
    ASSERT_EQ(r.status, 422U) << r.body;
    EXPECT_EQ(error_code_of(r), "too_many_elements");
    // A request may lower the server's budget, never raise it.
    const HttpResult raised = http_request(pithd.port(), "POST", "/extract?max_elements=200000", kHtml, "<p>x</p>");
    EXPECT_EQ(raised.status, 400U);
    EXPECT_NE(raised.body.find("server's limit"), std::string::npos) << raised.body;
    const HttpResult deep = http_request(pithd.port(), "POST", "/extract?max_depth=10", kHtml,
                                         std::string(2000, ' ') + "<div><div><div><div><div><div><div><div><div><div>"
                                                                  "<div><div><div><div><div><div>deep");
    EXPECT_EQ(deep.status, 422U) << deep.body;
    EXPECT_EQ(error_code_of(deep), "too_deep");
}

TEST(Pithd, InputOverTheExtractorByteBudgetIs413) {
    START_PITHD(pithd, args_with({"--extract-max-input-bytes", "4096"}));
    const HttpResult r = http_request(pithd.port(), "POST", "/extract", kHtml, article_page(100));
    EXPECT_EQ(r.status, 413U) << r.body;
    EXPECT_EQ(error_code_of(r), "input_too_large");
}

TEST(Pithd, RequestDeadlineIs504AndTheConnectionStaysUsable) {
    START_PITHD(pithd, args_with({"--request-timeout-ms", "100"}));
    auto connection = Connection::open(pithd.port());
    ASSERT_TRUE(connection);
    ASSERT_TRUE(connection->send_all(build_request("POST", "/extract", kHtml, slow_page(), true)));
    const auto start = std::chrono::steady_clock::now();
    const HttpResult r = connection->read_response(20s);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.status, 504U) << r.body;
    EXPECT_EQ(error_code_of(r), "deadline_exceeded");
    EXPECT_LT(std::chrono::steady_clock::now() - start, 5s * kTimeScale);
    // The late result of the abandoned extraction must not answer the next request.
    ASSERT_TRUE(connection->send_all(build_request("GET", "/healthz", {}, "", true)));
    const HttpResult next = connection->read_response(20s);
    ASSERT_TRUE(next.ok()) << next.error;
    EXPECT_EQ(next.status, 200U);
    EXPECT_EQ(body_json(next)["status"], "ok");
}

TEST(Pithd, FullQueueIs503WithRetryAfterAtOnce) {
    // The queue is under test, not the deadline: the queued request waits for
    // the one ahead of it, which under TSan on a loaded machine passed 10 s.
    START_PITHD(pithd, args_with({"--workers", "1", "--queue-capacity", "1", "--request-timeout-ms", "60000"}));
    constexpr int kClients = 6;
    std::vector<Connection> connections;
    for (int i = 0; i < kClients; ++i) {
        auto c = Connection::open(pithd.port());
        ASSERT_TRUE(c);
        connections.push_back(std::move(*c));
    }
    // The readability strategy: the queue is under test, and slow_page() is
    // sized for one strategy's work (under TSan, auto's two ran past the
    // 10 s request deadline).
    const std::string request =
        build_request("POST", "/extract?format=text&strategy=readability", kHtml, slow_page());
    for (Connection& c : connections) {
        ASSERT_TRUE(c.send_all(request));
    }
    int ok = 0;
    int refused = 0;
    for (Connection& c : connections) {
        const HttpResult r = c.read_response(60s);
        ASSERT_TRUE(r.ok()) << r.error;
        if (r.status == 503U) {
            ++refused;
            EXPECT_EQ(r.header("retry-after"), "1");
            EXPECT_EQ(error_code_of(r), "overloaded");
        } else {
            EXPECT_EQ(r.status, 200U) << r.body.substr(0, 300);
            ++ok;
        }
    }
    EXPECT_GE(ok, 1);
    EXPECT_GE(refused, 1) << "one worker and one queue slot cannot hold " << kClients << " slow requests";
    const PromParse metrics = scrape(pithd.port());
    EXPECT_EQ(metrics.sum("pithd_http_requests_total", {{"route", "/extract"}, {"code", "503"}}), refused);
}

TEST(Pithd, MemoryBudgetRefusesABodyItHasNoRoomForAt503) {
    // 1 MiB of budget: a 2 MB body cannot be held; a small page still fits.
    START_PITHD(pithd, args_with({"--memory-budget-bytes", "1048576", "--max-body-bytes", "4194304"}));
    const HttpResult big = http_request(pithd.port(), "POST", "/extract", kHtml, std::string(2'000'000, 'a'));
    EXPECT_EQ(big.status, 503U);
    EXPECT_EQ(big.header("retry-after"), "1");
    EXPECT_EQ(error_code_of(big), "overloaded");
    EXPECT_NE(big.body.find("memory budget"), std::string::npos) << big.body;
    const PromParse metrics = scrape(pithd.port());
    EXPECT_EQ(metrics.sum("pithd_memory_refusals_total", {}), 1);
    EXPECT_EQ(metrics.sum("pithd_memory_budget_bytes", {}), 1048576);
    EXPECT_EQ(settled_reserved_bytes(pithd.port()), 0) << "reservations outlived their requests";
}

TEST(Pithd, AJsonBodyWhoseParseHasNoRoomIsRefusedBeforeItIsParsed) {
    // 4 MiB of budget holds the 1 MB body, not the five copies its parse may
    // make beside it: 503 before the parse, where a parse would answer 400.
    START_PITHD(pithd, args_with({"--memory-budget-bytes", "4194304"}));
    const std::string unclosed = R"({"html": ")" + std::string(1'000'000, 'a');
    const HttpResult r = http_request(pithd.port(), "POST", "/extract", kJson, unclosed);
    EXPECT_EQ(r.status, 503U) << r.body.substr(0, 300);
    EXPECT_EQ(error_code_of(r), "overloaded");
    EXPECT_NE(r.body.find("memory budget"), std::string::npos) << r.body;
    const HttpResult small = http_request(pithd.port(), "POST", "/extract", kJson, json_request(article_page(3)));
    EXPECT_EQ(small.status, 200U) << small.body.substr(0, 300);
    const PromParse metrics = scrape(pithd.port());
    EXPECT_EQ(metrics.sum("pithd_memory_refusals_total", {}), 1);
    EXPECT_EQ(settled_reserved_bytes(pithd.port()), 0) << "reservations outlived their requests";
}

TEST(Pithd, AnAnswerHoldsItsShareOfTheBudgetUntilItIsWritten) {
    // A client that asks for a large answer and reads nothing: with a 4 KiB
    // receive window the answer (about 6 MB) stays in pithd, in its budget.
    // The deadline is far off: the budget is under test, and under TSan the
    // extraction takes a third of the 10 s default.
    START_PITHD(pithd, args_with({"--request-timeout-ms", "60000"}));
    const std::string page = article_page(26'000);
    std::string error;
    std::optional<Connection> silent = Connection::open(pithd.port(), &error, 4096);
    ASSERT_TRUE(silent) << error;
    ASSERT_TRUE(silent->send_all("POST /extract HTTP/1.1\r\nHost: t\r\nContent-Type: text/html\r\nContent-Length: " +
                                std::to_string(page.size()) + "\r\n\r\n" + page));
    // Extracted, and the page's estimate given back for the answer's size.
    const double estimate_floor = 4.0 * static_cast<double>(page.size());
    double reserved = -1;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::duration<double>(30.0 * kTimeScale);
    while (std::chrono::steady_clock::now() < give_up) {
        const PromParse metrics = scrape(pithd.port());
        reserved = metrics.sum("pithd_memory_reserved_bytes", {});
        if (metrics.sum("pithd_extractions_total", {}) == 1 && reserved < estimate_floor) {
            break;
        }
        std::this_thread::sleep_for(50ms);
    }
    EXPECT_LT(reserved, estimate_floor) << "the page's estimate was kept, not the answer's size";
    EXPECT_GT(reserved, 4'000'000) << "the unread answer is held outside the budget";
    silent->close();  // the write fails, and the answer and its reservation go
    EXPECT_EQ(settled_reserved_bytes(pithd.port()), 0) << "reservations outlived their requests";
}

TEST(Pithd, APageOverItsWorkingMemoryIs422TooMuchMemory) {
    START_PITHD(pithd, args_with({}));
    std::string page = "<html><body>";
    for (int i = 0; i < 100000; ++i) {
        page += "<i>x</i>";
    }
    const HttpResult r = http_request(pithd.port(), "POST", "/extract?max_memory_bytes=16777216", kHtml, page);
    EXPECT_EQ(r.status, 422U);
    EXPECT_EQ(error_code_of(r), "too_much_memory");
    const PromParse metrics = scrape(pithd.port());
    EXPECT_EQ(metrics.sum("pithd_budget_exceeded_total", {{"budget", "memory"}}), 1);
}

TEST(Pithd, AParseRunningAtTheDeadlineIsStoppedAndAnswered504InTime) {
    // The tree builder would make hundreds of millions of elements from this
    // page; with the memory budget lifted only the deadline can stop it.
    START_PITHD(pithd, args_with({"--workers", "1", "--extract-max-memory-bytes", "0"}));
    const std::string page = pith::test::hostile_page_text(pith::test::kReconstructionPageName);
    ASSERT_FALSE(page.empty());
    const auto start = std::chrono::steady_clock::now();
    const HttpResult r = http_request(pithd.port(), "POST", "/extract?timeout_ms=1500", kHtml, page);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.status, 504U) << r.body.substr(0, 300);
    EXPECT_EQ(error_code_of(r), "deadline_exceeded");
    EXPECT_LT(seconds, 2.0 * pith::test::kTimeScale) << "answered " << seconds << " s after a 1.5 s deadline";
    // The worker was freed by the stop, not by the parse ending: a second
    // request is answered at once.
    const HttpResult next = http_request(pithd.port(), "POST", "/extract", kHtml, "<html><body><p>x</p></body></html>");
    EXPECT_EQ(next.status, 200U);
}

TEST(Pithd, BearerTokenGuardsExtractOnly) {
    START_PITHD(pithd, args_with({}), {{"PITH_AUTH_TOKEN", "s3cret-token"}});
    const std::string body = json_request(article_page(3));
    const HttpResult none = http_request(pithd.port(), "POST", "/extract", kJson, body);
    EXPECT_EQ(none.status, 401U);
    EXPECT_EQ(error_code_of(none), "unauthorized");
    EXPECT_NE(none.header("www-authenticate").find("Bearer"), std::string::npos);
    const HttpResult wrong = http_request(pithd.port(), "POST", "/extract",
                                          {{"Content-Type", "application/json"}, {"Authorization", "Bearer s3cret"}}, body);
    EXPECT_EQ(wrong.status, 401U);
    const HttpResult right = http_request(
        pithd.port(), "POST", "/extract",
        {{"Content-Type", "application/json"}, {"Authorization", "Bearer s3cret-token"}}, body);
    EXPECT_EQ(right.status, 200U) << right.body;
    for (const char* open_path : {"/healthz", "/readyz", "/metrics", "/version"}) {
        EXPECT_EQ(http_request(pithd.port(), "GET", open_path).status, 200U) << open_path;
    }
    EXPECT_EQ(pithd.log().find("s3cret-token"), std::string::npos) << "the token must never be logged";
}

TEST(Pithd, InspectorIsGuardedByTheTokenAndAsksABrowserForBasicCredentials) {
    START_PITHD(pithd, args_with({}), {{"PITH_AUTH_TOKEN", "s3cret-token"}});
    const HttpResult none = http_request(pithd.port(), "GET", "/inspect");
    EXPECT_EQ(none.status, 401U);
    EXPECT_EQ(error_code_of(none), "unauthorized");
    const std::string challenges = none.header("www-authenticate");
    EXPECT_NE(challenges.find("Basic realm=\"pithd\""), std::string::npos) << challenges;
    EXPECT_NE(challenges.find("Bearer realm=\"pithd\""), std::string::npos) << challenges;

    const HttpResult basic =
        http_request(pithd.port(), "GET", "/inspect", {{"Authorization", "Basic YW55b25lOnMzY3JldC10b2tlbg=="}});
    EXPECT_EQ(basic.status, 200U);
    EXPECT_EQ(basic.header("content-type"), "text/html; charset=utf-8");
    EXPECT_NE(basic.body.find("<title>pith inspector</title>"), std::string::npos);
    const std::string policy = basic.header("content-security-policy");
    EXPECT_NE(policy.find("default-src 'none'"), std::string::npos) << policy;
    EXPECT_NE(policy.find("script-src 'sha256-"), std::string::npos) << policy;
    EXPECT_NE(policy.find("frame-ancestors 'none'"), std::string::npos) << policy;
    EXPECT_EQ(basic.header("x-frame-options"), "DENY");
    EXPECT_EQ(http_request(pithd.port(), "GET", "/inspect", {{"Authorization", "Basic YW55b25lOndyb25n"}}).status,
              401U);
    EXPECT_EQ(http_request(pithd.port(), "GET", "/inspect", {{"Authorization", "bearer s3cret-token"}}).status, 200U)
        << "the scheme is case-insensitive";
    // What the browser sends to the page's own /extract calls.
    const HttpResult extract = http_request(
        pithd.port(), "POST", "/extract",
        {{"Content-Type", "application/json"}, {"Authorization", "Basic YW55b25lOnMzY3JldC10b2tlbg=="}},
        json_request(article_page(3)));
    EXPECT_EQ(extract.status, 200U) << extract.body;
    EXPECT_EQ(http_request(pithd.port(), "POST", "/inspect", kJson, "{}").status, 405U);
}

TEST(Pithd, InspectorOffAnswers404AndRefusesInspect) {
    START_PITHD(pithd, args_with({"--inspector=false"}));
    EXPECT_EQ(http_request(pithd.port(), "GET", "/inspect").status, 404U);
    const HttpResult r =
        http_request(pithd.port(), "POST", "/extract", kJson, json_request(article_page(3), {{"inspect", true}}));
    EXPECT_EQ(r.status, 400U);
    EXPECT_NE(r.body.find("server.inspector"), std::string::npos) << r.body;
}

TEST(Pithd, InspectGivesEveryStrategyAndTheMarkedPage) {
    START_PITHD(pithd, args_with({}));
    const HttpResult r = http_request(pithd.port(), "POST", "/extract", kJson,
                                      json_request(article_page(12), {{"inspect", true}, {"strategy", "fitness"}}));
    ASSERT_EQ(r.status, 200U) << r.body.substr(0, 300);
    const json body = body_json(r);
    EXPECT_EQ(body["status"], "ok");
    EXPECT_TRUE(body.contains("diagnostics"));
    EXPECT_TRUE(body["markdown"].is_string());
    EXPECT_TRUE(body["text"].is_string());
    const json& inspection = body["inspection"];
    ASSERT_EQ(inspection["strategies"].size(), 4U);
    const char* const names[] = {"readability", "lectito", "fitness", "auto"};
    for (std::size_t i = 0; i < 4; ++i) {
        const json& s = inspection["strategies"][i];
        EXPECT_EQ(s["strategy"], names[i]);
        EXPECT_TRUE(s["status"].is_string()) << s.dump();
        EXPECT_EQ(s["agreement"].size(), 4U);
    }
    EXPECT_EQ(inspection["strategies"][2]["status"], "ok");
    EXPECT_NE(inspection["source"].get<std::string>().find("data-pith-root"), std::string::npos);
    const json& pass = body["diagnostics"]["passes"][0];
    EXPECT_EQ(pass["strategy"], "fitness");
    EXPECT_TRUE(pass["top_candidates"][0]["source_index"].is_number());
}

// ---- connections and timeouts ----

TEST(Pithd, StalledClientIsCutOffWhileOthersAreServed) {
    START_PITHD(pithd, args_with({"--read-timeout-ms", "300"}));
    auto slow = Connection::open(pithd.port());
    ASSERT_TRUE(slow);
    ASSERT_TRUE(slow->send_all("POST /extract HTTP/1.1\r\nHost: x\r\nContent-Ty"));
    EXPECT_EQ(http_request(pithd.port(), "GET", "/healthz").status, 200U);
    EXPECT_TRUE(slow->wait_closed(5s)) << "a client stalled mid-header keeps its connection";
}

TEST(Pithd, IdleKeepAliveConnectionIsClosed) {
    START_PITHD(pithd, args_with({"--idle-timeout-ms", "200"}));
    auto idle = Connection::open(pithd.port());
    ASSERT_TRUE(idle);
    EXPECT_TRUE(idle->wait_closed(5s));
}

TEST(Pithd, ConnectionsOverTheLimitGet503) {
    START_PITHD(pithd, args_with({"--max-connections", "2"}));
    std::vector<Connection> held;
    for (int i = 0; i < 2; ++i) {
        auto c = Connection::open(pithd.port());
        ASSERT_TRUE(c);
        ASSERT_TRUE(c->send_all(build_request("GET", "/healthz", {}, "", true)));
        ASSERT_EQ(c->read_response().status, 200U);  // accepted and counted
        held.push_back(std::move(*c));
    }
    const HttpResult third = http_request(pithd.port(), "GET", "/healthz");
    ASSERT_TRUE(third.ok()) << third.error;
    EXPECT_EQ(third.status, 503U);
    EXPECT_EQ(third.header("retry-after"), "1");
    EXPECT_EQ(error_code_of(third), "overloaded");
    held.clear();
    // Once they are gone, connections are taken again.
    bool served = false;
    for (int attempt = 0; attempt < 100 && !served; ++attempt) {
        served = http_request(pithd.port(), "GET", "/healthz").status == 200U;
        if (!served) {
            std::this_thread::sleep_for(20ms);
        }
    }
    EXPECT_TRUE(served);
}

TEST(Pithd, ThousandsOfIdleConnectionsDoNotStopTheService) {
    START_PITHD(pithd, args_with({"--max-connections", "5000", "--idle-timeout-ms", "3000"}));
    constexpr int kIdle = 3000;
    std::vector<Connection> idle;
    idle.reserve(kIdle);
    for (int i = 0; i < kIdle; ++i) {
        std::string error;
        auto c = Connection::open(pithd.port(), &error);
        ASSERT_TRUE(c) << "connection " << i << ": " << error;
        idle.push_back(std::move(*c));
    }
    // Meanwhile others are served, extraction included.
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(http_request(pithd.port(), "GET", "/healthz").status, 200U);
        EXPECT_EQ(http_request(pithd.port(), "POST", "/extract", kHtml, article_page(10)).status, 200U);
    }
    EXPECT_GE(scrape(pithd.port()).sum("pithd_connections_open"), kIdle);
    // The idle timeout closes them all.
    int closed = 0;
    for (Connection& c : idle) {
        closed += c.wait_closed(std::chrono::duration_cast<milliseconds>(20s * kTimeScale)) ? 1 : 0;
    }
    EXPECT_EQ(closed, kIdle);
    EXPECT_LE(scrape(pithd.port()).sum("pithd_connections_open"), 1) << "only the scrape's own connection";
}

// ---- metrics ----

TEST(Pithd, MetricsParseAsPrometheusTextAndCountersMove) {
    START_PITHD(pithd, args_with({}));
    const PromParse before = scrape(pithd.port());
    for (const char* name : {"pithd_http_requests_total", "pithd_http_request_duration_seconds",
                             "pithd_extraction_duration_seconds", "pithd_extractions_total", "pithd_extraction_passes",
                             "pithd_extraction_confidence",
                             "pithd_budget_exceeded_total", "pithd_queue_depth", "pithd_requests_in_flight",
                             "pithd_workers", "pithd_input_bytes_total", "process_resident_memory_bytes",
                             "process_cpu_seconds_total", "process_start_time_seconds", "process_open_fds"}) {
        EXPECT_EQ(before.types.count(name), 1U) << name;
    }
    EXPECT_EQ(before.sum("pithd_workers"), 2);
    EXPECT_GT(before.sum("process_resident_memory_bytes"), 1e6);
    EXPECT_GT(before.sum("process_start_time_seconds"), 1.7e9);

    const std::string page = article_page(20);
    for (int i = 0; i < 3; ++i) {
        ASSERT_EQ(http_request(pithd.port(), "POST", "/extract", kHtml, page).status, 200U);
    }
    ASSERT_EQ(http_request(pithd.port(), "POST", "/extract", kJson, "{").status, 400U);
    ASSERT_EQ(http_request(pithd.port(), "POST", "/extract?max_elements=5", kHtml, page).status, 422U);

    const PromParse after = scrape(pithd.port());
    const auto moved = [&](const std::string& name, const std::map<std::string, std::string>& labels) {
        return after.sum(name, labels) - before.sum(name, labels);
    };
    EXPECT_EQ(moved("pithd_http_requests_total", {{"route", "/extract"}, {"code", "200"}}), 3);
    EXPECT_EQ(moved("pithd_http_requests_total", {{"route", "/extract"}, {"code", "400"}}), 1);
    EXPECT_EQ(moved("pithd_http_requests_total", {{"route", "/extract"}, {"code", "422"}}), 1);
    EXPECT_EQ(moved("pithd_http_requests_total", {{"route", "/metrics"}, {"code", "200"}}), 1);
    EXPECT_EQ(moved("pithd_extractions_total", {{"status", "ok"}}), 3);
    EXPECT_EQ(moved("pithd_extractions_total", {{"status", "budget_exceeded"}}), 1);
    EXPECT_EQ(moved("pithd_budget_exceeded_total", {{"budget", "elements"}}), 1);
    EXPECT_EQ(moved("pithd_extraction_passes_count", {}), 3);
    EXPECT_EQ(moved("pithd_extraction_confidence_count", {}), 3) << "one observation per article";
    EXPECT_GT(moved("pithd_extraction_confidence_sum", {}), 0.0);
    EXPECT_LE(moved("pithd_extraction_confidence_sum", {}), 3.0);
    EXPECT_EQ(moved("pithd_input_bytes_total", {}), 4.0 * static_cast<double>(page.size()));
    EXPECT_EQ(moved("pithd_http_request_duration_seconds_count", {{"route", "/extract"}}), 5);
    EXPECT_EQ(after.sum("pithd_requests_in_flight"), 1) << "the scrape itself is in flight";
}

TEST(Pithd, MinConfidenceAnswersLowConfidenceWithTheArticle) {
    START_PITHD(pithd, args_with({}));
    const PromParse before = scrape(pithd.port());
    const HttpResult sure = http_request(pithd.port(), "POST", "/extract", kHtml, article_page(20));
    ASSERT_EQ(sure.status, 200U);
    const HttpResult unsure = http_request(pithd.port(), "POST", "/extract?min_confidence=1", kHtml, article_page(20));
    ASSERT_EQ(unsure.status, 200U) << "an article under the threshold is still an answer";
    const nlohmann::json sure_json = nlohmann::json::parse(sure.body);
    const nlohmann::json unsure_json = nlohmann::json::parse(unsure.body);
    EXPECT_EQ(sure_json["status"], "ok");
    EXPECT_EQ(unsure_json["status"], "low_confidence");
    EXPECT_EQ(unsure_json["content"], sure_json["content"]);
    EXPECT_EQ(unsure_json["confidence"], sure_json["confidence"]);
    EXPECT_EQ(http_request(pithd.port(), "POST", "/extract?min_confidence=1.5", kHtml, article_page(20)).status, 400U);
    const PromParse after = scrape(pithd.port());
    EXPECT_EQ(after.sum("pithd_extractions_total", {{"status", "low_confidence"}}) -
                  before.sum("pithd_extractions_total", {{"status", "low_confidence"}}),
              1);
}

TEST(Pithd, AccessLogHasOneLinePerRequestWithoutQueryOrBody) {
    START_PITHD(pithd, args_with({"--log-format", "json"}));
    ASSERT_EQ(http_request(pithd.port(), "POST", "/extract?url=https%3A%2F%2Fexample.com%2F%3Ftoken%3Dabc", kHtml,
                           "<p>secret body text</p>", 20s)
                  .status,
              200U);
    ASSERT_TRUE(pithd.wait_for_log("\"msg\":\"access\"", 5s));
    const std::string log = pithd.log();
    EXPECT_EQ(log.find("token"), std::string::npos) << log;
    EXPECT_EQ(log.find("secret body"), std::string::npos) << log;
    std::istringstream lines(log);
    int access_lines = 0;
    for (std::string line; std::getline(lines, line);) {
        const json entry = json::parse(line, nullptr, false);
        ASSERT_FALSE(entry.is_discarded()) << "not a JSON line: " << line;
        if (entry.value("msg", "") == "access") {
            ++access_lines;
            EXPECT_EQ(entry["method"], "POST");
            EXPECT_EQ(entry["path"], "/extract");
            EXPECT_EQ(entry["status"], 200);
            EXPECT_EQ(entry["extraction_status"], "best_attempt");
            EXPECT_EQ(entry["request_id"].get<std::string>().size(), 16U);
            EXPECT_TRUE(entry.contains("duration_ms"));
            EXPECT_TRUE(entry.contains("response_bytes"));
        }
    }
    EXPECT_EQ(access_lines, 1);
}

// ---- lifecycle ----

TEST(Pithd, SigtermDrainsAnInFlightRequestThenExitsZero) {
    // The drain is under test, not the deadline: under TSan on a loaded
    // machine auto's work on slow_page() passed the 10 s request deadline, so
    // the request takes one strategy and the deadlines are far off.
    START_PITHD(pithd, args_with({"--workers", "1", "--request-timeout-ms", "60000", "--drain-timeout-ms", "60000"}));
    auto connection = Connection::open(pithd.port());
    ASSERT_TRUE(connection);
    ASSERT_TRUE(connection->send_all(
        build_request("POST", "/extract?format=text&strategy=readability", kHtml, slow_page())));
    // Wait until the worker has the job, so the request is surely accepted.
    bool busy = false;
    for (int attempt = 0; attempt < 500 && !busy; ++attempt) {
        busy = scrape(pithd.port()).sum("pithd_workers_busy") == 1;
        if (!busy) {
            std::this_thread::sleep_for(2ms);
        }
    }
    ASSERT_TRUE(busy) << "the slow request never reached the worker";
    pithd.signal(SIGTERM);
    const HttpResult r = connection->read_response(70s);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.status, 200U) << r.body.substr(0, 300);
    EXPECT_EQ(r.header("connection"), "close");
    const std::optional<int> status = pithd.wait_exit(30s);
    ASSERT_TRUE(status.has_value()) << "pithd did not exit after draining";
    EXPECT_EQ(*status, 0) << pithd.log();
    EXPECT_NE(pithd.log().find("draining"), std::string::npos);
}

TEST(Pithd, ReadyzTurns503DuringTheShutdownDelayAndASecondSignalEndsIt) {
    START_PITHD(pithd, args_with({"--shutdown-delay-ms", "60000"}));
    ASSERT_EQ(http_request(pithd.port(), "GET", "/readyz").status, 200U);
    pithd.signal(SIGTERM);
    ASSERT_TRUE(pithd.wait_for_log("shutting down", 5s));
    const HttpResult ready = http_request(pithd.port(), "GET", "/readyz");
    EXPECT_EQ(ready.status, 503U);
    EXPECT_EQ(body_json(ready)["status"], "draining");
    EXPECT_EQ(scrape(pithd.port()).sum("pithd_ready"), 0);
    // Work is still taken until the delay ends.
    EXPECT_EQ(http_request(pithd.port(), "POST", "/extract", kHtml, article_page(3)).status, 200U);
    pithd.signal(SIGINT);
    const std::optional<int> status = pithd.wait_exit(10s);
    ASSERT_TRUE(status.has_value()) << "a second signal must end the wait";
    EXPECT_EQ(*status, 0);
}

TEST(Pithd, SigintWithNothingInFlightExitsAtOnce) {
    START_PITHD(pithd, args_with({}));
    pithd.signal(SIGINT);
    const std::optional<int> status = pithd.wait_exit(5s);
    ASSERT_TRUE(status.has_value());
    EXPECT_EQ(*status, 0);
}

// ---- configuration at start-up ----

struct StartupCase {
    std::vector<std::string> args;
    std::map<std::string, std::string> env;
    std::string named;  // the message must name this
};

TEST(Pithd, InvalidConfigurationExitsTwoNamingTheKey) {
    const std::filesystem::path toml = std::filesystem::temp_directory_path() / "pithd_test_bad.toml";
    std::ofstream(toml) << "[server]\nworkerz = 4\n";
    const std::vector<StartupCase> cases = {
        {{"--workers", "5000"}, {}, "server.workers"},
        {{}, {{"PITH_WORKERS", "many"}}, "PITH_WORKERS"},
        {{"--listen", "nowhere"}, {}, "server.listen"},
        {{"--log-level", "loud"}, {}, "log.level"},
        {{"--config", toml.string()}, {}, "server.workerz"},
        {{"--no-such-flag"}, {}, "--no-such-flag"},
    };
    for (const StartupCase& c : cases) {
        PithdProcess pithd(c.args, c.env);
        const std::optional<int> status = pithd.wait_exit(10s);
        ASSERT_TRUE(status.has_value());
        EXPECT_EQ(*status, 2) << c.named;
        EXPECT_NE(pithd.log().find(c.named), std::string::npos) << pithd.log();
    }
    std::filesystem::remove(toml);
}

TEST(Pithd, ListenComesFromTheEnvironmentAndFlagsWin) {
    PithdProcess from_env({"--workers", "1"}, {{"PITH_LISTEN", "127.0.0.1:0"}});
    ASSERT_NE(from_env.port(), 0) << from_env.log();
    EXPECT_EQ(http_request(from_env.port(), "GET", "/healthz").status, 200U);
    PithdProcess flag_wins({"--listen", "127.0.0.1:0"}, {{"PITH_LISTEN", "256.0.0.1:1"}});
    ASSERT_NE(flag_wins.port(), 0) << flag_wins.log();
}

}  // namespace
}  // namespace pith::test

namespace pith::test {
namespace {

const std::vector<Header> kNdjson = {{"Content-Type", "application/x-ndjson"}};

std::vector<json> ndjson_lines(const std::string& body) {
    std::vector<json> lines;
    std::size_t start = 0;
    while (start < body.size()) {
        const std::size_t end = std::min(body.find('\n', start), body.size());
        if (end > start) {
            lines.push_back(json::parse(body.substr(start, end - start), nullptr, false));
        }
        start = end + 1;
    }
    return lines;
}

TEST(PithdBatch, ExpectContinueThenAPageReadWholeOnTheSameConnection) {
    START_PITHD(pithd, args_with({}));
    auto connection = Connection::open(pithd.port());
    ASSERT_TRUE(connection);
    const std::string lines = json_request(article_page(5)) + "\n" + json_request(article_page(6)) + "\n";
    ASSERT_NO_FATAL_FAILURE(
        send_head_expecting_continue(*connection, "/extract/batch", "application/x-ndjson", lines.size()));
    ASSERT_TRUE(connection->send_all(lines));
    const HttpResult batch = connection->read_response();
    ASSERT_TRUE(batch.ok()) << batch.error;
    ASSERT_EQ(batch.status, 200U);
    EXPECT_EQ(ndjson_lines(batch.body).size(), 2U) << batch.body.substr(0, 300);
    // The batch's body was read as lines; the next request's is read whole again.
    ASSERT_TRUE(connection->send_all(build_request("POST", "/extract", {{"Content-Type", "text/html"}},
                                                   article_page(5))));
    const HttpResult page = connection->read_response();
    ASSERT_TRUE(page.ok()) << page.error;
    EXPECT_EQ(page.status, 200U);
    EXPECT_EQ(json::parse(page.body, nullptr, false).value("status", ""), "ok") << page.body.substr(0, 300);
}

TEST(PithdBatch, AHundredItemsOneMalformedAnswerInOrder) {
    const auto timeout_ms = static_cast<long>(30'000 * kTimeScale);
    START_PITHD(pithd, args_with({"--request-timeout-ms", std::to_string(timeout_ms)}));
    std::string body;
    for (int i = 0; i < 100; ++i) {
        if (i == 37) {
            body += "{\"html\": \"<p>unclosed\n";
            continue;
        }
        body += json_request(article_page(6 + static_cast<std::size_t>(i % 3)), {{"format", "text"}}) + "\n";
        if (i % 10 == 0) {
            body += "\n";  // blank lines are no items
        }
    }
    const HttpResult r = http_request(pithd.port(), "POST", "/extract/batch", kNdjson, body,
                                      std::chrono::milliseconds(timeout_ms + 10'000));
    ASSERT_EQ(r.status, 200U) << r.body.substr(0, 300);
    EXPECT_EQ(r.header("content-type"), "application/x-ndjson");
    const std::vector<json> lines = ndjson_lines(r.body);
    ASSERT_EQ(lines.size(), 100U);
    int extracted = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        ASSERT_TRUE(lines[i].is_object()) << i;
        EXPECT_EQ(lines[i].value("item", -1), static_cast<int>(i)) << "answers in the items' order";
        if (i == 37) {
            EXPECT_EQ(lines[i].value("http_status", 0), 400);
            EXPECT_EQ(lines[i]["error"].value("code", ""), "invalid_json");
        } else {
            EXPECT_EQ(lines[i].value("http_status", 0), 200) << lines[i].dump().substr(0, 200);
            EXPECT_EQ(lines[i].value("status", ""), "ok");
            EXPECT_FALSE(lines[i].value("text", "").empty());
            extracted += lines[i].value("status", "") == "ok" ? 1 : 0;
        }
    }
    EXPECT_EQ(extracted, 99);
    const PromParse metrics = scrape(pithd.port());
    EXPECT_EQ(metrics.sum("pithd_batch_items_total", {{"outcome", "answered"}}), 99);
    EXPECT_EQ(metrics.sum("pithd_batch_items_total", {{"outcome", "error"}}), 1);
    EXPECT_EQ(metrics.sum("pithd_extractions_total", {}), 99);
    EXPECT_EQ(metrics.sum("pithd_http_requests_total", {{"route", "/extract/batch"}, {"code", "200"}}), 1);
    EXPECT_EQ(settled_reserved_bytes(pithd.port()), 0) << "reservations outlived their batch";
}

// Three pages for a batch, the second from an origin that holds it back
// until release() is called.
struct BatchWithAHeldItem {
    std::promise<void> held;
    std::shared_future<void> released = held.get_future().share();
    TestOrigin origin{"127.0.0.1", [released = released](const std::string&) {
                          released.wait_for(30s);
                          OriginResponse response;
                          response.headers = {{"Content-Type", "text/html"}};
                          response.body = article_page(7);
                          return response;
                      }};
    std::string body = json_request(article_page(6)) + "\n" + json::object({{"url", origin.url("/held")}}).dump() +
                       "\n" + json_request(article_page(8)) + "\n";

    void release() { held.set_value(); }

    // The batch posted to `target` on a connection of its own; none if that failed.
    auto send(std::uint16_t port, const std::string& target) const {
        auto connection = Connection::open(port);
        if (connection && !connection->send_all(build_request("POST", target, kNdjson, body))) {
            connection.reset();
        }
        return connection;
    }
};

TEST(PithdBatch, EachLineIsWrittenOnceItAndTheLinesBeforeItAreDone) {
    // Item 0's line is read while item 1 is still fetched; item 2, extracted
    // meanwhile, waits for item 1's line (the items' order).
    BatchWithAHeldItem batch;
    START_PITHD(pithd, args_with({"--fetch-allow", "127.0.0.1/32"}));
    auto connection = batch.send(pithd.port(), "/extract/batch");
    ASSERT_TRUE(connection);
    ASSERT_TRUE(connection->wait_for("\"item\":0", 20s)) << connection->unread();
    // Item 2 is extracted (two workers: it starts once item 0 is done) ...
    const auto until = std::chrono::steady_clock::now() + 20s;
    while (scrape(pithd.port()).sum("pithd_batch_items_total", {{"outcome", "answered"}}) < 2 &&
           std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(10ms);
    }
    EXPECT_EQ(scrape(pithd.port()).sum("pithd_batch_items_total", {{"outcome", "answered"}}), 2);
    // ... and its line is not written before item 1's.
    EXPECT_EQ(connection->unread().find("\"item\":1"), std::string::npos) << connection->unread();
    EXPECT_EQ(connection->unread().find("\"item\":2"), std::string::npos) << connection->unread();
    batch.release();
    const HttpResult r = connection->read_response(20s);
    ASSERT_TRUE(r.ok()) << r.error;
    ASSERT_EQ(r.status, 200U);
    EXPECT_EQ(r.header("transfer-encoding"), "chunked");
    EXPECT_EQ(r.chunks, 3U) << "a chunk a line";
    const std::vector<json> lines = ndjson_lines(r.body);
    ASSERT_EQ(lines.size(), 3U) << r.body.substr(0, 300);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        EXPECT_EQ(lines[i].value("item", -1), static_cast<int>(i));
        EXPECT_EQ(lines[i].value("status", ""), "ok") << lines[i].dump().substr(0, 300);
    }
    EXPECT_EQ(settled_reserved_bytes(pithd.port()), 0) << "reservations outlived their batch";
}

TEST(PithdBatch, InCompletionOrderEachLineIsWrittenAsSoonAsItsItemIsDone) {
    // With order=completion items 0 and 2 are written while item 1 is held,
    // and item 1's line comes last.
    BatchWithAHeldItem batch;
    START_PITHD(pithd, args_with({"--fetch-allow", "127.0.0.1/32"}));
    auto connection = batch.send(pithd.port(), "/extract/batch?order=completion");
    ASSERT_TRUE(connection);
    ASSERT_TRUE(connection->wait_for("\"item\":2", 20s)) << connection->unread();
    EXPECT_NE(connection->unread().find("\"item\":0"), std::string::npos) << connection->unread();
    EXPECT_EQ(connection->unread().find("\"item\":1"), std::string::npos) << connection->unread();
    batch.release();
    const HttpResult r = connection->read_response(20s);
    ASSERT_TRUE(r.ok()) << r.error;
    ASSERT_EQ(r.status, 200U);
    EXPECT_EQ(r.chunks, 3U) << "a chunk a line";
    const std::vector<json> lines = ndjson_lines(r.body);
    ASSERT_EQ(lines.size(), 3U) << r.body.substr(0, 300);
    EXPECT_EQ(lines.back().value("item", -1), 1) << "the held item's line comes last";
    std::vector<int> items;
    for (const json& line : lines) {
        items.push_back(line.value("item", -1));
        EXPECT_EQ(line.value("status", ""), "ok") << line.dump().substr(0, 300);
    }
    std::sort(items.begin(), items.end());
    EXPECT_EQ(items, (std::vector<int>{0, 1, 2})) << "every item answered once";
    EXPECT_EQ(settled_reserved_bytes(pithd.port()), 0) << "reservations outlived their batch";
}

TEST(PithdBatch, ItsQueryTakesOnlyTheOrderAndIsCheckedBeforeTheBody) {
    START_PITHD(pithd, args_with({}));
    const std::string item = json_request(article_page(2)) + "\n";
    for (const char* target : {"/extract/batch?order=random", "/extract/batch?format=text",
                               "/extract/batch?order=items&order=completion", "/extract/batch?order=%zz"}) {
        const HttpResult r = http_request(pithd.port(), "POST", target, kNdjson, item);
        EXPECT_EQ(r.status, 400U) << target;
        EXPECT_EQ(error_code_of(r), "invalid_argument") << target << ": " << r.body;
    }
    const HttpResult other = http_request(pithd.port(), "POST", "/extract/batch?format=text", kNdjson, item);
    EXPECT_NE(other.body.find("only order"), std::string::npos) << other.body;
    EXPECT_EQ(scrape(pithd.port()).sum("pithd_extractions_total", {}), 0) << "a refused batch extracts nothing";
    for (const char* target : {"/extract/batch?order=items", "/extract/batch?order=completion", "/extract/batch?"}) {
        const HttpResult r = http_request(pithd.port(), "POST", target, kNdjson, item + item);
        EXPECT_EQ(r.status, 200U) << target;
        EXPECT_EQ(ndjson_lines(r.body).size(), 2U) << target;
    }
}

TEST(PithdBatch, AnHttp10ClientGetsTheLinesWithoutChunksAndTheConnectionClosed) {
    START_PITHD(pithd, args_with({}));
    const std::string body = json_request(article_page(6)) + "\n" + json_request(article_page(7)) + "\n";
    auto connection = Connection::open(pithd.port());
    ASSERT_TRUE(connection);
    std::string request = build_request("POST", "/extract/batch", kNdjson, body);
    request.replace(request.find("HTTP/1.1"), 8, "HTTP/1.0");
    ASSERT_TRUE(connection->send_all(request));
    ASSERT_TRUE(connection->read_until_closed(20s)) << "the close ends the body";
    const std::string answer = connection->unread();
    EXPECT_TRUE(answer.starts_with("HTTP/1.1 200")) << answer.substr(0, 200);
    std::string head = answer.substr(0, answer.find("\r\n\r\n"));
    std::transform(head.begin(), head.end(), head.begin(), [](unsigned char c) { return std::tolower(c); });
    EXPECT_EQ(head.find("transfer-encoding"), std::string::npos) << head;
    EXPECT_EQ(head.find("content-length"), std::string::npos) << head;
    const std::vector<json> lines = ndjson_lines(answer.substr(answer.find("\r\n\r\n") + 4));
    ASSERT_EQ(lines.size(), 2U);
    EXPECT_EQ(lines[0].value("item", -1), 0);
    EXPECT_EQ(lines[1].value("item", -1), 1);
}

TEST(PithdBatch, TooManyItemsAreRefusedBeforeAnyIsExtracted) {
    START_PITHD(pithd, args_with({"--max-batch-items", "3"}));
    const std::string item = json_request(article_page(2)) + "\n";
    const HttpResult over = http_request(pithd.port(), "POST", "/extract/batch", kNdjson, item + item + item + item);
    EXPECT_EQ(over.status, 400U);
    EXPECT_EQ(error_code_of(over), "invalid_argument");
    EXPECT_NE(over.body.find("max_batch_items"), std::string::npos) << over.body;
    const HttpResult fits = http_request(pithd.port(), "POST", "/extract/batch", kNdjson, item + item + item);
    EXPECT_EQ(fits.status, 200U);
    EXPECT_EQ(ndjson_lines(fits.body).size(), 3U);
    const HttpResult json_type = http_request(pithd.port(), "POST", "/extract/batch", kJson, item);
    EXPECT_EQ(json_type.status, 415U);
    const HttpResult get = http_request(pithd.port(), "GET", "/extract/batch", {}, "");
    EXPECT_EQ(get.status, 405U);
    EXPECT_EQ(scrape(pithd.port()).sum("pithd_extractions_total", {}), 3) << "the refused batch extracted nothing";
}

// What a batch of `count` copies of `item` got, and the most the budget held meanwhile.
struct BatchOutcome {
    std::size_t lines = 0;
    int extracted = 0;
    int refused = 0;  // overloaded: no room
    double peak_reserved = 0;
};

BatchOutcome post_batch_watching_budget(std::uint16_t port, const std::string& item, int count, long timeout_ms,
                                       const std::string& target = "/extract/batch") {
    std::string body;
    for (int i = 0; i < count; ++i) {
        body += item;
    }
    std::atomic<bool> done{false};
    BatchOutcome outcome;
    std::thread watcher([&] {
        while (!done.load()) {
            outcome.peak_reserved =
                std::max(outcome.peak_reserved, scrape(port).sum("pithd_memory_reserved_bytes", {}));
            std::this_thread::sleep_for(5ms);
        }
    });
    const HttpResult r = http_request(port, "POST", target, kNdjson, body, std::chrono::milliseconds(timeout_ms + 10'000));
    done = true;
    watcher.join();
    EXPECT_EQ(r.status, 200U) << r.body.substr(0, 300);
    const std::vector<json> lines = ndjson_lines(r.body);
    outcome.lines = lines.size();
    for (const json& line : lines) {
        outcome.extracted += line.value("http_status", 0) == 200 ? 1 : 0;
        outcome.refused +=
            line.value("http_status", 0) == 503 && line["error"].value("code", "") == "overloaded" ? 1 : 0;
    }
    std::printf("%d items: %d extracted, %d refused for room\n", count, outcome.extracted, outcome.refused);
    return outcome;
}

TEST(PithdBatch, ALargeBatchStaysWithinTheMemoryBudget) {
    // 10 MiB of budget for 20 pages of about 0.13 MB: the body (2.7 MB), two
    // pages' working memory at a time and the answers waiting for the lines
    // before theirs to be written do not always all fit. Items that do not fit are refused, each on its
    // own line; the rest are extracted; the budget is never passed. (Small
    // pages: under TSan the test shares two cores with the others.)
    constexpr double kBudget = 10.0 * 1024 * 1024;
    // A deadline no sanitizer build comes near: the items end by room, not time.
    const auto timeout_ms = static_cast<long>(60'000 * kTimeScale);
    START_PITHD(pithd, args_with({"--memory-budget-bytes", "10485760", "--workers", "2", "--request-timeout-ms",
                                  std::to_string(timeout_ms)}));
    const BatchOutcome got =
        post_batch_watching_budget(pithd.port(), json_request(article_page(1'200)) + "\n", 20, timeout_ms);
    ASSERT_EQ(got.lines, 20U);
    EXPECT_EQ(got.extracted + got.refused, 20) << "every item extracted or refused for room, none left to the deadline";
    EXPECT_GE(got.extracted, 1);
    EXPECT_LE(got.peak_reserved, kBudget) << "the budget held";
    EXPECT_EQ(settled_reserved_bytes(pithd.port()), 0) << "reservations outlived their batch";
}

TEST(PithdBatch, EachLineLeavesTheBudgetOnceItsItemIsAnswered) {
    // 6 MiB of budget and a body of 110 pages of about 49 KB (5.4 MB): beside
    // the body, the room left is under what one item's extraction holds
    // (about 1.3 MiB). Each item answered, extracted or refused, gives its
    // line back, and the items after it find room. Were the body held whole
    // until the last line was written, every item would be refused. The same
    // batch in completion order: a line done is written at once instead of
    // waiting, in the budget, behind an item refused for room that tries
    // again, so more of the items find room.
    constexpr double kBudget = 6.0 * 1024 * 1024;
    const auto timeout_ms = static_cast<long>(60'000 * kTimeScale);
    START_PITHD(pithd, args_with({"--memory-budget-bytes", "6291456", "--workers", "2", "--request-timeout-ms",
                                  std::to_string(timeout_ms)}));
    const std::string item = json_request(article_page(450)) + "\n";
    ASSERT_GT(item.size() * 110, 5'300'000U);
    ASSERT_LT(item.size() * 110, 5'500'000U);
    // In the items' order 43 to 61 in six runs here (which items find room
    // depends on the order the two workers end them in); in completion order
    // 81 in each, the first items still meeting the whole body in the budget.
    for (const auto& [target, least] : {std::pair{"/extract/batch", 20}, {"/extract/batch?order=completion", 65}}) {
        const BatchOutcome got = post_batch_watching_budget(pithd.port(), item, 110, timeout_ms, target);
        ASSERT_EQ(got.lines, 110U) << target;
        EXPECT_EQ(got.extracted + got.refused, 110) << target;
        EXPECT_GE(got.extracted, least) << target;
        EXPECT_LE(got.peak_reserved, kBudget) << target << ": the budget held";
        EXPECT_EQ(settled_reserved_bytes(pithd.port()), 0) << target << ": reservations outlived their batch";
    }
}

}  // namespace
}  // namespace pith::test
