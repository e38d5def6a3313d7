// auto, the default strategy. Readability's staged passes and the fitness
// tagger each find an article on their own copy of the page, and the
// boilerplate that both keep (boilerplate.hpp) is removed from each. Then
// fitness's article is kept, unless readability's holds it and more (at
// least 90% of fitness's text, and a larger share of it than fitness's holds
// of readability's): there fitness pruned what readability rightly found.
//
// Why fitness first: with its fitted weights and the boilerplate removed it
// is the better of the two on its own (trafilatura-dev, bench/quality.cpp:
// snippet F1 0.938 against 0.930 for readability with the same removal),
// mostly by recall; readability is kept where it finds more of the page
// (0.941 in all). A rule that kept readability whenever they agreed, and the
// article with more prose when they did not, scored 0.923.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "strategies/boilerplate.hpp"
#include "strategies/run.hpp"
#include "dom/inner_text.hpp"
#include "text/text.hpp"

namespace pith::extract {

namespace {

// What auto compares between two articles.
struct ArticleProfile {
    // The article's text nodes as (data, bytes), sorted by data. Both
    // strategies work on copies of one prepared document whose text stays
    // where the prepared document holds it, so the same text node of the page
    // has the same data pointer in both articles: agreement is found by
    // identity, without reading or hashing the text.
    std::vector<std::pair<const char*, std::size_t>> texts;
    std::size_t text_bytes = 0;
};

ArticleProfile profile_of(const dom::Node* article) {
    ArticleProfile profile;
    for (const dom::Node* n = article; n != nullptr; n = dom::next_node(n, article)) {
        if (n->is_text() && !text::trim(n->data).empty()) {
            profile.texts.emplace_back(n->data.data(), n->data.size());
            profile.text_bytes += n->data.size();
        }
    }
    std::sort(profile.texts.begin(), profile.texts.end());
    return profile;
}

// The share of `a`'s text (in bytes) that `b` holds too.
double share_held(const ArticleProfile& a, const ArticleProfile& b) {
    if (a.text_bytes == 0) {
        return 0.0;
    }
    std::size_t shared = 0;
    auto in_b = b.texts.begin();
    for (const auto& [data, bytes] : a.texts) {
        while (in_b != b.texts.end() && in_b->first < data) {
            ++in_b;
        }
        if (in_b != b.texts.end() && in_b->first == data) {
            shared += std::min(bytes, in_b->second);
        }
    }
    return static_cast<double>(shared) / static_cast<double>(a.text_bytes);
}

StrategyOutcome outcome_of(Strategy strategy, const StrategyRun& run, const std::vector<PassDiagnostics>& passes) {
    StrategyOutcome outcome;
    outcome.strategy = strategy;
    outcome.status = run.status;
    if (run.chosen) {
        outcome.chosen_root = passes[run.chosen->pass_index].chosen_root;
        outcome.chosen_root_index = passes[run.chosen->pass_index].chosen_root_index;
        outcome.text_length = run.chosen->text_length;
    }
    return outcome;
}

// Removes the boilerplate from a run's article and measures what is left.
std::optional<ArticleProfile> clean_and_profile(StrategyRun& run, std::vector<RemovedBlock>& removed) {
    if (!run.chosen) {
        return std::nullopt;
    }
    Attempt& attempt = *run.chosen;
    removed = remove_boilerplate(attempt.content);
    attempt.text_length = dom::inner_text_length(attempt.content);
    return profile_of(attempt.content);
}

std::string percent(double share) { return std::to_string(static_cast<int>(share * 100.0 + 0.5)) + "%"; }

}  // namespace

StrategyRun run_auto(const dom::Document& prepared, const ExtractOptions& options, const PassInput& input,
                     PassState& state, Article& article) {
    // Both articles skip Readability's conditional cleaning: the boilerplate
    // removal below does that work for auto, better (on trafilatura-dev, F1
    // 0.9276 against 0.9259 when fitness skipped it, 0.9368 against 0.9361
    // when readability did too) and for less time (the cleaning cost fitness
    // more than its own walk).
    PassInput uncleaned = input;
    uncleaned.flags = without(input.flags, PassFlags::clean_conditionally);
    StrategyRun readability = run_staged(Strategy::readability, prepared, options, uncleaned, state, article.passes);
    if (readability.stopped) {
        return readability;
    }
    StrategyRun fitness = run_staged(Strategy::fitness, prepared, options, uncleaned, state, article.passes);
    if (fitness.stopped) {
        return fitness;
    }
    article.strategies.push_back(outcome_of(Strategy::readability, readability, article.passes));
    article.strategies.push_back(outcome_of(Strategy::fitness, fitness, article.passes));
    std::vector<RemovedBlock> readability_removed;
    std::vector<RemovedBlock> fitness_removed;
    const std::optional<ArticleProfile> readability_profile = clean_and_profile(readability, readability_removed);
    const std::optional<ArticleProfile> fitness_profile = clean_and_profile(fitness, fitness_removed);

    bool take_fitness = false;
    if (!readability_profile || !fitness_profile) {
        take_fitness = !readability_profile && fitness_profile;
        article.decision = take_fitness          ? "fitness kept: only it found an article"
                           : readability_profile ? "readability kept: only it found an article"
                                                 : "neither strategy found an article";
    } else {
        constexpr double kAgreement = 0.9;
        constexpr double kMargin = 0.01;  // shares within a point of each other are equal
        const double readability_in_fitness = share_held(*readability_profile, *fitness_profile);
        const double fitness_in_readability = share_held(*fitness_profile, *readability_profile);
        const std::string shares = percent(readability_in_fitness) + " of readability's text is in fitness's, " +
                                   percent(fitness_in_readability) + " of fitness's in readability's";
        // Readability's article is kept only when it holds fitness's (90% of
        // it) and more of the page than fitness's holds of it: fitness pruned
        // what readability found. Otherwise fitness's, the better of the two
        // on its own.
        article.readability_in_fitness = readability_in_fitness;
        article.fitness_in_readability = fitness_in_readability;
        take_fitness =
            !(fitness_in_readability >= kAgreement && readability_in_fitness + kMargin < fitness_in_readability);
        article.decision = take_fitness ? "fitness kept (" + shares + ")"
                                        : "readability kept: it holds fitness's article and more (" + shares + ")";
    }
    article.strategies[take_fitness ? 1 : 0].kept = readability_profile || fitness_profile;
    article.removed = std::move(take_fitness ? fitness_removed : readability_removed);
    StrategyRun& kept = take_fitness ? fitness : readability;
    if (kept.chosen) {
        remove_invisible_characters(kept.chosen->doc, kept.chosen->content);
    }
    return std::move(kept);
}

}  // namespace pith::extract
