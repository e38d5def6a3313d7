#include "page/page.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "pith/rules.hpp"

namespace pith::extract {
namespace {

std::optional<PreparedPage> prepared(const std::string& html, const ExtractOptions& options, Article& article) {
    auto loaded = load_page(html, options, article);
    EXPECT_TRUE(loaded.has_value());
    if (!loaded) {
        return std::nullopt;
    }
    return prepare_page(std::move(*loaded), options, article);
}

const std::string kPage =
    "<html lang=en><head><title>Tides - The Coast Paper</title>"
    "<meta property='og:site_name' content='The Coast Paper'>"
    "<script type='application/ld+json'>{\"@context\":\"https://schema.org\",\"@type\":\"NewsArticle\",\"headline\":\"Spring tides explained\","
    "\"author\":{\"name\":\"Ada Lindqvist\"},\"datePublished\":\"2024-03-05\"}</script>"
    "<base href='/news/'></head><body><!-- c --><script>x()</script><style>p{}</style>"
    "<article><p>" + std::string(600, 'a') + "</p></article></body></html>";

TEST(PreparePage, ReadsMetadataJsonLdFirstAndPreparesTheDocument) {
    ExtractOptions options;
    options.input.url = "https://example.com/2024/tides.html";
    Article article;
    const auto page = prepared(kPage, options, article);
    ASSERT_TRUE(page.has_value());
    EXPECT_EQ(page->metadata.title, "Spring tides explained");
    EXPECT_EQ(page->metadata.byline, "Ada Lindqvist");
    EXPECT_EQ(page->metadata.published_time, "2024-03-05");
    EXPECT_EQ(page->metadata.site_name, "The Coast Paper");
    EXPECT_EQ(page->base_url, "https://example.com/news/");
    EXPECT_TRUE(article.readerable);
    const std::string body = dom::inner_html(page->doc.body());
    EXPECT_EQ(body.find("<script"), std::string::npos);
    EXPECT_EQ(body.find("<style"), std::string::npos);
    EXPECT_EQ(body.find("<!--"), std::string::npos);
}

TEST(PreparePage, JsonLdCanBeIgnored) {
    ExtractOptions options;
    options.disable_json_ld = true;
    Article article;
    const auto page = prepared(kPage, options, article);
    ASSERT_TRUE(page.has_value());
    EXPECT_EQ(page->metadata.title, "Tides - The Coast Paper") << "the <title>, as Readability cuts it";
}

TEST(PreparePage, ARulesFieldsWinOverThePagesOwn) {
    rules::InlineRule fields;
    fields.title = {"//article/p/@class | //title"};
    fields.author = {"string('Someone Else')"};
    auto rule = rules::make_rule(fields, "test");
    ASSERT_TRUE(rule.ok()) << rule.error().message;
    ExtractOptions options;
    options.rule = rule.value().get();
    Article article;
    const auto page = prepared(kPage, options, article);
    ASSERT_TRUE(page.has_value());
    ASSERT_TRUE(article.rule.has_value());
    EXPECT_EQ(article.rule->source, "test");
    EXPECT_EQ(page->metadata.title, "Tides - The Coast Paper");
    EXPECT_EQ(page->metadata.byline, "Someone Else");
}

TEST(PreparePage, APassedDeadlineStopsBeforeTheMetadata) {
    ExtractOptions options;
    Article article;
    auto loaded = load_page(kPage, options, article);
    ASSERT_TRUE(loaded.has_value());
    options.runtime.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    EXPECT_FALSE(prepare_page(std::move(*loaded), options, article).has_value());
    EXPECT_EQ(article.status, Status::budget_exceeded);
    EXPECT_EQ(article.error->message, "deadline passed before metadata");
}

}  // namespace
}  // namespace pith::extract
