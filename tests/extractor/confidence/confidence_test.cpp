// The confidence: what it reads, how it ranks agreement, and min_confidence.
#include "confidence/confidence.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "pith/extract.hpp"
#include "survey_prose.hpp"

namespace {

using pith::extract::Article;
using pith::extract::ConfidenceInputs;
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
    EXPECT_TRUE(empty.confidence_features.empty());
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
    in.removed_text = 100;
    in.readability_in_fitness = 0.95;
    in.fitness_in_readability = 0.5;
    in.kept_fitness = true;
    in.readability_length = 300;
    in.fitness_length = 600;
    const auto f = pith::extract::confidence_features(in);
    EXPECT_NEAR(f[0], std::log1p(300.0), 1e-12);
    EXPECT_DOUBLE_EQ(f[1], 0.25);
    EXPECT_DOUBLE_EQ(f[2], 0.1);
    EXPECT_DOUBLE_EQ(f[6], 1.0) << "best_attempt";
    EXPECT_NEAR(f[7], std::log1p(2.0), 1e-12);
    EXPECT_DOUBLE_EQ(f[8], 0.8);
    EXPECT_DOUBLE_EQ(f[9], 0.25) << "100 removed of the 400 there were";
    EXPECT_DOUBLE_EQ(f[10], 0.5);
    EXPECT_DOUBLE_EQ(f[11], 0.95);
    EXPECT_DOUBLE_EQ(f[12], 1.0);
    EXPECT_NEAR(f[13], std::abs(std::log1p(300.0) - std::log1p(600.0)), 1e-12);
    in.strategy = Strategy::fitness;
    const auto single = pith::extract::confidence_features(in);
    for (std::size_t i = 9; i < single.size(); ++i) {
        EXPECT_EQ(single[i], 0.0) << pith::extract::confidence_feature_names()[i] << " is auto's";
    }
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
