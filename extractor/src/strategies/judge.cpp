#include "strategies/judge.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <utility>

#include "models/forest.hpp"

namespace pith::extract {

namespace {

enum Feature : std::size_t {
    p_article, p_forum, p_product, p_collection, p_listing, p_documentation, p_service,
    article_length, region_length, cleaned_length, article_to_region, cleaned_to_region, article_in_region,
    article_in_cleaned, article_links, region_links, cleaned_links, article_blocks_to_region,
    cleaned_blocks_to_region, readability_in_fitness, fitness_in_readability, fitness_kept, region_is_main,
    whole_to_region, repeated_share, prose_share, region_block_gain, cleaned_block_gain, feature_end,
};
static_assert(feature_end == kJudgeFeatureCount, "kJudgeFeatureCount is the judge's features' number");

constexpr std::array<std::string_view, kJudgeFeatureCount> kNames{
    "p_article", "p_forum", "p_product", "p_collection", "p_listing", "p_documentation", "p_service",
    "article_length", "region_length", "cleaned_length", "article_to_region", "cleaned_to_region",
    "article_in_region", "article_in_cleaned", "article_links", "region_links", "cleaned_links",
    "article_blocks_to_region", "cleaned_blocks_to_region", "readability_in_fitness", "fitness_in_readability",
    "fitness_kept", "region_is_main", "whole_to_region", "repeated_share", "prose_share", "region_block_gain",
    "cleaned_block_gain"};

namespace judge_model {
#include "strategies/judge_model.inc"
static_assert(kFeatureCount == kJudgeFeatureCount, "judge_model.inc was fitted on other features: refit");
}  // namespace judge_model

double log_size(std::size_t n) noexcept { return std::log1p(static_cast<double>(n)); }

// part / whole, capped at 2; 1 when there is no whole.
double capped_ratio(std::size_t part, std::size_t whole) noexcept {
    return whole == 0 ? 1.0 : std::min(2.0, static_cast<double>(part) / static_cast<double>(whole));
}

// The gain `target`'s model (0 the whole region, 1 the cleaned one) predicts.
double predicted_gain(std::size_t target, const JudgeFeatures& features, int fold) noexcept {
    using namespace judge_model;
    const std::size_t per_target = kModels / 2;
    const std::size_t m = target * per_target + models::model_for_fold(fold, per_target);
    const models::Forest forest = models::model_of(kNodes, kStarts, kModelTrees, m, 1, kBase[m]);
    return models::margin(forest, features);
}

}  // namespace

std::span<const std::string_view, kJudgeFeatureCount> judge_feature_names() noexcept { return kNames; }

JudgeFeatures judge_features(const JudgeInput& in) noexcept {
    JudgeFeatures f{};
    std::copy(in.page_type_probabilities.begin(), in.page_type_probabilities.end(), f.begin());
    f[article_length] = log_size(in.article.text_bytes);
    f[region_length] = log_size(in.region.text_bytes);
    f[cleaned_length] = log_size(in.cleaned.text_bytes);
    f[article_to_region] = capped_ratio(in.article.text_bytes, in.region.text_bytes);
    f[cleaned_to_region] = capped_ratio(in.cleaned.text_bytes, in.region.text_bytes);
    f[article_in_region] = in.article_in_region;
    f[article_in_cleaned] = in.article_in_cleaned;
    f[article_links] = in.article.link_share;
    f[region_links] = in.region.link_share;
    f[cleaned_links] = in.cleaned.link_share;
    f[article_blocks_to_region] = capped_ratio(in.article.blocks, in.region.blocks);
    f[cleaned_blocks_to_region] = capped_ratio(in.cleaned.blocks, in.region.blocks);
    f[readability_in_fitness] = in.readability_in_fitness;
    f[fitness_in_readability] = in.fitness_in_readability;
    f[fitness_kept] = in.fitness_kept ? 1.0 : 0.0;
    f[region_is_main] = in.region_is_main ? 1.0 : 0.0;
    f[whole_to_region] = capped_ratio(in.whole_region_bytes, in.region.text_bytes);
    f[repeated_share] = in.repeated_share;
    f[prose_share] = in.prose_share;
    // The block model scores the region's blocks only: to it an article
    // lying mostly outside the region is furniture, whatever it holds, and
    // its gains there say nothing of which candidate is better.
    constexpr double kComparable = 0.5;
    const bool comparable = in.article_in_region >= kComparable;
    f[region_block_gain] = comparable ? in.region_block_f1 - in.article_block_f1 : 0.0;
    f[cleaned_block_gain] = comparable ? in.cleaned_block_f1 - in.article_block_f1 : 0.0;
    return f;
}

std::optional<JudgeVerdict> judge(const JudgeFeatures& features, int fold) noexcept {
    if (judge_model::kNodes.empty()) {
        return std::nullopt;
    }
    return JudgeVerdict{predicted_gain(0, features, fold), predicted_gain(1, features, fold)};
}

std::array<Candidate, 3> candidate_order(Candidate pick, const std::optional<JudgeVerdict>& verdict) noexcept {
    std::array<std::pair<double, Candidate>, 3> gains{{{0.0, Candidate::article},
                                                       {verdict ? verdict->region_gain : -1.0, Candidate::region},
                                                       {verdict ? verdict->cleaned_gain : -2.0, Candidate::cleaned}}};
    std::stable_sort(gains.begin(), gains.end(), [pick](const auto& a, const auto& b) {
        return (a.second == pick) != (b.second == pick) ? a.second == pick : a.first > b.first;
    });
    return {gains[0].second, gains[1].second, gains[2].second};
}

}  // namespace pith::extract
