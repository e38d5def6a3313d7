// The fitness-weighted body text tagger (seed 002). One post-order walk
// gathers each element's text statistics; the features, weights, post-weight,
// container choice, pruning and whole-body fallback follow the seed's five
// steps in order.
#include "strategies/fitness.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <string_view>

#include "page/predicates.hpp"
#include "page/prep.hpp"
#include "strategies/walk.hpp"
#include "strategies/strategy.hpp"
#include "dom/inner_text.hpp"
#include "text/text.hpp"

namespace pith::extract {

using dom::Node;
using dom::Tag;

namespace {

bool in_range(char32_t c, char32_t lo, char32_t hi) noexcept { return c >= lo && c <= hi; }

// Elements whose text is part of their parent's own text: Readability's
// PHRASING_ELEMS, plus a, del and ins (Readability's transparent phrasing
// elements, taken as phrasing whatever they hold so that the test stays O(1))
// and the obsolete inline elements. Words run on across them.
bool is_inline(const Node* node) noexcept {
    if (node->ns != dom::Namespace::html) {
        return false;
    }
    switch (node->tag) {
    case Tag::abbr: case Tag::audio: case Tag::b: case Tag::bdo: case Tag::br: case Tag::button: case Tag::cite:
    case Tag::code: case Tag::data: case Tag::datalist: case Tag::dfn: case Tag::em: case Tag::embed: case Tag::i:
    case Tag::img: case Tag::input: case Tag::kbd: case Tag::label: case Tag::mark: case Tag::math: case Tag::meter:
    case Tag::noscript: case Tag::object: case Tag::output: case Tag::progress: case Tag::q: case Tag::ruby:
    case Tag::samp: case Tag::script: case Tag::select: case Tag::small: case Tag::span: case Tag::strong:
    case Tag::sub: case Tag::sup: case Tag::textarea: case Tag::time: case Tag::var: case Tag::wbr:
    case Tag::a: case Tag::del: case Tag::ins:
    case Tag::u: case Tag::s: case Tag::font: case Tag::big: case Tag::tt: case Tag::strike: case Tag::nobr:
    case Tag::bdi: case Tag::rt: case Tag::rp:
        return true;
    default:
        return false;
    }
}

// Ends the word being read: block elements and <br> separate words.
bool breaks_words(const Node* node) noexcept { return !is_inline(node) || node->is(Tag::br); }

// Combining marks, zero-width and format characters, the soft hyphen: part of
// a word, but neither letter nor punctuation.
bool is_mark_or_format(char32_t c) noexcept {
    return in_range(c, 0x0300, 0x036F) || c == 0x00AD || in_range(c, 0x200B, 0x200F) ||
           in_range(c, 0x2060, 0x2064) || in_range(c, 0xFE00, 0xFE0F) || in_range(c, 0x1AB0, 0x1AFF) ||
           in_range(c, 0x1DC0, 0x1DFF) || in_range(c, 0x20D0, 0x20FF) || c == 0xFEFF;
}

// Alternating upper/lower pairs (Latin Extended-A and Additional, Cyrillic
// supplements): `upper_parity` is the parity of the capitals.
LetterCase by_parity(char32_t c, char32_t upper_parity) noexcept {
    return (c & 1U) == upper_parity ? LetterCase::upper : LetterCase::lower;
}

// Per-element accumulators of the walk.
struct Frame {
    const Node* node;
    std::size_t index;  // into FitnessWalk::elements
    CollapsedText text;
    CollapsedText direct;
    std::size_t link_chars = 0;
    std::size_t words = 0;
    std::size_t title_case_words = 0;
    std::size_t punctuation = 0;
};

// The word being read. It may span inline elements; it is counted, when it
// ends, on the shallowest frame that was open all along (`level`).
struct PendingWord {
    bool open = false;
    bool has_alnum = false;
    bool first_upper = false;
    bool rest_lower = true;
    std::size_t letters = 0;
    std::size_t level = 0;

    void flush(std::vector<Frame>& frames) noexcept {
        if (open && has_alnum) {
            Frame& owner = frames[level];
            ++owner.words;
            // Source: seed 002, "only the first letter of a word is capitalized".
            owner.title_case_words += static_cast<std::size_t>(letters >= 2 && first_upper && rest_lower);
        }
        open = false;
    }
    void add(char32_t c, std::size_t top_level) noexcept {
        if (!open) {
            *this = PendingWord{};
            open = true;
            level = top_level;
        }
        const LetterCase lc = letter_case(c);
        if (lc == LetterCase::none) {
            has_alnum = has_alnum || is_digit(c);
            return;
        }
        has_alnum = true;
        if (letters == 0) {
            first_upper = lc == LetterCase::upper;
        } else if (lc != LetterCase::lower) {
            rest_lower = false;
        }
        ++letters;
    }
};

void read_text(std::string_view s, std::vector<Frame>& frames, PendingWord& word) noexcept {
    Frame& top = frames.back();
    const std::size_t top_level = frames.size() - 1;
    std::size_t pos = 0;
    while (pos < s.size()) {
        // Most text is ASCII: no decoding, and its white space is these.
        const auto byte = static_cast<unsigned char>(s[pos]);
        char32_t c = byte;
        bool space = false;
        if (byte < 0x80) {
            ++pos;
            space = byte == ' ' || (byte >= 0x09 && byte <= 0x0D);
        } else {
            c = text::next_code_point(s, pos);
            space = text::is_js_space(c);
        }
        if (space) {
            top.text.add_space();
            top.direct.add_space();
            word.flush(frames);
            continue;
        }
        const std::size_t units = c >= 0x10000 ? 2 : 1;
        top.text.add_character(units);
        top.direct.add_character(units);
        top.punctuation += static_cast<std::size_t>(is_punctuation(c));
        word.add(c, top_level);
    }
}

double ratio(std::size_t part, std::size_t whole) noexcept {
    return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}


}  // namespace

bool is_digit(char32_t c) noexcept {
    return in_range(c, U'0', U'9') || in_range(c, 0x0660, 0x0669) || in_range(c, 0x06F0, 0x06F9) ||
           in_range(c, 0x0966, 0x096F) || in_range(c, 0xFF10, 0xFF19);
}

bool is_punctuation(char32_t c) noexcept {
    if (c < 0x80) {
        return in_range(c, 0x21, 0x2F) || in_range(c, 0x3A, 0x40) || in_range(c, 0x5B, 0x60) ||
               in_range(c, 0x7B, 0x7E);
    }
    if (in_range(c, 0xA1, 0xBF)) {
        // Latin-1 signs, without the ordinal letters, micro sign, superscript
        // digits, fractions and soft hyphen.
        return c != 0xAA && c != 0xAD && c != 0xB2 && c != 0xB3 && c != 0xB5 && c != 0xB9 && c != 0xBA &&
               !in_range(c, 0xBC, 0xBE);
    }
    return c == 0xD7 || c == 0xF7 || c == 0x037E || c == 0x0387 ||   // × ÷, Greek question mark and ano teleia
           in_range(c, 0x055A, 0x055F) || c == 0x0589 ||               // Armenian
           c == 0x05BE || c == 0x05C0 || c == 0x05C3 || c == 0x05C6 || c == 0x05F3 || c == 0x05F4 ||  // Hebrew
           c == 0x060C || c == 0x061B || c == 0x061F || in_range(c, 0x066A, 0x066D) || c == 0x06D4 ||  // Arabic
           c == 0x0964 || c == 0x0965 || c == 0x0E4F || c == 0x0E5A || c == 0x0E5B ||  // Devanagari, Thai
           in_range(c, 0x2010, 0x2027) || in_range(c, 0x2030, 0x205E) ||  // General Punctuation
           in_range(c, 0x20A0, 0x20C0) ||                                // currency
           in_range(c, 0x2190, 0x245F) || in_range(c, 0x2500, 0x2BFF) ||  // arrows, operators, shapes, symbols
           in_range(c, 0x2E00, 0x2E7F) ||                                // Supplemental Punctuation
           in_range(c, 0x3001, 0x3003) || in_range(c, 0x3008, 0x3011) || in_range(c, 0x3014, 0x301F) ||
           c == 0x3030 || c == 0x303D || c == 0x30FB ||                  // CJK
           in_range(c, 0xFE10, 0xFE19) || in_range(c, 0xFE30, 0xFE6B) ||  // vertical, compatibility, small forms
           in_range(c, 0xFF01, 0xFF0F) || in_range(c, 0xFF1A, 0xFF20) || in_range(c, 0xFF3B, 0xFF40) ||
           in_range(c, 0xFF5B, 0xFF65) ||                                // full-width
           in_range(c, 0x1F000, 0x1FAFF);                                // emoji and pictographs
}

LetterCase letter_case(char32_t c) noexcept {
    if (c < 0x80) {
        return in_range(c, U'A', U'Z') ? LetterCase::upper : in_range(c, U'a', U'z') ? LetterCase::lower : LetterCase::none;
    }
    if (text::is_js_space(c) || is_digit(c) || is_punctuation(c) || is_mark_or_format(c) || c < 0xA0) {
        return LetterCase::none;
    }
    if (in_range(c, 0xA0, 0xBF)) {
        return (c == 0xAA || c == 0xBA || c == 0xB5) ? LetterCase::lower : LetterCase::none;
    }
    if (in_range(c, 0xC0, 0xDE)) {
        return LetterCase::upper;  // × is punctuation above
    }
    if (in_range(c, 0xDF, 0xFF)) {
        return LetterCase::lower;  // ÷ is punctuation above
    }
    if (in_range(c, 0x0100, 0x017F)) {
        // Latin Extended-A: pairs start on even code points except in
        // U+0139-U+0148 and U+0179-U+017E; ĸ, ŉ and ſ have no capital.
        if (c == 0x0138 || c == 0x0149 || c == 0x017F) {
            return LetterCase::lower;
        }
        if (c == 0x0178) {
            return LetterCase::upper;
        }
        const bool odd_capitals = in_range(c, 0x0139, 0x0148) || in_range(c, 0x0179, 0x017E);
        return by_parity(c, odd_capitals ? 1U : 0U);
    }
    if (in_range(c, 0x0386, 0x03AB)) {
        return LetterCase::upper;  // Greek capitals (0x0387 is punctuation above)
    }
    if (in_range(c, 0x03AC, 0x03CE)) {
        return LetterCase::lower;
    }
    if (in_range(c, 0x0400, 0x042F)) {
        return LetterCase::upper;  // Cyrillic
    }
    if (in_range(c, 0x0430, 0x045F)) {
        return LetterCase::lower;
    }
    if (in_range(c, 0x0460, 0x0481) || in_range(c, 0x048A, 0x04BF)) {
        return by_parity(c, 0U);
    }
    if (in_range(c, 0x0531, 0x0556)) {
        return LetterCase::upper;  // Armenian
    }
    if (in_range(c, 0x0561, 0x0587)) {
        return LetterCase::lower;
    }
    if (in_range(c, 0x1E00, 0x1EFF)) {
        return by_parity(c, 0U);  // Latin Extended Additional
    }
    return LetterCase::caseless;
}

namespace {

// fitness_walk's walker: preprocessing on the way down; on the way up each
// element's statistics, words counted on the shallowest element that holds
// them whole.
struct StatsWalker {
    FitnessWalk& walk;
    PassFlags flags;
    std::chrono::steady_clock::time_point deadline;
    std::size_t body_depth = 0;
    PendingWord word;

    void text(const Node* node, std::vector<Frame>& frames) noexcept { read_text(node->data, frames, word); }
    Visit enter(Node*& element, std::vector<Frame>& frames) {
        switch (preprocess_step(element, flags, walk.elements_seen, deadline)) {
        case WalkStep::deadline: walk.deadline_passed = true; return Visit::stop;
        case WalkStep::removed: return Visit::skip;
        case WalkStep::enter: break;
        }
        if (breaks_words(element)) {
            word.flush(frames);
        }
        frames.push_back(Frame{element, walk.elements.size(), {}, {}});
        walk.elements.push_back(FitnessElement{element, {}, 0.0});
        return Visit::descend;
    }
    void close(std::vector<Frame>& frames) {
        if (breaks_words(frames.back().node)) {
            word.flush(frames);
        }
        const Frame done = frames.back();
        frames.pop_back();
        FitnessStats& stats = walk.elements[done.index].stats;
        stats.chars = done.text.length();
        stats.link_chars = done.node->is(Tag::a) ? stats.chars : done.link_chars;
        stats.direct_chars = std::min(done.direct.length(), stats.chars);
        stats.words = done.words;
        stats.title_case_words = done.title_case_words;
        stats.punctuation = done.punctuation;
        stats.depth = body_depth + frames.size();
        walk.document.max_depth = std::max(walk.document.max_depth, stats.depth);
        if (frames.empty()) {
            return;
        }
        if (word.open) {
            word.level = std::min(word.level, frames.size() - 1);
        }
        Frame& parent = frames.back();
        parent.text.append(done.text);
        if (is_inline(done.node)) {
            parent.direct.append(done.direct);
        }
        parent.link_chars += stats.link_chars;
        parent.words += done.words;
        parent.title_case_words += done.title_case_words;
        parent.punctuation += done.punctuation;
    }
};

}  // namespace

FitnessWalk fitness_walk(Node* body, PassFlags flags, std::chrono::steady_clock::time_point deadline) {
    FitnessWalk walk;
    std::size_t body_depth = 0;
    for (const Node* a = body->parent; a != nullptr && a->is_element(); a = a->parent) {
        ++body_depth;
    }
    std::vector<Frame> frames{Frame{body, 0, {}, {}}};
    walk.elements.push_back(FitnessElement{body, {}, 0.0});
    StatsWalker walker{walk, flags, deadline, body_depth, {}};
    walk_post_order(frames, walker);
    if (walk.deadline_passed) {
        return walk;
    }
    walk.document.words = walk.elements.front().stats.words;
    return walk;
}

FitnessFeatures fitness_features(const FitnessStats& stats, const FitnessDocument& document,
                                 const FitnessOptions& options) noexcept {
    FitnessFeatures f;
    f.link = 1.0 - std::min(1.0, ratio(stats.link_chars, stats.chars));
    f.tag = stats.chars == 0 ? 0.0 : std::min(1.0, ratio(stats.direct_chars, stats.chars));
    f.title_case = 1.0 - std::min(1.0, ratio(stats.title_case_words, stats.words));
    const double punctuation_density = ratio(stats.punctuation, stats.chars);
    f.punctuation = options.punctuation_norm > 0.0
                        ? std::min(1.0, punctuation_density / options.punctuation_norm)
                        : (punctuation_density > 0.0 ? 1.0 : 0.0);
    f.words = document.words == 0 ? 0.0
                                   : std::min(1.0, std::log1p(static_cast<double>(stats.words)) /
                                                       std::log1p(static_cast<double>(document.words)));
    f.depth = std::min(1.0, ratio(stats.depth, document.max_depth));
    return f;
}

double weighted_fitness(const FitnessFeatures& f, const FitnessOptions& o) noexcept {
    const double weight_sum = o.link_density_weight + o.tag_density_weight + o.title_case_weight +
                              o.punctuation_weight + o.word_count_weight + o.depth_weight;
    if (!(weight_sum > 0.0)) {
        return 0.0;
    }
    const double sum = o.link_density_weight * f.link + o.tag_density_weight * f.tag +
                       o.title_case_weight * f.title_case + o.punctuation_weight * f.punctuation +
                       o.word_count_weight * f.words + o.depth_weight * f.depth;
    return sum / weight_sum;
}

double postweighted_fitness(double fitness, std::size_t words, std::size_t document_words, double postweight) noexcept {
    return (1.0 - postweight) * fitness + postweight * ratio(words, document_words);
}

void score_fitness(FitnessWalk& walk, const FitnessOptions& options) {
    for (FitnessElement& e : walk.elements) {
        const bool candidate = e.stats.words > 0;  // elements without words are not candidates
        e.final_fitness =
            candidate ? postweighted_fitness(weighted_fitness(fitness_features(e.stats, walk.document, options), options),
                                             e.stats.words, walk.document.words, options.document_word_postweight)
                      : 0.0;
        e.node->score.content_score = e.final_fitness;
        e.node->score.initialized = candidate;
    }
}

std::size_t choose_container(const std::vector<FitnessElement>& elements) noexcept {
    std::size_t best = kNoContainer;
    for (std::size_t i = 0; i < elements.size(); ++i) {
        if (elements[i].stats.words == 0) {
            continue;
        }
        if (best == kNoContainer || elements[i].final_fitness >= elements[best].final_fitness) {
            best = i;
        }
    }
    return best;
}

ChildRange prune_children(const std::vector<double>& child_fitness, double min_child_fitness_ratio) noexcept {
    if (child_fitness.empty()) {
        return {};
    }
    const double threshold = *std::max_element(child_fitness.begin(), child_fitness.end()) * min_child_fitness_ratio;
    ChildRange range{0, child_fitness.size()};
    while (range.first < range.last && child_fitness[range.first] < threshold) {
        ++range.first;
    }
    while (range.last > range.first && child_fitness[range.last - 1] < threshold) {
        --range.last;
    }
    return range;
}

bool falls_back_to_body(std::size_t container_words, std::size_t document_words, double min_text_percentage) noexcept {
    return static_cast<double>(container_words) < min_text_percentage * static_cast<double>(document_words);
}

StrategyResult run_fitness(dom::Document& doc, const ExtractOptions& options, const PassInput& input) {
    PassRecord pass(input.flags);
    StrategyResult& out = pass.result;
    PassDiagnostics& diag = out.diagnostics;
    const FitnessOptions& fitness = options.fitness;

    Node* body = doc.body();
    if (body == nullptr) {
        return pass.finish("no_body");
    }

    // 0-2. Statistics, features, fitness and post-weight of every element.
    FitnessWalk walk = fitness_walk(body, input.flags, options.runtime.deadline);
    diag.elements_seen = walk.elements_seen;
    if (walk.deadline_passed) {
        return pass.finish("deadline");
    }
    score_fitness(walk, fitness);

    std::vector<std::size_t> candidates;
    for (std::size_t i = 0; i < walk.elements.size(); ++i) {
        if (walk.elements[i].stats.words > 0) {
            candidates.push_back(i);
        }
    }
    diag.candidate_count = candidates.size();
    const std::size_t n_top = std::min(std::max<std::size_t>(options.passes.n_top_candidates, 1), candidates.size());
    std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(n_top), candidates.end(),
                      [&](std::size_t a, std::size_t b) {
                          const double fa = walk.elements[a].final_fitness;
                          const double fb = walk.elements[b].final_fitness;
                          return fa != fb ? fa > fb : a > b;
                      });
    for (std::size_t t = 0; t < n_top; ++t) {
        const FitnessElement& e = walk.elements[candidates[t]];
        diag.top_candidates.push_back(
            CandidateInfo{css_path(e.node), e.final_fitness, ratio(e.stats.link_chars, e.stats.chars), e.node->source_index});
    }

    // 3. The container.
    const std::size_t chosen = choose_container(walk.elements);
    if (chosen == kNoContainer) {
        out.reason = "the page has no words";
        return pass.finish("no_content");
    }
    Node* container = walk.elements[chosen].node;

    // 5 before 4: a container holding too little of the page is dropped
    // whole, so there is nothing of it to prune.
    if (falls_back_to_body(walk.elements[chosen].stats.words, walk.document.words, fitness.min_text_percentage)) {
        container = body;
    } else {
        // 4. Prune weak leading and trailing children.
        std::vector<Node*> children;
        std::vector<double> child_fitness;
        for (Node* c = container->first_element_child(); c != nullptr; c = c->next_element_sibling()) {
            children.push_back(c);
            child_fitness.push_back(c->score.content_score);  // final fitness, set by score_fitness
        }
        const ChildRange kept = prune_children(child_fitness, fitness.min_child_fitness_ratio);
        for (std::size_t i = 0; i < children.size(); ++i) {
            if (i < kept.first || i >= kept.last) {
                dom::detach(children[i]);
            }
        }
    }
    diag.chosen_root = css_path(container);
    diag.chosen_root_index = container->source_index;

    // <body> itself is not moved into the article: its children are, in a <div>.
    Node* block = container;
    if (container == body) {
        block = doc.create_element(Tag::div);
        dom::move_children(body, block);
    }
    out.content = assemble_article(doc, {block}, options.readability, input.flags, options.runtime.deadline);
    if (out.content == nullptr) {
        return pass.finish("deadline");
    }
    out.text_length = dom::inner_text_length(out.content);
    diag.text_length = out.text_length;
    return pass.finish(out.text_length >= options.passes.char_threshold ? "accepted" : "too_short");
}

}  // namespace pith::extract
