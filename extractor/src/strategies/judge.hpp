// auto's judge (issue 24): which of its three candidates to return,
//  - the article readability and fitness agree on (auto.cpp),
//  - the page's main region (region.cpp) pruned of the blocks the block
//    model reads as furniture (strategies/blocks.hpp): a listing's cards, a
//    forum's posts, a service page's sections;
//  - the same region with the boilerplate auto removes from articles taken
//    out (boilerplate.hpp): a product page, an article spread over siblings.
// Two small forests of boosted trees, fitted by bench/fit/fit_judge.py on
// wcxb-dev and trafilatura-dev in folds grouped by domain, read what the
// candidates look like and the page type's probabilities, and each predicts
// how much better than the article (in word F1) one region would be; auto
// returns the candidate predicted best. Internal header.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "pith/article.hpp"

namespace pith::extract {

using JudgeFeatures = std::array<double, kJudgeFeatureCount>;

// What one candidate looks like, as the judge reads it.
struct CandidateShape {
    std::size_t text_bytes = 0;  // 0 when it found nothing
    double link_share = 0.0;     // the share of its text inside links
    std::size_t blocks = 0;      // headings, paragraphs, list items, rows and <pre>s
};

struct JudgeInput {
    std::array<double, kPageTypeCount> page_type_probabilities{};
    CandidateShape article;
    CandidateShape region;
    CandidateShape cleaned;
    double article_in_region = 0.0;  // the share of the article's text the region holds
    double article_in_cleaned = 0.0;
    double readability_in_fitness = 0.0;
    double fitness_in_readability = 0.0;
    bool fitness_kept = false;    // the article is fitness's, not readability's
    bool region_is_main = false;  // the region is the page's <main>, not its body
    std::size_t whole_region_bytes = 0;  // the region before pruning
    double repeated_share = 0.0;         // PrunePlan's (strategies/blocks.hpp)
    double prose_share = 0.0;
    // The word F1 the block model expects of each candidate (auto.cpp); the
    // judge reads how much more it expects of each region than of the article.
    double article_block_f1 = 0.0;
    double region_block_f1 = 0.0;
    double cleaned_block_f1 = 0.0;
};

[[nodiscard]] JudgeFeatures judge_features(const JudgeInput& in) noexcept;

// The predicted gain in word F1 over the article of the pruned region and of
// the cleaned region; none when no judge has been fitted. `fold` as
// page_type_probabilities' (classify/page_type.hpp).
struct JudgeVerdict {
    double region_gain = 0.0;
    double cleaned_gain = 0.0;
};
[[nodiscard]] std::optional<JudgeVerdict> judge(const JudgeFeatures& features, int fold) noexcept;

enum class Candidate : std::uint8_t { article, region, cleaned };

// The three candidates in the order auto takes them when the one before
// reads as page furniture: `pick` first, then the others by the gain the
// verdict predicts (the article's is 0), or the article first when there is
// no verdict.
[[nodiscard]] std::array<Candidate, 3> candidate_order(Candidate pick,
                                                       const std::optional<JudgeVerdict>& verdict) noexcept;

}  // namespace pith::extract
