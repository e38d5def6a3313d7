#include "confidence/confidence.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

#include "models/forest.hpp"

namespace pith::extract {

namespace {

enum Feature : std::size_t {
    log_text_length, page_share, link_density, relaxation, runner_up_ratio, readerable, best_attempt,
    log_paragraphs, prose_share,
    removed_share, agreement, coverage, kept_fitness, length_disparity,
    p_article,  // then one probability per page type, in PageType's order
    log_lines = p_article + kPageTypeCount, short_line_share, sentence_line_share, digit_line_share,
    repeated_line_share, log_words_per_line,
    judge_first,  // then the judge's features after its page-type probabilities
    region_gain = judge_first + kJudgeFeatureCount - kPageTypeCount, cleaned_region_gain, kept_region,
    kept_cleaned_region, answer_block_f1, feature_end,
};
static_assert(feature_end == kConfidenceFeatureCount, "kConfidenceFeatureCount is the features' number");

constexpr std::array<std::string_view, kConfidenceFeatureCount> kFeatureNames = {
    "log_text_length",   // ln(1 + article text)
    "page_share",        // article text / page text
    "link_density",      //
    "relaxation",        // flags dropped before the accepted pass
    "runner_up_ratio",   //
    "readerable",        // 0 or 1
    "best_attempt",      // 0 or 1: no pass reached char_threshold
    "log_paragraphs",    // ln(1 + paragraphs of 80+ characters)
    "prose_share",       // their text / article text
    "removed_share",     // auto: boilerplate removed / article text before
    "agreement",         // auto: the smaller held share (the two articles', or a returned region's and the article's)
    "coverage",          // auto: the larger
    "kept_fitness",      // auto: 0 or 1
    "length_disparity",  // auto: |ln((1 + readability's text) / (1 + fitness's))|
    "p_article", "p_forum", "p_product", "p_collection", "p_listing", "p_documentation", "p_service",
    "log_lines",            // ln(1 + lines), ContentShape's
    "short_line_share",     // of the words, in lines of under six
    "sentence_line_share",  // of the lines
    "digit_line_share",     // of the lines
    "repeated_line_share",  // of the lines
    "log_words_per_line",   // ln(1 + words / lines)
    // auto: the judge's features (judge.cpp), 0 when it read none.
    "judge_article_length", "judge_region_length", "judge_cleaned_length", "judge_article_to_region",
    "judge_cleaned_to_region", "judge_article_in_region", "judge_article_in_cleaned", "judge_article_links",
    "judge_region_links", "judge_cleaned_links", "judge_article_blocks_to_region", "judge_cleaned_blocks_to_region",
    "judge_readability_in_fitness", "judge_fitness_in_readability", "judge_fitness_kept", "judge_region_is_main",
    "judge_whole_to_region", "judge_repeated_share", "judge_prose_share", "judge_region_block_gain",
    "judge_cleaned_block_gain",
    "region_gain",          // auto: the gain in word F1 the judge predicted for the pruned region
    "cleaned_region_gain",  // auto: and for the cleaned one
    "kept_region",          // auto: 0 or 1, the candidate returned
    "kept_cleaned_region",  // auto: 0 or 1
    "answer_block_f1",      // auto: the word F1 the block model expects of the answer
};

namespace confidence_model {
#include "confidence/confidence_model.inc"
static_assert(kFeatureCount == kConfidenceFeatureCount, "confidence_model.inc was fitted on other features: refit");
static_assert(kModels == 4, "a model of the word F1 for each of four strategies");
}  // namespace confidence_model

double share(std::size_t part, std::size_t whole) noexcept {
    return whole == 0 ? 0.0 : std::min(1.0, static_cast<double>(part) / static_cast<double>(whole));
}

double log1p_size(std::size_t n) noexcept { return std::log1p(static_cast<double>(n)); }

std::size_t model_row(Strategy strategy) noexcept {
    switch (strategy) {
    case Strategy::readability: return 0;
    case Strategy::lectito: return 1;
    case Strategy::fitness: return 2;
    case Strategy::automatic:
    case Strategy::region: return 3;  // region is only ever auto's pass
    }
    return 3;
}

double model_margin(std::size_t m, const ConfidenceFeatures& features) noexcept {
    using namespace confidence_model;
    // The trees never read agreement or coverage: they enter as one fitted
    // straight term, with a slope of its own where auto returned a region,
    // whose shares are the region's with an article it holds.
    const double region = std::max(features[kept_region], features[kept_cleaned_region]);
    const std::array<double, 4> terms{features[agreement], features[coverage], features[agreement] * region,
                                      features[coverage] * region};
    static_assert(kShareWeights[0].size() == terms.size(),
                  "confidence_model.inc was fitted on another straight term: refit");
    double straight = 0.0;
    for (std::size_t i = 0; i < terms.size(); ++i) {
        straight += kShareWeights[m][i] * terms[i];
    }
    return models::margin(models::model_of(kNodes, kStarts, kModelTrees, m, 1, kBase[m]), features) + straight;
}

}  // namespace

std::span<const std::string_view, kConfidenceFeatureCount> confidence_feature_names() noexcept {
    return kFeatureNames;
}

ConfidenceFeatures confidence_features(const ConfidenceInputs& in) noexcept {
    ConfidenceFeatures f{};
    f[log_text_length] = log1p_size(in.text_length);
    f[page_share] = share(in.text_length, in.page_text_length);
    f[link_density] = std::clamp(in.link_density, 0.0, 1.0);
    f[relaxation] = static_cast<double>(in.relaxation);
    f[runner_up_ratio] = std::clamp(in.runner_up_ratio, 0.0, 1.0);
    f[readerable] = in.readerable ? 1.0 : 0.0;
    f[best_attempt] = in.status == Status::best_attempt ? 1.0 : 0.0;
    f[log_paragraphs] = log1p_size(in.paragraphs);
    f[prose_share] = share(in.paragraph_text, in.text_length);
    std::copy(in.page_type_probabilities.begin(), in.page_type_probabilities.end(), f.begin() + p_article);
    const ContentShape& shape = in.shape;
    f[log_lines] = log1p_size(shape.lines);
    f[short_line_share] = share(shape.short_line_words, shape.words);
    f[sentence_line_share] = share(shape.sentence_lines, shape.lines);
    f[digit_line_share] = share(shape.digit_lines, shape.lines);
    f[repeated_line_share] = share(shape.repeated_lines, shape.lines);
    f[log_words_per_line] =
        shape.lines == 0 ? 0.0 : std::log1p(static_cast<double>(shape.words) / static_cast<double>(shape.lines));
    if (in.strategy == Strategy::automatic) {
        f[removed_share] = share(in.removed_text, in.text_length + in.removed_text);
        // The agreement is the answer's with what else was found: the two
        // strategies' articles with each other, or a region returned with
        // their article. Where a region is returned, the strategies agreeing
        // on an article says little of it: a grid's description or a service
        // page's longest section is found alike by both, and the region
        // holding far more than that is where its bad answers are.
        const std::optional<RegionArticleShares>& region = in.region_article_shares;
        const double one_way = region ? region->region_in_article : in.readability_in_fitness;
        const double other_way = region ? region->article_in_region : in.fitness_in_readability;
        f[agreement] = std::min(one_way, other_way);
        f[coverage] = std::max(one_way, other_way);
        f[kept_fitness] = in.kept_fitness ? 1.0 : 0.0;
        f[length_disparity] = std::abs(log1p_size(in.readability_length) - log1p_size(in.fitness_length));
        if (in.judge_features.size() == kJudgeFeatureCount) {
            std::copy(in.judge_features.begin() + kPageTypeCount, in.judge_features.end(), f.begin() + judge_first);
        }
        f[region_gain] = in.region_gain;
        f[cleaned_region_gain] = in.cleaned_region_gain;
        f[kept_region] = in.kept_region ? 1.0 : 0.0;
        f[kept_cleaned_region] = in.kept_cleaned_region ? 1.0 : 0.0;
        f[answer_block_f1] = in.answer_block_f1;
    }
    return f;
}

ConfidenceEstimate confidence_from(Strategy strategy, const ConfidenceFeatures& features) noexcept {
    // The calibration reads the predicted F1 within these bounds, where its logit is finite (fit_confidence.py).
    constexpr double kEdge = 0.01;
    const std::size_t row = model_row(strategy);
    ConfidenceEstimate estimate;
    estimate.predicted_f1 = std::clamp(model_margin(row, features), 0.0, 1.0);
    const double kept = std::clamp(estimate.predicted_f1, kEdge, 1.0 - kEdge);
    const auto [slope, intercept] = confidence_model::kCalibration[row];
    estimate.probability = 1.0 / (1.0 + std::exp(-(slope * std::log(kept / (1.0 - kept)) + intercept)));
    return estimate;
}

}  // namespace pith::extract
