#include "page/prep.hpp"

#include <gtest/gtest.h>

#include "parse_or_fail.hpp"

namespace pith::extract {
namespace {

using pith::test::parse_or_fail;

TEST(PostProcess, TheBaseUrlIsTheBaseElementAgainstTheDocumentUrl) {
    dom::Document doc = parse_or_fail("<head><base href='/docs/'></head><body></body>");
    EXPECT_EQ(document_base_url(doc, "https://example.com/a/b.html"), "https://example.com/docs/");
    dom::Document plain = parse_or_fail("<p>x</p>");
    EXPECT_EQ(document_base_url(plain, "https://example.com/a/b.html"), "https://example.com/a/b.html");
}

TEST(PostProcess, LinksAndImagesBecomeAbsoluteAndScriptLinksPlain) {
    dom::Document doc = parse_or_fail(
        "<div><a href='c.html'>c</a><a href='#top'>top</a><img src='/i.png'><a href='javascript:void(0)'>js</a></div>");
    dom::Node* content = doc.body()->first_element_child();
    post_process(doc, content, RenderOptions{}, "https://example.com/a/b.html", "https://example.com/a/b.html");
    EXPECT_EQ(dom::inner_html(content),
              "<a href=\"https://example.com/a/c.html\">c</a><a href=\"#top\">top</a>"
              "<img src=\"https://example.com/i.png\">js");
}

TEST(PostProcess, ClassesGoUnlessKeptOrPreserved) {
    const char* html = "<div><p class='lead page keep'>x</p></div>";
    dom::Document doc = parse_or_fail(html);
    dom::Node* content = doc.body()->first_element_child();
    post_process(doc, content, RenderOptions{}, "", "");
    EXPECT_EQ(dom::inner_html(content), "<p class=\"page\">x</p>");

    dom::Document kept = parse_or_fail(html);
    RenderOptions render;
    render.keep_classes = true;
    post_process(kept, kept.body()->first_element_child(), render, "", "");
    EXPECT_EQ(dom::inner_html(kept.body()->first_element_child()), "<p class=\"lead page keep\">x</p>");

    dom::Document preserved = parse_or_fail(html);
    RenderOptions some;
    some.classes_to_preserve = {"keep"};
    post_process(preserved, preserved.body()->first_element_child(), some, "", "");
    EXPECT_EQ(dom::inner_html(preserved.body()->first_element_child()), "<p class=\"page keep\">x</p>");
}

}  // namespace
}  // namespace pith::extract
