// Step 9 of extract(): the confidence of the article kept, from the signals
// the pipeline has (confidence.hpp says what they are and what "right" means).
#include <chrono>

#include "confidence/confidence.hpp"
#include "dom/inner_text.hpp"
#include "page/predicates.hpp"

namespace pith::extract {

void score_confidence(const Attempt& chosen, const dom::Document& page, const ExtractOptions& options,
                      Article& article) {
    const auto started = std::chrono::steady_clock::now();
    ConfidenceInputs inputs;
    // A rule's article has no strategies to agree: it is judged by the signals all strategies share.
    const bool by_rule = article.rule && article.rule->outcome == "applied";
    inputs.strategy = by_rule ? Strategy::readability : options.strategy;
    inputs.status = article.status;
    inputs.text_length = chosen.text_length;
    inputs.page_text_length = page.body() != nullptr ? dom::inner_text_length(page.body()) : 0;
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
    for (const RemovedBlock& block : article.removed) {
        inputs.removed_text += block.text_length;
    }
    inputs.readability_in_fitness = article.readability_in_fitness;
    inputs.fitness_in_readability = article.fitness_in_readability;
    for (const StrategyOutcome& outcome : article.strategies) {
        (outcome.strategy == Strategy::fitness ? inputs.fitness_length : inputs.readability_length) =
            outcome.text_length;
        if (outcome.strategy == Strategy::fitness) {
            inputs.kept_fitness = outcome.kept;
        }
    }
    const ConfidenceFeatures features = confidence_features(inputs);
    article.confidence = confidence_from(inputs.strategy, features);
    article.confidence_features.assign(features.begin(), features.end());
    if (article.confidence < options.min_confidence) {
        article.status = Status::low_confidence;
    }
    article.timings.confidence_us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started).count();
}

}  // namespace pith::extract
