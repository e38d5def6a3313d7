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
    post_process(doc, content, RenderOptions{}, "https://example.com/a/b.html", "https://example.com/a/b.html",
                 WrapperText::ending_in_non_space);
    EXPECT_EQ(dom::inner_html(content),
              "<a href=\"https://example.com/a/c.html\">c</a><a href=\"#top\">top</a>"
              "<img src=\"https://example.com/i.png\">js");
}

TEST(PostProcess, ClassesGoUnlessKeptOrPreserved) {
    const char* html = "<div><p class='lead page keep'>x</p></div>";
    dom::Document doc = parse_or_fail(html);
    dom::Node* content = doc.body()->first_element_child();
    post_process(doc, content, RenderOptions{}, "", "", WrapperText::ending_in_non_space);
    EXPECT_EQ(dom::inner_html(content), "<p class=\"page\">x</p>");

    dom::Document kept = parse_or_fail(html);
    RenderOptions render;
    render.keep_classes = true;
    post_process(kept, kept.body()->first_element_child(), render, "", "", WrapperText::ending_in_non_space);
    EXPECT_EQ(dom::inner_html(kept.body()->first_element_child()), "<p class=\"lead page keep\">x</p>");

    dom::Document preserved = parse_or_fail(html);
    RenderOptions some;
    some.classes_to_preserve = {"keep"};
    post_process(preserved, preserved.body()->first_element_child(), some, "", "", WrapperText::ending_in_non_space);
    EXPECT_EQ(dom::inner_html(preserved.body()->first_element_child()), "<p class=\"page keep\">x</p>");
}

TEST(PostProcess, AWrapperWhoseTextEndsInASpaceKeepsItUnlessReadabilityReadsIt) {
    const char* html = "<div><div class='spec'>Heel drop: <div>7 mm</div></div><div>Weight:<div>9 oz</div></div></div>";
    dom::Document readability = parse_or_fail(html);
    dom::Node* content = readability.body()->first_element_child();
    post_process(readability, content, RenderOptions{}, "", "", WrapperText::ending_in_non_space);
    // Readability.js's /\S$/ test: "Heel drop: " ends in a space, so its div was a wrapper.
    EXPECT_EQ(dom::inner_html(content), "<div>7 mm</div><div>Weight:<div>9 oz</div></div>");

    dom::Document other = parse_or_fail(html);
    content = other.body()->first_element_child();
    post_process(other, content, RenderOptions{}, "", "", WrapperText::not_blank);
    EXPECT_EQ(dom::inner_html(content), "<div>Heel drop: <div>7 mm</div></div><div>Weight:<div>9 oz</div></div>");

    dom::Document blank = parse_or_fail("<div><div> \n <section><p>x</p></section></div><p>y</p></div>");
    content = blank.body()->first_element_child();
    post_process(blank, content, RenderOptions{}, "", "", WrapperText::not_blank);
    EXPECT_EQ(dom::inner_html(content), "<section><p>x</p></section><p>y</p>");
}

}  // namespace
}  // namespace pith::extract
