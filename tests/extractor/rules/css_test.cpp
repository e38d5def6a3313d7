// CSS selectors as XPath: each translation is run on a page, so the test says
// what it selects, as a browser's querySelectorAll would.
#include "rules/css.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dom/inner_text.hpp"
#include "parse_or_fail.hpp"
#include "rules/xpath.hpp"

namespace {

using pith::rules::css_to_xpath;
using Strings = std::vector<std::string>;

const char* const kPage =
    "<html><head><title>T</title></head><body>"
    "<div id=\"main\" class=\"post entry-content\" lang=\"en-GB\"><h1 class=\"title\">  How  deltas grow </h1>"
    "<p class=\"byline\">By Ada Lindqvist</p><p>First paragraph.</p><p>Second paragraph.</p>"
    "<div class=\"share-bar\"><a href=\"/x\">Share</a></div><p>Last paragraph.</p><span></span></div>"
    "<div id=\"sidebar\"><ul><li>One</li><li>Two</li></ul><ol><li>Only</li></ol></div></body></html>";

class Css : public ::testing::Test {
protected:
    Css() : doc_(pith::test::parse_or_fail(kPage)), mirror_(doc_.document_element()) {}

    // The inner text of each element `selector` selects, in document order.
    Strings css(const std::string& selector) {
        const auto xpath = css_to_xpath(selector);
        EXPECT_TRUE(xpath.ok()) << selector << ": " << (xpath.ok() ? "" : xpath.error().message);
        Strings out;
        if (!xpath.ok()) {
            return out;
        }
        auto compiled = pith::rules::XPathExpression::compile(xpath.value());
        EXPECT_TRUE(compiled.ok()) << xpath.value();
        if (!compiled.ok()) {
            return out;
        }
        auto nodes = mirror_.select(compiled.value());
        EXPECT_TRUE(nodes.ok()) << xpath.value();
        for (const pith::dom::Node* n : nodes.value()) {
            out.push_back(pith::dom::inner_text(n));
        }
        return out;
    }

    pith::dom::Document doc_;
    pith::rules::XmlMirror mirror_;
};

TEST_F(Css, SelectorsSelectWhatBrowsersWould) {
    EXPECT_EQ(css("div.entry-content > h1.title"), Strings{"How deltas grow"});
    EXPECT_EQ(css("#main p.byline"), Strings{"By Ada Lindqvist"});
    EXPECT_EQ(css("[class~=share-bar] a[href='/x']"), Strings{"Share"});
    EXPECT_EQ(css("div[class^=\"post\"] > p:last-of-type"), Strings{"Last paragraph."});
    EXPECT_EQ(css("h1 + p"), Strings{"By Ada Lindqvist"});
    EXPECT_EQ(css("p.byline ~ p:not(.byline)"), (Strings{"First paragraph.", "Second paragraph.", "Last paragraph."}));
    EXPECT_EQ(css("li:first-child, li:nth-child(2n)"), (Strings{"One", "Two", "Only"}));
    EXPECT_EQ(css("#sidebar ul li:nth-child(odd)"), Strings{"One"});
    EXPECT_EQ(css("div[id$=bar] ul *"), (Strings{"One", "Two"}));
    EXPECT_EQ(css("p:first-of-type"), Strings{"By Ada Lindqvist"});
    EXPECT_EQ(css("div[class*='ntry'] h1"), Strings{"How deltas grow"});
}

TEST_F(Css, StructuralPseudoClassesAndLanguagePrefixes) {
    EXPECT_EQ(css("li:only-child"), Strings{"Only"});
    EXPECT_EQ(css("#main > :empty"), Strings{""});
    EXPECT_EQ(css("[lang|=en] > h1"), Strings{"How deltas grow"});
    EXPECT_EQ(css("[lang|=GB]"), Strings{});
    EXPECT_EQ(css("ul > li:last-child"), Strings{"Two"});
    EXPECT_EQ(css("*#sidebar ol"), Strings{"Only"});
}

TEST(CssToXPath, MalformedSelectorsAreRefusedWithWhere) {
    for (const char* bad : {"", "div[", "div[class=", "a:hover", "div >", ".", "#", "p:nth-child(x)", "*:first-of-type",
                            "p, ", "[class='x]"}) {
        const auto xpath = css_to_xpath(bad);
        ASSERT_FALSE(xpath.ok()) << bad;
        EXPECT_EQ(xpath.error().code, pith::ErrorCode::invalid_argument) << bad;
        EXPECT_FALSE(xpath.error().message.empty()) << bad;
    }
    const auto quoted = css_to_xpath("a[title=\"it's \\\"x\\\"\"]");
    EXPECT_TRUE(quoted.ok());
}

}  // namespace
