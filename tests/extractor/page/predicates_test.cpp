#include "page/predicates.hpp"

#include <gtest/gtest.h>

#include "parse_or_fail.hpp"

namespace pith::extract {
namespace {

using dom::Node;
using pith::test::parse_or_fail;

Node* by_id(dom::Document& doc, std::string_view id) {
    for (Node* n = doc.root(); n != nullptr; n = dom::next_node(n, doc.root())) {
        if (n->is_element() && n->attr("id") == id) {
            return n;
        }
    }
    return nullptr;
}

TEST(Predicates, LinkDensityWeighsInPageLinksAtThreeTenths) {
    dom::Document doc = parse_or_fail(
        "<div id=a>0123456789<a href='/x'>0123456789</a></div>"
        "<div id=b>0123456789<a href='#top'>0123456789</a></div><div id=c></div>");
    EXPECT_DOUBLE_EQ(link_density(by_id(doc, "a")), 0.5);
    EXPECT_DOUBLE_EQ(link_density(by_id(doc, "b")), 0.15);
    EXPECT_DOUBLE_EQ(link_density(by_id(doc, "c")), 0.0);
}

TEST(Predicates, ClassWeightJudgesClassAndIdApartOnlyWhenWeighing) {
    dom::Document doc = parse_or_fail(
        "<div id=article class=comment>x</div><div id=x1 class='post-body'>x</div><div id=sidebar>x</div>");
    EXPECT_DOUBLE_EQ(class_weight(by_id(doc, "article"), PassFlags::all), 0.0) << "+25 for the id, -25 for the class";
    EXPECT_DOUBLE_EQ(class_weight(by_id(doc, "x1"), PassFlags::all), 25.0);
    EXPECT_DOUBLE_EQ(class_weight(by_id(doc, "sidebar"), PassFlags::all), -25.0);
    EXPECT_DOUBLE_EQ(class_weight(by_id(doc, "sidebar"), PassFlags::strip_unlikelys), 0.0);
}

TEST(Predicates, InlineStyleValueIsTheLastDeclarationWithoutImportant) {
    EXPECT_EQ(inline_style_value("color: red; DISPLAY : None !important", "display"), "none");
    EXPECT_EQ(inline_style_value("display:block;display:none", "display"), "none");
    EXPECT_EQ(inline_style_value("margin:0", "display"), "");
    EXPECT_EQ(inline_style_value("display", "display"), "");
}

TEST(Predicates, VisibilityReadsStyleHiddenAndAriaHidden) {
    dom::Document doc = parse_or_fail(
        "<p id=a style='display:none'>x</p><p id=b style='visibility: hidden'>x</p><p id=c hidden>x</p>"
        "<p id=d aria-hidden=true>x</p><img id=e aria-hidden=true class='mwe-math-fallback-image-inline'>"
        "<p id=f style='display:block'>x</p>");
    for (const char* id : {"a", "b", "c", "d"}) {
        EXPECT_FALSE(is_probably_visible(by_id(doc, id))) << id;
    }
    EXPECT_TRUE(is_probably_visible(by_id(doc, "e"))) << "fallback images are the real images";
    EXPECT_TRUE(is_probably_visible(by_id(doc, "f")));
}

TEST(Predicates, AncestorTagLooksAtMostMaxDepthLevelsUp) {
    dom::Document doc = parse_or_fail("<table><tr><td><div><span><b id=x>x</b></span></div></td></tr></table>");
    const Node* b = by_id(doc, "x");
    EXPECT_TRUE(has_ancestor_tag(b, dom::Tag::table, 0));
    EXPECT_FALSE(has_ancestor_tag(b, dom::Tag::table, 3));
    EXPECT_TRUE(has_ancestor_tag(b, dom::Tag::div, 3));
    EXPECT_FALSE(has_ancestor_tag(b, dom::Tag::p, 0));
}

TEST(Predicates, PhrasingWhitespaceAndEmptyElements) {
    dom::Document doc = parse_or_fail("<div id=a><span>s</span><br>  <p>p</p></div><div id=e> <br><hr> </div>");
    const Node* a = by_id(doc, "a");
    EXPECT_TRUE(is_phrasing_content(a->first_child));
    EXPECT_TRUE(is_whitespace(a->first_child->next));  // the <br>
    EXPECT_TRUE(has_child_block_element(a));
    EXPECT_FALSE(is_phrasing_content(a->last_element_child()));
    EXPECT_TRUE(is_element_without_content(by_id(doc, "e")));
    EXPECT_FALSE(is_element_without_content(a));
}

TEST(Predicates, CssPathNamesEachLevelByIdOrFirstClass) {
    dom::Document doc = parse_or_fail("<main class='  site wide'><div id=post class=x><p>t</p></div></main>");
    const Node* p = by_id(doc, "post")->first_element_child();
    EXPECT_EQ(css_path(p), "html>body>main.site>div#post>p");
}

TEST(Predicates, ElementsByTagAreDescendantsInDocumentOrder) {
    dom::Document doc = parse_or_fail("<div id=r><p>1</p><div><p>2</p></div><p>3</p></div>");
    const Node* root = by_id(doc, "r");
    const auto ps = elements_by_tag(root, dom::Tag::p);
    ASSERT_EQ(ps.size(), 3U);
    EXPECT_EQ(dom::text_content(ps[1]), "2");
    EXPECT_EQ(count_by_tag(root, dom::Tag::p), 3U);
    EXPECT_EQ(count_by_tag(root, dom::Tag::div), 1U) << "not root itself";
}

}  // namespace
}  // namespace pith::extract
