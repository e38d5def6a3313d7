// How likely it is that the article pith returns is right: a logistic model
// over signals the pipeline already has, fitted per strategy on both
// development corpora by bench/fit/fit_confidence.py. score.cpp is the stage
// (step 9 of extract()); confidence.cpp the model. Internal header.
//
// "Right" is what the fit was labelled with: on Mozilla's pages, token F1 of
// the text >= 0.9 against expected.html; on trafilatura-dev, every snippet the
// article must hold found and none it must not. The fit's figures
// (cross-validated by site, AUROC and calibration error) are in the README.
#pragma once

#include <array>
#include <cstddef>

#include "pith/article.hpp"
#include "pith/dom.hpp"
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
    // auto only.
    std::size_t removed_text = 0;      // boilerplate taken out of the kept article
    double readability_in_fitness = 0.0;
    double fitness_in_readability = 0.0;
    bool kept_fitness = false;
    std::size_t readability_length = 0;  // each strategy's article text
    std::size_t fitness_length = 0;
};

using ConfidenceFeatures = std::array<double, kConfidenceFeatureCount>;

// The model's inputs, by confidence_feature_names().
[[nodiscard]] ConfidenceFeatures confidence_features(const ConfidenceInputs& in) noexcept;

// The model's probability for `features` under `strategy`'s weights.
[[nodiscard]] double confidence_from(Strategy strategy, const ConfidenceFeatures& features) noexcept;

// Step 9 of extract(): article.confidence and confidence_features from the
// article kept (`chosen`) and the prepared page, and status low_confidence
// when the confidence is under options.min_confidence.
void score_confidence(const Attempt& chosen, const dom::Document& page, const ExtractOptions& options,
                      Article& article);

}  // namespace pith::extract
