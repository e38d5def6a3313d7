#include "strategies/blocks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "dom/inner_text.hpp"
#include "feature_named.hpp"
#include "parse_or_fail.hpp"

namespace pith::extract {
namespace {

double feature(const RegionBlock& block, std::string_view name) {
    return test::feature_named(block.features, block_feature_names(), name);
}

std::array<double, kPageTypeCount> an_article() {
    std::array<double, kPageTypeCount> p{};
    p[static_cast<std::size_t>(PageType::article)] = 1.0;
    return p;
}

TEST(RegionBlocks, EachTextBelongsToItsNearestBlockInDocumentOrder) {
    dom::Document doc = test::parse_or_fail(
        "<div id=r><h2>Title <em>here</em></h2><p>First <a href=/x>linked</a> words.</p>"
        "<ul><li>one</li><li><span>two</span></li></ul><div>loose text<p>inner paragraph</p></div></div>");
    dom::Node* region = doc.body()->first_child;
    const std::vector<RegionBlock> blocks = region_blocks(region, an_article());
    std::vector<std::string> texts;
    for (const RegionBlock& b : blocks) {
        texts.push_back(block_text(b));
    }
    // A block's text nodes are joined by a space, each with its own spaces.
    EXPECT_EQ(texts, (std::vector<std::string>{"Title  here", "First  linked  words.", "one", "two", "loose text",
                                               "inner paragraph"}));
    EXPECT_EQ(feature(blocks[0], "tag_major_heading"), 1.0);
    EXPECT_EQ(feature(blocks[1], "tag_paragraph"), 1.0);
    EXPECT_EQ(feature(blocks[2], "tag_list_item"), 1.0);
    EXPECT_EQ(feature(blocks[2], "in_list"), 1.0);
    EXPECT_EQ(feature(blocks[4], "tag_other"), 1.0);
    EXPECT_EQ(feature(blocks[0], "p_article"), 1.0);
}

TEST(RegionBlocks, LinksPositionAndNamesAreMeasured) {
    dom::Document doc = test::parse_or_fail(
        "<div id=r><div class=\"pagination\"><a href=/1>1</a> <a href=/2>2</a></div>"
        "<div class=\"post-content\"><p>A sentence that ends.</p></div></div>");
    const std::vector<RegionBlock> blocks = region_blocks(doc.body()->first_child, an_article());
    ASSERT_EQ(blocks.size(), 2U);
    EXPECT_EQ(feature(blocks[0], "link_share"), 1.0);
    EXPECT_EQ(feature(blocks[0], "named_chrome"), 1.0);
    EXPECT_EQ(feature(blocks[0], "position"), 0.0);
    EXPECT_EQ(feature(blocks[1], "link_share"), 0.0);
    EXPECT_EQ(feature(blocks[1], "named_content"), 1.0);
    EXPECT_EQ(feature(blocks[1], "named_chrome"), 0.0);
    EXPECT_EQ(feature(blocks[1], "ends_sentence"), 1.0);
    EXPECT_GT(feature(blocks[1], "position"), 0.0);
}

TEST(RegionBlocks, RepeatedSiblingsAreCounted) {
    std::string cards;
    for (int i = 0; i < 5; ++i) {
        cards += "<div class=\"card\"><h3>Card " + std::to_string(i) + "</h3><p>Price $" + std::to_string(i) +
                 "</p></div>";
    }
    dom::Document doc = test::parse_or_fail("<div id=r><p>Intro text.</p>" + cards + "</div>");
    const std::vector<RegionBlock> blocks = region_blocks(doc.body()->first_child, an_article());
    ASSERT_EQ(blocks.size(), 11U);
    EXPECT_EQ(feature(blocks[0], "repeat_log"), 0.0);
    EXPECT_NEAR(feature(blocks[1], "repeat_log"), std::log1p(5.0), 1e-9);  // the card is one level up
    EXPECT_EQ(feature(blocks[1], "repeat_levels_up"), 1.0);
    EXPECT_EQ(feature(blocks[2], "has_currency"), 1.0);
}

std::optional<float> cut_of(std::vector<float> probability, std::vector<float> words) {
    return expected_f1_cut(probability, words);
}

TEST(PruneBlocks, TheCutIsWhereTheExpectedWordF1IsHighest) {
    // 18 words expected: keeping one block expects 2*9/(10+18) = 0.64, two
    // 2*17/(20+18) = 0.89, all three 2*18/(30+18) = 0.75.
    EXPECT_EQ(cut_of({0.1F, 0.9F, 0.8F}, {10, 10, 10}), 0.8F);
    // The cut is the page's own: a block at 0.4 stays where nothing is surer,
    // and goes beside a long block the model is sure of.
    EXPECT_EQ(cut_of({0.4F, 0.4F}, {10, 10}), 0.4F);
    EXPECT_EQ(cut_of({0.4F, 0.95F}, {10, 50}), 0.95F);
    // Blocks of equal probability fall on the same side.
    EXPECT_EQ(cut_of({0.3F, 0.9F, 0.3F, 0.3F}, {1, 100, 1, 1}), 0.9F);
    EXPECT_FALSE(cut_of({0.0F, 0.0F}, {5, 5}).has_value());
    EXPECT_FALSE(cut_of({}, {}).has_value());
}

// A forum thread in a page's chrome: the model keeps the posts and drops the
// pagination, the share bar and the link lists around them.
TEST(PruneBlocks, KeepsThePostsAndDropsTheChrome) {
    std::string posts;
    for (int i = 1; i <= 6; ++i) {
        posts += "<div class=\"post\"><div class=\"author\">member" + std::to_string(i) +
                 "</div><div class=\"message\"><p>I tried what you suggested in the earlier reply and the problem "
                 "went away after a restart, so thank you for the detailed explanation of the settings.</p></div>"
                 "</div>";
    }
    std::string links;
    for (int i = 1; i <= 12; ++i) {
        links += "<li><a href=\"/t/" + std::to_string(i) + "\">Other topic " + std::to_string(i) + "</a></li>";
    }
    dom::Document doc = test::parse_or_fail(
        "<div id=r><div class=\"breadcrumb\"><a href=/>Home</a> <a href=/f>Forum</a></div>"
        "<h1>Why does the device restart itself</h1>" + posts +
        "<div class=\"pagination\"><a href=/p/1>1</a> <a href=/p/2>2</a> <a href=/p/3>Next</a></div>"
        "<div class=\"share\"><a href=/s/1>Share on one</a> <a href=/s/2>Share on two</a></div>"
        "<div class=\"related\"><h3>Similar topics</h3><ul>" + links + "</ul></div></div>");
    dom::Node* region = doc.body()->first_child;
    std::array<double, kPageTypeCount> forum{};
    forum[static_cast<std::size_t>(PageType::forum)] = 1.0;
    prune_blocks(region, forum, -1);
    const std::string text = dom::inner_text(region);
    for (int i = 1; i <= 6; ++i) {
        EXPECT_NE(text.find("member" + std::to_string(i)), std::string::npos) << text;
    }
    EXPECT_EQ(std::count(text.begin(), text.end(), '.') >= 6, true) << text;
    EXPECT_EQ(text.find("Other topic 7"), std::string::npos) << text;
    EXPECT_EQ(text.find("Share on"), std::string::npos) << text;
}

// A region of a sidebar menu of 20 linked categories, then an article's
// prose paragraph and `more` after it.
std::string menu_and_article(const std::string& more) {
    std::string links;
    for (int i = 1; i <= 20; ++i) {
        links += "<li><a href=\"/c/" + std::to_string(i) + "\">Category " + std::to_string(i) + "</a></li>";
    }
    return "<div id=r><ul class=\"sidebar-menu\">" + links +
           "</ul><div class=\"entry-content\"><p>The article's one paragraph, long enough to be read as prose by "
           "anyone who looks at it, with a second clause that ends the sentence.</p>" + more + "</div></div>";
}

TEST(PruneBlocks, AnElementLeftWithoutTextGoesWhole) {
    dom::Document doc = test::parse_or_fail(menu_and_article("<p>And a second paragraph that goes on with the story "
                                                             "for a while before it ends.</p>"));
    dom::Node* region = doc.body()->first_child;
    const PrunePlan plan = furniture_blocks(region, an_article(), -1);
    ASSERT_FALSE(plan.remove.empty());
    EXPECT_TRUE(plan.remove.front()->is(dom::Tag::ul)) << plan.remove.front()->name;
    // The 20 list items repeat; the first paragraph is prose, the second is
    // under 100 bytes.
    EXPECT_GT(plan.repeated_share, plan.prose_share);
    EXPECT_GT(plan.prose_share, 0.0);
    EXPECT_LT(plan.repeated_share + plan.prose_share, 1.0);
    prune_blocks(region, an_article(), -1);
    EXPECT_EQ(region->first_element_child()->attr("class"), "entry-content");
}

// What the model reads of each text, for auto's judge: every text of the
// region once, by its data's address, the menu's items less likely content
// than the article's prose, and the weighed bytes their sum.
TEST(PruneBlocks, EveryTextHasItsBlocksProbability) {
    dom::Document doc = test::parse_or_fail(menu_and_article(""));
    dom::Node* region = doc.body()->first_child;
    const PrunePlan plan = furniture_blocks(region, an_article(), -1);
    ASSERT_EQ(plan.text_probabilities.size(), 21U);
    EXPECT_TRUE(std::is_sorted(plan.text_probabilities.begin(), plan.text_probabilities.end()));
    const auto probability_of = [&](const dom::Node* text) {
        const auto it = std::lower_bound(plan.text_probabilities.begin(), plan.text_probabilities.end(),
                                         std::pair<const char*, float>{text->data.data(), -1.0F});
        EXPECT_NE(it, plan.text_probabilities.end());
        EXPECT_EQ(it->first, text->data.data());
        return static_cast<double>(it->second);
    };
    double weighed = 0.0;
    double menu = 0.0;   // the menu item most likely content
    double prose = 0.0;
    for (const dom::Node* n = region; n != nullptr; n = dom::next_node(n, region)) {
        if (n->is_text()) {
            const double p = probability_of(n);
            EXPECT_GE(p, 0.0);
            EXPECT_LE(p, 1.0);
            weighed += p * static_cast<double>(n->data.size());
            double& most = n->parent->is(dom::Tag::p) ? prose : menu;
            most = std::max(most, p);
        }
    }
    EXPECT_NEAR(plan.content_bytes, weighed, 1e-3);
    EXPECT_GT(prose, menu);
}

std::array<double, kPageTypeCount> a_grid() {
    std::array<double, kPageTypeCount> p{};
    p[static_cast<std::size_t>(PageType::collection)] = 0.3;
    p[static_cast<std::size_t>(PageType::listing)] = 0.3;
    p[static_cast<std::size_t>(PageType::article)] = 0.4;
    return p;
}

// A shop's grid: a heading, then cards whose name is a link, with a price.
std::string shop_grid(int cards) {
    std::string out = "<div id=r><h1>Kettles</h1><ul class=\"products\">";
    for (int i = 1; i <= cards; ++i) {
        out += "<li class=\"product-card\"><a href=\"/p/" + std::to_string(i) + "\">Stovetop kettle model " +
               std::to_string(i) + "</a><span class=\"price\">$" + std::to_string(20 + i) + ".00</span></li>";
    }
    return out + "</ul></div>";
}

// On a page the classifier reads as a grid (collection and listing 0.6
// together), the cut never takes more than half of the region's text: past
// that, it would be taking the cards.
TEST(PruneBlocks, OnAGridTheCutTakesAtMostHalfTheText) {
    for (const int cards : {3, 12, 40}) {
        dom::Document doc = test::parse_or_fail(shop_grid(cards));
        dom::Node* region = doc.body()->first_child;
        const std::size_t before = dom::inner_text(region).size();
        prune_blocks(region, a_grid(), -1);
        EXPECT_GE(2 * dom::inner_text(region).size(), before) << cards;
    }
}

}  // namespace
}  // namespace pith::extract
