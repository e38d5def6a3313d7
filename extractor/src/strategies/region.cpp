// The page's main region, for the kinds of page whose main content is not one
// container of prose (issue 24): a listing's or a collection's cards, a
// service page's sections, a documentation page's text and code, a forum's
// posts. Readability and fitness each keep the single best container and so
// drop the rest of such a page; this pass keeps the whole main region and
// takes out what surrounds it instead:
//  - the region is the page's <main> (or role=main) when it holds a fair share
//    of the body's text, else the body;
//  - the page's furniture goes: header elements outside any article or
//    section, footer, nav and aside elements, their ARIA roles (banner,
//    contentinfo, navigation, complementary, search, dialog, menu), hidden
//    elements, and form controls, whose labels are not content.
// On wcxb-dev this alone took listings' word F1 from 0.47 (auto's single
// container) to 0.72 in a prototype, service pages from 0.77 to 0.81.
#include <string_view>
#include <utility>
#include <vector>

#include "dom/inner_text.hpp"
#include "dom/walk.hpp"
#include "page/predicates.hpp"
#include "page/prep.hpp"
#include "strategies/strategy.hpp"
#include "strategies/walk.hpp"

namespace pith::extract {

namespace {

using dom::Node;
using dom::Tag;

// The share of the body's text a <main> must hold to be the region: below it,
// the page put only a part of its content in <main>.
constexpr double kMainShare = 0.3;

// A <header> inside an <article> or a <section> heads that part, as the HTML
// accessibility mapping reads it (a banner landmark only when scoped to the
// body): a listing's cards put their headline and summary in one. (Footers go
// whatever their scope: the article's assembly drops them, as Readability.js
// does.) The walk up stops after kSectionLevels, so that a page of many
// headers nested deep costs a bounded walk each.
constexpr int kSectionLevels = 64;

bool is_sectioned(const Node* node, const Node* region) noexcept {
    return dom::within_ancestors(node->parent, region, kSectionLevels,
                                 [](const Node* up) { return up->is(Tag::article) || up->is(Tag::section); });
}

bool is_furniture(const Node* node, const Node* region) noexcept {
    if (node->ns != dom::Namespace::html) {
        return node->ns == dom::Namespace::svg && node->name == "svg";
    }
    switch (node->tag) {
    case Tag::header:
        if (!is_sectioned(node, region)) {
            return true;
        }
        break;
    case Tag::footer:
    case Tag::nav:
    case Tag::aside:
    case Tag::template_:
    case Tag::iframe:
    case Tag::select:
    case Tag::button:
    case Tag::input:
    case Tag::textarea:
    case Tag::label:
    case Tag::option:
    case Tag::dialog:
        return true;
    default:
        break;
    }
    return is_furniture_role(node->attr("role")) || !is_probably_visible(node);
}

// The whitespace-collapsed text lengths of the body and of `main` within it,
// in one walk (as dom::inner_text_length gives them): the text before, inside
// and after `main` is summed apart, and the body's is the three joined.
std::pair<std::size_t, std::size_t> body_and_main_lengths(const Node* body, const Node* main) noexcept {
    CollapsedText before;
    CollapsedText inside;
    CollapsedText after;
    std::size_t punctuation = 0;
    const Node* past_main = dom::next_node(main, body, true);
    CollapsedText* part = &before;
    for (const Node* n = body; n != nullptr; n = dom::next_node(n, body)) {
        if (n == main) {
            part = &inside;
        } else if (n == past_main) {
            part = &after;
        }
        if (n->is_text()) {
            measure_text(n->data, *part, punctuation);
        }
    }
    before.append(inside);
    before.append(after);
    return {before.length(), inside.length()};
}

// The first <main> or role=main element under `body`, in document order.
Node* main_element(Node* body) noexcept {
    for (Node* n = body; n != nullptr; n = dom::next_node(n, body)) {
        if (n->is_element() && (n->is(Tag::main) || n->attr("role") == "main")) {
            return n;
        }
    }
    return nullptr;
}

}  // namespace

StrategyResult run_region(dom::Document& doc, const ExtractOptions& options, const PassInput& input) {
    PassRecord pass(input.flags);
    StrategyResult& out = pass.result;
    PassDiagnostics& diag = out.diagnostics;

    Node* body = doc.body();
    if (body == nullptr) {
        return pass.finish("no_body");
    }
    Node* region = body;
    if (Node* main = main_element(body)) {
        const auto [body_length, main_length] = body_and_main_lengths(body, main);
        if (static_cast<double>(main_length) >= kMainShare * static_cast<double>(body_length)) {
            region = main;
        }
    }
    // Furniture inside the region goes; an ancestor of the region is never
    // furniture here, since the walk starts below it.
    std::vector<Node*> furniture;
    for (Node* n = region->first_child; n != nullptr;) {
        if (n->is_element() && is_furniture(n, region)) {
            furniture.push_back(n);
            n = dom::next_node(n, region, true);
            continue;
        }
        n = dom::next_node(n, region);
    }
    for (Node* n : furniture) {
        dom::detach(n);
    }
    diag.chosen_root = css_path(region);
    diag.chosen_root_index = region->source_index;

    Node* block = region;
    if (region == body) {  // <body> itself is not moved into the article: its children are
        block = doc.create_element(Tag::div);
        dom::move_children(body, block);
    }
    out.content = assemble_article(doc, {block}, options.readability, PassFlags::none, options.runtime.deadline);
    if (out.content == nullptr) {
        return pass.finish("deadline");
    }
    out.text_length = dom::inner_text_length(out.content);
    diag.text_length = out.text_length;
    if (out.text_length == 0) {
        out.content = nullptr;
        out.reason = "the main region has no text";
        return pass.finish("no_content");
    }
    return pass.finish(out.text_length >= options.passes.char_threshold ? "accepted" : "too_short");
}

}  // namespace pith::extract
