#include "strategies/fitness.hpp"

#include <chrono>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

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

const FitnessElement* find(const FitnessWalk& walk, std::string_view id) {
    for (const FitnessElement& e : walk.elements) {
        if (e.node->attr("id") == id) {
            return &e;
        }
    }
    ADD_FAILURE() << "no element #" << id;
    return nullptr;
}

// Weights for the end-to-end tests, independent of the (placeholder) defaults.
FitnessOptions test_weights() {
    FitnessOptions o;
    o.link_density_weight = 2.0;
    o.tag_density_weight = 0.0;
    o.title_case_weight = 2.0;
    o.punctuation_weight = 1.0;
    o.word_count_weight = 2.0;
    o.depth_weight = 0.0;
    o.document_word_postweight = 0.25;
    o.min_child_fitness_ratio = 0.66;
    o.min_text_percentage = 0.25;
    o.punctuation_norm = 0.05;
    return o;
}

// --- character classes ----------------------------------------------------------------------

TEST(FitnessText, LetterCaseAndPunctuation) {
    EXPECT_EQ(letter_case(U'A'), LetterCase::upper);
    EXPECT_EQ(letter_case(U'z'), LetterCase::lower);
    EXPECT_EQ(letter_case(U'7'), LetterCase::none);
    EXPECT_EQ(letter_case(U','), LetterCase::none);
    EXPECT_EQ(letter_case(0x00C9), LetterCase::upper);    // É
    EXPECT_EQ(letter_case(0x00E9), LetterCase::lower);    // é
    EXPECT_EQ(letter_case(0x0141), LetterCase::upper);    // Ł
    EXPECT_EQ(letter_case(0x0142), LetterCase::lower);    // ł
    EXPECT_EQ(letter_case(0x0416), LetterCase::upper);    // Ж
    EXPECT_EQ(letter_case(0x0436), LetterCase::lower);    // ж
    EXPECT_EQ(letter_case(0x03A9), LetterCase::upper);    // Ω
    EXPECT_EQ(letter_case(0x6771), LetterCase::caseless);  // 東
    EXPECT_EQ(letter_case(0x0627), LetterCase::caseless);  // ا
    EXPECT_EQ(letter_case(0x0301), LetterCase::none);     // combining acute
    EXPECT_TRUE(is_punctuation(U'.'));
    EXPECT_TRUE(is_punctuation(U'$'));
    EXPECT_TRUE(is_punctuation(0x2014));  // em dash
    EXPECT_TRUE(is_punctuation(0x3002));  // ideographic full stop
    EXPECT_TRUE(is_punctuation(0xFF0C));  // full-width comma
    EXPECT_FALSE(is_punctuation(U'a'));
    EXPECT_FALSE(is_punctuation(U'5'));
    EXPECT_FALSE(is_punctuation(U' '));
    EXPECT_FALSE(is_punctuation(0x00E9));
    EXPECT_FALSE(is_punctuation(0x6771));
}

// --- step 0: statistics ---------------------------------------------------------------------

TEST(FitnessWalk, GathersStatisticsBottomUp) {
    dom::Document doc = parse("<div id=d>Hello World, <a id=l href=#>Link Here</a> and <b>bold</b> text."
                              "<p id=p>Inner Para text.</p></div>");
    const FitnessWalk walk = fitness_walk(doc.body(), PassFlags::none);
    ASSERT_EQ(walk.elements.size(), 5U);  // body, div, a, b, p
    EXPECT_EQ(walk.elements.front().node, doc.body());
    const FitnessElement* div = find(walk, "d");
    ASSERT_NE(div, nullptr);
    EXPECT_EQ(div->stats.chars, dom::inner_text_length(div->node));
    EXPECT_EQ(div->stats.chars, 53U);         // "...text.Inner Para text."
    EXPECT_EQ(div->stats.link_chars, 9U);     // "Link Here"
    EXPECT_EQ(div->stats.direct_chars, 37U);  // "Hello World, Link Here and bold text."
    EXPECT_EQ(div->stats.words, 10U);         // "text." and "Inner" are two words: <p> is a block
    EXPECT_EQ(div->stats.title_case_words, 6U);
    EXPECT_EQ(div->stats.punctuation, 3U);    // , . .
    EXPECT_EQ(div->stats.depth, 2U);
    const FitnessElement* p = find(walk, "p");
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->stats.direct_chars, p->stats.chars);
    EXPECT_EQ(p->stats.words, 3U);
    EXPECT_EQ(p->stats.depth, 3U);
    const FitnessElement* link = find(walk, "l");
    ASSERT_NE(link, nullptr);
    EXPECT_EQ(link->stats.link_chars, link->stats.chars);
    EXPECT_EQ(walk.document.words, 10U);
    EXPECT_EQ(walk.document.max_depth, 3U);
}

TEST(FitnessWalk, WordsRunOnAcrossInlineElements) {
    dom::Document doc = parse("<p id=p><span id=s>Dr</span>op cap and <em>mid</em>word</p>");
    const FitnessWalk walk = fitness_walk(doc.body(), PassFlags::none);
    const FitnessElement* p = find(walk, "p");
    const FitnessElement* span = find(walk, "s");
    ASSERT_NE(p, nullptr);
    ASSERT_NE(span, nullptr);
    EXPECT_EQ(p->stats.words, 4U);  // Drop cap and midword
    EXPECT_EQ(p->stats.title_case_words, 1U);
    EXPECT_EQ(span->stats.words, 0U);  // only part of a word
}

TEST(FitnessWalk, TitleCaseNeedsCasedLetters) {
    dom::Document doc = parse("<p>\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82 "  // Привет
                              "\xD0\x9C\xD0\xB8\xD1\x80 "                             // Мир
                              "\xE6\x9D\xB1\xE4\xBA\xAC "                             // 東京
                              "\xC3\x89t\xC3\xA9 "                                    // Été
                              "\xC3\x89T\xC3\x89 "                                    // ÉTÉ
                              "\xC3\xA9" "cole A I'm 1st -- Don't</p>");
    const FitnessWalk walk = fitness_walk(doc.body(), PassFlags::none);
    const FitnessStats& p = walk.elements.back().stats;
    EXPECT_EQ(p.words, 10U);            // "--" has no letter or digit
    EXPECT_EQ(p.title_case_words, 5U);  // Привет Мир Été I'm Don't
}

TEST(FitnessWalk, RemovesHiddenAndUnlikelyElements) {
    dom::Document doc = parse("<p>one two</p><p hidden>three</p><div class=sidebar>four five</div>");
    const FitnessWalk walk = fitness_walk(doc.body(), PassFlags::strip_unlikelys);
    EXPECT_EQ(walk.document.words, 2U);
    EXPECT_EQ(walk.elements_seen, 3U);
    EXPECT_EQ(walk.elements.size(), 2U);
}

// --- step 1: features and weights -----------------------------------------------------------

TEST(FitnessFeatures, MapsStatisticsIntoUnitRange) {
    FitnessStats s;
    s.chars = 200;
    s.link_chars = 50;
    s.direct_chars = 100;
    s.words = 40;
    s.title_case_words = 10;
    s.punctuation = 5;
    s.depth = 3;
    const FitnessDocument document{400, 6};
    FitnessOptions options;
    options.punctuation_norm = 0.05;
    const FitnessFeatures f = fitness_features(s, document, options);
    EXPECT_DOUBLE_EQ(f.link, 0.75);
    EXPECT_DOUBLE_EQ(f.tag, 0.5);
    EXPECT_DOUBLE_EQ(f.title_case, 0.75);
    EXPECT_DOUBLE_EQ(f.punctuation, 0.5);  // 5 / 200 = 0.025, half of 0.05
    EXPECT_DOUBLE_EQ(f.words, std::log(41.0) / std::log(401.0));
    EXPECT_DOUBLE_EQ(f.depth, 0.5);

    s.punctuation = 50;
    EXPECT_DOUBLE_EQ(fitness_features(s, document, options).punctuation, 1.0);
    const FitnessFeatures empty = fitness_features(FitnessStats{}, FitnessDocument{}, options);
    EXPECT_DOUBLE_EQ(empty.link, 1.0);
    EXPECT_DOUBLE_EQ(empty.words, 0.0);
    EXPECT_DOUBLE_EQ(empty.depth, 0.0);
}

TEST(FitnessWeights, WeightedMeanOfFeatures) {
    const FitnessFeatures f{1.0, 0.5, 0.25, 0.0, 0.75, 1.0};
    FitnessOptions o;  // all weights 1
    o.link_density_weight = o.tag_density_weight = o.title_case_weight = 1.0;
    o.punctuation_weight = o.word_count_weight = o.depth_weight = 1.0;
    EXPECT_DOUBLE_EQ(weighted_fitness(f, o), 3.5 / 6.0);
    o.link_density_weight = 3.0;
    o.tag_density_weight = o.title_case_weight = o.punctuation_weight = o.word_count_weight = 0.0;
    o.depth_weight = 1.0;
    EXPECT_DOUBLE_EQ(weighted_fitness(f, o), 1.0);
    o.title_case_weight = 4.0;
    EXPECT_DOUBLE_EQ(weighted_fitness(f, o), (3.0 + 1.0 + 1.0) / 8.0);
    o = FitnessOptions{};
    o.link_density_weight = o.tag_density_weight = o.title_case_weight = 0.0;
    o.punctuation_weight = o.word_count_weight = o.depth_weight = 0.0;
    EXPECT_EQ(weighted_fitness(f, o), 0.0);
}

// --- step 2: post-weight --------------------------------------------------------------------

TEST(FitnessPostweight, BlendsInTheShareOfDocumentWords) {
    EXPECT_DOUBLE_EQ(postweighted_fitness(0.8, 50, 200, 0.25), 0.75 * 0.8 + 0.25 * 0.25);
    EXPECT_DOUBLE_EQ(postweighted_fitness(0.8, 50, 200, 0.0), 0.8);
    EXPECT_DOUBLE_EQ(postweighted_fitness(0.8, 50, 200, 1.0), 0.25);
    EXPECT_DOUBLE_EQ(postweighted_fitness(0.8, 0, 0, 0.25), 0.6);
}

// --- step 3: container ----------------------------------------------------------------------

TEST(FitnessContainer, HighestFinalFitnessWithWordsTiesToTheLater) {
    std::vector<FitnessElement> elements(4);
    elements[0].stats.words = 10;
    elements[0].final_fitness = 0.5;
    elements[1].stats.words = 0;
    elements[1].final_fitness = 0.9;  // no words: not a candidate
    elements[2].stats.words = 5;
    elements[2].final_fitness = 0.7;
    elements[3].stats.words = 3;
    elements[3].final_fitness = 0.7;
    EXPECT_EQ(choose_container(elements), 3U);
    elements[3].final_fitness = 0.6;
    EXPECT_EQ(choose_container(elements), 2U);
    for (FitnessElement& e : elements) {
        e.stats.words = 0;
    }
    EXPECT_EQ(choose_container(elements), kNoContainer);
}

// --- step 4: pruning ------------------------------------------------------------------------

TEST(FitnessPrune, DropsWeakChildrenFromBothEndsOnly) {
    const ChildRange r = prune_children({0.2, 0.9, 1.0, 0.1, 0.8, 0.3}, 0.66);
    EXPECT_EQ(r.first, 1U);
    EXPECT_EQ(r.last, 5U);  // 0.1 in the middle stays
    const ChildRange all = prune_children({0.5, 0.5}, 0.66);
    EXPECT_EQ(all.first, 0U);
    EXPECT_EQ(all.last, 2U);
    const ChildRange zeros = prune_children({0.0, 0.0, 0.0}, 0.66);
    EXPECT_EQ(zeros.first, 0U);
    EXPECT_EQ(zeros.last, 3U);
    const ChildRange none = prune_children({}, 0.66);
    EXPECT_EQ(none.first, none.last);
    const ChildRange no_ratio = prune_children({0.01, 1.0, 0.02}, 0.0);
    EXPECT_EQ(no_ratio.first, 0U);
    EXPECT_EQ(no_ratio.last, 3U);
}

// --- step 5: whole-document fallback --------------------------------------------------------

TEST(FitnessFallback, SmallContainersGiveWayToTheBody) {
    EXPECT_TRUE(falls_back_to_body(24, 100, 0.25));
    EXPECT_FALSE(falls_back_to_body(25, 100, 0.25));
    EXPECT_FALSE(falls_back_to_body(100, 100, 1.0));
    EXPECT_FALSE(falls_back_to_body(0, 100, 0.0));
}

// --- end to end -----------------------------------------------------------------------------

std::string article_page() {
    std::string page =
        "<header id=top><a href=/>Site Name</a><h1>The Headline Of The Story</h1></header>"
        "<nav id=nav><ul><li><a href=/a>Home Page</a></li><li><a href=/b>World News</a></li>"
        "<li><a href=/c>Local Politics</a></li><li><a href=/d>Business And Markets</a></li>"
        "<li><a href=/e>Science And Technology</a></li><li><a href=/f>Arts And Culture</a></li></ul></nav>"
        "<article id=story><div class=tools id=tools><a href=/s1>Post To Your Feed</a> "
        "<a href=/s2>Send By Mail</a> <a href=/s3>Print This Page</a></div>";
    const char* const sentences[] = {
        "The council met on Tuesday evening to discuss the new budget, which had been delayed for weeks. ",
        "Several members argued that the proposal, as written, would leave the library without funding. ",
        "Others said the cuts were necessary; the city, they noted, had run a deficit for three years. ",
        "In the end, the vote was postponed until next month, when a revised plan will be presented. ",
    };
    for (int p = 0; p < 5; ++p) {
        page += "<p id=p" + std::to_string(p) + ">";
        for (const char* s : sentences) {
            page += s;
        }
        page += "</p>";
    }
    page +=
        "</article><aside id=more><h3>More Stories</h3><ul>"
        "<li><a href=/r1>Mayor Announces New Plan For Downtown Parking</a></li>"
        "<li><a href=/r2>High School Team Wins State Championship Again</a></li>"
        "<li><a href=/r3>Local Bakery Celebrates Fifty Years In Business</a></li>"
        "<li><a href=/r4>Weather Service Warns Of Heavy Snow This Weekend</a></li></ul></aside>"
        "<footer id=bottom><p>Copyright The Daily Example. All Rights Reserved.</p>"
        "<a href=/about>About Us</a> <a href=/contact>Contact Us</a></footer>";
    return page;
}

TEST(RunFitness, ChoosesTheArticleAndPrunesItsLeadingLinks) {
    dom::Document doc = parse(article_page());
    ExtractOptions options;
    options.fitness = test_weights();
    PassInput input;
    input.flags = PassFlags::all;
    const StrategyResult result = run_fitness(doc, options, input);
    ASSERT_NE(result.content, nullptr);
    EXPECT_EQ(result.diagnostics.outcome, "accepted");
    EXPECT_EQ(result.diagnostics.chosen_root, "html>body>article#story");
    EXPECT_EQ(result.reason, "");
    ASSERT_FALSE(result.diagnostics.top_candidates.empty());
    EXPECT_EQ(result.diagnostics.top_candidates.front().path, "html>body>article#story");
    EXPECT_GT(result.diagnostics.candidate_count, 10U);
    EXPECT_EQ(result.text_length, dom::inner_text_length(result.content));
    const std::string text = dom::inner_text(result.content);
    EXPECT_NE(text.find("The council met"), std::string::npos);
    EXPECT_NE(text.find("revised plan will be presented."), std::string::npos);
    EXPECT_EQ(text.find("Post To Your Feed"), std::string::npos);  // pruned
    EXPECT_EQ(text.find("World News"), std::string::npos);
    EXPECT_EQ(text.find("More Stories"), std::string::npos);
    EXPECT_EQ(text.find("Copyright"), std::string::npos);
}

TEST(RunFitness, TooLittleTextInTheContainerTakesTheWholeBody) {
    dom::Document doc = parse(article_page());
    ExtractOptions options;
    options.fitness = test_weights();
    options.fitness.min_text_percentage = 1.0;  // only <body> holds all the words
    PassInput input;
    input.flags = PassFlags::none;
    const StrategyResult result = run_fitness(doc, options, input);
    ASSERT_NE(result.content, nullptr);
    EXPECT_EQ(result.diagnostics.chosen_root, "html>body");
    const std::string text = dom::inner_text(result.content);
    EXPECT_NE(text.find("Post To Your Feed"), std::string::npos);  // nothing pruned
    EXPECT_NE(text.find("The council met"), std::string::npos);
    EXPECT_NE(text.find("World News"), std::string::npos);
}

TEST(RunFitness, PageWithoutWordsIsNoContent) {
    dom::Document doc = parse("<div><img src=a.png></div><p> -- </p>");
    const StrategyResult result = run_fitness(doc, ExtractOptions{}, PassInput{});
    EXPECT_EQ(result.content, nullptr);
    EXPECT_EQ(result.diagnostics.outcome, "no_content");
    EXPECT_EQ(result.reason, "the page has no words");
}

TEST(RunFitness, DeepPagesDoNotRecurse) {
    std::string page;
    for (int i = 0; i < 20000; ++i) {
        page += "<div>";
    }
    page += "Deep text, with words.";
    dom::Document doc = parse(page);
    ExtractOptions options;
    options.fitness = test_weights();
    PassInput input;
    input.flags = PassFlags::none;  // clean_conditionally would drop so short a text
    const StrategyResult result = run_fitness(doc, options, input);
    ASSERT_NE(result.content, nullptr);
    EXPECT_EQ(result.diagnostics.outcome, "too_short");
    EXPECT_EQ(dom::inner_text(result.content), "Deep text, with words.");
}

}  // namespace
}  // namespace pith::extract
