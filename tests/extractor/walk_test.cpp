// An article read over its pages (walk.cpp), its pages given from memory.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "pith/pages.hpp"

namespace pith::extract {
namespace {

std::string part(int number) {
    std::string paragraphs;
    for (int p = 0; p < 3; ++p) {
        paragraphs += "<p>Part " + std::to_string(number) + " paragraph " + std::to_string(p) +
                      ": the river ran past the old mill, and the miller counted the sacks of grain one by one "
                      "while the light faded over the meadow and the first stars came out above the hill.</p>";
    }
    return paragraphs;
}

std::string page(int number, std::string_view head) {
    return "<html><head><title>A long story</title>" + std::string(head) +
           "</head><body><article><h1>A long story</h1><p>Share this story with your friends today.</p>" +
           part(number) + "</article></body></html>";
}

// Walks from `first` over `site`; the URLs it asked for in `asked`.
Article walk(const std::map<std::string, std::string>& site, const std::string& first, std::size_t max_pages,
             std::vector<std::string>& asked) {
    ExtractOptions options;
    options.input.url = first;
    options.pages.max_pages = max_pages;
    options.render.markdown = true;
    ArticleWalk walker(options);
    std::optional<std::string> next = walker.add_page(site.at(first), first);
    while (next) {
        asked.push_back(*next);
        const auto found = site.find(*next);
        if (found == site.end()) {
            walker.stop("fetch_failed", "404");
            break;
        }
        next = walker.add_page(found->second, *next);
    }
    return walker.finish();
}

const std::map<std::string, std::string> kSite = {
    {"https://a.example/story", page(1, "<link rel=next href=\"/story?page=2\">")},
    {"https://a.example/story?page=2", page(2, "<link rel=next href=\"/story?page=3\">")},
    {"https://a.example/story?page=3", page(3, "<link rel=next href=\"https://b.example/story?page=4\">")},
};

TEST(ArticleWalk, JoinsThePagesInOrderWithoutWhatRepeats) {
    std::vector<std::string> asked;
    const Article article = walk(kSite, "https://a.example/story", 10, asked);
    ASSERT_TRUE(article.pages);
    ASSERT_EQ(article.pages->pages.size(), 3U);
    EXPECT_EQ(article.pages->stopped, "other_host");
    EXPECT_EQ(article.pages->detail, "https://b.example/story?page=4");
    EXPECT_EQ(asked.size(), 2U);  // never the other host
    const std::string& text = article.text_content;
    const std::size_t one = text.find("Part 1 paragraph 0");
    const std::size_t two = text.find("Part 2 paragraph 0");
    const std::size_t three = text.find("Part 3 paragraph 2");
    ASSERT_NE(three, std::string::npos);
    EXPECT_LT(one, two);
    EXPECT_LT(two, three);
    std::size_t shares = 0;
    for (std::size_t at = text.find("Share this story"); at != std::string::npos; at = text.find("Share this story", at + 1)) {
        ++shares;
    }
    EXPECT_EQ(shares, 1U);  // page 1's, not repeated by pages 2 and 3
    EXPECT_NE(article.content.find("id=\"readability-page-3\""), std::string::npos);
    ASSERT_TRUE(article.markdown);
    EXPECT_NE(article.markdown->find("Part 3 paragraph 2"), std::string::npos);
    EXPECT_EQ(article.pages->pages[1].via, "rel=next");
    EXPECT_GT(article.pages->pages[1].repeats_dropped, 0U);
}

TEST(ArticleWalk, MaxPagesHolds) {
    std::vector<std::string> asked;
    const Article article = walk(kSite, "https://a.example/story", 2, asked);
    ASSERT_TRUE(article.pages);
    EXPECT_EQ(article.pages->pages.size(), 2U);
    EXPECT_EQ(article.pages->stopped, "max_pages");
    EXPECT_EQ(article.text_content.find("Part 3"), std::string::npos);
}

TEST(ArticleWalk, ALoopStopsAtThePageAlreadyRead) {
    const std::map<std::string, std::string> site = {
        {"https://a.example/loop", page(1, "<link rel=next href=\"/loop/2\">")},
        {"https://a.example/loop/2", page(2, "<link rel=next href=\"/loop\">")},
    };
    std::vector<std::string> asked;
    const Article article = walk(site, "https://a.example/loop", 10, asked);
    ASSERT_TRUE(article.pages);
    EXPECT_EQ(article.pages->stopped, "loop");
    EXPECT_EQ(asked.size(), 1U);
}

TEST(ArticleWalk, AFailedFetchKeepsThePagesRead) {
    const std::map<std::string, std::string> site = {
        {"https://a.example/gone", page(1, "<link rel=next href=\"/gone/2\">")},
    };
    std::vector<std::string> asked;
    const Article article = walk(site, "https://a.example/gone", 10, asked);
    ASSERT_TRUE(article.pages);
    EXPECT_EQ(article.pages->stopped, "fetch_failed");
    EXPECT_EQ(article.pages->detail, "https://a.example/gone/2: 404");
    EXPECT_NE(article.text_content.find("Part 1 paragraph 2"), std::string::npos);
    EXPECT_EQ(article.status, Status::ok);
}

}  // namespace
}  // namespace pith::extract
