// XPath 1.0 over pith's DOM: the functions and axes site rules use.
#include "rules/xpath.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parse_or_fail.hpp"
#include "dom/inner_text.hpp"
#include "text/text.hpp"

namespace {

using pith::rules::XmlMirror;
using pith::rules::XPathExpression;

const char* const kPage =
    "<html><head><title>Deltas | Field Notes</title></head><body>"
    "<div id=\"main\" class=\"post entry-content\"><h1 class=\"title\">  How  deltas grow </h1>"
    "<p class=\"byline\">By Ada Lindqvist</p><p>First paragraph.</p><p>Second paragraph.</p>"
    "<div class=\"share-bar\"><a href=\"/x\">Share</a></div><p>Last paragraph.</p></div>"
    "<div id=\"sidebar\"><ul><li>One</li><li>Two</li></ul></div></body></html>";

class XPath : public ::testing::Test {
protected:
    XPath() : doc_(pith::test::parse_or_fail(kPage)), mirror_(doc_.document_element()) {}

    // The text of what `expression` selects, one string per node.
    std::vector<std::string> select(const std::string& expression) {
        auto compiled = XPathExpression::compile(expression);
        EXPECT_TRUE(compiled.ok()) << expression << ": " << compiled.error().message;
        std::vector<std::string> out;
        if (!compiled.ok()) {
            return out;
        }
        auto nodes = mirror_.select(compiled.value());
        EXPECT_TRUE(nodes.ok()) << expression;
        for (const pith::dom::Node* n : nodes.value()) {
            out.push_back(pith::dom::inner_text(n));
        }
        return out;
    }

    std::string string_of(const std::string& expression) {
        auto compiled = XPathExpression::compile(expression);
        EXPECT_TRUE(compiled.ok()) << expression;
        auto value = mirror_.evaluate_string(compiled.value());
        EXPECT_TRUE(value.ok()) << expression;
        return value.ok() ? value.value() : std::string();
    }

    pith::dom::Document doc_;
    XmlMirror mirror_;
};

using Strings = std::vector<std::string>;

TEST_F(XPath, ContainsOnClassAndNormalizeSpace) {
    EXPECT_EQ(select("//div[contains(concat(' ', normalize-space(@class), ' '), ' entry-content ')]/h1"),
              Strings{"How deltas grow"});
    EXPECT_EQ(select("//h1[normalize-space(.)='How deltas grow']"), Strings{"How deltas grow"});
    EXPECT_EQ(select("//p[starts-with(., 'By ')]"), Strings{"By Ada Lindqvist"});
}

TEST_F(XPath, PositionLastNotAndUnions) {
    EXPECT_EQ(select("//div[@id='main']/p[last()]"), Strings{"Last paragraph."});
    EXPECT_EQ(select("//div[@id='main']/p[position() > 1 and position() < 3]"), Strings{"First paragraph."});
    EXPECT_EQ(select("//div[@id='main']/p[not(@class)][1] | //li[2]"), (Strings{"First paragraph.", "Two"}));
}

TEST_F(XPath, Axes) {
    EXPECT_EQ(select("//a/parent::div/@class/.."), Strings{"Share"});
    EXPECT_EQ(string_of("string(//a/ancestor::div[@id]/@id)"), "main");
    EXPECT_EQ(select("//h1/following-sibling::p[1]"), Strings{"By Ada Lindqvist"});
    EXPECT_EQ(select("//div[@id='sidebar']/descendant::li"), (Strings{"One", "Two"}));
    EXPECT_EQ(select("//li/self::li[.='One']"), Strings{"One"});
    EXPECT_EQ(select("//h1/text()"), Strings{"How deltas grow"});
}

TEST_F(XPath, StringFunctionsForTitlesAndDates) {
    EXPECT_EQ(string_of("substring-after(//p[@class='byline'], 'By ')"), "Ada Lindqvist");
    EXPECT_EQ(string_of("substring-before(//title, ' |')"), "Deltas");
    EXPECT_EQ(string_of("concat(//li[1], '-', //li[2])"), "One-Two");
    EXPECT_EQ(string_of("count(//p)"), "4");
}

TEST_F(XPath, MalformedExpressionsAreRefusedWithAReason) {
    for (const char* bad : {"//div[", "//div[@id='x'", "///", "//div[contains(@class)]]", "", "1 +"}) {
        const auto compiled = XPathExpression::compile(bad);
        EXPECT_FALSE(compiled.ok()) << bad;
        if (!compiled.ok()) {
            EXPECT_NE(compiled.error().message.find("invalid XPath"), std::string::npos);
        }
    }
    const std::string deep = std::string(100, '(') + "1" + std::string(100, ')');
    EXPECT_FALSE(XPathExpression::compile(deep).ok()) << "nesting past 64 is refused before libxml2 recurses";
    EXPECT_TRUE(XPathExpression::compile(std::string(10, '(') + "1" + std::string(10, ')')).ok());
    const auto number = XPathExpression::compile("count(//p)");
    ASSERT_TRUE(number.ok());
    EXPECT_FALSE(mirror_.select(number.value()).ok()) << "a number is not a node set";
}

TEST(XPathMirror, ADeepPageIsMirroredWithoutRecursion) {
    std::string deep = "<html><body>";
    for (int i = 0; i < 5000; ++i) {
        deep += "<div>";
    }
    deep += "<span id=\"bottom\">bottom</span></body></html>";
    pith::dom::Document doc = pith::test::parse_or_fail(deep);
    const XmlMirror mirror(doc.document_element());
    const auto expression = XPathExpression::compile("//span[@id='bottom']");
    ASSERT_TRUE(expression.ok());
    const auto nodes = mirror.select(expression.value());
    ASSERT_TRUE(nodes.ok());
    ASSERT_EQ(nodes.value().size(), 1U);
    EXPECT_TRUE(nodes.value().front()->is(pith::dom::Tag::span));
}

}  // namespace
