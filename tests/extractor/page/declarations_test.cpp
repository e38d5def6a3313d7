#include "page/declarations.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "parse_or_fail.hpp"

namespace pith::extract {
namespace {

using Paragraphs = std::vector<std::string>;

Paragraphs body_of(std::string_view json_ld) {
    const dom::Document doc = test::parse_or_fail("<html><head><script type=\"application/ld+json\">" +
                                                  std::string(json_ld) + "</script></head><body><p>x</p></body></html>");
    return read_declarations(doc).article_body;
}

TEST(ArticleBody, PlainTextIsReadLineByLine) {
    EXPECT_EQ(body_of(R"({"@type":"NewsArticle","articleBody":"First  paragraph.\n\nSecond\tparagraph.\r\nThird."})"),
              (Paragraphs{"First paragraph.", "Second paragraph.", "Third."}));
}

TEST(ArticleBody, TheArticleIsFoundWhereverItNests) {
    EXPECT_EQ(body_of(R"({"@graph":[{"@type":"WebSite"},{"@type":["WebPage"],"mainEntity":)"
                      R"({"@type":"https://schema.org/BlogPosting","articleBody":"Nested body."}}]})"),
              (Paragraphs{"Nested body."}));
    EXPECT_EQ(body_of(R"([{"@type":"Organization"},{"@type":"ReportageNewsArticle","articleBody":"In an array."}])"),
              (Paragraphs{"In an array."}));
}

TEST(ArticleBody, HtmlLosesItsTagsAndKeepsItsParagraphs) {
    EXPECT_EQ(body_of(R"({"@type":"Article","articleBody":"<p>One &amp; <em>two</em></p><p>Three<br>Four</p>if a < b"})"),
              (Paragraphs{"One & two", "Three", "Four", "if a < b"}));
}

TEST(ArticleBody, HtmlEscapedOnceMoreIsDecodedBeforeItsTagsGo) {
    EXPECT_EQ(body_of(R"({"@type":"Article","articleBody":"&lt;p class=&quot;text&quot;&gt;Solu&amp;ccedil;&amp;atilde;o)"
                      R"( encontrada.&lt;/p&gt;&lt;p&gt;Segundo.&lt;/p&gt;"})"),
              (Paragraphs{"Solução encontrada.", "Segundo."}));
}

TEST(ArticleBody, TheDescriptionLeadsWhereTheBodyLacksIt) {
    EXPECT_EQ(body_of(R"({"@type":"NewsArticle","description":"The lead.","articleBody":"The body."})"),
              (Paragraphs{"The lead.", "The body."}));
    EXPECT_EQ(body_of(R"({"@type":"NewsArticle","description":"The lead, whole.",)"
                      R"("articleBody":"The lead, whole. The body."})"),
              (Paragraphs{"The lead, whole. The body."}));
    EXPECT_EQ(body_of(R"({"@type":"NewsArticle","description":"The lead, cut\u2026",)"
                      R"("articleBody":"The lead, cut short. The body."})"),
              (Paragraphs{"The lead, cut short. The body."}));
}

TEST(ArticleBody, OneArticleDeclaredTwiceIsReadAndSeveralArticlesAreNot) {
    const dom::Document twice = test::parse_or_fail(
        R"(<script type="application/ld+json">{"@type":"NewsArticle","articleBody":"Same text."}</script>)"
        R"(<script type="application/ld+json">{"@type":"NewsArticle","articleBody":" Same text. "}</script><p>x</p>)");
    EXPECT_EQ(read_declarations(twice).article_body, (Paragraphs{"Same text."}));
    // An index declares the articles it lists: none of them is the page's.
    EXPECT_TRUE(body_of(R"({"@type":"ItemList","itemListElement":[{"@type":"BlogPosting","articleBody":"One post."},)"
                        R"({"@type":"BlogPosting","articleBody":"Another post."}]})")
                    .empty());
}

TEST(ArticleBody, OnlyAnArticlesBodyIsRead) {
    EXPECT_TRUE(body_of(R"({"@type":"WebPage","articleBody":"Not an article's."})").empty());
    EXPECT_TRUE(body_of(R"({"@type":"NewsArticle","articleBody":"  "})").empty());
    EXPECT_TRUE(body_of(R"({"@type":"NewsArticle","articleBody":"Not JSON)").empty());
}

}  // namespace
}  // namespace pith::extract
