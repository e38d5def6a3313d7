#include "page/prep.hpp"

#include <gtest/gtest.h>

#include "parse_or_fail.hpp"

namespace pith::extract {
namespace {

using pith::test::parse_or_fail;

TEST(PrepDocument, RemovesCommentsAndStylesAndRenamesFonts) {
    dom::Document doc = parse_or_fail(
        "<head><style>p{}</style></head><body><!-- c --><p>a<font color=red>b</font></p><style>x</style></body>");
    prep_document(doc);
    EXPECT_EQ(dom::inner_html(doc.body()), "<p>a<span color=\"red\">b</span></p>");
    EXPECT_EQ(dom::inner_html(doc.head()), "");
}

TEST(PrepDocument, TwoBreaksStartAParagraph) {
    dom::Document doc = parse_or_fail("<div>one<br><br>two <b>bold</b><br><br>three<br>four</div>");
    prep_document(doc);
    EXPECT_EQ(dom::inner_html(doc.body()), "<div>one<p>two <b>bold</b></p><p>three<br>four</p></div>");
}

TEST(PrepDocument, ScriptsGoAndANoscriptHoldingThePageIsUnwrapped) {
    dom::Document doc = parse_or_fail(
        "<body><script>x()</script><noscript><p>Enable JS</p></noscript><p>Most of the page, long enough.</p></body>");
    remove_scripts(doc);
    EXPECT_EQ(dom::inner_html(doc.body()), "<p>Most of the page, long enough.</p>");
    dom::Document unclosed = parse_or_fail("<body><noscript><div><p>The whole page sits in here.</p></div></noscript></body>");
    remove_scripts(unclosed);
    EXPECT_EQ(dom::inner_html(unclosed.body()), "<div><p>The whole page sits in here.</p></div>");
}

TEST(PrepDocument, NoscriptImagesReplaceTheirPlaceholders) {
    dom::Document doc = parse_or_fail(
        "<body><img src='data:image/gif;base64,R0lGODlhAQABAIAAAP'>"
        "<noscript><img src='https://example.com/real.jpg' alt='real'></noscript></body>");
    unwrap_noscript_images(doc);
    const std::string html = dom::inner_html(doc.body());
    // The placeholder is replaced by the noscript's image, keeping its old
    // source aside; the noscript itself goes with the scripts (remove_scripts).
    EXPECT_EQ(html.rfind("<img src=\"https://example.com/real.jpg\" alt=\"real\" data-old-src=\"data:image/gif;base64,", 0),
              0U)
        << html;
}

}  // namespace
}  // namespace pith::extract
