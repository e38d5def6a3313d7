// Step 9 of extract(): the confidence of the article kept, from the signals
// the pipeline has (confidence.hpp says what they are and what they predict).
#include <chrono>
#include <string_view>
#include <vector>

#include "confidence/confidence.hpp"
#include "dom/inner_text.hpp"
#include "page/predicates.hpp"

namespace pith::extract {

void score_confidence(const Attempt& chosen, std::size_t page_text_length, const ExtractOptions& options,
                      Article& article) {
    const auto started = std::chrono::steady_clock::now();
    ConfidenceInputs inputs;
    // A rule's article has no strategies to agree: it is judged by the signals all strategies share.
    const bool by_rule = article.rule && article.rule->outcome == "applied";
    inputs.strategy = by_rule ? Strategy::readability : options.strategy;
    inputs.status = article.status;
    inputs.text_length = chosen.text_length;
    inputs.page_text_length = page_text_length;
    inputs.relaxation = chosen.relaxation;
    inputs.link_density = link_density(chosen.content);
    inputs.runner_up_ratio = chosen.runner_up_ratio;
    inputs.readerable = article.readerable;
    constexpr std::size_t kProseParagraph = 80;
    for (const dom::Node* p : elements_by_tag(chosen.content, dom::Tag::p)) {
        if (const std::size_t length = dom::inner_text_length(p); length >= kProseParagraph) {
            ++inputs.paragraphs;
            inputs.paragraph_text += length;
        }
    }
    if (article.page_type_diagnostics) {
        inputs.page_type_probabilities = article.page_type_diagnostics->layout_probabilities;
    }
    inputs.shape = content_shape(chosen.content);
    for (const RemovedBlock& block : article.removed) {
        inputs.removed_text += block.text_length;
    }
    inputs.readability_in_fitness = article.readability_in_fitness;
    inputs.fitness_in_readability = article.fitness_in_readability;
    // auto lists its pruned region, then its cleaned region, then readability and fitness.
    std::size_t regions_seen = 0;
    for (const StrategyOutcome& outcome : article.strategies) {
        switch (outcome.strategy) {
        case Strategy::fitness:
            inputs.fitness_length = outcome.text_length;
            inputs.kept_fitness = outcome.kept;
            break;
        case Strategy::readability: inputs.readability_length = outcome.text_length; break;
        case Strategy::region:
            (regions_seen++ == 0 ? inputs.kept_region : inputs.kept_cleaned_region) = outcome.kept;
            break;
        default: break;
        }
    }
    inputs.judge_features = article.judge_features;
    inputs.region_gain = article.region_gain.value_or(0.0);
    inputs.cleaned_region_gain = article.cleaned_region_gain.value_or(0.0);
    inputs.answer_block_f1 = article.answer_block_f1.value_or(0.0);
    inputs.region_article_shares = article.region_article_shares;
    const ConfidenceFeatures features = confidence_features(inputs);
    const ConfidenceEstimate estimate = confidence_from(inputs.strategy, features);
    article.confidence = estimate.probability;
    article.predicted_f1 = estimate.predicted_f1;
    article.confidence_features.assign(features.begin(), features.end());
    if (article.confidence < options.min_confidence) {
        article.status = Status::low_confidence;
    }
    article.timings.confidence_us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started).count();
}

}  // namespace pith::extract
