// The blocks of a page's main region, and which of them are its content: a
// fitted model (block_model.inc, bench/fit/fit_blocks.py) reads each block's
// text, links, tag, place, names and repeated structure, and the page's type.
// auto's pruned-region candidate is the region without the blocks it reads as
// furniture (issue 24). Internal header.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pith/article.hpp"
#include "pith/dom.hpp"

namespace pith::extract {

inline constexpr std::size_t kBlockFeatureCount = 45;
using BlockFeatures = std::array<double, kBlockFeatureCount>;
[[nodiscard]] std::span<const std::string_view> block_feature_names() noexcept;

// A block: the nearest element around some text that is not phrasing content
// (a paragraph, a list item, a cell, a heading, a <div> holding text), with the
// text nodes whose nearest such element it is.
struct RegionBlock {
    dom::Node* element = nullptr;
    std::vector<dom::Node*> texts;
    BlockFeatures features{};
};

// `content`'s blocks in document order, measured.
[[nodiscard]] std::vector<RegionBlock> region_blocks(
    dom::Node* content, const std::array<double, kPageTypeCount>& page_type_probabilities);

// A block's text, its text nodes joined (for the fitting script's labels).
[[nodiscard]] std::string block_text(const RegionBlock& block);

// The model's probability that the block is content; `fold` as
// models::model_for_fold takes it.
[[nodiscard]] double block_content_probability(const BlockFeatures& features, int fold) noexcept;

// The lowest probability a kept block may have: of the cuts through a
// page's blocks taken from the likeliest down, the one that maximises the
// word F1 their probabilities expect, 2 * sum(kept p * words) / (kept words +
// sum(p * words) over the page). Blocks of equal probability fall on the same
// side. None when no block has any probability of being content.
[[nodiscard]] std::optional<float> expected_f1_cut(std::span<const float> probability, std::span<const float> words);

// What pruning `content` removes, in document order: the elements whose every
// block the model reads as furniture, and elsewhere those blocks' text nodes;
// with what the region's blocks look like, for auto's judge.
struct PrunePlan {
    std::vector<dom::Node*> remove;
    double repeated_share = 0.0;  // of the region's text, in blocks of cards, rows or posts repeated 3 times or more
    double prose_share = 0.0;     // in blocks of 100 bytes or more that end a sentence
    // The bytes of the removed text nodes that are not white space only, as
    // auto's profiles count them: the region's text before pruning is its
    // pruned profile's plus these.
    std::size_t removed_bytes = 0;
    // Each text node's data, with the probability that its block is content,
    // sorted by the data's address: the region's copies and the articles'
    // view the same text at the same address (auto.cpp), so what the model
    // reads of the region can be summed over any candidate's text.
    std::vector<std::pair<const char*, float>> text_probabilities;
    double content_bytes = 0.0;  // the region's bytes of text weighed by those probabilities
};
[[nodiscard]] PrunePlan furniture_blocks(dom::Node* content,
                                         const std::array<double, kPageTypeCount>& page_type_probabilities, int fold);

// Removes furniture_blocks() from `content`.
void prune_blocks(dom::Node* content, const std::array<double, kPageTypeCount>& page_type_probabilities, int fold);

}  // namespace pith::extract
