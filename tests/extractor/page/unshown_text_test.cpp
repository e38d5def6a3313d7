// Text the reader never sees (page/prep.hpp's drop_unshown_text): screen-reader
// classes and utility classes that hide an element at every width leave every
// strategy's article but readability's.
#include <gtest/gtest.h>

#include <string>

#include "pith/extract.hpp"
#include "survey_prose.hpp"

namespace pith::extract {
namespace {

std::string page(const std::string& inside_article) {
    return "<html><head><title>Deltas</title></head><body><article><h1>Deltas</h1>" +
           test::survey_paragraphs(6, "delta") + inside_article + test::survey_paragraphs(2, "estuary") +
           "</article></body></html>";
}

std::string text_of(const std::string& html, Strategy strategy = Strategy::automatic) {
    ExtractOptions options;
    options.strategy = strategy;
    const Article article = extract(html, options);
    EXPECT_EQ(article.status, Status::ok);
    return article.text_content;
}

bool has(const std::string& text, const std::string& words) { return text.find(words) != std::string::npos; }

std::string with_class(const std::string& tag, const std::string& cls, const std::string& inner) {
    return "<" + tag + " class=\"" + cls + "\">" + inner + "</" + tag + ">";
}

TEST(UnshownText, ScreenReaderTextLeavesTheArticle) {
    for (const std::string cls : {"sr-only", "visually-hidden", "screen-reader-text", "visuallyhidden",
                                  "price-label Visually-Hidden"}) {
        const std::string html = page("<p>The tide table costs " + with_class("span", cls, "Regular price spoken aloud") +
                                      " twelve pounds a copy, and the delta survey sells it, with every chart, from "
                                      "the harbour office.</p>");
        const std::string text = text_of(html);
        EXPECT_FALSE(has(text, "Regular price spoken aloud")) << cls;
        EXPECT_TRUE(has(text, "twelve pounds a copy")) << cls;
        EXPECT_TRUE(has(text_of(html, Strategy::fitness), "twelve pounds")) << cls;
    }
}

TEST(UnshownText, AnIconsTooltipIsNoWord) {
    const std::string icon = "<svg viewBox=\"0 0 10 10\"><title>Facebook</title><desc>A blue square logo</desc>"
                             "<path d=\"M0 0h10v10z\"/><text x=\"1\" y=\"9\">drawn label</text></svg>";
    const std::string html = page("<p>The survey shares its charts " + icon +
                                  " with every harbour office, and the delta's pilots read them each morning before "
                                  "the tide turns.</p>");
    const std::string text = text_of(html);
    EXPECT_FALSE(has(text, "Facebook"));
    EXPECT_FALSE(has(text, "blue square logo"));
    EXPECT_TRUE(has(text, "drawn label")) << "an SVG's <text> is drawn";
    EXPECT_TRUE(has(text, "with every harbour office"));
    EXPECT_TRUE(has(text_of(html, Strategy::readability), "Facebook"));
}

TEST(UnshownText, ReadabilityKeepsIt) {
    const std::string html = page("<p>The tide table costs <span class=\"sr-only\">Regular price spoken aloud</span>"
                                  " twelve pounds a copy, and the delta survey sells it from the harbour office.</p>");
    EXPECT_TRUE(has(text_of(html, Strategy::readability), "Regular price spoken aloud"));
}

TEST(UnshownText, AnElementHiddenAtEveryWidthLeavesTheArticle) {
    for (const std::string cls : {"hidden", "d-none", "is-hidden", "hide", "notice hidden"}) {
        const std::string html = page(with_class("div", cls, "<p>Oops, something went wrong with the signup form.</p>"));
        EXPECT_FALSE(has(text_of(html), "something went wrong")) << cls;
    }
}

// "hidden md:block" hides the element on phones and shows it on wider screens.
TEST(UnshownText, AnElementShownAtSomeWidthStays) {
    for (const std::string cls : {"hidden md:block", "hidden m:block", "d-none d-lg-flex", "hide show@medium",
                                  "hidden visible-md"}) {
        const std::string html = page(with_class("div", cls,
                                                 "<p>The delta's western arm floods each spring, and the survey "
                                                 "mapped every channel it cut, year after year, in its wide plates.</p>"));
        EXPECT_TRUE(has(text_of(html), "western arm floods")) << cls;
    }
}

// A tab's other panels are hidden until chosen; a sibling of the same tag and
// classes is shown, so they are the page's content.
TEST(UnshownText, AHiddenTabPanelBesideAShownOneStays) {
    const std::string html =
        page("<div class=\"tabs\"><div class=\"panel\"><p>The first tab describes the delta's northern shore, its "
             "dunes, marshes and the villages on them.</p></div><div class=\"panel hidden\"><p>The second tab "
             "describes the southern shore, its cliffs and the lighthouse above the harbour.</p></div></div>");
    const std::string text = text_of(html);
    EXPECT_TRUE(has(text, "northern shore"));
    EXPECT_TRUE(has(text, "southern shore"));
}

// A page a script shows once loaded hides its whole content by class.
TEST(UnshownText, AHiddenWrapperHoldingThePageStays) {
    const std::string html = "<html><head><title>Deltas</title></head><body><div class=\"root hide\"><article>"
                             "<h1>Deltas</h1>" + test::survey_paragraphs(8, "delta") + "</article></div></body></html>";
    EXPECT_TRUE(has(text_of(html), "The delta survey went on for years"));
}

// A chain of nested hidden wrappers each holding all the text: a few are
// measured, the rest kept unmeasured, and the article comes back.
TEST(UnshownText, ADeepChainOfHiddenWrappersCostsAFewWalks) {
    constexpr int kDepth = 2000;
    const std::string html = "<html><body>" +
                             test::nested_in("<div class=\"hidden\">", "</div>", kDepth, test::survey_paragraphs(8, "delta")) +
                             "</body></html>";
    ExtractOptions options;
    const Article article = extract(html, options);
    EXPECT_FALSE(article.error.has_value());
    EXPECT_TRUE(has(article.text_content, "delta survey"));
}

}  // namespace
}  // namespace pith::extract
