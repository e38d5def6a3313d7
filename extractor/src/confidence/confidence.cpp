#include "confidence/confidence.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace pith::extract {

namespace {

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
    "agreement",         // auto: the smaller of the two held shares
    "coverage",          // auto: the larger
    "kept_fitness",      // auto: 0 or 1
    "length_disparity",  // auto: |ln((1 + readability's text) / (1 + fitness's))|
};

// One row per strategy, in Strategy's order: the intercept, then a weight per
// feature.
using ModelRow = std::array<double, kConfidenceFeatureCount + 1>;
constexpr ModelRow kModel[] = {
#include "confidence/confidence_model.inc"
};
static_assert(std::size(kModel) == 4, "a row for each of readability, lectito, fitness and auto");

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

}  // namespace

std::span<const std::string_view, kConfidenceFeatureCount> confidence_feature_names() noexcept {
    return kFeatureNames;
}

ConfidenceFeatures confidence_features(const ConfidenceInputs& in) noexcept {
    ConfidenceFeatures f{};
    f[0] = log1p_size(in.text_length);
    f[1] = share(in.text_length, in.page_text_length);
    f[2] = std::clamp(in.link_density, 0.0, 1.0);
    f[3] = static_cast<double>(in.relaxation);
    f[4] = std::clamp(in.runner_up_ratio, 0.0, 1.0);
    f[5] = in.readerable ? 1.0 : 0.0;
    f[6] = in.status == Status::best_attempt ? 1.0 : 0.0;
    f[7] = log1p_size(in.paragraphs);
    f[8] = share(in.paragraph_text, in.text_length);
    if (in.strategy == Strategy::automatic) {
        f[9] = share(in.removed_text, in.text_length + in.removed_text);
        f[10] = std::min(in.readability_in_fitness, in.fitness_in_readability);
        f[11] = std::max(in.readability_in_fitness, in.fitness_in_readability);
        f[12] = in.kept_fitness ? 1.0 : 0.0;
        f[13] = std::abs(log1p_size(in.readability_length) - log1p_size(in.fitness_length));
    }
    return f;
}

double confidence_from(Strategy strategy, const ConfidenceFeatures& features) noexcept {
    const ModelRow& row = kModel[model_row(strategy)];
    double z = row[0];
    for (std::size_t i = 0; i < features.size(); ++i) {
        z += row[i + 1] * features[i];
    }
    return 1.0 / (1.0 + std::exp(-z));
}

}  // namespace pith::extract
