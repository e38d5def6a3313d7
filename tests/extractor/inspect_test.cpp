// What the inspector reads: source indexes of elements and candidates, the
// annotated page, every strategy side by side, and the word agreement.
#include <algorithm>
#include <gtest/gtest.h>

#include <string>

#include "parse_or_fail.hpp"
#include "pith/article_json.hpp"
#include "pith/extract.hpp"
#include "pith/inspect.hpp"
#include "survey_prose.hpp"

namespace {

using pith::dom::Node;
using pith::extract::Article;
using pith::extract::ExtractOptions;
using pith::extract::Status;
using pith::extract::Strategy;

const Node* element_at(const pith::dom::Document& doc, std::uint32_t source_index) {
    for (const Node* n = doc.root(); n != nullptr; n = pith::dom::next_element(n, doc.root())) {
        if (n->is_element() && n->source_index == source_index) {
            return n;
        }
    }
    return nullptr;
}

std::string story_page() {
    return "<html><head><title>Survey</title><meta http-equiv=\"refresh\" content=\"5;url=/elsewhere\"></head><body>"
           "<nav><a href=\"/a\">Home</a> <a href=\"/b\">News</a></nav>"
           "<div id=\"story\">" +
           pith::test::survey_paragraphs(8, "river") +
           "</div><footer><p>Footer text</p></footer></body></html>";
}

TEST(SourceIndex, CountsElementsInDocumentOrderFromOne) {
    const pith::dom::Document doc =
        pith::test::parse_or_fail("<p id=a>x<b id=b>y</b></p><div id=c><i id=d></i></div>");
    // html, head, body are 1, 2, 3; then the page's elements in document order.
    EXPECT_TRUE(element_at(doc, 1)->is(pith::dom::Tag::html));
    EXPECT_TRUE(element_at(doc, 3)->is(pith::dom::Tag::body));
    for (const auto& [index, id] : {std::pair{4U, "a"}, {5U, "b"}, {6U, "c"}, {7U, "d"}}) {
        const Node* n = element_at(doc, index);
        ASSERT_NE(n, nullptr) << index;
        EXPECT_EQ(n->attr("id"), id);
    }
    for (const Node* n = doc.root(); n != nullptr; n = pith::dom::next_node(n, doc.root())) {
        if (!n->is_element()) {
            EXPECT_EQ(n->source_index, 0U) << "only elements have a source index";
        }
    }
}

TEST(SourceIndex, CopiesKeepItAndMadeElementsHaveNone) {
    pith::dom::Document doc = pith::test::parse_or_fail("<div id=a><p id=b>x</p></div>");
    const Node* div = element_at(doc, 4);
    ASSERT_NE(div, nullptr);
    const Node* copy = doc.clone(div);
    EXPECT_EQ(copy->source_index, 4U);
    EXPECT_EQ(copy->first_element_child()->source_index, 5U);
    EXPECT_EQ(doc.create_element(pith::dom::Tag::div)->source_index, 0U);
}

TEST(SourceIndex, CandidatesAndRootsNameTheirSourceElements) {
    const std::string page = story_page();
    const pith::dom::Document source = pith::test::parse_or_fail(page);
    for (const Strategy strategy : {Strategy::readability, Strategy::lectito, Strategy::fitness, Strategy::automatic}) {
        ExtractOptions options;
        options.strategy = strategy;
        const Article article = pith::extract::extract(page, options);
        ASSERT_FALSE(article.passes.empty());
        bool root_is_story = false;
        for (const pith::extract::PassDiagnostics& pass : article.passes) {
            for (const pith::extract::CandidateInfo& candidate : pass.top_candidates) {
                ASSERT_NE(candidate.source_index, 0U) << candidate.path;
                const Node* n = element_at(source, candidate.source_index);
                ASSERT_NE(n, nullptr);
                // The path's last step names the same element.
                const std::string last = candidate.path.substr(candidate.path.rfind('>') + 1);
                EXPECT_EQ(last.substr(0, last.find_first_of("#.")), n->name) << candidate.path;
            }
            if (pass.chosen_root_index != 0) {
                root_is_story |= element_at(source, pass.chosen_root_index)->attr("id") == "story";
            }
        }
        EXPECT_TRUE(root_is_story) << pith::extract::strategy_name(strategy);
    }
}

TEST(AnnotatedSource, MarksTheRootAndCandidatesWithTheirScores) {
    ExtractOptions options;
    options.strategy = Strategy::readability;
    options.render.annotate_source = true;
    const Article article = pith::extract::extract(story_page(), options);
    ASSERT_TRUE(article.annotated_source.has_value());
    const pith::dom::Document marked = pith::test::parse_or_fail(*article.annotated_source);
    const Node* story = nullptr;
    std::size_t candidates = 0;
    for (const Node* n = marked.root(); n != nullptr; n = pith::dom::next_element(n, marked.root())) {
        if (n->attr("id") == "story") {
            story = n;
        }
        candidates += static_cast<std::size_t>(n->has_attr("data-pith-candidate"));
        EXPECT_FALSE(n->is(pith::dom::Tag::meta) && n->has_attr("http-equiv")) << "a refresh would leave the view";
    }
    ASSERT_NE(story, nullptr);
    EXPECT_TRUE(story->has_attr("data-pith-root"));
    EXPECT_EQ(story->attr("data-pith-candidate"), "1");
    EXPECT_NE(story->attr("title").find("candidate #1, score "), std::string_view::npos) << story->attr("title");
    EXPECT_NE(story->attr("title").find("the article returned"), std::string_view::npos);
    EXPECT_GE(candidates, 2U);
    EXPECT_NE(article.annotated_source->find("<style id=\"pith-marks\">"), std::string::npos);
    // The page outside the marks is as it was: the navigation is still there.
    EXPECT_NE(article.annotated_source->find("<a href=\"/a\">Home</a>"), std::string::npos);
}

TEST(AnnotatedSource, IsThereWhenNothingWasFoundAndAbsentUnlessAsked) {
    ExtractOptions options;
    options.render.annotate_source = true;
    const Article empty = pith::extract::extract("<html><body><img id=only src=a.png></body></html>", options);
    EXPECT_EQ(empty.status, Status::no_content);
    ASSERT_TRUE(empty.annotated_source.has_value());
    EXPECT_NE(empty.annotated_source->find("<img id=\"only\""), std::string::npos) << *empty.annotated_source;
    EXPECT_FALSE(pith::extract::extract(story_page(), ExtractOptions{}).annotated_source.has_value());
}

TEST(AnnotatedSource, IsCountedInTheMemoryEstimate) {
    ExtractOptions options;
    const Article plain = pith::extract::extract(story_page(), options);
    options.render.annotate_source = true;
    const Article annotated = pith::extract::extract(story_page(), options);
    ASSERT_TRUE(plain.cost && annotated.cost);
    EXPECT_EQ(annotated.cost->memory_bytes,
              plain.cost->memory_bytes + pith::extract::annotated_source_bytes(*plain.cost));
    EXPECT_GE(pith::extract::annotated_source_bytes(*plain.cost), 8 * plain.cost->markup_bytes);
}

TEST(Inspect, RunsEveryStrategyOnThePage) {
    ExtractOptions options;
    options.strategy = Strategy::lectito;
    const pith::extract::Inspection inspection = pith::extract::inspect(story_page(), options);
    EXPECT_EQ(inspection.article.strategy, Strategy::lectito);
    EXPECT_TRUE(inspection.article.annotated_source.has_value());
    EXPECT_TRUE(inspection.article.markdown.has_value());
    EXPECT_TRUE(inspection.article.text.has_value());
    ASSERT_EQ(inspection.strategies.size(), 4U);
    const Strategy order[] = {Strategy::readability, Strategy::lectito, Strategy::fitness, Strategy::automatic};
    for (std::size_t i = 0; i < 4; ++i) {
        const pith::extract::StrategySummary& s = inspection.strategies[i];
        EXPECT_EQ(s.strategy, order[i]);
        EXPECT_EQ(s.status, Status::ok) << pith::extract::strategy_name(s.strategy);
        EXPECT_GT(s.length, 500U);
        EXPECT_NE(s.text.find("river survey"), std::string::npos);
        EXPECT_NE(s.chosen_root_index, 0U);
        ASSERT_EQ(s.agreement.size(), 4U);
        EXPECT_DOUBLE_EQ(s.agreement[i], 1.0);
        for (const double share : s.agreement) {
            EXPECT_GT(share, 0.9) << "every strategy finds the story";
        }
    }
    EXPECT_EQ(inspection.strategies[1].length, inspection.article.length);

    const nlohmann::json j = pith::extract::inspection_json(inspection);
    EXPECT_EQ(j["strategies"].size(), 4U);
    EXPECT_EQ(j["strategies"][3]["strategy"], "auto");
    EXPECT_DOUBLE_EQ(j["strategies"][0]["agreement"]["readability"].get<double>(), 1.0);
    EXPECT_TRUE(j["source"].is_string());
}

TEST(Inspect, WordsHeldCountsEachWordAsOftenAsItOccurs) {
    using pith::extract::words_held;
    EXPECT_DOUBLE_EQ(words_held("a b c", "c b a"), 1.0);
    EXPECT_DOUBLE_EQ(words_held("a b c d", "a b"), 0.5);
    EXPECT_DOUBLE_EQ(words_held("a a a b", "a b"), 0.5);
    EXPECT_DOUBLE_EQ(words_held("", "a"), 0.0);
    EXPECT_DOUBLE_EQ(words_held("a", ""), 0.0);
    // Scripts written without spaces count a word a character.
    EXPECT_DOUBLE_EQ(words_held("\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", "\xE6\x97\xA5\xE6\x9C\xAC"), 2.0 / 3.0);
}

TEST(Diagnostics, JsonGivesSourceIndexesAndNullForMadeElements) {
    ExtractOptions options;
    options.strategy = Strategy::automatic;
    const Article article = pith::extract::extract(story_page(), options);
    pith::extract::JsonOptions json_options;
    json_options.diagnostics = true;
    const nlohmann::json j = pith::extract::to_json(article, json_options);
    // auto's first passes are its region's, which ranks no candidates: the
    // first of readability's does.
    const nlohmann::json& passes = j["diagnostics"]["passes"];
    const auto ranked = std::find_if(passes.begin(), passes.end(),
                                     [](const nlohmann::json& p) { return !p["top_candidates"].empty(); });
    ASSERT_NE(ranked, passes.end());
    const nlohmann::json& pass = *ranked;
    EXPECT_TRUE(pass["chosen_root_index"].is_number_unsigned());
    EXPECT_TRUE(pass["top_candidates"][0]["source_index"].is_number_unsigned());
    EXPECT_TRUE(j["diagnostics"]["auto"]["strategies"][0]["chosen_root_index"].is_number_unsigned());

    pith::extract::CandidateInfo made;
    pith::extract::PassDiagnostics made_pass;
    made_pass.top_candidates.push_back(made);
    Article with_made = article;
    with_made.passes = {made_pass};
    const nlohmann::json m = pith::extract::to_json(with_made, json_options);
    EXPECT_TRUE(m["diagnostics"]["passes"][0]["top_candidates"][0]["source_index"].is_null());
    EXPECT_TRUE(m["diagnostics"]["passes"][0]["chosen_root_index"].is_null());
}

}  // namespace

// With reveal_hidden, each strategy in the inspector reads the page as its own
// extraction does (auto and fitness take the hidden article as shown,
// readability does not), whichever strategy was asked for.
TEST(InspectorStrategies, RevealHiddenLeavesReadabilityItsOwnPage) {
    const std::string gated = "<html><head><title>Deltas</title></head><body><p>Confirm your age.</p>"
                              "<div style=\"display:none\"><article>" +
                              pith::test::survey_paragraphs(8, "delta") + "</article></div></body></html>";
    for (const Strategy asked : {Strategy::automatic, Strategy::readability}) {
        ExtractOptions options;
        options.strategy = asked;
        options.reveal_hidden = true;
        const pith::extract::Inspection inspection = pith::extract::inspect(gated, options);
        for (const pith::extract::StrategySummary& summary : inspection.strategies) {
            ExtractOptions alone = options;
            alone.strategy = summary.strategy;
            const Article article = pith::extract::extract(gated, alone);
            EXPECT_EQ(summary.status, article.status) << static_cast<int>(summary.strategy);
            EXPECT_EQ(summary.length, article.length) << static_cast<int>(summary.strategy);
            if (summary.strategy == Strategy::automatic || summary.strategy == Strategy::fitness) {
                EXPECT_NE(summary.text.find("delta survey"), std::string::npos);
            } else if (summary.strategy == Strategy::readability) {
                EXPECT_EQ(summary.text.find("delta survey"), std::string::npos);
            }
        }
    }
}
