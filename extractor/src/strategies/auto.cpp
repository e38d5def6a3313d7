// auto, the default strategy. Readability's staged passes and the fitness
// tagger each find an article on their own copy of the page, and the
// boilerplate that both keep (boilerplate.hpp) is removed from each. Then:
//  - when one article holds most of the other's text, they agree on where
//    the article is, and readability's is kept: its container and cleanup
//    are the more precise of the two;
//  - when they disagree (each holds less than 90% of the other's text), the
//    one with more prose is kept (prose_length()).
// Measured on trafilatura-dev (bench/quality.cpp), this choice is worth
// about 0.005 F1 over readability alone, the boilerplate removal 0.02.
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "strategies/boilerplate.hpp"
#include "strategies/run.hpp"
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
    std::size_t prose_length = 0;  // UTF-16 units in paragraphs of prose (prose_length())
};

// Text and link text of one run of phrasing content (a paragraph however it
// is marked up: a <p>, or words and inline elements between blocks).
struct Run {
    std::size_t length = 0;
    std::size_t link_length = 0;
};

void add_to_run(const dom::Node* phrasing, Run& run) {
    if (phrasing->is_text()) {
        run.length += text::utf16_length(text::trim(phrasing->data));
        return;
    }
    run.length += text::inner_text_length(phrasing);
    for (const dom::Node* n = phrasing; n != nullptr;) {
        const bool link = n->is(dom::Tag::a);
        run.link_length += link ? text::inner_text_length(n) : 0;
        n = dom::next_element(n, phrasing, link);  // a link's text is counted once
    }
}

// UTF-16 units of prose in `article`: runs of phrasing content of 120 units
// or more, less than a fifth of them link text. A page's article is written
// in such paragraphs; the furniture a wrong guess lands on (menus, teasers,
// forms, product grids) is not. Counting runs rather than <p>s does not
// favour readability, which turns text <div>s into <p>s, over fitness.
std::size_t prose_length(const dom::Node* article) {
    constexpr std::size_t kProseRunLength = 120;
    constexpr double kMaxProseLinkShare = 0.2;
    std::size_t prose = 0;
    const auto close = [&](Run& run) {
        if (run.length >= kProseRunLength &&
            static_cast<double>(run.link_length) < kMaxProseLinkShare * static_cast<double>(run.length)) {
            prose += run.length;
        }
        run = Run{};
    };
    for (const dom::Node* block = article; block != nullptr;) {
        if (block->is(dom::Tag::form)) {
            block = dom::next_element(block, article, true);  // a form's words are not prose
            continue;
        }
        const dom::Node* current = block;
        block = dom::next_element(block, article);
        if (is_phrasing_content(current)) {
            continue;  // measured as part of its block's run
        }
        Run run;
        for (const dom::Node* child = current->first_child; child != nullptr; child = child->next) {
            if (is_phrasing_content(child)) {
                add_to_run(child, run);
            } else if (child->is_element()) {
                close(run);
            }
        }
        close(run);
    }
    return prose;
}

ArticleProfile profile_of(const dom::Node* article) {
    ArticleProfile profile;
    for (const dom::Node* n = article; n != nullptr; n = dom::next_node(n, article)) {
        if (n->is_text() && !text::trim(n->data).empty()) {
            profile.texts.emplace_back(n->data.data(), n->data.size());
            profile.text_bytes += n->data.size();
        }
    }
    std::sort(profile.texts.begin(), profile.texts.end());
    profile.prose_length = prose_length(article);
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
    attempt.text_length = text::inner_text_length(attempt.content);
    return profile_of(attempt.content);
}

std::string percent(double share) { return std::to_string(static_cast<int>(share * 100.0 + 0.5)) + "%"; }

}  // namespace

StrategyRun run_auto(const dom::Document& prepared, const ExtractOptions& options, const PassInput& input,
                     PassState& state, Article& article) {
    StrategyRun readability = run_staged(Strategy::readability, prepared, options, input, state, article.passes);
    if (readability.stopped) {
        return readability;
    }
    // Fitness's article skips Readability's conditional cleaning: the
    // boilerplate removal below does that work for auto, and the cleaning
    // cost fitness more than its walk (0.05x gumbo's parse time on Mozilla's
    // pages, for 0.0007 F1 on trafilatura-dev).
    PassInput fitness_input = input;
    fitness_input.flags = without(input.flags, PassFlags::clean_conditionally);
    StrategyRun fitness = run_staged(Strategy::fitness, prepared, options, fitness_input, state, article.passes);
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
        const double readability_in_fitness = share_held(*readability_profile, *fitness_profile);
        const double fitness_in_readability = share_held(*fitness_profile, *readability_profile);
        const std::string shares = percent(readability_in_fitness) + " of readability's text is in fitness's, " +
                                   percent(fitness_in_readability) + " of fitness's in readability's";
        if (readability_in_fitness >= kAgreement || fitness_in_readability >= kAgreement) {
            article.decision = "readability kept: the strategies agree (" + shares + ")";
        } else {
            take_fitness = fitness_profile->prose_length > readability_profile->prose_length;
            const ArticleProfile& kept = take_fitness ? *fitness_profile : *readability_profile;
            const ArticleProfile& other = take_fitness ? *readability_profile : *fitness_profile;
            article.decision = std::string(take_fitness ? "fitness" : "readability") +
                               " kept: the strategies disagree (" + shares + ") and it has more prose (" +
                               std::to_string(kept.prose_length) + " characters in paragraphs, against " +
                               std::to_string(other.prose_length) + ")";
        }
    }
    article.strategies[take_fitness ? 1 : 0].kept = readability_profile || fitness_profile;
    article.removed = std::move(take_fitness ? fitness_removed : readability_removed);
    return std::move(take_fitness ? fitness : readability);
}

}  // namespace pith::extract
