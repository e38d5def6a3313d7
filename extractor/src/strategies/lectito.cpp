// Lectito's scoring and selection (seed 000 for the formula, seed 001 for the
// pipeline): preprocess, score every element from bottom-up text measures,
// keep the best element at or above min_score, group its similar adjacent
// siblings and the headings before them, then clean and wrap like Readability.
#include "strategies/lectito.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <string>
#include <string_view>
#include <system_error>

#include "page/patterns.hpp"
#include "page/predicates.hpp"
#include "page/prep.hpp"
#include "strategies/strategy.hpp"
#include "dom/inner_text.hpp"
#include "text/text.hpp"

namespace pith::extract {

using dom::Node;
using dom::Tag;

namespace {

// Source: seed 000, "Positive Patterns" and "Negative Patterns"
// ((?i) alternations, so a case-insensitive substring of either attribute).
// "breadcrumbs?" is "breadcrumb". Not tuned.
constexpr std::array<std::string_view, 12> kPositiveWords = {
    "article", "body", "content", "entry", "hentry", "h-entry", "main", "page", "post", "text", "blog", "story"};
constexpr std::array<std::string_view, 21> kNegativeWords = {
    "banner", "breadcrumb", "combx",   "comment", "community", "disqus",   "extra",
    "foot",   "header",     "menu",    "related", "remark",    "rss",      "shoutbox",
    "sidebar", "sponsor",   "ad-break", "agegate", "pagination", "pager",  "popup"};

template <std::size_t N>
bool contains_any(std::string_view lowered, const std::array<std::string_view, N>& words) noexcept {
    return std::any_of(words.begin(), words.end(),
                       [&](std::string_view w) { return lowered.find(w) != std::string_view::npos; });
}

// +25 / -25 for one attribute value (seed 000), judged like one of the two
// halves of Readability's _getClassWeight.
double attribute_weight(std::string_view value) {
    if (value.empty()) {
        return 0.0;
    }
    const std::string lowered = text::to_lower_ascii(value);
    double weight = 0.0;
    weight += contains_any(lowered, kPositiveWords) ? 25.0 : 0.0;
    weight -= contains_any(lowered, kNegativeWords) ? 25.0 : 0.0;
    return weight;
}

}  // namespace

namespace {

// One open element of the post-order walk (const for lectito_measure, which
// edits nothing).
template <typename NodePointer>
struct BasicFrame {
    NodePointer node;
    std::size_t index;  // the element's position in document order
    CollapsedText text;
    std::size_t link_length = 0;
    std::size_t punctuation = 0;
};
using Frame = BasicFrame<Node*>;
using ConstFrame = BasicFrame<const Node*>;

// A closed element's figures added to its parent's: its link text is all of
// its text when it is an <a> (outermost <a> only, as Lectito counts).
template <typename F>
std::size_t link_length_of(const F& done) noexcept {
    return done.node->is(Tag::a) ? done.text.length() : done.link_length;
}
template <typename F>
void fold_into(F& parent, const F& done) noexcept {
    parent.text.append(done.text);
    parent.link_length += link_length_of(done);
    parent.punctuation += done.punctuation;
}

// lectito_measure's walker: the root's figures, nothing removed or recorded.
struct MeasureWalker {
    LectitoMeasures out;

    void text(const Node* node, std::vector<ConstFrame>& frames) noexcept {
        measure_text(node->data, frames.back().text, frames.back().punctuation);
    }
    Visit enter(const Node* element, std::vector<ConstFrame>& frames) {
        frames.push_back(ConstFrame{element, 0, {}, 0, 0});
        return Visit::descend;
    }
    void close(std::vector<ConstFrame>& frames) {
        const ConstFrame done = frames.back();
        frames.pop_back();
        if (frames.empty()) {
            out = LectitoMeasures{done.text.length(), link_length_of(done), done.punctuation};
            return;
        }
        fold_into(frames.back(), done);
    }
};

// lectito_walk's walker: preprocessing on the way down, a score for every
// element on the way up, a record for those with enough text.
struct ScoreWalker {
    LectitoWalk& walk;
    PassFlags flags;
    std::size_t min_text_length;
    std::chrono::steady_clock::time_point deadline;
    std::size_t order = 0;

    void text(const Node* node, std::vector<Frame>& frames) noexcept {
        measure_text(node->data, frames.back().text, frames.back().punctuation);
    }
    Visit enter(Node*& element, std::vector<Frame>& frames) {
        switch (preprocess_step(element, flags, walk.elements_seen, deadline)) {
        case WalkStep::deadline: walk.deadline_passed = true; return Visit::stop;
        case WalkStep::removed: return Visit::skip;
        case WalkStep::enter: break;
        }
        frames.push_back(Frame{element, order++, {}, 0, 0});
        return Visit::descend;
    }
    void close(std::vector<Frame>& frames) {
        const Frame done = frames.back();
        frames.pop_back();
        if (frames.empty()) {
            return;  // <body> is measured, not scored: seed 000 scores the elements under it
        }
        // Only elements with enough text are kept: on a large page most
        // elements are short, and the record is most of the walk's memory.
        const LectitoMeasures measures{done.text.length(), link_length_of(done), done.punctuation};
        const LectitoScore score = lectito_score(done.node, measures, flags);
        Node* node = done.node;
        const bool recorded = measures.text_length >= min_text_length;
        node->score.content_score = score.total;
        node->score.initialized = recorded && score.total > 0.0;
        if (recorded) {
            walk.elements.push_back(LectitoElement{node, done.index, measures, score});
        }
        fold_into(frames.back(), done);
    }
};


// Seed 001's "shared-parent headers": a heading, or an <hgroup> or <header>
// with little text that holds one.
bool is_heading_block(const Node* node) {
    if (is_heading(node)) {
        return true;
    }
    if (!node->is(Tag::hgroup) && !node->is(Tag::header)) {
        return false;
    }
    // A header longer than a title and a subtitle is a page header, not the
    // article's. 200: pith's choice (no seed gives a figure), not tuned. Each sibling
    // is measured at most once, so this stays linear.
    constexpr std::size_t kMaxHeaderLength = 200;
    if (dom::inner_text_length(node) >= kMaxHeaderLength) {
        return false;
    }
    for (const Node* n = dom::next_element(node, node); n != nullptr; n = dom::next_element(n, node)) {
        if (is_heading(n)) {
            return true;
        }
    }
    return false;
}

std::string format_number(double value) {
    std::array<char, 32> buffer{};
    const auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                         std::chars_format::general, 6);
    if (ec != std::errc{}) {
        return "?";
    }
    return std::string(buffer.data(), end);
}

// Candidate state lives on the nodes while the strategy runs:
// score.initialized marks a candidate, score.content_score holds every scored
// element's total.
bool is_candidate(const Node* node) noexcept { return node->score.initialized; }

}  // namespace

double lectito_tag_score(Tag tag) noexcept {
    // Source: seed 000, "Base Tag Score". Not tuned.
    switch (tag) {
    case Tag::article: return 10.0;
    case Tag::section: return 8.0;
    case Tag::div: return 5.0;
    case Tag::blockquote: case Tag::td: return 3.0;
    case Tag::address: case Tag::ol: case Tag::ul: case Tag::li: case Tag::form: return -3.0;
    case Tag::header: case Tag::footer: case Tag::nav: case Tag::th: case Tag::h1: case Tag::h2: case Tag::h3:
    case Tag::h4: case Tag::h5: case Tag::h6:
        return -5.0;
    default: return 0.0;  // pre, main and all others
    }
}

double lectito_class_weight(const Node* element, PassFlags flags) {
    if (!has(flags, PassFlags::weight_classes)) {
        return 0.0;
    }
    return attribute_weight(class_name(element)) + attribute_weight(element->attr("id"));
}

LectitoScore lectito_score(const Node* element, const LectitoMeasures& measures, PassFlags flags) {
    LectitoScore s;
    const Tag tag = element->ns == dom::Namespace::html ? element->tag : Tag::other;
    s.tag = lectito_tag_score(tag);
    s.class_weight = lectito_class_weight(element, flags);
    // Source: seed 000, "Content Density": a point per 100 characters and per
    // five commas or periods, at most 3 each (whole points: the seed's
    // example scores 220 characters as 2).
    constexpr double kCharsPerPoint = 100.0;
    constexpr double kPunctuationPerPoint = 5.0;
    constexpr double kMaxDensityPoints = 3.0;
    s.char_score = std::min(std::floor(static_cast<double>(measures.text_length) / kCharsPerPoint), kMaxDensityPoints);
    s.punctuation_score =
        std::min(std::floor(static_cast<double>(measures.punctuation) / kPunctuationPerPoint), kMaxDensityPoints);
    // Source: seed 000, "Container Bonus".
    s.container_bonus = (tag == Tag::article || tag == Tag::section || tag == Tag::main) ? 2.0 : 0.0;
    if (measures.text_length == 0) {
        return s;  // seed 000: elements with no text score 0
    }
    s.link_density = std::min(
        1.0, static_cast<double>(measures.link_length) / static_cast<double>(measures.text_length));
    s.total = (s.tag + s.class_weight + s.char_score + s.punctuation_score + s.container_bonus) * (1.0 - s.link_density);
    return s;
}

LectitoMeasures lectito_measure(const Node* element) {
    std::vector<ConstFrame> frames{ConstFrame{element, 0, {}, 0, 0}};
    MeasureWalker walker;
    walk_post_order(frames, walker);
    return walker.out;
}

LectitoScore lectito_score(const Node* element, PassFlags flags) {
    return lectito_score(element, lectito_measure(element), flags);
}

LectitoWalk lectito_walk(Node* body, PassFlags flags, std::size_t min_text_length,
                         std::chrono::steady_clock::time_point deadline) {
    LectitoWalk walk;
    std::vector<Frame> frames{Frame{body, 0, {}, 0, 0}};
    ScoreWalker walker{walk, flags, min_text_length, deadline};
    walk_post_order(frames, walker);
    if (walk.deadline_passed) {
        return walk;
    }
    // Recorded in post-order; document order decides ties.
    std::sort(walk.elements.begin(), walk.elements.end(),
              [](const LectitoElement& a, const LectitoElement& b) { return a.order < b.order; });
    return walk;
}

StrategyResult run_lectito(dom::Document& doc, const ExtractOptions& options, const PassInput& input) {
    PassRecord pass(input.flags);
    StrategyResult& out = pass.result;
    PassDiagnostics& diag = out.diagnostics;
    const LectitoOptions& lectito = options.lectito;

    Node* body = doc.body();
    if (body == nullptr) {
        return pass.finish("no_body");
    }

    // 1-2. Preprocess and score every element under <body>.
    LectitoWalk walk = lectito_walk(body, input.flags, lectito.min_content_length, options.runtime.deadline);
    diag.elements_seen = walk.elements_seen;
    if (walk.deadline_passed) {
        return pass.finish("deadline");
    }

    // 3. Candidates: enough text and a positive score. The best is the
    //    highest; a tie goes to the later element, so the deeper of two
    //    nested elements with the same text wins.
    std::vector<std::size_t> candidates;
    const LectitoElement* best = nullptr;
    for (std::size_t i = 0; i < walk.elements.size(); ++i) {
        const LectitoElement& e = walk.elements[i];
        if (!is_candidate(e.node)) {
            continue;
        }
        candidates.push_back(i);
        if (best == nullptr || e.score.total >= best->score.total) {
            best = &e;
        }
    }
    diag.candidate_count = candidates.size();
    const std::size_t n_top = std::min(std::max<std::size_t>(options.passes.n_top_candidates, 1), candidates.size());
    std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(n_top), candidates.end(),
                      [&](std::size_t a, std::size_t b) {
                          const double sa = walk.elements[a].score.total;
                          const double sb = walk.elements[b].score.total;
                          return sa != sb ? sa > sb : a > b;
                      });
    for (std::size_t t = 0; t < n_top; ++t) {
        const LectitoElement& e = walk.elements[candidates[t]];
        diag.top_candidates.push_back(CandidateInfo{css_path(e.node), e.score.total, e.score.link_density, e.node->source_index});
    }
    if (best == nullptr) {
        out.reason = "no element has " + std::to_string(lectito.min_content_length) +
                     " characters of text and a positive score";
        return pass.finish("no_content");
    }
    diag.chosen_root = css_path(best->node);
    diag.chosen_root_index = best->node->source_index;
    if (best->score.total < lectito.min_score) {
        out.reason = "best score " + format_number(best->score.total) + " is under min_score " +
                     format_number(lectito.min_score);
        return pass.finish("no_content");
    }

    // 4. Adjacent siblings of similar score (seed 000, "Sibling Elements"),
    //    outward from the best until the first that is not, on each side;
    //    then the headings right before the group (seed 001).
    // 0.75: Readability's share for close runners-up; seed 000 gives no figure. Not tuned.
    constexpr double kSiblingScoreRatio = 0.75;
    const double sibling_threshold = best->score.total * kSiblingScoreRatio;
    auto similar = [&](const Node* s) {
        return is_candidate(s) && s->score.content_score >= sibling_threshold;
    };
    Node* first = best->node;
    while (first->prev_element_sibling() != nullptr && similar(first->prev_element_sibling())) {
        first = first->prev_element_sibling();
    }
    Node* last = best->node;
    while (last->next_element_sibling() != nullptr && similar(last->next_element_sibling())) {
        last = last->next_element_sibling();
    }
    while (first->prev_element_sibling() != nullptr && is_heading_block(first->prev_element_sibling())) {
        first = first->prev_element_sibling();
    }
    std::vector<Node*> blocks;
    for (Node* s = first;; s = s->next_element_sibling()) {
        blocks.push_back(s);
        if (s == last) {
            break;
        }
    }

    // 5. Clean and wrap as the readability strategy does.
    out.content = assemble_article(doc, blocks, options.readability, input.flags, options.runtime.deadline);
    if (out.content == nullptr) {
        return pass.finish("deadline");
    }
    out.text_length = dom::inner_text_length(out.content);
    diag.text_length = out.text_length;
    return pass.finish(out.text_length >= lectito.char_threshold ? "accepted" : "too_short");
}

}  // namespace pith::extract
