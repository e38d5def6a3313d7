// The /extract request formats and the error-to-status mapping, without a server.
#include "pithd/request.hpp"
#include "pithd/response.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace pith::server {
namespace {

using extract::PassFlags;

config::ServerConfig server_config() {
    config::ServerConfig config;
    config.extract.budgets.max_elements = 1000;
    return config;
}

TEST(ApiJson, ReadsHtmlUrlAndOptions) {
    const auto request = parse_json_request(
        R"({"html": "<p>hi</p>", "url": "https://example.com/x", "options": {"format": "text", "diagnostics": true,
            "char_threshold": 20, "n_top_candidates": 3, "strip_unlikelys": false, "retry": false,
            "keep_classes": true, "max_elements": 10, "timeout_ms": 250}})",
        {}, server_config());
    ASSERT_TRUE(request.ok()) << request.error().message;
    EXPECT_EQ(request->html, "<p>hi</p>");
    EXPECT_TRUE(request->has_html);
    EXPECT_EQ(request->options.input.url, "https://example.com/x");
    EXPECT_EQ(request->options.input.charset, "utf-8") << "JSON strings are Unicode whatever the page's <meta> says";
    EXPECT_EQ(request->format, OutputFormat::text);
    EXPECT_TRUE(request->diagnostics);
    EXPECT_EQ(request->options.passes.char_threshold, 20U);
    EXPECT_EQ(request->options.passes.n_top_candidates, 3U);
    EXPECT_FALSE(extract::has(request->options.passes.flags, PassFlags::strip_unlikelys));
    EXPECT_TRUE(extract::has(request->options.passes.flags, PassFlags::weight_classes));
    EXPECT_FALSE(request->options.passes.retry);
    EXPECT_TRUE(request->options.render.keep_classes);
    EXPECT_EQ(request->options.budgets.max_elements, 10U);
    ASSERT_TRUE(request->timeout.has_value());
    EXPECT_EQ(request->timeout->count(), 250);
}

TEST(ApiJson, ThePageHoldsItsSizeNotTheLexersSlack) {
    // The lexer grows the string by doubling; 600,000 bytes would sit in a
    // 1 MiB buffer through the whole extraction.
    const std::string page(600'000, 'a');
    const auto request = parse_json_request(R"({"html": ")" + page + R"("})", {}, server_config());
    ASSERT_TRUE(request.ok()) << request.error().message;
    EXPECT_EQ(request->html.size(), page.size());
    EXPECT_EQ(request->html.capacity(), page.size());
}

TEST(ApiJson, InspectAsksForTheInspectorsAnswerUnlessTheInspectorIsOff) {
    const auto on = parse_json_request(R"({"html": "<p>hi</p>", "options": {"inspect": true}})", {}, server_config());
    ASSERT_TRUE(on.ok()) << on.error().message;
    EXPECT_TRUE(on->inspect);
    const auto raw = parse_raw_request("<p>hi</p>", "inspect=true", "", server_config());
    ASSERT_TRUE(raw.ok()) << raw.error().message;
    EXPECT_TRUE(raw->inspect);
    config::ServerConfig off = server_config();
    off.inspector = false;
    const auto refused = parse_json_request(R"({"html": "<p>hi</p>", "options": {"inspect": true}})", {}, off);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, ErrorCode::invalid_argument);
    EXPECT_NE(refused.error().message.find("server.inspector"), std::string::npos) << refused.error().message;
    EXPECT_TRUE(parse_json_request(R"({"html": "<p>hi</p>", "options": {"inspect": false}})", {}, off).ok());
}

TEST(ApiJson, SelectorsMakeTheRequestsOwnRule) {
    const auto request = parse_json_request(
        R"({"html": "<div id=main><p>a</p></div><aside>b</aside>", "options": {"content_selector": "#main",
            "remove_selectors": "aside, .share"}})",
        {}, server_config());
    ASSERT_TRUE(request.ok()) << request.error().message;
    ASSERT_NE(request->rule, nullptr);
    EXPECT_EQ(request->options.rule, request->rule.get());
    const std::string description = rules::describe(*request->rule);
    EXPECT_NE(description.find("body: //*[@id='main']"), std::string::npos) << description;
    EXPECT_NE(description.find("strip: //aside | //*["), std::string::npos) << description;

    const auto query = parse_raw_request("<p>x</p>", "content_selector=%23main", "", server_config());
    ASSERT_TRUE(query.ok()) << query.error().message;
    EXPECT_NE(query->options.rule, nullptr);

    const auto bad = parse_json_request(R"({"html": "x", "options": {"content_selector": "div["}})", {},
                                        server_config());
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().code, ErrorCode::invalid_argument);
    EXPECT_NE(bad.error().message.find("content_selector"), std::string::npos);
    EXPECT_EQ(parse_json_request(R"({"html": "x"})", {}, server_config())->options.rule, nullptr);
}

TEST(ApiJson, AnInlineRuleIsAnObjectOfXPath) {
    const auto request = parse_json_request(
        R"({"html": "x", "options": {"rules": {"content": ["//article", "//main"], "title": "//h1",
            "remove": ["//aside"]}, "strategy": "readability"}})",
        {}, server_config());
    ASSERT_TRUE(request.ok()) << request.error().message;
    ASSERT_NE(request->options.rule, nullptr);
    const std::string description = rules::describe(*request->rule);
    EXPECT_NE(description.find("body: //article\nbody: //main"), std::string::npos) << description;
    EXPECT_NE(description.find("title: //h1"), std::string::npos);
    EXPECT_NE(description.find("strip: //aside"), std::string::npos);
    EXPECT_EQ(request->options.strategy, extract::Strategy::readability) << "options after the object still apply";

    for (const char* bad : {R"({"html": "x", "options": {"rules": {"body": "//x"}}})",
                            R"({"html": "x", "options": {"rules": {"content": 3}}})",
                            R"({"html": "x", "options": {"rules": {"content": "//div["}}})",
                            R"({"html": "x", "options": {"rules": {"content": [["//x"]]}}})",
                            R"({"html": "x", "options": {"rules": {}, "rules": {}}})"}) {
        const auto refused = parse_json_request(bad, {}, server_config());
        EXPECT_FALSE(refused.ok()) << bad;
        if (!refused.ok()) {
            EXPECT_EQ(refused.error().code, ErrorCode::invalid_argument) << bad;
        }
    }
    EXPECT_FALSE(parse_raw_request("x", "rules=%2F%2Fx", "", server_config()).ok()) << "no object in a query";
}

TEST(ApiJson, StartsFromTheServerDefaults) {
    config::ServerConfig config = server_config();
    config.extract.passes.char_threshold = 77;
    const auto request = parse_json_request(R"({"html": "x"})", {}, config);
    ASSERT_TRUE(request.ok());
    EXPECT_EQ(request->options.passes.char_threshold, 77U);
    EXPECT_EQ(request->format, OutputFormat::json);
    EXPECT_FALSE(request->diagnostics);
}

TEST(ApiJson, ReadsTheStrategyOptions) {
    const auto request = parse_json_request(
        R"({"html": "x", "options": {"strategy": "fitness", "select_mode": "dom_smoothie",
            "min_score_to_adjust": 2.5, "lectito_min_score": 25, "lectito_char_threshold": 300,
            "lectito_min_content_length": 80, "fitness_link_density_weight": 3, "fitness_min_text_percentage": 0.1}})",
        {}, server_config());
    ASSERT_TRUE(request.ok()) << request.error().message;
    EXPECT_EQ(request->options.strategy, extract::Strategy::fitness);
    EXPECT_EQ(request->options.readability.select_mode, extract::SelectMode::dom_smoothie);
    EXPECT_EQ(request->options.readability.min_score_to_adjust, 2.5);
    EXPECT_EQ(request->options.lectito.min_score, 25.0);
    EXPECT_EQ(request->options.lectito.char_threshold, 300U);
    EXPECT_EQ(request->options.lectito.min_content_length, 80U);
    EXPECT_EQ(request->options.fitness.link_density_weight, 3.0);
    EXPECT_EQ(request->options.fitness.min_text_percentage, 0.1);
}

TEST(ApiJson, APolicyIsOnePassWithItsFlagsAndComesAlone) {
    const auto request = parse_json_request(R"({"html": "x", "options": {"policy": "clean"}})", {}, server_config());
    ASSERT_TRUE(request.ok()) << request.error().message;
    EXPECT_EQ(request->options.passes.flags, PassFlags::clean_conditionally);
    EXPECT_FALSE(request->options.passes.retry);
    const auto mixed = parse_json_request(R"({"html": "x", "options": {"policy": "raw", "retry": true}})", {},
                                          server_config());
    ASSERT_FALSE(mixed.ok());
    EXPECT_EQ(mixed.error().code, ErrorCode::invalid_argument);
}

TEST(ApiJson, RefusesBadStrategyValues) {
    for (const char* body : {R"({"html": "x", "options": {"strategy": "best"}})",
                             R"({"html": "x", "options": {"select_mode": 1}})",
                             R"({"html": "x", "options": {"fitness_min_child_fitness_ratio": 2}})",
                             R"({"html": "x", "options": {"fitness_depth_weight": -1}})",
                             R"({"html": "x", "options": {"fitness_no_such_weight": 1}})"}) {
        const auto request = parse_json_request(body, {}, server_config());
        ASSERT_FALSE(request.ok()) << body;
        EXPECT_EQ(request.error().code, ErrorCode::invalid_argument) << body;
    }
}

TEST(ApiJson, UrlAloneAsksForAFetch) {
    const auto request = parse_json_request(R"({"url": "https://example.com/"})", {}, server_config());
    ASSERT_TRUE(request.ok());
    EXPECT_FALSE(request->has_html);
    EXPECT_EQ(request->url, "https://example.com/");
}

TEST(ApiJson, RefusesWhatItDoesNotKnow) {
    const struct {
        const char* body;
        ErrorCode code;
    } cases[] = {
        {"", ErrorCode::invalid_json},
        {"{", ErrorCode::invalid_json},
        {"[]", ErrorCode::invalid_json},
        {"\"html\"", ErrorCode::invalid_json},
        {R"({"html": "x"} {})", ErrorCode::invalid_json},
        {R"({"html": ["x"]})", ErrorCode::invalid_argument},
        {R"({"html": "x", "options": {"format": {"a": 1}}})", ErrorCode::invalid_argument},
        {R"({"html": "x", "options": {"retry": "maybe"}})", ErrorCode::invalid_argument},
        {R"({"html": "x", "options": {"char_threshold": 1.5}})", ErrorCode::invalid_argument},
        {R"({"html": "x", "options": {"max_elements": 0}})", ErrorCode::invalid_argument},
        {R"({"html": "x", "options": {"max_elements": 1001}})", ErrorCode::invalid_argument},
        {R"({"html": "x", "options": {"timeout_ms": 0}})", ErrorCode::invalid_argument},
        {R"({"html": "x", "options": {"retry": true, "retry": false}})", ErrorCode::invalid_argument},
        {R"({"html": "x", "url": "relative/path"})", ErrorCode::invalid_argument},
        {R"({"html": "x", "extra": 1})", ErrorCode::invalid_argument},
        {R"({"html": "x", "options": {"bogus": null}})", ErrorCode::invalid_argument},
        {R"({"html": "x", "options": {"max_elements": "50"}})", ErrorCode::invalid_argument},
        {R"({"html": "x", "options": {"retry": "true"}})", ErrorCode::invalid_argument},
        {R"({})", ErrorCode::invalid_argument},
    };
    for (const auto& c : cases) {
        const auto request = parse_json_request(c.body, {}, server_config());
        ASSERT_FALSE(request.ok()) << c.body;
        EXPECT_EQ(request.error().code, c.code) << c.body << ": " << request.error().message;
    }
}

TEST(ApiJson, NullOptionsMeanTheDefault) {
    const auto request = parse_json_request(R"({"html": "x", "options": {"char_threshold": null}})", {}, server_config());
    ASSERT_TRUE(request.ok()) << request.error().message;
    EXPECT_EQ(request->options.passes.char_threshold, 500U);
}

TEST(ApiJson, RefusesOptionsInTheQueryString) {
    const auto request = parse_json_request(R"({"html": "x"})", "format=text", server_config());
    ASSERT_FALSE(request.ok());
    EXPECT_EQ(request.error().code, ErrorCode::invalid_argument);
}

TEST(ApiJson, DeepNestingIsRefusedWithoutRecursion) {
    std::string body = R"({"html": "x", "options": {"a": )";
    body += std::string(100000, '[') + std::string(100000, ']') + "}}";
    const auto request = parse_json_request(body, {}, server_config());
    ASSERT_FALSE(request.ok());
    EXPECT_EQ(request.error().code, ErrorCode::invalid_argument);
}

TEST(ApiRaw, ReadsOptionsFromTheQuery) {
    const auto request = parse_raw_request("<p>x</p>", "url=https%3A%2F%2Fexample.com%2Fa%20b&format=html&diagnostics&weight_classes=0",
                                           "windows-1251", server_config());
    ASSERT_TRUE(request.ok()) << request.error().message;
    EXPECT_EQ(request->html, "<p>x</p>");
    EXPECT_EQ(request->options.input.url, "https://example.com/a b");
    EXPECT_EQ(request->options.input.charset, "windows-1251");
    EXPECT_EQ(request->format, OutputFormat::html);
    EXPECT_TRUE(request->diagnostics);
    EXPECT_FALSE(extract::has(request->options.passes.flags, PassFlags::weight_classes));
}

TEST(ApiRaw, RefusesUnknownRepeatedOrBadlyEncodedParameters) {
    for (const char* query : {"colour=red", "format=text&format=html", "url=%zz", "char_threshold=-3", "max_depth=x"}) {
        const auto request = parse_raw_request("<p>x</p>", query, "", server_config());
        ASSERT_FALSE(request.ok()) << query;
        EXPECT_EQ(request.error().code, ErrorCode::invalid_argument) << query;
    }
}

TEST(ApiBatchQuery, TakesTheOrderAndNothingElse) {
    for (const auto& [query, order] : {std::pair{"", BatchOrder::items}, {"order=items", BatchOrder::items},
                                       {"order=completion", BatchOrder::completion},
                                       {"&order=%63ompletion&", BatchOrder::completion}}) {
        const Result<BatchOrder> parsed = parse_batch_query(query);
        ASSERT_TRUE(parsed.ok()) << query << ": " << parsed.error().message;
        EXPECT_EQ(parsed.value(), order) << query;
    }
    for (const char* query : {"order=random", "order=", "format=text", "order=items&order=items", "order=%zz"}) {
        const Result<BatchOrder> parsed = parse_batch_query(query);
        ASSERT_FALSE(parsed.ok()) << query;
        EXPECT_EQ(parsed.error().code, ErrorCode::invalid_argument) << query;
    }
    EXPECT_NE(parse_batch_query("strategy=fitness").error().message.find("only order"), std::string::npos);
}

TEST(ApiMediaType, SplitsTypeAndCharset) {
    const MediaType media = parse_media_type(" Text/HTML ; foo=bar; charset=\"Windows-1251\" ");
    EXPECT_EQ(media.type, "text/html");
    EXPECT_EQ(media.charset, "windows-1251");
    EXPECT_EQ(parse_media_type("application/json").charset, "");
    EXPECT_TRUE(is_html_media_type("application/xhtml+xml"));
    EXPECT_FALSE(is_html_media_type("text/plain"));
}

TEST(ApiStatus, EveryCodeHasTheStatusTheContractSays) {
    EXPECT_EQ(http_status(ErrorCode::invalid_json), 400U);
    EXPECT_EQ(http_status(ErrorCode::invalid_argument), 400U);
    EXPECT_EQ(http_status(ErrorCode::unauthorized), 401U);
    EXPECT_EQ(http_status(ErrorCode::blocked_address), 403U);
    EXPECT_EQ(http_status(ErrorCode::not_found), 404U);
    EXPECT_EQ(http_status(ErrorCode::method_not_allowed), 405U);
    EXPECT_EQ(http_status(ErrorCode::body_too_large), 413U);
    EXPECT_EQ(http_status(ErrorCode::input_too_large), 413U);
    EXPECT_EQ(http_status(ErrorCode::unsupported_media_type), 415U);
    EXPECT_EQ(http_status(ErrorCode::too_many_elements), 422U);
    EXPECT_EQ(http_status(ErrorCode::too_deep), 422U);
    EXPECT_EQ(http_status(ErrorCode::header_too_large), 431U);
    EXPECT_EQ(http_status(ErrorCode::internal), 500U);
    EXPECT_EQ(http_status(ErrorCode::upstream_status), 502U);
    EXPECT_EQ(http_status(ErrorCode::overloaded), 503U);
    EXPECT_EQ(http_status(ErrorCode::draining), 503U);
    EXPECT_EQ(http_status(ErrorCode::deadline_exceeded), 504U);
    EXPECT_EQ(http_status(ErrorCode::connect_timeout), 504U);
}

TEST(ApiErrorBody, CarriesCodeMessageAndRequestId) {
    const auto body = nlohmann::json::parse(
        error_body(Error{ErrorCode::upstream_status, "upstream answered 404"}, "id-1", 404));
    EXPECT_EQ(body["error"]["code"], "upstream_status");
    EXPECT_EQ(body["error"]["message"], "upstream answered 404");
    EXPECT_EQ(body["error"]["upstream_status"], 404);
    EXPECT_EQ(body["request_id"], "id-1");
}

TEST(ApiPercentDecode, DecodesEscapesAndPlus) {
    EXPECT_EQ(percent_decode("a%20b+c%2F"), "a b c/");
    EXPECT_FALSE(percent_decode("%").has_value());
    EXPECT_FALSE(percent_decode("%4").has_value());
    EXPECT_FALSE(percent_decode("%g0").has_value());
}

}  // namespace
}  // namespace pith::server
