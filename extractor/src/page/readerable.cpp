// Readability-readerable.js's isProbablyReaderable: a cheap preflight that says
// whether a page has enough visible, likely paragraph text to be an article.
#include <cmath>
#include <unordered_set>
#include <vector>

#include "page/patterns.hpp"
#include "page/predicates.hpp"
#include "page/prep.hpp"
#include "dom/raw_text.hpp"
#include "dom/walk.hpp"
#include "text/text.hpp"

namespace pith::extract {

using dom::Node;
using dom::Tag;

namespace {

// isNodeVisible of Readability-readerable.js: like the pipeline's check but
// without visibility:hidden.
bool is_node_visible(const Node* node) {
    if (const dom::Attribute* style = node->find_attr("style");
        style != nullptr && inline_style_value(style->value, "display") == "none") {
        return false;
    }
    if (node->has_attr("hidden")) {
        return false;
    }
    if (const dom::Attribute* aria = node->find_attr("aria-hidden"); aria != nullptr && aria->value == "true") {
        return class_name(node).find("fallback-image") != std::string_view::npos;
    }
    return true;
}

}  // namespace

bool is_probably_readable(const dom::Document& doc, const ReadableOptions& options) {
    std::vector<const Node*> nodes;
    std::vector<const Node*> br_parents;
    dom::InsideTracker in_list_item(doc.root(), true);
    for (const Node* n = doc.root(); n != nullptr; n = dom::next_element(n, doc.root())) {
        in_list_item.reach(n);
        if (n->is(Tag::p) || n->is(Tag::pre) || n->is(Tag::article)) {
            if (!(n->is(Tag::p) && in_list_item.inside())) {
                nodes.push_back(n);  // the score passes "li p" over, whatever else it is
            }
        } else if (n->is(Tag::br) && n->parent != nullptr && n->parent->is(Tag::div)) {
            br_parents.push_back(n->parent);
        } else if (n->is(Tag::li)) {
            in_list_item.enter(n);
        }
    }
    // div > br: those divs join the set after the paragraph-like nodes.
    // (They are <div>s, so never already among the p/pre/article nodes.)
    std::unordered_set<const Node*> seen;
    for (const Node* div : br_parents) {
        if (seen.insert(div).second) {
            nodes.push_back(div);
        }
    }
    double score = 0.0;
    for (const Node* node : nodes) {
        if (!is_node_visible(node)) {
            continue;
        }
        const std::string match = match_string(node);
        if (patterns::unlikely_candidate(match) && !patterns::maybe_candidate(match)) {
            continue;
        }
        // textContent.trim().length, counting script text cut before the parse.
        const std::size_t length = dom::trimmed_text_length(node);
        if (length < options.min_content_length) {
            continue;
        }
        score += std::sqrt(static_cast<double>(length - options.min_content_length));
        if (score > options.min_score) {
            return true;
        }
    }
    return false;
}

}  // namespace pith::extract
