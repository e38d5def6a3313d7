#include "pith/scorer.hpp"

#include <algorithm>

#include "page/patterns.hpp"
#include "page/predicates.hpp"
#include "page/prep.hpp"
#include "pith/dom.hpp"
#include "dom/inner_text.hpp"
#include "text/text.hpp"

namespace pith::extract {

namespace {

// Readability.js's formula (seed 004); constants are Readability 0.6's, tuned together there.
class ReadabilityScorer final : public ContentScorer {
public:
    std::string_view name() const noexcept override { return "readability"; }

    double initial_score(const dom::Node& node, PassFlags flags) const override {
        double score = 0.0;
        switch (node.ns == dom::Namespace::html ? node.tag : dom::Tag::other) {
        case dom::Tag::div:
            score += 5;
            break;
        case dom::Tag::pre: case dom::Tag::td: case dom::Tag::blockquote:
            score += 3;
            break;
        case dom::Tag::address: case dom::Tag::ol: case dom::Tag::ul: case dom::Tag::dl: case dom::Tag::dd:
        case dom::Tag::dt: case dom::Tag::li: case dom::Tag::form:
            score -= 3;
            break;
        case dom::Tag::h1: case dom::Tag::h2: case dom::Tag::h3: case dom::Tag::h4: case dom::Tag::h5:
        case dom::Tag::h6: case dom::Tag::th:
            score -= 5;
            break;
        default:
            break;
        }
        return score + class_weight(&node, flags);
    }

    std::optional<double> paragraph_score(const dom::Node& /*node*/, const TextStats& text) const override {
        if (text.length < 25) {  // too short to say anything
            return std::nullopt;
        }
        // One point for being a paragraph, one per comma-separated piece, one per
        // 100 characters up to three.
        return 1.0 + static_cast<double>(text.comma_count + 1) +
               static_cast<double>(std::min<std::size_t>(text.length / 100, 3));
    }

    std::size_t ancestor_levels() const noexcept override { return 5; }

    double ancestor_divider(std::size_t level) const noexcept override {
        if (level == 0) {
            return 1.0;
        }
        if (level == 1) {
            return 2.0;
        }
        return static_cast<double>(level) * 3.0;
    }

    double final_score(double accumulated, double link_density) const noexcept override {
        return accumulated * (1.0 - link_density);
    }
};

}  // namespace

TextStats measure_text(const dom::Node& node) {
    TextStats stats;
    stats.length = dom::inner_text_length(&node);
    for (const dom::Node* n = &node; n != nullptr; n = dom::next_node(n, &node)) {
        if (n->is_text()) {
            stats.comma_count += patterns::comma_split_count(n->data) - 1;
        }
    }
    return stats;
}

const ContentScorer& readability_scorer() noexcept {
    static const ReadabilityScorer scorer;
    return scorer;
}

}  // namespace pith::extract
