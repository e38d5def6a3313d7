// How good the article pith returns is likely to be: boosted trees over
// signals the pipeline already has, fitted per strategy on wcxb-dev and
// Mozilla's pages by bench/fit/fit_confidence.py. score.cpp is the stage
// (step 9 of extract()); confidence.cpp the models. Internal header.
//
// One model per strategy predicts the article's word F1 against the page's
// main content (`predicted_f1`); its calibration turns that into the
// probability that the word F1 is at least 0.8 (`confidence`). Their
// out-of-fold figures (AUROC, Spearman, calibration error, a routing table)
// are in the README.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>

#include "pith/article.hpp"
#include "pith/dom.hpp"
#include "page/shape.hpp"
#include "strategies/run.hpp"

namespace pith::extract {

struct ConfidenceInputs {
    Strategy strategy = Strategy::automatic;
    Status status = Status::no_content;
    std::size_t text_length = 0;       // UTF-16 units of the article text, white space collapsed
    std::size_t page_text_length = 0;  // of the page's <body>, the same way
    std::size_t relaxation = 0;        // flags dropped before the accepted pass
    double link_density = 0.0;         // of the final content
    double runner_up_ratio = 0.0;      // second-best candidate score / best, 0 when none
    bool readerable = false;
    std::size_t paragraphs = 0;        // <p>s of the article with 80 characters or more
    std::size_t paragraph_text = 0;    // their text
    std::array<double, kPageTypeCount> page_type_probabilities{};
    ContentShape shape;
    // auto only.
    std::size_t removed_text = 0;      // boilerplate taken out of the kept article
    double readability_in_fitness = 0.0;
    double fitness_in_readability = 0.0;
    bool kept_fitness = false;
    std::size_t readability_length = 0;  // each strategy's article text
    std::size_t fitness_length = 0;
    std::span<const double> judge_features;  // by judge_feature_names(); empty when the judge read nothing
    double region_gain = 0.0;          // what the judge predicted, 0 when it did not
    double cleaned_region_gain = 0.0;
    bool kept_region = false;          // the candidate auto returned
    bool kept_cleaned_region = false;
    double answer_block_f1 = 0.0;      // what the block model expects of it, 0 when the region was no candidate
    std::optional<RegionArticleShares> region_article_shares;  // Article's
};

using ConfidenceFeatures = std::array<double, kConfidenceFeatureCount>;

// The models' inputs, by confidence_feature_names().
[[nodiscard]] ConfidenceFeatures confidence_features(const ConfidenceInputs& in) noexcept;

struct ConfidenceEstimate {
    double probability = 0.0;   // of word F1 >= 0.8
    double predicted_f1 = 0.0;  // in [0, 1]
};

// What `strategy`'s models say of `features`.
[[nodiscard]] ConfidenceEstimate confidence_from(Strategy strategy, const ConfidenceFeatures& features) noexcept;

// Step 9 of extract(): article.confidence, predicted_f1 and
// confidence_features from the article kept (`chosen`) and the prepared
// page's text length (dom::inner_text_length of its body), and status
// low_confidence when the confidence is under options.min_confidence.
void score_confidence(const Attempt& chosen, std::size_t page_text_length, const ExtractOptions& options,
                      Article& article);

}  // namespace pith::extract
