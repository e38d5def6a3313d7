#include "pith/dom.hpp"

#include <gtest/gtest.h>

#include "parse_or_fail.hpp"

namespace pith::dom {
namespace {

using pith::test::parse_or_fail;

TEST(Serialize, EscapesTextAndAttributesAsHtml5Does) {
    Document doc = parse_or_fail("<p title='a \"q\" &amp; <b>'>1 &lt; 2 &amp;&amp; 3 &gt; 2\xC2\xA0!</p>");
    EXPECT_EQ(inner_html(doc.body()),
              "<p title=\"a &quot;q&quot; &amp; <b>\">1 &lt; 2 &amp;&amp; 3 &gt; 2&nbsp;!</p>");
}

TEST(Serialize, VoidElementsHaveNoEndTag) {
    Document doc = parse_or_fail("<p>a<br>b<img src=x.png alt=''></p><hr><input type=text>");
    EXPECT_EQ(inner_html(doc.body()), "<p>a<br>b<img src=\"x.png\" alt=\"\"></p><hr><input type=\"text\">");
}

TEST(Serialize, RawTextElementsAreNotEscaped) {
    Document doc = parse_or_fail("<style>a > b { x: '&' }</style><p>x</p><textarea>&lt;kept&gt;</textarea>");
    EXPECT_EQ(outer_html(doc.head()->first_element_child()), "<style>a > b { x: '&' }</style>");
    // <textarea> is escapable raw text: its text is escaped again.
    EXPECT_EQ(outer_html(doc.body()->last_element_child()), "<textarea>&lt;kept&gt;</textarea>");
}

TEST(Serialize, OuterHtmlIsTheElementAndInnerHtmlItsChildren) {
    Document doc = parse_or_fail("<div id=d><span>s</span>t<!--c--></div>");
    const Node* div = doc.body()->first_element_child();
    EXPECT_EQ(outer_html(div), "<div id=\"d\"><span>s</span>t<!--c--></div>");
    EXPECT_EQ(inner_html(div), "<span>s</span>t<!--c-->");
    std::string appended = "[";
    append_outer_html(div->first_element_child(), appended);
    EXPECT_EQ(appended, "[<span>s</span>");
}

TEST(Serialize, ForeignAttributesKeepTheirCase) {
    Document doc = parse_or_fail("<svg viewBox='0 0 1 1'><path d='M0 0'></path></svg><math><mi>x</mi></math>");
    EXPECT_EQ(inner_html(doc.body()),
              "<svg viewBox=\"0 0 1 1\"><path d=\"M0 0\"></path></svg><math><mi>x</mi></math>");
}

}  // namespace
}  // namespace pith::dom
