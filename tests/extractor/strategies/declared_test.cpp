#include "strategies/declared.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "pith/extract.hpp"

namespace pith::extract {
namespace {

// Eight paragraphs of one report, each a sentence or two long.
std::string paragraph(int i) {
    return "Paragraph " + std::to_string(i) +
           " of the harbour report: the council measured the silt at the north quay again this spring, "
           "and the dredging it ordered in March has kept the channel open for the ferries.";
}

std::string declared_body() {
    std::string body;
    for (int i = 1; i <= 8; ++i) {
        body += paragraph(i) + (i < 8 ? "\\n" : "");
    }
    return body;
}

// A news page declaring its whole report in JSON-LD, its DOM showing `shown`.
std::string news_page(std::string_view shown) {
    return "<html><head><title>Harbour report</title><script type=\"application/ld+json\">"
           "{\"@context\":\"https://schema.org\",\"@type\":\"NewsArticle\",\"headline\":\"Harbour report\","
           "\"articleBody\":\"" + declared_body() + "\"}</script></head><body><nav><a href=\"/\">Home</a> "
           "<a href=\"/news\">News</a></nav>" + std::string(shown) + "<footer>Copyright line</footer></body></html>";
}

std::string shown_paragraphs(int count) {
    std::string html = "<article><h1>Harbour report</h1>";
    for (int i = 1; i <= count; ++i) {
        html += "<p>" + paragraph(i) + (i == 2 ? " <a href=\"/silt\">The silt survey</a>." : "") + "</p>";
    }
    return html + "</article>";
}

TEST(DeclaredBody, APaywalledArticleIsTakenWholeFromItsJsonLd) {
    const std::string page = news_page(shown_paragraphs(1) +
                                       "<div class=\"paywall\"><h2>Subscribe to read on</h2><p>Your first month "
                                       "costs one euro.</p><a href=\"/subscribe\">Subscribe</a></div>");
    const Article article = extract(page);
    ASSERT_EQ(article.status, Status::ok);
    EXPECT_NE(article.text_content.find(paragraph(8)), std::string::npos) << article.text_content;
    EXPECT_EQ(article.text_content.find("Subscribe"), std::string::npos) << article.text_content;
    EXPECT_NE(article.content.find("<p>" + paragraph(3) + "</p>"), std::string::npos) << article.content;
    EXPECT_NE(article.decision.find("the article body its JSON-LD declares was taken"), std::string::npos)
        << article.decision;
    // readability keeps what Readability.js finds.
    ExtractOptions readability;
    readability.strategy = Strategy::readability;
    EXPECT_EQ(extract(page, readability).text_content.find(paragraph(8)), std::string::npos);
}

TEST(DeclaredBody, AnArticleTheDomShowsWholeKeepsItsMarkup) {
    const Article article = extract(news_page(shown_paragraphs(8)));
    ASSERT_EQ(article.status, Status::ok);
    EXPECT_NE(article.text_content.find(paragraph(8)), std::string::npos);
    EXPECT_NE(article.content.find("href=\"/silt\""), std::string::npos) << article.content;
    EXPECT_EQ(article.decision.find("JSON-LD declares"), std::string::npos) << article.decision;
}

TEST(DeclaredBody, AScriptsEmptyShellGetsTheDeclaredBody) {
    const Article shell = extract(news_page("<div id=\"root\"></div>"));
    ASSERT_EQ(shell.status, Status::ok);
    EXPECT_NE(shell.text_content.find(paragraph(1)), std::string::npos) << shell.text_content;
    // A declared body under the passes' threshold is no article either.
    const std::string teaser = "<html><head><script type=\"application/ld+json\">{\"@type\":\"NewsArticle\","
                               "\"articleBody\":\"Read the harbour report.\"}</script></head><body><div "
                               "id=\"root\"></div></body></html>";
    EXPECT_EQ(extract(teaser).status, Status::no_content);
}

}  // namespace
}  // namespace pith::extract
