// The fitness-weighted body text tagger (seed 002): every element gets six
// features in [0, 1] from bottom-up text statistics, a weighted fitness, a
// post-weight by its share of the page's words; the fittest element is the
// container, its weak leading and trailing children are pruned, and a
// container holding too little of the page gives way to the whole <body>.
// Each step is a function of its own so that it can be tested alone.
// Internal header.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "pith/dom.hpp"
#include "pith/article.hpp"

namespace pith::extract {

// Character classes for the tagger's statistics.
enum class LetterCase : std::uint8_t {
    none,      // not a letter: white space, digit, punctuation, combining mark, format character
    upper,
    lower,
    caseless,  // a letter of a script without case (CJK, Arabic, Hebrew, Devanagari, ...)
};
// Case of `c`: ASCII, Latin-1, Latin Extended-A and Additional, Greek,
// Cyrillic and Armenian are told apart; any other code point that is not
// white space, a digit, punctuation, a combining mark or a format character
// counts as a caseless letter.
[[nodiscard]] LetterCase letter_case(char32_t c) noexcept;
// Seed 002's punctuation: neither white space, nor letter, nor digit. ASCII
// by its classes; beyond ASCII the punctuation and symbol blocks listed in
// fitness.cpp (Latin-1 signs, General and Supplemental Punctuation, currency,
// arrows, operators and other symbols, CJK and full-width punctuation,
// Arabic, Hebrew, Armenian, Devanagari and Thai marks, emoji).
[[nodiscard]] bool is_punctuation(char32_t c) noexcept;
[[nodiscard]] bool is_digit(char32_t c) noexcept;  // ASCII, Arabic-Indic, Devanagari, full-width digits

// One element's statistics. Words are maximal runs of non-space characters
// holding a letter or a digit, split also at block element boundaries and
// <br> (not at inline ones); a word split across elements belongs to the
// innermost element holding all of it.
struct FitnessStats {
    std::size_t chars = 0;             // UTF-16 units of the collapsed text (inner_text_length)
    std::size_t link_chars = 0;        // of that, inside <a> (outermost <a> only)
    std::size_t direct_chars = 0;      // collapsed text outside block descendants: own text and inline descendants'
    std::size_t words = 0;
    std::size_t title_case_words = 0;  // first letter upper, the others lower, at least two letters
    std::size_t punctuation = 0;       // code points is_punctuation holds
    std::size_t depth = 0;             // element nesting depth; <html> is 0, <body> 1
};

// What the features are relative to: <body>'s words, the deepest element.
struct FitnessDocument {
    std::size_t words = 0;
    std::size_t max_depth = 0;
};

// Seed 002's six features, each in [0, 1], 1 the fittest.
struct FitnessFeatures {
    double link = 0.0;         // 1 - link_chars / chars
    double tag = 0.0;          // 1 - tag density = direct_chars / chars
    double title_case = 0.0;   // 1 - title_case_words / words
    double punctuation = 0.0;  // min(1, (punctuation / chars) / options.punctuation_norm)
    double words = 0.0;        // log(1 + words) / log(1 + document words)
    double depth = 0.0;        // depth / document max depth
};

struct FitnessElement {
    dom::Node* node = nullptr;
    FitnessStats stats;
    double final_fitness = 0.0;  // after the post-weight; 0 for elements without words
};

struct FitnessWalk {
    std::vector<FitnessElement> elements;  // <body> first, then every element left under it, in document order
    FitnessDocument document;
    std::size_t elements_seen = 0;         // elements visited, removed ones included
    bool deadline_passed = false;          // elements is then incomplete
};

// Step 0. Removes what preprocessing_removes says (hidden elements, iframes,
// unlikely candidates under strip_unlikelys: both strategies read the same
// text) and gathers every element's statistics in one post-order walk,
// linear in the subtree. Looks at the clock every 4096 elements.
[[nodiscard]] FitnessWalk fitness_walk(dom::Node* body, PassFlags flags,
                                       std::chrono::steady_clock::time_point deadline =
                                           std::chrono::steady_clock::time_point::max());

// Step 1a. The features of one element.
[[nodiscard]] FitnessFeatures fitness_features(const FitnessStats& stats, const FitnessDocument& document,
                                               const FitnessOptions& options) noexcept;
// Step 1b. sum(w_i * f_i) / sum(w_i) over the six weights; 0 when every weight is 0.
[[nodiscard]] double weighted_fitness(const FitnessFeatures& features, const FitnessOptions& options) noexcept;
// Step 2. (1 - postweight) * fitness + postweight * words / document_words.
[[nodiscard]] double postweighted_fitness(double fitness, std::size_t words, std::size_t document_words,
                                          double postweight) noexcept;
// Steps 1-2 for every element of `walk`: fills final_fitness and leaves it in
// node->score.content_score, with score.initialized set for elements that
// have words (the candidates).
void score_fitness(FitnessWalk& walk, const FitnessOptions& options);

inline constexpr std::size_t kNoContainer = std::numeric_limits<std::size_t>::max();
// Step 3. Index of the element with the highest final fitness among those
// with words; a tie goes to the later (deeper) element. kNoContainer when
// none has words.
[[nodiscard]] std::size_t choose_container(const std::vector<FitnessElement>& elements) noexcept;

// Children kept after pruning: [first, last).
struct ChildRange {
    std::size_t first = 0;
    std::size_t last = 0;
};
// Step 4. Drops children from each end while their final fitness is below
// min_child_fitness_ratio x the highest child's; stops on each side at the
// first child that reaches it.
[[nodiscard]] ChildRange prune_children(const std::vector<double>& child_fitness,
                                        double min_child_fitness_ratio) noexcept;

// Step 5. True when a container with `container_words` holds less than
// min_text_percentage of the page's words: the whole <body> is the article.
[[nodiscard]] bool falls_back_to_body(std::size_t container_words, std::size_t document_words,
                                      double min_text_percentage) noexcept;

}  // namespace pith::extract
