#include "pith/dom.hpp"

#include <gtest/gtest.h>

#include <string>

#include "dom/inner_text.hpp"
#include "text/text.hpp"

namespace pith::dom {
namespace {

Document parse_ok(std::string_view html) {
    auto result = parse_html(html);
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message);
    return std::move(result).value();
}

TEST(Dom, ParsesIntoHtmlHeadBody) {
    Document doc = parse_ok("<title>T</title><p class=x>Hello <b>world</b></p>");
    ASSERT_NE(doc.body(), nullptr);
    ASSERT_NE(doc.head(), nullptr);
    EXPECT_EQ(inner_html(doc.body()), "<p class=\"x\">Hello <b>world</b></p>");
    EXPECT_EQ(text_content(doc.body()), "Hello world");
}

TEST(Dom, SerializesVoidElementsEscapesAndRawText) {
    Document doc = parse_ok("<p a='1&quot;2'>x &lt; y &amp; z\xC2\xA0<br><img src=a.png></p><script>if (a<b) {}</script>");
    EXPECT_EQ(inner_html(doc.body()),
              "<p a=\"1&quot;2\">x &lt; y &amp; z&nbsp;<br><img src=\"a.png\"></p><script>if (a<b) {}</script>");
}

TEST(Dom, KeepsUnknownElementNamesAndSvgCase) {
    Document doc = parse_ok("<my-widget>w</my-widget><svg><linearGradient></linearGradient></svg>");
    EXPECT_EQ(inner_html(doc.body()), "<my-widget>w</my-widget><svg><linearGradient></linearGradient></svg>");
}

TEST(Dom, PreviousNodeWalksTheSubtreeBackInPreOrder) {
    Document doc = parse_ok("<div id=d><p>a<b>b</b></p>c<i><u>d</u></i></div><p>after</p>");
    const Node* div = doc.body()->first_element_child();
    std::string forward;
    for (const Node* n = div; n != nullptr; n = next_node(n, div)) {
        forward += n->is_text() ? std::string(n->data) : "<" + std::string(tag_name(n->tag)) + ">";
    }
    std::string backward;
    for (const Node* n = last_descendant(div); n != nullptr; n = previous_node(n, div)) {
        backward.insert(0, n->is_text() ? std::string(n->data) : "<" + std::string(tag_name(n->tag)) + ">");
    }
    EXPECT_EQ(forward, "<div><p>a<b>bc<i><u>d");
    EXPECT_EQ(backward, forward);
    EXPECT_EQ(last_descendant(div)->data, "d");
    const Node* leaf = div->first_child->first_child;  // "a"
    EXPECT_EQ(last_descendant(leaf), leaf);
}

TEST(Dom, EditsRenameReplaceAndDetach) {
    Document doc = parse_ok("<div id=a><span>1</span><span>2</span></div>");
    Node* div = doc.body()->first_element_child();
    Document::rename(div, Tag::p);
    Node* second = div->last_element_child();
    detach(second);
    Node* em = doc.create_element(Tag::em);
    append_child(em, doc.create_text("new"));
    replace(div->first_element_child(), em);
    doc.set_attr(div, "id", "b");
    doc.set_attr(div, "data-x", "1");
    EXPECT_EQ(inner_html(doc.body()), "<p id=\"b\" data-x=\"1\"><em>new</em></p>");
    doc.remove_attr(div, "id");
    EXPECT_EQ(outer_html(div), "<p data-x=\"1\"><em>new</em></p>");
}

TEST(Dom, ClonesDeepSubtreesIteratively) {
    std::string html;
    for (int i = 0; i < 3000; ++i) {
        html += "<div>";
    }
    html += "deep";
    Document doc = parse_ok(html);
    Node* copy = doc.clone(doc.body());
    EXPECT_EQ(text_content(copy), "deep");
    EXPECT_EQ(outer_html(copy).size(), outer_html(doc.body()).size());
}

TEST(Dom, EstimatesElementsAndDepthBeforeParsing) {
    const MarkupEstimate e = estimate_markup(
        "<html><body><div><div><p>a<p>b</div></div><script>if (a<b) x='<div>';</script><br/></body></html>");
    EXPECT_EQ(e.elements, 8U);
    EXPECT_EQ(e.max_depth, 2U);
}

TEST(Dom, RefusesDeepNestingBeforeParsing) {
    std::string html;
    for (int i = 0; i < 100000; ++i) {
        html += "<div>";
    }
    auto result = parse_html(html, ParseLimits{0, 8192});
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::too_deep);
    EXPECT_NE(result.error().message.find("100000"), std::string::npos);
}

TEST(Dom, CountsElementsExactlyForTheBudget) {
    auto result = parse_html("<p>a</p><p>b</p><p>c</p>", ParseLimits{5, 0});
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::too_many_elements);
    EXPECT_EQ(result.error().message, "found 6 elements, limit 5");
}

TEST(Text, InnerTextLengthMatchesJavaScript) {
    Document doc = parse_ok("<p>  a\xC2\xA0\xC2\xA0 b \n c <b>\xF0\x9F\x98\x80</b>  </p>");
    const Node* p = doc.body()->first_element_child();
    EXPECT_EQ(dom::inner_text(p), "a b c \xF0\x9F\x98\x80");
    EXPECT_EQ(dom::inner_text_length(p), 8U);
    EXPECT_EQ(dom::inner_text_length(p, false), text::utf16_length(dom::inner_text(p, false)));
}

}  // namespace
}  // namespace pith::dom
