// The pre-parse cut of script and style text: where it starts and ends must be
// where the HTML tokenizer puts them, or the parsed tree would change.
#include "dom/raw_text.hpp"

#include <gtest/gtest.h>

#include "pith/dom.hpp"

namespace pith::dom {
namespace {

// The cut text of each range, for readable expectations.
std::vector<std::string> cut_texts(std::string_view html) {
    std::vector<std::string> out;
    for (const TextRange& r : scan_markup(html).discardable) {
        out.emplace_back(html.substr(r.begin, r.end - r.begin));
    }
    return out;
}

using Texts = std::vector<std::string>;

TEST(RawText, CutsScriptAndStyleText) {
    EXPECT_EQ(cut_texts("<p>a</p><script>var x = 1 < 2;</script><style>p>a{}</style><p>b</p>"),
              (Texts{"var x = 1 < 2;", "p>a{}"}));
    std::string storage;
    EXPECT_EQ(without_discardable_raw_text("<p>a</p><script>x()</script><p>b</p>", storage),
              "<p>a</p><script>/*pith-cut:3:0:0*/</script><p>b</p>");
}

TEST(RawText, MarkersCarryLengthAndEdgeSpaceAsTheParserCountsThem) {
    const CutText cut = measure_cut(" \r\n\tvar s = \"é😀\";\r\n ");
    EXPECT_EQ(cut.length, 19U) << "\\r\\n counts once; the emoji is two UTF-16 units";
    EXPECT_EQ(cut.leading_space, 3U);
    EXPECT_EQ(cut.trailing_space, 2U);
    const auto read = read_cut_marker(cut_marker(cut));
    ASSERT_TRUE(read.has_value());
    EXPECT_EQ(read->length, 19U);
    EXPECT_EQ(read->leading_space, 3U);
    EXPECT_EQ(read->trailing_space, 2U);
    EXPECT_FALSE(read_cut_marker("/*pith-cut:1:2*/").has_value());
    EXPECT_FALSE(read_cut_marker("/*pith-cut:1:2:3*/x").has_value());
}

TEST(RawText, TrimmedLengthCountsCutTextAsIfItWereThere) {
    const std::string page = "<p>  Some text <script>\n  var a = 1;\n</script>\n</p>";
    std::string storage;
    auto whole = parse_html(page);
    auto pruned = parse_html(without_discardable_raw_text(page, storage));
    ASSERT_TRUE(whole && pruned);
    const Node* p_whole = next_element(whole->root(), whole->root());
    while (p_whole != nullptr && !p_whole->is(Tag::p)) {
        p_whole = next_element(p_whole, whole->root());
    }
    const Node* p_pruned = next_element(pruned->root(), pruned->root());
    while (p_pruned != nullptr && !p_pruned->is(Tag::p)) {
        p_pruned = next_element(p_pruned, pruned->root());
    }
    ASSERT_TRUE(p_whole != nullptr && p_pruned != nullptr);
    EXPECT_EQ(trimmed_text_length(p_pruned), 23U) << "\"Some text \\n  var a = 1;\"";
    EXPECT_EQ(trimmed_text_length(p_whole), 23U);
}

TEST(RawText, KeepsJsonLd) {
    EXPECT_EQ(cut_texts(R"(<script type="application/ld+json">{"a":1}</script><script type=text/javascript>x</script>)"),
              (Texts{"x"}));
    EXPECT_EQ(cut_texts(R"(<SCRIPT TYPE=' Application/LD+JSON '>{}</SCRIPT>)"), Texts{});
}

TEST(RawText, EndsOnlyAtARealEndTag) {
    EXPECT_EQ(cut_texts("<script>a</scripts>b</script >c"), (Texts{"a</scripts>b"}));
    EXPECT_EQ(cut_texts("<script>a</SCRIPT/>"), (Texts{"a"}));
    EXPECT_EQ(cut_texts("<style>a</style\tx>"), (Texts{"a"}));
    EXPECT_EQ(cut_texts("<script>runs to the end"), (Texts{"runs to the end"}));
    EXPECT_EQ(cut_texts("<script>a</script"), (Texts{"a</script"})) << "no delimiter: not an end tag";
}

TEST(RawText, FollowsTheScriptEscapeStates) {
    // <!-- then <script> inside a script: the first </script> only ends the
    // inner "script", and the element goes on to the next one.
    EXPECT_EQ(cut_texts("<script><!--<script>a</script>b--></script>c<script>d</script>"),
              (Texts{"<!--<script>a</script>b-->", "d"}));
    // Escaped but not double-escaped: </script> ends it.
    EXPECT_EQ(cut_texts("<script><!-- a </script> b -->"), (Texts{"<!-- a "}));
    // "-->" leaves the escape.
    EXPECT_EQ(cut_texts("<script><!-- a --><script></script>x"), (Texts{"<!-- a --><script>"}));
    EXPECT_EQ(cut_texts("<script><!--></script>"), (Texts{"<!-->"}));
}

TEST(RawText, IgnoresTagsInCommentsAttributesAndOtherRawText) {
    EXPECT_EQ(cut_texts("<!-- <script>x</script> --><p>a</p>"), Texts{});
    EXPECT_EQ(cut_texts("<!--><script>x</script>"), (Texts{"x"})) << "<!--> is a whole comment";
    EXPECT_EQ(cut_texts("<!---><script>x</script>"), (Texts{"x"}));
    EXPECT_EQ(cut_texts("<!-- a --!><script>x</script>"), (Texts{"x"}));
    EXPECT_EQ(cut_texts(R"(<a title="<script>" href='>'>t</a><script>x</script>)"), (Texts{"x"}));
    EXPECT_EQ(cut_texts("<textarea><script>x</script></textarea>"), Texts{});
    EXPECT_EQ(cut_texts("<title><style>x</style></title><style>y</style>"), (Texts{"y"}));
    EXPECT_EQ(cut_texts("<xmp><script>x</script></xmp>"), Texts{});
    EXPECT_EQ(cut_texts("<plaintext><script>x</script>"), Texts{});
    EXPECT_EQ(cut_texts("<!DOCTYPE html><?xml x?><![CDATA[ <script> ]]><script>x</script>"), (Texts{"x"}));
}

TEST(RawText, AttributesAreReadAsTheTokenizerReadsThem) {
    EXPECT_EQ(cut_texts("<script src=a.js defer>x</script>"), (Texts{"x"}));
    EXPECT_EQ(cut_texts("<script data-x=\"a>b\">x</script>"), (Texts{"x"}));
    EXPECT_EQ(cut_texts("<script/>x</script>"), (Texts{"x"})) << "a self-closing script still holds text";
    EXPECT_EQ(cut_texts("<scriptx>a</scriptx><script>b</script>"), (Texts{"b"}));
    EXPECT_EQ(cut_texts("<script type=\"application/ld+json"), Texts{}) << "input ends inside the tag";
    EXPECT_EQ(cut_texts("<script =x>y</script>"), (Texts{"y"}));
}

TEST(RawText, KeepsScriptsWhoseTypeMightDecodeToJsonLd) {
    EXPECT_EQ(cut_texts("<script type=\"application&#x2F;ld&#x2B;json\">{}</script>"), Texts{});
}

TEST(RawText, SelfClosingTagsInSvgAreWholeElements) {
    EXPECT_EQ(cut_texts("<svg><title/><path/></svg><script>x</script>"), (Texts{"x"}));
    // Outside foreign content a self-closing <title/> still starts RCDATA.
    EXPECT_EQ(cut_texts("<title/><script>x</script></title><script>y</script>"), (Texts{"y"}));
}

TEST(RawText, CutsTheTextOfLongCommentsOnly) {
    const std::string text(70, 'c');
    EXPECT_EQ(cut_texts("<p>a</p><!--" + text + "--><!--" + text + "--!><!-- short -->"), (Texts{text, text}));
    std::string storage;
    auto parsed = parse_html(without_discardable_raw_text("<p>a<!--" + text + "-->b</p>", storage));
    ASSERT_TRUE(parsed);
    const Node* p = parsed->body()->first_child;
    ASSERT_NE(p->first_child->next, nullptr);
    EXPECT_EQ(p->first_child->next->kind, NodeKind::comment) << "the comment stays, with a marker as its text";
    EXPECT_EQ(p->first_child->next->next->data, "b");
}

TEST(RawText, EmptyElementsCutNothing) {
    EXPECT_EQ(cut_texts("<script></script><style></style>"), Texts{});
    std::string storage;
    const std::string_view html = "<p>no raw text</p>";
    EXPECT_EQ(without_discardable_raw_text(html, storage).data(), html.data()) << "no copy when nothing is cut";
}

}  // namespace
}  // namespace pith::dom
