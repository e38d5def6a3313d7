// The seam between the pipeline and its scoring formula. The pipeline walks the
// document, decides which elements are paragraph-like and which ancestors
// receive a share; a ContentScorer supplies the numbers. Readability.js's
// formula is the default; Lectito's (seed 000) or a fitness tagger (seed 002)
// plug in here without touching the walk, the selection or the cleanup.
//
// Thread-safety: scorers are immutable and shared by all threads.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "pith/options.hpp"

namespace pith::dom {
struct Node;
}

namespace pith::extract {

// Measures of an element's normalised inner text, taken in one walk over its
// text nodes without building the string (nested sections would otherwise copy
// their text once per level).
struct TextStats {
    std::size_t length = 0;       // UTF-16 units, as JavaScript's .length
    std::size_t comma_count = 0;  // commas of every script (Readability REGEXPS.commas)
};

// The TextStats of `node`'s normalised inner text.
[[nodiscard]] TextStats measure_text(const dom::Node& node);

class ContentScorer {
public:
    virtual ~ContentScorer() = default;
    [[nodiscard]] virtual std::string_view name() const noexcept = 0;
    // Score a node starts with when it first becomes a candidate (tag prior plus
    // class/id weight when the pass weighs classes).
    [[nodiscard]] virtual double initial_score(const dom::Node& node, PassFlags flags) const = 0;
    // Score a paragraph-like element contributes, from measures of its
    // normalised inner text; nullopt when it is too short to count.
    [[nodiscard]] virtual std::optional<double> paragraph_score(const dom::Node& node,
                                                                const TextStats& text) const = 0;
    // How many ancestor levels receive a share, and the divider at `level` (0 = parent).
    [[nodiscard]] virtual std::size_t ancestor_levels() const noexcept = 0;
    [[nodiscard]] virtual double ancestor_divider(std::size_t level) const noexcept = 0;
    // A candidate's final score from its accumulated score and link density.
    [[nodiscard]] virtual double final_score(double accumulated, double link_density) const noexcept = 0;
};

// Readability.js's formula (seed 004): the default.
[[nodiscard]] const ContentScorer& readability_scorer() noexcept;

}  // namespace pith::extract
