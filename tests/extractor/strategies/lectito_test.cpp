#include "strategies/lectito.hpp"

#include <chrono>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "pith/dom.hpp"
#include "page/predicates.hpp"
#include "page/prep.hpp"
#include "strategies/strategy.hpp"
#include "dom/inner_text.hpp"
#include "text/text.hpp"
#include "parse_or_fail.hpp"

namespace pith::extract {
namespace {

dom::Document parse(std::string_view html) { return test::parse_or_fail(html); }

dom::Node* by_id(const dom::Document& doc, std::string_view id) {
    for (dom::Node* n = doc.document_element(); n != nullptr; n = dom::next_element(n, nullptr)) {
        if (n->attr("id") == id) {
            return n;
        }
    }
    ADD_FAILURE() << "no element #" << id;
    return nullptr;
}

// A block of `sentences` sentences, each 60 characters with a comma and a
// period, starting with `marker`.
std::string prose(std::string_view marker, int sentences) {
    std::string out(marker);
    for (int i = 0; i < sentences; ++i) {
        out += " Lorem ipsum dolor sit amet, consectetur adipiscing elit sed.";
    }
    return out;
}

// No clean_conditionally: the tests look at what the strategy chose, not at
// Readability's cleanup.
constexpr PassFlags kFlags = PassFlags::strip_unlikelys | PassFlags::weight_classes;

StrategyResult run(dom::Document& doc, const ExtractOptions& options = {}, PassFlags flags = kFlags) {
    PassInput input;
    input.flags = flags;
    return run_lectito(doc, options, input);
}

std::string article_text(const StrategyResult& result) {
    return result.content == nullptr ? std::string() : dom::inner_text(result.content);
}

// Seed 000's "Complete Example" as its arithmetic describes it: a div whose
// class holds "article" and "content", about 220 characters with four commas
// (and no period, since periods count as well), no links.
TEST(LectitoScore, SeedExampleAsDescribedScores32) {
    dom::Document doc = parse(
        "<div class=\"article-content\"><h1>Article Title</h1>"
        "<p>This is a substantial paragraph with plenty of text, including multiple sentences, and commas, to "
        "show how content density scoring works</p>"
        "<p>Another paragraph with even more text and details to increase the character count, with no links</p>"
        "</div>");
    const dom::Node* div = doc.body()->first_element_child();
    const LectitoMeasures m = lectito_measure(div);
    EXPECT_GE(m.text_length, 200U);
    EXPECT_LT(m.text_length, 300U);
    EXPECT_EQ(m.punctuation, 4U);
    EXPECT_EQ(m.link_length, 0U);
    const LectitoScore s = lectito_score(div, PassFlags::all);
    EXPECT_EQ(s.tag, 5.0);
    EXPECT_EQ(s.class_weight, 25.0);
    EXPECT_EQ(s.char_score + s.punctuation_score, 2.0);
    EXPECT_EQ(s.char_score, 2.0);
    EXPECT_EQ(s.punctuation_score, 0.0);
    EXPECT_EQ(s.container_bonus, 0.0);
    EXPECT_EQ(s.link_density, 0.0);
    EXPECT_EQ(s.total, 32.0);
}

// The seed's example HTML word for word. The seed counts "Commas: 4" and
// scores 32, but its text holds five commas (and two periods): seven
// punctuation marks give a punctuation point, so the formula gives 33.
TEST(LectitoScore, SeedExampleVerbatimScores33) {
    dom::Document doc = parse(R"(<div class="article-content">
<h1>Article Title</h1>
<p>
This is a substantial paragraph with plenty of text, including multiple
sentences, and commas, to demonstrate how content density scoring works.
</p>
<p>
Another paragraph with even more text, details, and information to
increase the character count.
</p>
</div>)");
    const dom::Node* div = doc.body()->first_element_child();
    const LectitoMeasures m = lectito_measure(div);
    EXPECT_EQ(m.punctuation, 7U);  // 5 commas, 2 periods
    EXPECT_GE(m.text_length, 200U);
    EXPECT_LT(m.text_length, 300U);
    const LectitoScore s = lectito_score(div, PassFlags::all);
    EXPECT_EQ(s.tag, 5.0);
    EXPECT_EQ(s.class_weight, 25.0);
    EXPECT_EQ(s.char_score, 2.0);
    EXPECT_EQ(s.punctuation_score, 1.0);
    EXPECT_EQ(s.link_density, 0.0);
    EXPECT_EQ(s.total, 33.0);
}

TEST(LectitoScore, LinkDensityScalesTheScore) {
    dom::Document doc = parse("<div>" + std::string(150, 'x') + "<a href=\"/a\">" + std::string(50, 'y') + "</a></div>");
    const LectitoScore s = lectito_score(doc.body()->first_element_child(), PassFlags::all);
    EXPECT_DOUBLE_EQ(s.link_density, 0.25);
    EXPECT_DOUBLE_EQ(s.total, (5.0 + 2.0) * 0.75);
}

TEST(LectitoScore, ContainerBonusForArticleSectionMain) {
    const std::string text(100, 'x');
    dom::Document doc = parse("<article>" + text + "</article><section>" + text + "</section><main>" + text +
                              "</main><div>" + text + "</div>");
    const dom::Node* article = doc.body()->first_element_child();
    const dom::Node* section = article->next_element_sibling();
    const dom::Node* main = section->next_element_sibling();
    const dom::Node* div = main->next_element_sibling();
    EXPECT_EQ(lectito_score(article, PassFlags::all).container_bonus, 2.0);
    EXPECT_EQ(lectito_score(article, PassFlags::all).total, 10.0 + 1.0 + 2.0);
    EXPECT_EQ(lectito_score(section, PassFlags::all).total, 8.0 + 1.0 + 2.0);
    EXPECT_EQ(lectito_score(main, PassFlags::all).total, 0.0 + 1.0 + 2.0);
    EXPECT_EQ(lectito_score(div, PassFlags::all).container_bonus, 0.0);
    EXPECT_EQ(lectito_score(div, PassFlags::all).total, 5.0 + 1.0);
}

TEST(LectitoScore, NegativePatternsWeighClassAndIdSeparately) {
    const std::string text(100, 'x');
    dom::Document doc = parse("<div class=\"Sidebar\">" + text + "</div><div id=\"page-footer\">" + text +
                              "</div><div class=\"pager\">" + text + "</div><div class=\"post\" id=\"main\">" +
                              text + "</div><div class=\"post\" id=\"comments\">" + text + "</div>");
    const dom::Node* sidebar = doc.body()->first_element_child();
    const dom::Node* footer = sidebar->next_element_sibling();
    const dom::Node* pager = footer->next_element_sibling();
    const dom::Node* post_main = pager->next_element_sibling();
    const dom::Node* post_comments = post_main->next_element_sibling();
    EXPECT_EQ(lectito_class_weight(sidebar, PassFlags::all), -25.0);
    EXPECT_EQ(lectito_score(sidebar, PassFlags::all).total, 5.0 - 25.0 + 1.0);
    // "page-footer": "page" is positive and "foot" negative, in the same attribute.
    EXPECT_EQ(lectito_class_weight(footer, PassFlags::all), 0.0);
    EXPECT_EQ(lectito_class_weight(pager, PassFlags::all), 0.0);  // "page" and "pager"
    EXPECT_EQ(lectito_class_weight(post_main, PassFlags::all), 50.0);
    EXPECT_EQ(lectito_class_weight(post_comments, PassFlags::all), 0.0);
    EXPECT_EQ(lectito_class_weight(sidebar, PassFlags::strip_unlikelys), 0.0);  // without weight_classes
}

TEST(LectitoScore, EmptyElementScoresZero) {
    dom::Document doc = parse("<article class=\"content\"></article>");
    EXPECT_EQ(lectito_score(doc.body()->first_element_child(), PassFlags::all).total, 0.0);
}

TEST(LectitoWalk, MeasuresEveryElementAsInnerTextLength) {
    dom::Document doc = parse(
        "<div id=a>  Lead \n\n text <span> in <b>bold</b></span>,more\xC2\xA0\xC2\xA0 text. "
        "<p>\xF0\x9F\x98\x80 emoji, <a href=x>a link</a> <a href=y>  two </a></p>  </div>"
        "<section><p>\t</p><p>x</p>y<ul><li>one.</li><li> two </li></ul></section>");
    const LectitoWalk walk = lectito_walk(doc.body(), PassFlags::none);
    ASSERT_EQ(walk.elements.size(), 12U);
    for (const LectitoElement& e : walk.elements) {
        EXPECT_EQ(e.measures.text_length, dom::inner_text_length(e.node)) << css_path(e.node);
        EXPECT_EQ(e.measures.text_length, lectito_measure(e.node).text_length) << css_path(e.node);
    }
    const dom::Node* p = by_id(doc, "a")->last_element_child();
    const LectitoMeasures m = lectito_measure(p);
    EXPECT_EQ(m.link_length, std::string_view("a link").size() + std::string_view("two").size());
    EXPECT_EQ(m.punctuation, 1U);
}

TEST(LectitoWalk, RemovesHiddenIframesAndUnlikelyCandidates) {
    const std::string page =
        "<div id=keep>text</div><div style=\"display:none\">hidden</div><iframe src=x></iframe>"
        "<div class=\"sidebar\">side</div><table><tr><td><div class=\"sidebar\">in table</div></td></tr></table>";
    {
        dom::Document doc = parse(page);
        const LectitoWalk walk = lectito_walk(doc.body(), PassFlags::all);
        EXPECT_EQ(dom::inner_text(doc.body()), "textin table");
        EXPECT_EQ(walk.elements_seen, 9U);  // the removed ones included
    }
    {
        dom::Document doc = parse(page);
        (void)lectito_walk(doc.body(), PassFlags::weight_classes);
        EXPECT_EQ(dom::inner_text(doc.body()), "textsidein table");
    }
}

TEST(RunLectito, PicksTheBestScoredElement) {
    dom::Document doc = parse("<div id=nav><a href=/>Home</a></div><div id=body><div id=story class=\"article\">" +
                              prose("Start.", 12) + "</div></div>");
    const StrategyResult result = run(doc);
    ASSERT_NE(result.content, nullptr);
    EXPECT_EQ(result.diagnostics.outcome, "accepted");
    EXPECT_EQ(result.diagnostics.chosen_root, "html>body>div#body>div#story");
    EXPECT_EQ(result.text_length, dom::inner_text_length(result.content));
    EXPECT_EQ(result.diagnostics.text_length, result.text_length);
    EXPECT_EQ(result.reason, "");
    ASSERT_FALSE(result.diagnostics.top_candidates.empty());
    EXPECT_EQ(result.diagnostics.top_candidates.front().path, "html>body>div#body>div#story");
    // div 5 + class 25 + id "story" 25 + 3 + 3, no links.
    EXPECT_EQ(result.diagnostics.top_candidates.front().score, 61.0);
    EXPECT_EQ(result.diagnostics.candidate_count, 2U);  // #story and #body
    EXPECT_NE(article_text(result).find("Start."), std::string::npos);
    EXPECT_EQ(article_text(result).find("Home"), std::string::npos);
}

TEST(RunLectito, BelowMinScoreIsNoContentWithReason) {
    dom::Document doc = parse("<div>" + prose("Plain.", 5) + "</div>");
    const StrategyResult result = run(doc);
    EXPECT_EQ(result.content, nullptr);
    EXPECT_EQ(result.diagnostics.outcome, "no_content");
    // div 5 + 3 points for 311 characters + 2 points for 11 commas and periods.
    EXPECT_EQ(result.reason, "best score 10 is under min_score 20");
    EXPECT_EQ(result.diagnostics.candidate_count, 1U);
}

TEST(RunLectito, MinContentLengthDecidesWhoIsACandidate) {
    const std::string page = "<div class=\"article\">Short, text. With, punctuation, everywhere, in. It, all.</div>";
    {
        dom::Document doc = parse(page);
        const StrategyResult result = run(doc);
        EXPECT_EQ(result.content, nullptr);
        EXPECT_EQ(result.diagnostics.outcome, "no_content");
        EXPECT_EQ(result.diagnostics.candidate_count, 0U);
        EXPECT_EQ(result.reason, "no element has 140 characters of text and a positive score");
    }
    {
        dom::Document doc = parse(page);
        ExtractOptions options;
        options.lectito.min_content_length = 50;
        const StrategyResult result = run(doc, options);
        ASSERT_NE(result.content, nullptr);
        EXPECT_EQ(result.diagnostics.candidate_count, 1U);
        EXPECT_EQ(result.diagnostics.outcome, "too_short");
        // div 5 + class 25 + 0 points for 57 characters + 1 point for 8 commas and periods.
        EXPECT_EQ(result.diagnostics.top_candidates.front().score, 5.0 + 25.0 + 0.0 + 1.0);
    }
}

TEST(RunLectito, GroupsAdjacentSiblingsOfSimilarScore) {
    // Scores: text div 61 (5 + 25 + 25 + 3 + 3), plain div 5 + 3 = 8, the
    // article 68 (10 + 50 + 3 + 3 + 2). 0.75 x 68 = 51.
    dom::Document doc = parse("<div id=wrap>"
                              "<div class=text id=page>" + prose("Far-before.", 6) + "</div>"
                              "<div>" + std::string(200, 'q') + "</div>"
                              "<div class=text id=story>" + prose("Before.", 6) + "</div>"
                              "<article class=text id=main>" + prose("Best.", 6) + "</article>"
                              "<div class=text id=entry>" + prose("After.", 6) + "</div>"
                              "<div>" + std::string(200, 'r') + "</div>"
                              "<div class=text id=post>" + prose("Far-after.", 6) + "</div>"
                              "</div>");
    const StrategyResult result = run(doc);
    ASSERT_NE(result.content, nullptr);
    EXPECT_EQ(result.diagnostics.chosen_root, "html>body>div#wrap>article#main");
    const std::string text = article_text(result);
    EXPECT_NE(text.find("Before."), std::string::npos);
    EXPECT_NE(text.find("Best."), std::string::npos);
    EXPECT_NE(text.find("After."), std::string::npos);
    EXPECT_EQ(text.find("Far-before."), std::string::npos);
    EXPECT_EQ(text.find("Far-after."), std::string::npos);
    EXPECT_EQ(text.find("qqq"), std::string::npos);
    EXPECT_EQ(text.find("rrr"), std::string::npos);
    EXPECT_LT(text.find("Before."), text.find("Best."));
    EXPECT_LT(text.find("Best."), text.find("After."));
}

TEST(RunLectito, KeepsHeadingsBeforeTheGroupUnderTheSameParent) {
    dom::Document doc = parse("<div id=wrap><p>Unrelated teaser line</p><h1>The Headline</h1><h2>A subtitle</h2>"
                              "<div class=article id=story>" + prose("Body.", 8) + "</div></div>"
                              "<div id=wrap2><p>Other teaser</p><header><h2>Second Headline</h2><p>By someone</p>"
                              "</header><div class=article id=text>" + prose("Second.", 8) + "</div></div>");
    {
        const StrategyResult result = run(doc);
        ASSERT_NE(result.content, nullptr);
        EXPECT_EQ(result.diagnostics.chosen_root, "html>body>div#wrap2>div#text");
        const std::string text = article_text(result);
        EXPECT_NE(text.find("Second Headline"), std::string::npos);
        EXPECT_NE(text.find("By someone"), std::string::npos);
        EXPECT_EQ(text.find("Other teaser"), std::string::npos);
    }
    dom::Document doc2 = parse("<div id=wrap><p>Unrelated teaser line</p><h1>The Headline</h1><h2>A subtitle</h2>"
                               "<div class=article id=story>" + prose("Body.", 8) + "</div></div>");
    const StrategyResult result = run(doc2);
    ASSERT_NE(result.content, nullptr);
    const std::string text = article_text(result);
    EXPECT_NE(text.find("The Headline"), std::string::npos);
    EXPECT_NE(text.find("A subtitle"), std::string::npos);
    EXPECT_EQ(text.find("Unrelated teaser"), std::string::npos);
    EXPECT_LT(text.find("The Headline"), text.find("Body."));
}

TEST(RunLectito, TiesGoToTheDeeperElement) {
    dom::Document doc = parse("<div id=outer><div id=inner>" + prose("Tied.", 10) + "</div></div>");
    ExtractOptions options;
    options.lectito.min_score = 1.0;
    const StrategyResult result = run(doc, options);
    ASSERT_NE(result.content, nullptr);
    ASSERT_EQ(result.diagnostics.top_candidates.size(), 2U);
    EXPECT_EQ(result.diagnostics.top_candidates[0].score, result.diagnostics.top_candidates[1].score);
    EXPECT_EQ(result.diagnostics.chosen_root, "html>body>div#outer>div#inner");
    EXPECT_EQ(result.diagnostics.top_candidates[0].path, "html>body>div#outer>div#inner");
}

TEST(RunLectito, DeepPagesDoNotRecurse) {
    std::string page;
    for (int i = 0; i < 20000; ++i) {
        page += "<div>";
    }
    page += prose("Deep.", 10);
    dom::Document doc = parse(page);
    ExtractOptions options;
    options.lectito.min_score = 1.0;
    const StrategyResult result = run(doc, options);
    EXPECT_EQ(result.diagnostics.outcome, "accepted");
    EXPECT_NE(article_text(result).find("Deep."), std::string::npos);
}

}  // namespace
}  // namespace pith::extract
