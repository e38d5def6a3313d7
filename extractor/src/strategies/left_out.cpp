#include "strategies/left_out.hpp"

#include <string_view>
#include <unordered_set>
#include <vector>

#include "strategies/boilerplate.hpp"
#include "text/text.hpp"

namespace pith::extract {

namespace {

using dom::Node;

// schema.org's Review in microdata: itemprop="review" on the item, or an
// itemtype of .../Review.
bool is_review_item(const Node* element) {
    if (text::has_token_ascii_ci(element->attr("itemprop"), "review")) {
        return true;
    }
    const std::string_view type = element->attr("itemtype");
    constexpr std::string_view kReview = "/review";
    return type.size() >= kReview.size() && text::iequals_ascii(type.substr(type.size() - kReview.size()), kReview);
}

// The elements under `root` that hold the page's headline (an <h1>) or the
// article's first text: what is named a review or a signature there wraps
// the page rather than following it (a product comes before its reviews, a
// post before its signature). Each one's ancestors are walked up until one
// already marked, so the whole costs one pass however deep.
std::unordered_set<const Node*> opening_holders(const Node* root) {
    std::unordered_set<const Node*> holders;
    const auto mark = [&](const Node* from) {
        for (const Node* up = from; up != nullptr && up != root && holders.insert(up).second;) {
            up = up->parent;
        }
    };
    bool seen_text = false;
    for (const Node* n = root; n != nullptr; n = dom::next_node(n, root)) {
        if (n->is(dom::Tag::h1)) {
            mark(n);
        } else if (!seen_text && n->is_text() && !text::is_blank(n->data)) {
            seen_text = true;
            mark(n);
        }
    }
    return holders;
}

// Removes the outermost elements under `chosen`'s article that `is_part`
// takes, except opening_holders(), in one walk.
template <typename IsPart>
std::size_t remove_parts(Attempt& chosen, IsPart&& is_part) {
    if (chosen.content == nullptr) {
        return 0;
    }
    std::vector<Node*> parts;
    Node* const root = chosen.content;
    const std::unordered_set<const Node*> holders = opening_holders(root);
    for (Node* n = dom::next_element(root, root); n != nullptr;) {
        if (is_part(n) && !holders.contains(n)) {
            parts.push_back(n);
            n = dom::next_element(n, root, true);  // what is inside goes with it
        } else {
            n = dom::next_element(n, root);
        }
    }
    return remove_from_article(chosen, parts);
}

}  // namespace

std::size_t remove_customer_reviews(Attempt& chosen) {
    return remove_parts(chosen, [](const Node* n) { return is_review_item(n) || names_review(n); });
}

std::size_t remove_signatures(Attempt& chosen) {
    return remove_parts(chosen, [](const Node* n) { return names_signature(n); });
}

}  // namespace pith::extract
