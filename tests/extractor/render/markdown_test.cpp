// Markdown and clean text, one construct at a time, on small fixtures.
#include <gtest/gtest.h>

#include <string>

#include "render/render.hpp"
#include "parse_or_fail.hpp"
#include "pith/dom.hpp"
#include "pith/extract.hpp"
#include "pith/markdown.hpp"

namespace {

using pith::extract::code_languages;
using pith::extract::to_clean_text;
using pith::extract::to_markdown;

struct Page {
    pith::dom::Document doc;
    const pith::dom::Node* body;
};

Page page(const std::string& body_html) {
    Page p{pith::test::parse_or_fail("<html><body>" + body_html + "</body></html>"), nullptr};
    p.body = p.doc.body();
    return p;
}

std::string markdown(const std::string& body_html) {
    const Page p = page(body_html);
    return to_markdown(p.body, code_languages(p.body));
}

std::string text(const std::string& body_html) { return to_clean_text(page(body_html).body); }

TEST(Markdown, HeadingsParagraphsEmphasisAndInlineCode) {
    EXPECT_EQ(markdown("<h1>Deltas</h1><p>Rivers <em>slow</em> and <strong>drop</strong> their load.</p>"
                       "<h3>Dams</h3><p>Run <code>make test</code>, then <b><i>both</i></b>.</p>"),
              "# Deltas\n\nRivers *slow* and **drop** their load.\n\n### Dams\n\n"
              "Run `make test`, then ***both***.");
}

TEST(Markdown, EmphasisKeepsItsSpacesOutside) {
    EXPECT_EQ(markdown("<p>a<em> slow </em>river</p>"), "a *slow* river");
    EXPECT_EQ(markdown("<p>Why?<em>Because.</em>Then</p>"), "Why?<em>Because.</em>Then")
        << "\"*Because.*Then\" would not close";
    EXPECT_EQ(markdown("<p><em> </em>x</p>"), "x");
}

TEST(Markdown, SiblingElementsWithoutSpaceBetweenReadAsWordsApart) {
    // Stylesheets lay a card's brand and model, or a row of tags, out apart.
    const std::string card = "<p><span>HOKA</span><span>Clifton 10</span></p>"
                             "<p><a href=\"/t/a\">Developer Tools</a><!-- --><a href=\"/t/b\">Machine Learning</a></p>";
    EXPECT_EQ(text(card), "HOKA Clifton 10\n\nDeveloper Tools Machine Learning");
    EXPECT_EQ(markdown(card), "HOKA Clifton 10\n\n[Developer Tools](/t/a) [Machine Learning](/t/b)");
    // A word set one span per letter, a footnote mark, punctuation and
    // scripts without spaces stay as they are.
    const std::string joined = "<p><span>W</span><span>o</span><span>rd</span> <span>river</span><sup>12</sup> "
                               "<b>Price</b><span>: 10</span> <span>日本</span><span>語</span></p>";
    EXPECT_EQ(text(joined), "Word river12 Price: 10 日本語");
    EXPECT_EQ(markdown(joined), "Word river<sup>12</sup> **Price**: 10 日本語");
}

TEST(Markdown, LinksAndImagesAreAbsoluteWhenTheDomIs) {
    EXPECT_EQ(markdown("<p>See <a href=\"https://example.com/a b\">the map</a> and "
                       "<img src=\"https://example.com/d.jpg\" alt=\"A [delta]\">.</p>"),
              "See [the map](https://example.com/a%20b) and ![A \\[delta\\]](https://example.com/d.jpg).");
    EXPECT_EQ(markdown("<p><a href=\"/x\"><img src=\"/i.png\" alt=\"\"></a></p>"), "[![](/i.png)](/x)");
    EXPECT_EQ(markdown("<p><a>no href</a></p>"), "no href");
}

TEST(Markdown, PermalinkMarksAndHeadingsLinkedToThemselvesGiveTheirWordsOnly) {
    // Sphinx's pilcrow after a heading and a definition, rustdoc's section sign
    // before one, a heading that is a link to its own anchor.
    EXPECT_EQ(markdown("<h2>Middleware<a class=\"headerlink\" href=\"#middleware\">\u00B6</a></h2>"
                       "<dl><dt>class Cache<a href=\"#cache\"> \u00B6 </a></dt><dd>Caches.</dd></dl>"
                       "<h3><a href=\"#tour\">\u00A7</a>A Tour</h3><h3><a href=\"#why\">Why flexbox?</a></h3>"),
              "## Middleware\n\nclass Cache\n\nCaches.\n\n### A Tour\n\n### Why flexbox?");
    EXPECT_EQ(text("<h2>Middleware<a href=\"#middleware\">\u00B6</a></h2><p>class Cache<a href=\"#c\">#</a></p>"),
              "Middleware\n\nclass Cache");
    // Links that say more stay: a mark with words, a mark leading elsewhere, a
    // heading linking to another page, an image.
    EXPECT_EQ(markdown("<p>See <a href=\"#s3\">\u00A7 3</a>, <a href=\"/law\">\u00A7</a> and "
                       "<a href=\"#map\"><img src=\"/m.png\" alt=\"\"></a>.</p><h2><a href=\"/deltas\">Deltas</a></h2>"),
              "See [\u00A7 3](#s3), [\u00A7](/law) and [![](/m.png)](#map).\n\n## [Deltas](/deltas)");
}

TEST(Markdown, BlocksThatShowNothingLeaveNoLine) {
    // A paragraph and a heading holding a zero-width joiner (how some site
    // builders keep an empty block open), an icon font's glyph alone, a
    // list item of one; text beside them and an emoji the joiner binds stay.
    const std::string body = "<h2>\u200D</h2><p>Deltas</p><p>\u200D</p><p> \uF054 </p>"
                             "<ul><li>Silt \uF054</li><li>\u200D</li></ul>"
                             "<p>\U0001F468\u200D\U0001F469</p>";
    EXPECT_EQ(markdown(body), "Deltas\n\n- Silt \uF054\n\n\U0001F468\u200D\U0001F469");
    EXPECT_EQ(text(body), "Deltas\n\n- Silt \uF054\n\n\U0001F468\u200D\U0001F469");
    EXPECT_EQ(text("<table><tr><td>Nile</td><td>\uF00C</td><td>long</td></tr></table>"), "Nile | long");
}

TEST(Markdown, ALinkAroundACardOfBlocksStaysOneLink) {
    EXPECT_EQ(markdown("<a href=\"/story\"><div><img src=\"/t.jpg\" alt=\"\"></div><p>The delta story</p></a>"),
              "[![](/t.jpg) The delta story](/story)");
}

TEST(Markdown, NestedListsWithTheirStartNumbers) {
    EXPECT_EQ(markdown("<ol start=\"3\"><li>Three<ul><li>a</li><li>b</li></ul></li><li>Four</li></ol>"
                       "<ul><li><p>One</p><p>Two paragraphs</p></li></ul>"),
              "3. Three\n"
              "   - a\n"
              "   - b\n"
              "4. Four\n"
              "\n"
              "- One\n"
              "\n"
              "  Two paragraphs");
}

TEST(Markdown, NestedBlockquotes) {
    EXPECT_EQ(markdown("<p>He said:</p><blockquote><p>Rivers carry land.</p><blockquote><p>So do "
                       "glaciers.</p></blockquote></blockquote>"),
              "He said:\n\n> Rivers carry land.\n>\n> > So do glaciers.");
}

TEST(Markdown, FencedCodeWithItsLanguage) {
    EXPECT_EQ(markdown("<pre class=\"language-cpp\">int main() {\n    return 0;\n}\n</pre>"
                       "<pre><code class=\"lang-py\">print(1)</code></pre>"
                       "<pre class=\"highlight-js\">let a = 1;<br>let b = 2;</pre>"
                       "<pre>with ``` inside</pre>"),
              "```cpp\nint main() {\n    return 0;\n}\n```\n\n```py\nprint(1)\n```\n\n"
              "```js\nlet a = 1;\nlet b = 2;\n```\n\n````\nwith ``` inside\n````");
}

TEST(Markdown, PipeTablesWithSpansFilled) {
    EXPECT_EQ(markdown("<table><tr><th>River</th><th>Length</th><th>Sea</th></tr>"
                       "<tr><td>Nile</td><td colspan=\"2\">6,650 km | long</td></tr>"
                       "<tr><td rowspan=\"2\">Rhine</td><td>1,230 km</td><td>North</td></tr>"
                       "<tr><td>and more</td><td><code>a|b</code></td></tr></table>"),
              "| River | Length | Sea |\n"
              "| --- | --- | --- |\n"
              "| Nile | 6,650 km \\| long |  |\n"
              "| Rhine | 1,230 km | North |\n"
              "|  | and more | `a\\|b` |");
}

TEST(Markdown, ATableGfmCannotHoldIsHtml) {
    const std::string md = markdown("<p>Before</p><table><tr><td><ul><li>a</li></ul>\n\n</td></tr></table>");
    EXPECT_EQ(md.rfind("Before\n\n<table>", 0), 0U) << md;
    EXPECT_EQ(md.find("\n\n", 8), std::string::npos) << "a blank line would end the HTML block";
    EXPECT_NE(md.find("<li>a</li>"), std::string::npos);
}

TEST(Markdown, RulesBreaksSuperscriptsAndFigures) {
    EXPECT_EQ(markdown("<p>E = mc<sup>2</sup> and H<sub>2</sub>O</p><hr><p>one<br>two</p>"
                       "<figure><img src=\"/d.jpg\" alt=\"Delta\"><figcaption>The delta, from above</figcaption>"
                       "</figure>"),
              "E = mc<sup>2</sup> and H<sub>2</sub>O\n\n---\n\none\\\ntwo\n\n![Delta](/d.jpg)\n\n"
              "The delta, from above");
}

TEST(Markdown, EscapesWhatMarkdownWouldRead) {
    EXPECT_EQ(markdown("<p>1. Not a list</p><p># Not a heading</p><p>- Not an item</p>"
                       "<p>a *b* _c_ `d` |e| [f] &lt;g&gt; ~h~ &amp;copy;</p><p>2019) was</p>"),
              "1\\. Not a list\n\n\\# Not a heading\n\n\\- Not an item\n\n"
              "a \\*b\\* \\_c\\_ \\`d\\` \\|e\\| \\[f\\] \\<g\\> \\~h\\~ \\&copy;\n\n2019\\) was");
}

TEST(Markdown, HeadingsTakeNoBlocksAndKeepATrailingHash) {
    EXPECT_EQ(markdown("<h2><div>Part</div><div>one</div></h2>"), "## Part one");
    EXPECT_EQ(markdown("<h2>C#</h2>"), "## C\\#");
    EXPECT_EQ(markdown("<h2> </h2><p>x</p>"), "x");
}

TEST(Markdown, DeepNestingIsWalkedWithoutRecursion) {
    std::string deep;
    for (int i = 0; i < 20000; ++i) {
        deep += "<span>";
    }
    deep += "deep";
    EXPECT_EQ(markdown("<p>" + deep + "</p>"), "deep");
}

TEST(Markdown, DeepQuotesDoNotGrowTheOutputWithTheSquareOfTheDepth) {
    std::string deep;
    for (int i = 0; i < 5000; ++i) {
        deep += "<blockquote><p>level</p>";
    }
    const std::string md = markdown(deep);
    EXPECT_LT(md.size(), 5000U * 200U) << "prefixes stop growing past a depth (uncapped: 50 MB)";
    EXPECT_EQ(md.rfind("> level\n>\n> > level", 0), 0U) << md.substr(0, 40);
}

TEST(CleanText, BlocksListsAndTables) {
    EXPECT_EQ(text("<h1>Deltas</h1><p>  Rivers   carry\n land. </p><ul><li>Nile</li><li>Rhine<ol><li>Basel</li>"
                   "</ol></li></ul><table><tr><th>River</th><th>Sea</th></tr><tr><td>Nile</td><td></td></tr>"
                   "</table><p>one<br>two</p>"),
              "Deltas\n\nRivers carry land.\n\n- Nile\n- Rhine\n1. Basel\n\nRiver | Sea\nNile\n\none\ntwo");
}

TEST(CleanText, PreformattedLinesAreTrimmedAndBlankRunsCollapse) {
    EXPECT_EQ(text("<pre>  int a;\n\n\n    return a;  \n</pre><p>\u00a0after\u00a0</p>"),
              "int a;\n\nreturn a;\n\nafter");
}

TEST(CleanText, ALayoutTableIsReadAsItsBlocks) {
    EXPECT_EQ(text("<table><tr><td><p>First paragraph.</p><p>Second.</p></td></tr></table>"),
              "First paragraph.\n\nSecond.");
}

TEST(FrontMatter, QuotesWhatItHas) {
    pith::extract::Article article;
    article.title = "Deltas: \"how\" they grow";
    article.byline = "Ada Lindqvist";
    article.lang = "en";
    EXPECT_EQ(pith::extract::yaml_front_matter(article, "https://example.com/d"),
              "---\ntitle: \"Deltas: \\\"how\\\" they grow\"\nauthor: \"Ada Lindqvist\"\n"
              "url: \"https://example.com/d\"\nlanguage: \"en\"\n---\n\n");
}

TEST(Markdown, ExtractGivesMarkdownAndTextOnlyWhenAsked) {
    const std::string html = "<html><body><article><h2>Deltas</h2>" + std::string(
        "<p>Rivers carry the land they drain, and where they meet the sea the water slows, the sediment settles "
        "out of the current, and a delta grows there layer on layer over the years and the centuries.</p>"
        "<p>Whether that delta keeps growing depends on a balance between supply and loss, and the sea takes "
        "back what the river cannot replace when dams hold the sediment upstream.</p>") +
                             "</article></body></html>";
    pith::extract::ExtractOptions options;
    const pith::extract::Article plain = pith::extract::extract(html, options);
    EXPECT_FALSE(plain.markdown.has_value());
    EXPECT_FALSE(plain.text.has_value());
    options.render.markdown = true;
    options.render.clean_text = true;
    const pith::extract::Article both = pith::extract::extract(html, options);
    ASSERT_TRUE(both.markdown.has_value());
    ASSERT_TRUE(both.text.has_value());
    EXPECT_EQ(both.markdown->rfind("## Deltas\n\nRivers carry", 0), 0U) << *both.markdown;
    EXPECT_EQ(both.text->rfind("Deltas\n\nRivers carry", 0), 0U) << *both.text;
    EXPECT_EQ(both.content, plain.content) << "content stays as it is";
    EXPECT_EQ(both.text_content, plain.text_content) << "textContent stays Readability's";
}

}  // namespace
