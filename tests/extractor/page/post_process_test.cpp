#include "page/prep.hpp"

#include <gtest/gtest.h>

#include <string>

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

// The inner HTML of `html`'s first element after post_process.
std::string processed(const char* html, const RenderOptions& render = {},
                      WrapperText wrapper_text = WrapperText::ending_in_non_space) {
    dom::Document doc = parse_or_fail(html);
    dom::Node* content = doc.body()->first_element_child();
    post_process(doc, content, render, "", "", wrapper_text);
    return dom::inner_html(content);
}

TEST(PostProcess, ClassesGoUnlessKeptOrPreserved) {
    const char* html = "<div><p class='lead page keep'>x</p></div>";
    EXPECT_EQ(processed(html), "<p class=\"page\">x</p>");

    RenderOptions render;
    render.keep_classes = true;
    EXPECT_EQ(processed(html, render), "<p class=\"lead page keep\">x</p>");

    RenderOptions some;
    some.classes_to_preserve = {"keep"};
    EXPECT_EQ(processed(html, some), "<p class=\"page keep\">x</p>");
}

TEST(PostProcess, AWrapperWhoseTextEndsInASpaceKeepsItUnlessReadabilityReadsIt) {
    const char* html = "<div><div class='spec'>Heel drop: <div>7 mm</div></div><div>Weight:<div>9 oz</div></div></div>";
    // Readability.js's /\S$/ test: "Heel drop: " ends in a space, so its div was a wrapper.
    EXPECT_EQ(processed(html, {}, WrapperText::ending_in_non_space),
              "<div>7 mm</div><div>Weight:<div>9 oz</div></div>");
    EXPECT_EQ(processed(html, {}, WrapperText::not_blank),
              "<div>Heel drop: <div>7 mm</div></div><div>Weight:<div>9 oz</div></div>");
    EXPECT_EQ(processed("<div><div> \n <section><p>x</p></section></div><p>y</p></div>", {}, WrapperText::not_blank),
              "<section><p>x</p></section><p>y</p>");
}

}  // namespace
}  // namespace pith::extract
