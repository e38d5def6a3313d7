// The confidence: what it reads, how it ranks agreement, and min_confidence.
#include "confidence/confidence.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "feature_named.hpp"
#include "pith/extract.hpp"
#include "survey_prose.hpp"

namespace {

using pith::extract::Article;
using pith::extract::ConfidenceInputs;
using pith::extract::RegionArticleShares;
using pith::extract::ExtractOptions;
using pith::extract::Status;
using pith::extract::Strategy;

std::string paragraphs(int count, const std::string& topic) { return pith::test::survey_paragraphs(count, topic); }

Article run(const std::string& html, ExtractOptions options = {}) { return pith::extract::extract(html, options); }

// The strategies agree: both take the one article there is.
const std::string kAgreed = "<html><head><title>Deltas</title></head><body><article>" + paragraphs(8, "river") +
                            "</article></body></html>";

// They disagree: readability takes the prose, fitness the prose and a table
// of short notes beside it.
std::string disputed() {
    std::string notes;
    for (int i = 0; i < 30; ++i) {
        notes += "<div>Glacier notes and maps from the archive</div>";
    }
    return "<html><head><title>Deltas</title></head><body><div id=\"main\">" + paragraphs(6, "river") +
           "</div><table><tr><td>" + notes + "</td></tr></table></body></html>";
}

TEST(Confidence, APageTheStrategiesAgreeOnScoresAboveOneTheyDisagreeOn) {
    const Article agreed = run(kAgreed);
    const Article disputed_page = run(disputed());
    ASSERT_EQ(agreed.status, Status::ok);
    ASSERT_EQ(disputed_page.status, Status::ok);
    EXPECT_GE(std::min(agreed.readability_in_fitness, agreed.fitness_in_readability), 0.99);
    EXPECT_LT(std::min(disputed_page.readability_in_fitness, disputed_page.fitness_in_readability), 0.6)
        << "the test's premise: the strategies took different blocks";
    EXPECT_GT(agreed.confidence, disputed_page.confidence + 0.1);
}

TEST(Confidence, MinConfidenceGivesLowConfidenceAndKeepsTheArticle) {
    const Article plain = run(kAgreed);
    ExtractOptions options;
    options.min_confidence = std::min(1.0, plain.confidence + 0.01);
    const Article routed = run(kAgreed, options);
    EXPECT_EQ(routed.status, Status::low_confidence);
    EXPECT_EQ(routed.content, plain.content);
    EXPECT_DOUBLE_EQ(routed.confidence, plain.confidence);
    options.min_confidence = plain.confidence - 0.01;
    EXPECT_EQ(run(kAgreed, options).status, Status::ok);
    EXPECT_EQ(pith::extract::status_name(Status::low_confidence), "low_confidence");
}

TEST(Confidence, NoArticleIsZeroWithNoFeaturesWhateverTheThreshold) {
    ExtractOptions options;
    options.min_confidence = 0.5;
    const Article empty = run("<html><body></body></html>", options);
    EXPECT_EQ(empty.status, Status::no_content);
    EXPECT_EQ(empty.confidence, 0.0);
    EXPECT_FALSE(empty.predicted_f1.has_value());
    EXPECT_TRUE(empty.confidence_features.empty());
}

TEST(Confidence, PredictedF1IsAWordF1AndFollowsTheConfidence) {
    const Article agreed = run(kAgreed);
    const Article disputed_page = run(disputed());
    for (const Article* article : {&agreed, &disputed_page}) {
        ASSERT_TRUE(article->predicted_f1.has_value());
        EXPECT_GE(*article->predicted_f1, 0.0);
        EXPECT_LE(*article->predicted_f1, 1.0);
    }
    EXPECT_GT(*agreed.predicted_f1, *disputed_page.predicted_f1);
}

TEST(Confidence, EveryStrategyHasOneAndOnlyAutoReadsAgreement) {
    for (Strategy strategy : {Strategy::readability, Strategy::lectito, Strategy::fitness, Strategy::automatic}) {
        ExtractOptions options;
        options.strategy = strategy;
        std::string page = kAgreed;
        page.replace(page.find("<article>"), 9, "<article class=\"article-content\">");  // lectito wants a name
        const Article article = run(page, options);
        ASSERT_NE(article.status, Status::no_content) << pith::extract::strategy_name(strategy);
        EXPECT_GT(article.confidence, 0.0);
        EXPECT_LT(article.confidence, 1.0);
        ASSERT_EQ(article.confidence_features.size(), pith::extract::kConfidenceFeatureCount);
        const double agreement = article.confidence_features[10];
        EXPECT_EQ(pith::extract::confidence_feature_names()[10], "agreement");
        EXPECT_EQ(agreement > 0.0, strategy == Strategy::automatic) << pith::extract::strategy_name(strategy);
    }
}

TEST(Confidence, FeaturesAreTheSignalsAsDocumented) {
    ConfidenceInputs in;
    in.strategy = Strategy::automatic;
    in.status = Status::best_attempt;
    in.text_length = 300;
    in.page_text_length = 1200;
    in.link_density = 0.1;
    in.paragraphs = 2;
    in.paragraph_text = 240;
    in.page_type_probabilities = {0.5, 0.1, 0.1, 0.1, 0.1, 0.05, 0.05};
    in.shape = {.lines = 4, .words = 40, .short_line_words = 10, .sentence_lines = 1, .digit_lines = 2,
                .repeated_lines = 1};
    in.removed_text = 100;
    in.readability_in_fitness = 0.95;
    in.fitness_in_readability = 0.5;
    in.kept_fitness = true;
    in.readability_length = 300;
    in.fitness_length = 600;
    std::array<double, pith::extract::kJudgeFeatureCount> judge{};
    for (std::size_t i = 0; i < judge.size(); ++i) {
        judge[i] = static_cast<double>(i);
    }
    in.judge_features = judge;
    in.region_gain = 0.07;
    in.cleaned_region_gain = -0.02;
    in.kept_region = true;
    const auto f = pith::extract::confidence_features(in);
    const auto names = pith::extract::confidence_feature_names();
    const auto at = [&](std::string_view name) {
        const auto it = std::find(names.begin(), names.end(), name);
        EXPECT_NE(it, names.end()) << name;
        return f[static_cast<std::size_t>(it - names.begin())];
    };
    EXPECT_NEAR(at("log_text_length"), std::log1p(300.0), 1e-12);
    EXPECT_DOUBLE_EQ(at("page_share"), 0.25);
    EXPECT_DOUBLE_EQ(at("link_density"), 0.1);
    EXPECT_DOUBLE_EQ(at("best_attempt"), 1.0);
    EXPECT_NEAR(at("log_paragraphs"), std::log1p(2.0), 1e-12);
    EXPECT_DOUBLE_EQ(at("prose_share"), 0.8);
    EXPECT_DOUBLE_EQ(at("removed_share"), 0.25) << "100 removed of the 400 there were";
    EXPECT_DOUBLE_EQ(at("agreement"), 0.5);
    EXPECT_DOUBLE_EQ(at("coverage"), 0.95);
    EXPECT_DOUBLE_EQ(at("kept_fitness"), 1.0);
    EXPECT_NEAR(at("length_disparity"), std::abs(std::log1p(300.0) - std::log1p(600.0)), 1e-12);
    EXPECT_DOUBLE_EQ(at("p_article"), 0.5);
    EXPECT_DOUBLE_EQ(at("p_service"), 0.05);
    EXPECT_NEAR(at("log_lines"), std::log1p(4.0), 1e-12);
    EXPECT_DOUBLE_EQ(at("short_line_share"), 0.25);
    EXPECT_DOUBLE_EQ(at("sentence_line_share"), 0.25);
    EXPECT_DOUBLE_EQ(at("digit_line_share"), 0.5);
    EXPECT_DOUBLE_EQ(at("repeated_line_share"), 0.25);
    EXPECT_NEAR(at("log_words_per_line"), std::log1p(10.0), 1e-12);
    // The judge's features after its page-type probabilities, by the judge's names.
    const auto judge_names = pith::extract::judge_feature_names();
    for (std::size_t i = pith::extract::kPageTypeCount; i < judge_names.size(); ++i) {
        EXPECT_DOUBLE_EQ(at("judge_" + std::string(judge_names[i])), static_cast<double>(i)) << judge_names[i];
    }
    EXPECT_DOUBLE_EQ(at("region_gain"), 0.07);
    EXPECT_DOUBLE_EQ(at("cleaned_region_gain"), -0.02);
    EXPECT_DOUBLE_EQ(at("kept_region"), 1.0);
    EXPECT_DOUBLE_EQ(at("kept_cleaned_region"), 0.0);
    // What only auto has is 0 for the other strategies; what every strategy has stays.
    in.strategy = Strategy::fitness;
    const auto single = pith::extract::confidence_features(in);
    for (std::string_view name : {"removed_share", "agreement", "coverage", "kept_fitness", "length_disparity",
                                  "judge_article_length", "judge_prose_share", "region_gain", "kept_region"}) {
        const auto i = static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
        EXPECT_EQ(single[i], 0.0) << name << " is auto's";
    }
    EXPECT_DOUBLE_EQ(single[static_cast<std::size_t>(std::find(names.begin(), names.end(), "p_article") -
                                                     names.begin())], 0.5);
}

TEST(Confidence, AReturnedRegionAgreesOrNotWithTheArticleNotTheStrategiesWithEachOther) {
    ConfidenceInputs in;
    in.strategy = Strategy::automatic;
    in.text_length = 3000;
    in.readability_in_fitness = 1.0;  // both strategies took the same article...
    in.fitness_in_readability = 1.0;
    in.kept_region = true;
    in.region_article_shares = RegionArticleShares{0.1, 1.0};  // ...and the region returned holds ten times more
    const auto names = pith::extract::confidence_feature_names();
    const auto region = pith::extract::confidence_features(in);
    EXPECT_DOUBLE_EQ(pith::test::feature_named(region, names, "agreement"), 0.1);
    EXPECT_DOUBLE_EQ(pith::test::feature_named(region, names, "coverage"), 1.0);
    in.kept_region = false;  // the article returned: the strategies' shares again
    in.region_article_shares.reset();
    const auto article = pith::extract::confidence_features(in);
    EXPECT_DOUBLE_EQ(pith::test::feature_named(article, names, "agreement"), 1.0);
    EXPECT_DOUBLE_EQ(pith::test::feature_named(article, names, "coverage"), 1.0);
}

TEST(Confidence, AutoReturningARegionBesideAnArticleRecordsTheirShares) {
    // A page whose article is one paragraph of a grid's region, taken for a
    // collection and so answered with the region.
    std::string cards;
    for (int i = 1; i <= 24; ++i) {
        cards += "<li class=\"product\"><a href=\"/p/" + std::to_string(i) + "\">Shoe model " + std::to_string(i) +
                 "</a><span class=\"price\">$" + std::to_string(80 + i) + ".00</span><button>Add to cart</button>"
                 "</li>";
    }
    const std::string page =
        "<html><head><title>Running shoes</title><link rel=\"canonical\" href=\"https://example.org/shop/"
        "running-shoes\"></head><body><nav><a href=\"/\">Shop</a></nav><main><h1>Running shoes</h1><div "
        "class=\"category-description\"><p>Road and trail shoes for every distance, from light racers to "
        "cushioned trainers, all with free returns within thirty days of delivery.</p></div><div class=\"filters\">"
        "Sort by</div><ul class=\"products grid\">" + cards + "</ul></main><footer>Copyright line</footer></body>"
        "</html>";
    const Article article = run(page);
    ASSERT_EQ(article.status, Status::ok);
    ASSERT_TRUE(article.region_article_shares.has_value()) << article.decision;
    const RegionArticleShares& shares = *article.region_article_shares;
    EXPECT_EQ(article.decision.rfind("region kept", 0), 0U) << article.decision;
    EXPECT_LT(shares.region_in_article, 0.5) << "the description is a small part of the grid";
    EXPECT_GT(shares.article_in_region, 0.9) << "the region holds the description";
    EXPECT_DOUBLE_EQ(
        pith::test::feature_named(article.confidence_features, pith::extract::confidence_feature_names(), "agreement"),
        shares.region_in_article);
}

TEST(Confidence, ContentShapeReadsBlocksAsLines) {
    // Five lines: a sentence, a short line with a digit, the same short line
    // again, a list item of two inline parts, and a heading; the <div>'s own
    // text before its <p> is a line of its own.
    const std::string html =
        "<html><body><div>Lead words here<p>The river ran <b>fast</b> and far today.</p>"
        "<p>Price 12</p><p>Price  12</p><ul><li><a href=\"#\">one</a> <span>two</span></li></ul>"
        "<h2>End</h2></div></body></html>";
    auto parsed = pith::dom::parse_html(html);
    ASSERT_TRUE(parsed.ok());
    const pith::dom::Document doc = std::move(parsed).value();
    const pith::dom::Node* div = doc.body()->first_child;
    ASSERT_TRUE(div != nullptr && div->is(pith::dom::Tag::div));
    const pith::extract::ContentShape shape = pith::extract::content_shape(div);
    EXPECT_EQ(shape.lines, 6U);
    EXPECT_EQ(shape.words, 3U + 7U + 2U + 2U + 2U + 1U);
    EXPECT_EQ(shape.short_line_words, 3U + 2U + 2U + 2U + 1U);
    EXPECT_EQ(shape.sentence_lines, 1U);
    EXPECT_EQ(shape.digit_lines, 2U);
    EXPECT_EQ(shape.repeated_lines, 1U) << "white space inside a line does not make it another";
}

TEST(Confidence, MinConfidenceIsValidated) {
    ExtractOptions options;
    options.min_confidence = 1.5;
    EXPECT_FALSE(pith::extract::validate(options).ok());
    options.min_confidence = -0.1;
    EXPECT_FALSE(pith::extract::validate(options).ok());
    options.min_confidence = 1.0;
    EXPECT_TRUE(pith::extract::validate(options).ok());
}

}  // namespace
