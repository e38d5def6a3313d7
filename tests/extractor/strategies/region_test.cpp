#include <gtest/gtest.h>

#include <string>

#include "dom/inner_text.hpp"
#include "parse_or_fail.hpp"
#include "pith/options.hpp"
#include "strategies/strategy.hpp"

namespace pith::extract {
namespace {

std::string card(int i) {
    return "<div class=\"card\"><h3><a href=\"/item/" + std::to_string(i) + "\">Item number " + std::to_string(i) +
           "</a></h3><p>A short description of item " + std::to_string(i) +
           ", long enough to read as a sentence of its own.</p></div>";
}

std::string cards(int n) {
    std::string out;
    for (int i = 1; i <= n; ++i) {
        out += card(i);
    }
    return out;
}

StrategyResult region_of(dom::Document& doc) {
    ExtractOptions options;
    PassInput input;
    input.flags = PassFlags::none;
    return run_region(doc, options, input);
}

TEST(Region, KeepsEveryCardOfTheMainElementWithoutThePagesFurniture) {
    dom::Document doc = test::parse_or_fail(
        "<html><body><header><a href=\"/\">Site name</a></header><nav><a href=\"/a\">Menu entry</a></nav>"
        "<main><h1>All items</h1>" + cards(12) +
        "<form><label>Sort by</label><select><option>Price</option></select><button>Apply</button></form>"
        "<div hidden>Hidden notice</div><aside>Sidebar box</aside></main>"
        "<footer>Copyright line</footer></body></html>");
    const StrategyResult result = region_of(doc);
    ASSERT_NE(result.content, nullptr);
    EXPECT_EQ(result.diagnostics.outcome, "accepted");
    EXPECT_NE(result.diagnostics.chosen_root.find("main"), std::string::npos) << result.diagnostics.chosen_root;
    const std::string text = dom::inner_text(result.content);
    for (int i = 1; i <= 12; ++i) {
        EXPECT_NE(text.find("Item number " + std::to_string(i) + "A short description of item " + std::to_string(i) + ","),
                  std::string::npos)
            << i;
    }
    for (const char* furniture : {"Site name", "Menu entry", "Sort by", "Price", "Apply", "Hidden notice",
                                  "Sidebar box", "Copyright line"}) {
        EXPECT_EQ(text.find(furniture), std::string::npos) << furniture;
    }
}

TEST(Region, TakesTheBodyWhenTheMainElementHoldsLittleOfTheText) {
    dom::Document doc = test::parse_or_fail("<html><body><main><p>A short lead.</p></main><div>" + cards(10) +
                                            "</div><footer>Copyright line</footer></body></html>");
    const StrategyResult result = region_of(doc);
    ASSERT_NE(result.content, nullptr);
    EXPECT_EQ(result.diagnostics.chosen_root, "html>body");
    const std::string text = dom::inner_text(result.content);
    EXPECT_NE(text.find("A short lead."), std::string::npos);
    EXPECT_NE(text.find("Item number 10"), std::string::npos);
    EXPECT_EQ(text.find("Copyright line"), std::string::npos);
}

TEST(Region, HonoursTheAriaRolesOfThePagesParts) {
    dom::Document doc = test::parse_or_fail(
        "<html><body><div role=\"banner\">Banner text</div><div role=\"navigation\">Navigation text</div>"
        "<div role=\"main\">" + cards(8) + "</div><div role=\"contentinfo\">Footer text</div>"
        "<div role=\"dialog\">Cookie dialog</div></body></html>");
    const StrategyResult result = region_of(doc);
    ASSERT_NE(result.content, nullptr);
    const std::string text = dom::inner_text(result.content);
    EXPECT_NE(text.find("Item number 8"), std::string::npos);
    for (const char* furniture : {"Banner text", "Navigation text", "Footer text", "Cookie dialog"}) {
        EXPECT_EQ(text.find(furniture), std::string::npos) << furniture;
    }
}

TEST(Region, KeepsTheHeadersOfArticlesAndSectionsButNotThePages) {
    std::string items;
    for (int i = 1; i <= 6; ++i) {
        const std::string n = std::to_string(i);
        items += "<article><header><h2><a href=\"/story/" + n + "\">Headline " + n + "</a></h2>"
                 "<p>The summary of story " + n + ", a sentence or two long.</p></header>"
                 "</article>";
    }
    dom::Document doc = test::parse_or_fail(
        "<html><body><main><header>Page banner</header><section><header><h1>Latest stories</h1></header>" + items +
        "</section></main></body></html>");
    const StrategyResult result = region_of(doc);
    ASSERT_NE(result.content, nullptr);
    const std::string text = dom::inner_text(result.content);
    EXPECT_NE(text.find("Latest stories"), std::string::npos) << text;
    for (int i = 1; i <= 6; ++i) {
        const std::string n = std::to_string(i);
        EXPECT_NE(text.find("Headline " + n), std::string::npos) << i;
        EXPECT_NE(text.find("The summary of story " + n), std::string::npos) << i;
    }
    EXPECT_EQ(text.find("Page banner"), std::string::npos);
}

TEST(Region, AHiddenHeaderInsideAnArticleIsStillFurniture) {
    dom::Document doc = test::parse_or_fail("<html><body><main><article><header hidden>Hidden heading</header>" +
                                            cards(6) + "</article></main></body></html>");
    const StrategyResult result = region_of(doc);
    ASSERT_NE(result.content, nullptr);
    const std::string text = dom::inner_text(result.content);
    EXPECT_NE(text.find("Item number 6"), std::string::npos);
    EXPECT_EQ(text.find("Hidden heading"), std::string::npos);
}

TEST(Region, APageWithNothingButFurnitureHasNoContent) {
    dom::Document doc =
        test::parse_or_fail("<html><body><nav><a href=\"/\">Home</a></nav><footer>Copyright</footer></body></html>");
    const StrategyResult result = region_of(doc);
    EXPECT_EQ(result.content, nullptr);
    EXPECT_EQ(result.diagnostics.outcome, "no_content");
    EXPECT_FALSE(result.reason.empty());
}

}  // namespace
}  // namespace pith::extract
