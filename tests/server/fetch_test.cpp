// pithd fetching URLs, end to end, against test origins on loopback. Every
// byte these tests send goes to a loopback address, refused fetches included.
// Functional tests allow the origin's address through fetch.allow, as an
// operator would open an internal host; the guard tests run with the default
// configuration (or one allow entry for the first hop of a redirect) and check
// that the refused origin never saw a connection.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <future>

#include <nlohmann/json.hpp>

#include "test_origin.hpp"
#include "pithd.hpp"
#include "time_scale.hpp"

namespace pith::test {
namespace {

using nlohmann::json;

const std::vector<Header> kJson = {{"Content-Type", "application/json"}};
const std::vector<Header> kHtmlType = {{"Content-Type", "text/html; charset=utf-8"}};

std::string page(const std::string& title, const std::string& extra = "") {
    std::string html = "<html><head><title>" + title + "</title></head><body><article>" + extra;
    for (int i = 0; i < 12; ++i) {
        html += "<p>Paragraph " + std::to_string(i) +
                " of the fetched page carries ordinary prose, with commas, clauses and a full stop.</p>";
    }
    return html + "</article></body></html>";
}

HttpResult fetch(const PithdProcess& pithd, const std::string& url, const json& options = json::object()) {
    json body = {{"url", url}};
    if (!options.empty()) {
        body["options"] = options;
    }
    return http_request(pithd.port(), "POST", "/extract", kJson, body.dump(), 30s);
}

json body_json(const HttpResult& r) { return json::parse(r.body, nullptr, false); }

std::string error_code_of(const HttpResult& r) {
    const json body = body_json(r);
    return body.is_object() && body.contains("error") ? body["error"].value("code", "") : "";
}

std::vector<std::string> allowing_loopback(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--listen", "127.0.0.1:0", "--workers", "2", "--fetch-allow", "127.0.0.1/32"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

#define START_PITHD(name, ...)      \
    PithdProcess name(__VA_ARGS__); \
    ASSERT_NE(name.port(), 0) << "pithd did not start:\n" << name.log()

// ---- fetching ----

TEST(Fetch, FetchesAPageAndExtractsIt) {
    TestOrigin origin("127.0.0.1", [](const std::string&) {
        return OriginResponse{200, kHtmlType, page("Fetched page")};
    });
    START_PITHD(pithd, allowing_loopback());
    const HttpResult r = fetch(pithd, origin.url("/article"));
    ASSERT_TRUE(r.ok()) << r.error;
    ASSERT_EQ(r.status, 200U) << r.body;
    const json article = body_json(r);
    EXPECT_EQ(article["title"], "Fetched page");
    EXPECT_EQ(article["status"], "ok");
    ASSERT_EQ(origin.requests().size(), 1U);
    const std::string request = origin.requests().front();
    EXPECT_EQ(request.rfind("GET /article HTTP/1.1", 0), 0U) << request;
    EXPECT_NE(request.find("User-Agent: pith/"), std::string::npos) << request;
    EXPECT_NE(request.find("Accept-Encoding: gzip, deflate, br"), std::string::npos) << request;
    EXPECT_NE(request.find("Accept: text/html"), std::string::npos) << request;
}

TEST(Fetch, FollowsRedirectsAndResolvesLinksAgainstTheFinalUrl) {
    std::string final_url;
    TestOrigin origin("127.0.0.1", [&](const std::string& target) {
        if (target == "/start") {
            return OriginResponse{302, {{"Location", "/moved"}}, ""};
        }
        if (target == "/moved") {
            return OriginResponse{301, {{"Location", final_url}}, ""};
        }
        return OriginResponse{200, kHtmlType,
                              page("Redirected", "<p>The story goes on in <a href=\"next.html\">the next part</a>, "
                                                 "after the flood had passed and the valley was dry again.</p>")};
    });
    final_url = origin.url("/section/page.html");
    START_PITHD(pithd, allowing_loopback());
    const HttpResult r = fetch(pithd, origin.url("/start"), {{"format", "html"}});
    ASSERT_EQ(r.status, 200U) << r.body;
    EXPECT_NE(body_json(r)["content"].get<std::string>().find(origin.url("/section/next.html")), std::string::npos)
        << r.body.substr(0, 600);
    EXPECT_EQ(origin.requests().size(), 3U);
}

TEST(Fetch, DecodesGzipDeflateAndBrotli) {
    const std::string html = page("Compressed");
    TestOrigin origin("127.0.0.1", [&](const std::string& target) {
        std::vector<Header> headers = kHtmlType;
        if (target == "/gzip") {
            headers.push_back({"Content-Encoding", "gzip"});
            return OriginResponse{200, headers, gzip(html)};
        }
        if (target == "/deflate") {
            headers.push_back({"Content-Encoding", "deflate"});
            return OriginResponse{200, headers, zlib_deflate(html)};
        }
        headers.push_back({"Content-Encoding", "br"});
        return OriginResponse{200, headers, brotli(html)};
    });
    START_PITHD(pithd, allowing_loopback());
    for (const char* path : {"/gzip", "/deflate", "/br"}) {
        const HttpResult r = fetch(pithd, origin.url(path));
        ASSERT_EQ(r.status, 200U) << path << ": " << r.body;
        EXPECT_EQ(body_json(r)["title"], "Compressed") << path;
    }
}

TEST(Fetch, HandsTheContentTypeCharsetToTheDecoder) {
    // "Привет, мир" in windows-1251; the page itself declares nothing.
    const std::string greeting = "\xCF\xF0\xE8\xE2\xE5\xF2, \xEC\xE8\xF0";
    std::string html = "<html><head><title>Cyrillic</title></head><body><article>";
    for (int i = 0; i < 12; ++i) {
        html += "<p>" + greeting + ", " + greeting + " " + greeting + ", " + greeting + " " + greeting + ".</p>";
    }
    html += "</article></body></html>";
    TestOrigin origin("127.0.0.1", [&](const std::string&) {
        return OriginResponse{200, {{"Content-Type", "text/html; charset=windows-1251"}}, html};
    });
    START_PITHD(pithd, allowing_loopback());
    const HttpResult r = fetch(pithd, origin.url("/"), {{"format", "text"}});
    ASSERT_EQ(r.status, 200U) << r.body;
    EXPECT_EQ(body_json(r)["charset"], "windows-1251");
    EXPECT_NE(body_json(r)["textContent"].get<std::string>().find("Привет, мир"), std::string::npos) << r.body;
}

TEST(Fetch, SlowDripTimesOut) {
    TestOrigin origin("127.0.0.1", [](const std::string&) {
        OriginResponse response{200, kHtmlType, page("Slow")};
        response.drip_interval = 100ms;
        return response;
    });
    START_PITHD(pithd, allowing_loopback({"--fetch-total-timeout-ms", "500"}));
    const auto start = std::chrono::steady_clock::now();
    const HttpResult r = fetch(pithd, origin.url("/"));
    EXPECT_EQ(r.status, 504U) << r.body;
    EXPECT_EQ(error_code_of(r), "fetch_timeout");
    EXPECT_LT(std::chrono::steady_clock::now() - start, 5s * kTimeScale);
}

TEST(Fetch, SilentUpstreamHitsTheHeaderTimeout) {
    TestOrigin origin("127.0.0.1", [](const std::string&) {
        OriginResponse response{200, kHtmlType, page("Late")};
        response.header_delay = 3s;
        return response;
    });
    START_PITHD(pithd, allowing_loopback({"--fetch-header-timeout-ms", "300"}));
    const HttpResult r = fetch(pithd, origin.url("/"));
    EXPECT_EQ(r.status, 504U) << r.body;
    EXPECT_EQ(error_code_of(r), "fetch_timeout");
}

TEST(Fetch, TheRequestDeadlineBoundsTheFetch) {
    TestOrigin origin("127.0.0.1", [](const std::string&) {
        OriginResponse response{200, kHtmlType, page("Late")};
        response.header_delay = 3s;
        return response;
    });
    START_PITHD(pithd, allowing_loopback({"--request-timeout-ms", "400"}));
    const auto start = std::chrono::steady_clock::now();
    const HttpResult r = fetch(pithd, origin.url("/"));
    EXPECT_EQ(r.status, 504U) << r.body;
    EXPECT_EQ(error_code_of(r), "deadline_exceeded");
    EXPECT_LT(std::chrono::steady_clock::now() - start, 2500ms * kTimeScale);
}

TEST(Fetch, BodyOverTheLimitIsRefused) {
    const std::string big(1U << 20U, 'x');
    TestOrigin origin("127.0.0.1", [&](const std::string& target) {
        OriginResponse response{200, kHtmlType, big};
        response.close_delimited = target == "/unframed";
        return response;
    });
    START_PITHD(pithd, allowing_loopback({"--fetch-max-response-bytes", "65536"}));
    for (const char* path : {"/framed", "/unframed"}) {
        const HttpResult r = fetch(pithd, origin.url(path));
        EXPECT_EQ(r.status, 502U) << path << ": " << r.body;
        EXPECT_EQ(error_code_of(r), "too_large") << path;
        EXPECT_NE(r.body.find("65536"), std::string::npos) << r.body;
    }
}

TEST(Fetch, GzipBombIsStoppedAtTheDecompressedLimit) {
    const std::string bomb = gzip(std::string(256U << 20U, ' '));
    ASSERT_LT(bomb.size(), 1U << 20U);
    TestOrigin origin("127.0.0.1", [&](const std::string&) {
        return OriginResponse{200, {{"Content-Type", "text/html"}, {"Content-Encoding", "gzip"}}, bomb};
    });
    START_PITHD(pithd, allowing_loopback({"--fetch-max-decompressed-bytes", "33554432"}));
    const HttpResult r = fetch(pithd, origin.url("/"));
    EXPECT_EQ(r.status, 502U) << r.body;
    EXPECT_EQ(error_code_of(r), "too_large");
    EXPECT_NE(r.body.find("33554432"), std::string::npos) << r.body;
}

TEST(Fetch, ABodyIsHeldWithinTheMemoryBudgetAsItArrivesAndAsItIsDecoded) {
    // 8 MiB of budget, and limits that would let each body through: 12 MB of
    // page, with a Content-Length and without, and a gzip bomb under the 32 MiB
    // decompressed limit's 502. Each fetch is stopped, 503, when it would hold
    // more than the budget has room for, before the extraction is reached.
    const std::string big(12U << 20U, 'x');
    const std::string bomb = gzip(std::string(256U << 20U, ' '));
    TestOrigin origin("127.0.0.1", [&](const std::string& target) {
        if (target == "/small") {
            return OriginResponse{200, kHtmlType, page("Small")};
        }
        if (target == "/bomb") {
            return OriginResponse{200, {{"Content-Type", "text/html"}, {"Content-Encoding", "gzip"}}, bomb};
        }
        OriginResponse response{200, kHtmlType, big};
        response.close_delimited = target == "/unframed";
        return response;
    });
    START_PITHD(pithd, allowing_loopback({"--memory-budget-bytes", "8388608", "--fetch-max-decompressed-bytes",
                                          "33554432"}));
    for (const char* path : {"/framed", "/unframed", "/bomb"}) {
        const HttpResult r = fetch(pithd, origin.url(path));
        EXPECT_EQ(r.status, 503U) << path << ": " << r.body.substr(0, 300);
        EXPECT_EQ(error_code_of(r), "overloaded") << path;
        EXPECT_NE(r.body.find("memory budget"), std::string::npos) << r.body;
        EXPECT_EQ(r.header("retry-after"), "1") << path;
    }
    const HttpResult small = fetch(pithd, origin.url("/small"));
    EXPECT_EQ(small.status, 200U) << small.body.substr(0, 300);
    const PromParse metrics = parse_prometheus(http_request(pithd.port(), "GET", "/metrics").body);
    ASSERT_EQ(metrics.error, "");
    EXPECT_EQ(metrics.sum("pithd_fetches_total", {{"result", "overloaded"}}), 3) << "refused while fetching";
    EXPECT_EQ(metrics.sum("pithd_fetches_total", {{"result", "ok"}}), 1);
    EXPECT_EQ(metrics.sum("pithd_memory_refusals_total", {}), 3);
    EXPECT_EQ(settled_reserved_bytes(pithd.port()), 0) << "reservations outlived their requests";
}

TEST(Fetch, NonHtmlIsRefused) {
    TestOrigin origin("127.0.0.1", [](const std::string&) {
        return OriginResponse{200, {{"Content-Type", "application/pdf"}}, "%PDF-1.7"};
    });
    START_PITHD(pithd, allowing_loopback());
    const HttpResult r = fetch(pithd, origin.url("/doc.pdf"));
    EXPECT_EQ(r.status, 422U) << r.body;
    EXPECT_EQ(error_code_of(r), "unsupported_content_type");
    EXPECT_NE(r.body.find("application/pdf"), std::string::npos);
}

TEST(Fetch, RedirectLoopStopsAtMaxRedirects) {
    TestOrigin origin("127.0.0.1", [](const std::string&) { return OriginResponse{302, {{"Location", "/loop"}}, ""}; });
    START_PITHD(pithd, allowing_loopback({"--fetch-max-redirects", "3"}));
    const HttpResult r = fetch(pithd, origin.url("/loop"));
    EXPECT_EQ(r.status, 502U) << r.body;
    EXPECT_EQ(error_code_of(r), "too_many_redirects");
    EXPECT_EQ(origin.requests().size(), 4U) << "the first request and three redirects";
}

TEST(Fetch, UpstreamErrorStatusIsReportedWithIt) {
    TestOrigin origin("127.0.0.1", [](const std::string&) { return OriginResponse{404, kHtmlType, "gone"}; });
    START_PITHD(pithd, allowing_loopback());
    const HttpResult r = fetch(pithd, origin.url("/missing"));
    EXPECT_EQ(r.status, 502U) << r.body;
    EXPECT_EQ(error_code_of(r), "upstream_status");
    EXPECT_EQ(body_json(r)["error"]["upstream_status"], 404);
}

TEST(Fetch, ClosedPortIsConnectFailed) {
    // A port nothing listens on: bound, then closed again.
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    socklen_t length = sizeof address;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    ::close(fd);
    START_PITHD(pithd, allowing_loopback());
    const HttpResult r = fetch(pithd, "http://127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + "/");
    EXPECT_EQ(r.status, 502U) << r.body;
    EXPECT_EQ(error_code_of(r), "connect_failed");
}

TEST(Fetch, PerHostLimitRefusesTheSecondConcurrentFetch) {
    TestOrigin origin("127.0.0.1", [](const std::string&) {
        OriginResponse response{200, kHtmlType, page("Slow enough")};
        response.header_delay = 1500ms;
        return response;
    });
    START_PITHD(pithd, allowing_loopback({"--fetch-max-per-host", "1"}));
    auto first = std::async(std::launch::async, [&] { return fetch(pithd, origin.url("/1")); });
    while (origin.connections() == 0) {
        std::this_thread::sleep_for(5ms);
    }
    const HttpResult second = fetch(pithd, origin.url("/2"));
    EXPECT_EQ(second.status, 503U) << second.body;
    EXPECT_EQ(error_code_of(second), "overloaded");
    EXPECT_EQ(first.get().status, 200U);
}

TEST(Fetch, TlsWithTheTestCaGivenInTheConfig) {
    const TlsFiles tls{fixture_path("tls/server.pem"), fixture_path("tls/server.key")};
    TestOrigin origin("127.0.0.1", [](const std::string&) { return OriginResponse{200, kHtmlType, page("Secure")}; },
                      tls);
    START_PITHD(pithd, allowing_loopback({"--fetch-ca-file", fixture_path("tls/ca.pem"), "--fetch-allow",
                                          "127.0.0.1/32,localhost"}));
    const HttpResult by_ip = fetch(pithd, origin.url("/"));
    ASSERT_EQ(by_ip.status, 200U) << by_ip.body;
    EXPECT_EQ(body_json(by_ip)["title"], "Secure");
    // By name: SNI and the host-name check use "localhost".
    const HttpResult by_name = fetch(pithd, "https://localhost:" + std::to_string(origin.port()) + "/");
    ASSERT_EQ(by_name.status, 200U) << by_name.body;
}

TEST(Fetch, TlsWithAnUntrustedCertificateIsATlsError) {
    const TlsFiles tls{fixture_path("tls/server.pem"), fixture_path("tls/server.key")};
    TestOrigin origin("127.0.0.1", [](const std::string&) { return OriginResponse{200, kHtmlType, page("Secure")}; },
                      tls);
    START_PITHD(pithd, allowing_loopback());
    const HttpResult r = fetch(pithd, origin.url("/"));
    EXPECT_EQ(r.status, 502U) << r.body;
    EXPECT_EQ(error_code_of(r), "tls_error");
    EXPECT_NE(r.body.find("certificate"), std::string::npos) << r.body;
    EXPECT_TRUE(origin.requests().empty()) << "no request may go out over an unverified connection";
}

TEST(Fetch, MetricsCountFetchesByResult) {
    TestOrigin origin("127.0.0.1", [](const std::string& target) {
        return target == "/ok" ? OriginResponse{200, kHtmlType, page("Counted")}
                               : OriginResponse{500, kHtmlType, "broken"};
    });
    START_PITHD(pithd, allowing_loopback());
    ASSERT_EQ(fetch(pithd, origin.url("/ok")).status, 200U);
    ASSERT_EQ(fetch(pithd, origin.url("/bad")).status, 502U);
    ASSERT_EQ(fetch(pithd, "http://127.0.0.2:9/").status, 403U);
    const HttpResult scrape = http_request(pithd.port(), "GET", "/metrics");
    const PromParse metrics = parse_prometheus(scrape.body);
    ASSERT_EQ(metrics.error, "");
    EXPECT_EQ(metrics.sum("pithd_fetches_total", {{"result", "ok"}}), 1);
    EXPECT_EQ(metrics.sum("pithd_fetches_total", {{"result", "upstream_status"}}), 1);
    EXPECT_EQ(metrics.sum("pithd_fetches_total", {{"result", "blocked_address"}}), 1);
    EXPECT_EQ(metrics.sum("pithd_fetch_duration_seconds_count"), 3);
    EXPECT_GE(metrics.sum("pithd_fetched_bytes_total"), static_cast<double>(page("Counted").size()));
    EXPECT_EQ(metrics.sum("pithd_fetches_in_flight"), 0);
}

TEST(Fetch, DisabledFetchingAsksForHtml) {
    START_PITHD(pithd, allowing_loopback({"--fetch-enabled=false"}));
    const HttpResult r = fetch(pithd, "http://127.0.0.1:9/");
    EXPECT_EQ(r.status, 400U);
    EXPECT_NE(r.body.find("disabled"), std::string::npos) << r.body;
}

TEST(Fetch, OnlyHttpAndHttpsAreFetched) {
    START_PITHD(pithd, allowing_loopback());
    for (const char* url : {"ftp://127.0.0.1/", "file:///etc/passwd", "gopher://127.0.0.1:70/", "http://user:pw@127.0.0.1:9/"}) {
        const HttpResult r = fetch(pithd, url);
        EXPECT_EQ(r.status, 400U) << url << ": " << r.body;
        EXPECT_EQ(error_code_of(r), "invalid_url") << url;
    }
}

// ---- the guard, with the default configuration ----

TEST(FetchGuard, DefaultConfigRefusesLoopbackInEveryForm) {
    TestOrigin v4("127.0.0.1", [](const std::string&) { return OriginResponse{200, kHtmlType, page("Internal")}; });
    TestOrigin v6("::1", [](const std::string&) { return OriginResponse{200, kHtmlType, page("Internal")}; });
    START_PITHD(pithd, {"--listen", "127.0.0.1:0", "--workers", "2"});
    const std::string p4 = std::to_string(v4.port());
    const std::string p6 = std::to_string(v6.port());
    for (const std::string& url : {"http://127.0.0.1:" + p4 + "/", "http://localhost:" + p4 + "/",
                                   "http://[::ffff:127.0.0.1]:" + p4 + "/", "http://2130706433:" + p4 + "/",
                                   "http://0x7f.1:" + p4 + "/", "https://127.0.0.1:" + p4 + "/",
                                   "http://[::1]:" + p6 + "/", "http://localhost:" + p6 + "/"}) {
        const HttpResult r = fetch(pithd, url);
        EXPECT_EQ(r.status, 403U) << url << ": " << r.body;
        EXPECT_EQ(error_code_of(r), "blocked_address") << url;
    }
    EXPECT_EQ(v4.connections(), 0U) << "a refused address must never be connected to";
    EXPECT_EQ(v6.connections(), 0U) << "a refused address must never be connected to";
}

TEST(FetchGuard, TheInspectorFetchesOnceUnderTheSamePolicy) {
    TestOrigin origin("127.0.0.1", [](const std::string&) {
        return OriginResponse{200, kHtmlType, page("Inspected page")};
    });
    {
        START_PITHD(pithd, {"--listen", "127.0.0.1:0", "--workers", "2"});
        const HttpResult refused = fetch(pithd, origin.url("/article"), {{"inspect", true}});
        EXPECT_EQ(refused.status, 403U) << refused.body;
        EXPECT_EQ(error_code_of(refused), "blocked_address");
        EXPECT_EQ(origin.connections(), 0U) << "a refused address must never be connected to";
    }
    START_PITHD(pithd, allowing_loopback());
    const HttpResult r = fetch(pithd, origin.url("/article"), {{"inspect", true}});
    ASSERT_EQ(r.status, 200U) << r.body;
    const json answer = body_json(r);
    EXPECT_EQ(answer["title"], "Inspected page");
    EXPECT_EQ(answer["inspection"]["strategies"].size(), 4U);
    EXPECT_NE(answer["inspection"]["source"].get<std::string>().find("Inspected page"), std::string::npos);
    EXPECT_EQ(origin.requests().size(), 1U) << "every strategy runs on the one fetched page";
}

TEST(FetchGuard, RedirectToLoopbackIsRefusedAtThatHop) {
    // The internal target, refused by the default policy.
    TestOrigin internal("127.0.0.1", [](const std::string&) {
        return OriginResponse{200, kHtmlType, page("Internal")};
    });
    // The first hop stands in for a public site: 127.0.0.2 is opened by the
    // one allow entry, and it redirects to the internal target.
    std::string location;
    TestOrigin outside("127.0.0.2", [&](const std::string&) { return OriginResponse{302, {{"Location", location}}, ""}; });
    START_PITHD(pithd, {"--listen", "127.0.0.1:0", "--workers", "2", "--fetch-allow", "127.0.0.2/32"});
    const std::string port = std::to_string(internal.port());
    for (const std::string& target : {"http://127.0.0.1:" + port + "/admin", "http://localhost:" + port + "/admin",
                                      "http://[::ffff:127.0.0.1]:" + port + "/", "http://[::1]:" + port + "/"}) {
        location = target;
        const HttpResult r = fetch(pithd, outside.url("/innocent"));
        EXPECT_EQ(r.status, 403U) << target << ": " << r.body;
        EXPECT_EQ(error_code_of(r), "blocked_address") << target;
    }
    EXPECT_EQ(outside.connections(), 4U);
    EXPECT_EQ(internal.connections(), 0U) << "the redirect target must never be connected to";
}

}  // namespace
}  // namespace pith::test
