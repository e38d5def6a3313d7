// The next page's link and the pagination of one page (pages/links.cpp).
#include "pages/links.hpp"

#include <gtest/gtest.h>

#include <string>

#include "parse_or_fail.hpp"

namespace pith::extract {
namespace {

constexpr std::string_view kPage = "https://news.example/world/story";

// The page's <div id="c">, the article the tests trim.
dom::Node* article_of(const dom::Document& doc) { return doc.body()->first_element_child(); }

PageLinks links_of(std::string_view body, std::string_view page_url = kPage) {
    const dom::Document doc = test::parse_or_fail("<html><head></head><body>" + std::string(body) + "</body></html>");
    return find_page_links(doc.document_element(), page_url, page_url, std::nullopt);
}

TEST(PagedUrl, ReadsThePageNumberFromThePathOrTheQuery) {
    EXPECT_EQ(paged_url("https://a.example/story/2").article, "/story");
    EXPECT_EQ(paged_url("https://a.example/story/2").number, 2U);
    EXPECT_EQ(paged_url("https://a.example/story/page/3/").article, "/story");
    EXPECT_EQ(paged_url("https://a.example/story/page/3/").number, 3U);
    EXPECT_EQ(paged_url("https://a.example/story-2.html").article, "/story.html");
    EXPECT_EQ(paged_url("https://a.example/story_page_4.html").number, 4U);
    EXPECT_EQ(paged_url("https://www.a.example/read?id=5&page=2#top").article, "/read?id=5");
    EXPECT_EQ(paged_url("https://a.example/read?id=5&page=2").number, 2U);
    EXPECT_EQ(paged_url("http://a.example/story").number, 1U);
}

TEST(PagedUrl, ALongNumberAtTheEndIsAnIdNotAPage) {
    EXPECT_EQ(paged_url("https://a.example/news/12345").article, "/news/12345");
    EXPECT_EQ(paged_url("https://a.example/news/12345").number, 1U);
    EXPECT_EQ(paged_url("https://a.example/news/item-2024").number, 1U);
}

TEST(PagesOfSameArticle, AnArticleWhoseNameEndsInANumberStillHasPages) {
    const auto pair = pages_of_same_article("https://a.example/news/model-12", "https://a.example/news/model-12-2");
    ASSERT_TRUE(pair);
    EXPECT_EQ(pair->here, 1U);
    EXPECT_EQ(pair->there, 2U);
    EXPECT_FALSE(pages_of_same_article("https://a.example/news/one", "https://a.example/news/two"));
}

TEST(FindPageLinks, RelNextToAPageOfTheArticle) {
    const PageLinks links = links_of("<link rel=\"next\" href=\"/world/story?page=2\"><p>text</p>");
    ASSERT_TRUE(links.next);
    EXPECT_EQ(*links.next, "https://news.example/world/story?page=2");
    EXPECT_EQ(links.next_via, "rel=next");
}

TEST(FindPageLinks, RelNextToAnotherArticleIsNotAPage) {
    // Some blog engines mark the next post rel=next.
    const PageLinks links = links_of("<link rel=\"next\" href=\"/world/another-story\"><p>text</p>");
    EXPECT_FALSE(links.next);
}

TEST(FindPageLinks, ANextLinkInAnyOfTheCommonWords) {
    for (const std::string_view words : {"Next \xC2\xBB", "next page", "Weiter", "Suivant \xE2\x80\xBA", "\xC2\xBB"}) {
        const PageLinks links = links_of("<p><a href=\"/world/story/2\">" + std::string(words) + "</a></p>");
        ASSERT_TRUE(links.next) << words;
        EXPECT_EQ(links.next_via, "next link") << words;
    }
}

TEST(FindPageLinks, NextArticleIsNotTheNextPage) {
    const PageLinks links = links_of("<p><a href=\"/world/other-story\">Next article \xC2\xBB</a></p>"
                                     "<p><a href=\"/world/other-story\">Next</a></p>");
    EXPECT_FALSE(links.next);
}

TEST(FindPageLinks, TheNumberAfterThisPage) {
    const PageLinks links = links_of("<div class=\"pages\"><span>1</span> <a href=\"/world/story/3\">3</a> "
                                     "<a href=\"/world/story/2\">2</a></div>");
    ASSERT_TRUE(links.next);
    EXPECT_EQ(*links.next, "https://news.example/world/story/2");
    EXPECT_EQ(links.next_via, "pagination");
    // From page 2, page 3.
    const PageLinks from_two = links_of("<div><a href=\"/world/story\">1</a> <a href=\"/world/story/3\">3</a></div>",
                                        "https://news.example/world/story/2");
    ASSERT_TRUE(from_two.next);
    EXPECT_EQ(*from_two.next, "https://news.example/world/story/3");
}

TEST(FindPageLinks, TheCommentsPagesAreNotTheArticles) {
    const PageLinks links =
        links_of("<div id=\"comments\"><a href=\"/world/story?page=2\">Next</a> <a href=\"/world/story?page=2\">2</a></div>");
    EXPECT_FALSE(links.next);
}

TEST(FindPageLinks, AnEarlierPageIsNotNext) {
    const PageLinks links = links_of("<a href=\"/world/story\">Next</a>", "https://news.example/world/story/2");
    EXPECT_FALSE(links.next);
}

TEST(TrimPage, PaginationAndRepeatedEndsGoTheMiddleStays) {
    dom::Document doc = test::parse_or_fail(
        "<html><body><div id=\"c\"><h2>The story</h2><p>By Jane Doe</p><p>Part two, its own words.</p>"
        "<p>By Jane Doe</p><p>More of part two.</p><p>Share this story</p>"
        "<div class=\"pages\"><a href=\"/world/story\">1</a> <span>2</span> "
        "<a href=\"/world/story/3\">Next \xC2\xBB</a></div></div></body></html>");
    dom::Node* content = article_of(doc);
    ASSERT_NE(content, nullptr);
    BlockPrints earlier;
    {
        dom::Document first = test::parse_or_fail(
            "<html><body><div id=\"c\"><h2>The story</h2><p>By Jane Doe</p><p>Part one.</p>"
            "<p>Share this story</p></div></body></html>");
        const TrimmedPage one = trim_page(article_of(first), kPage, kPage, {});
        earlier.insert(one.prints.begin(), one.prints.end());
        EXPECT_EQ(one.repeats_dropped, 0U);
    }
    const TrimmedPage two = trim_page(content, "https://news.example/world/story/2",
                                      "https://news.example/world/story/2", earlier);
    EXPECT_EQ(two.pagination_dropped, 1U);
    EXPECT_EQ(two.repeats_dropped, 3U);  // the headline and the byline before, the share line after
    EXPECT_EQ(dom::text_content(content), "Part two, its own words.By Jane DoeMore of part two.");
}

}  // namespace
}  // namespace pith::extract
