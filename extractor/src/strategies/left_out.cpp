#include "strategies/left_out.hpp"

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "page/predicates.hpp"
#include "strategies/boilerplate.hpp"
#include "text/text.hpp"

namespace pith::extract {

namespace {

using dom::Node;

// Shorter blocks ("Read more", "Add to cart") repeat without the page
// repeating itself; more copies than this are a part of each card or row.
constexpr std::size_t kShortestRepeatedBlock = 40;  // bytes, white space collapsed
constexpr std::size_t kMostCopies = 3;

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

// A block of the article: the nearest element around some text that is not
// inline, and its own text (not that of the blocks inside it).
struct TextBlock {
    Node* element = nullptr;
    std::string text;
};

// `root`'s blocks in the order of their first text, <pre> left out.
std::vector<TextBlock> text_blocks(Node* root) {
    std::vector<TextBlock> blocks;
    std::unordered_map<const Node*, std::size_t> index;
    for (Node* n = root; n != nullptr;) {
        if (n->is(dom::Tag::pre)) {
            n = dom::next_node(n, root, true);
            continue;
        }
        if (n->is_text() && !text::is_blank(n->data)) {
            Node* block = n->parent;
            while (block != root && is_inline_element(block)) {
                block = block->parent;
            }
            const auto [at, fresh] = index.try_emplace(block, blocks.size());
            if (fresh) {
                blocks.push_back(TextBlock{block, {}});
            }
            blocks[at->second].text.append(n->data);
        }
        n = dom::next_node(n, root);
    }
    return blocks;
}

// A block's text as two copies of it compare: ASCII case and white space
// aside.
std::string comparable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text::trim(text)) {
        if (text::is_html_space(c)) {
            if (!out.empty() && out.back() != ' ') {
                out.push_back(' ');
            }
        } else {
            out.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
        }
    }
    return out;
}

}  // namespace

std::size_t remove_repeated_blocks(Attempt& chosen) {
    Node* const root = chosen.content;
    if (root == nullptr) {
        return 0;
    }
    std::vector<TextBlock> blocks = text_blocks(root);
    // Elements with a block inside: removing one would take other text with
    // it. Each block's ancestors are walked up until one already marked.
    std::unordered_set<const Node*> holding;
    for (const TextBlock& block : blocks) {
        for (const Node* up = block.element->parent; up != nullptr && up != root && holding.insert(up).second;) {
            up = up->parent;
        }
    }
    for (TextBlock& block : blocks) {
        block.text = comparable(block.text);
    }
    // How many blocks have each text, which blocks repeat an earlier one's
    // (of any length), and the parent of each text's first block.
    std::unordered_map<std::string_view, std::size_t> copies;
    std::unordered_map<std::string_view, const Node*> first_parent;
    std::vector<bool> is_copy(blocks.size());
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const std::string_view text = blocks[b].text;
        ++copies[text];
        is_copy[b] = !text.empty() && !first_parent.try_emplace(text, blocks[b].element->parent).second;
    }
    // A copy goes when the block before or after it is a copy too, in another
    // container than the first copy: the page repeats a passage elsewhere. A
    // paragraph that comes back alone (the last of two sections) or beside
    // the first copy, under the same parent, is the author's own repetition.
    // (Every copy of eight words or more taken out wherever it comes: wcxb-dev
    // 0.8646 -> 0.8654 out of fold, but auto's token F1 on Mozilla's pages
    // 0.9548 -> 0.9156, where articles repeat their own paragraphs.)
    std::vector<Node*> repeated;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const TextBlock& block = blocks[b];
        const bool in_a_run = (b > 0 && is_copy[b - 1]) || (b + 1 < blocks.size() && is_copy[b + 1]);
        if (is_copy[b] && in_a_run && block.text.size() >= kShortestRepeatedBlock &&
            copies[block.text] <= kMostCopies && first_parent[block.text] != block.element->parent &&
            block.element != root && !holding.contains(block.element)) {
            repeated.push_back(block.element);
        }
    }
    return remove_from_article(chosen, repeated);
}

std::size_t remove_customer_reviews(Attempt& chosen) {
    return remove_parts(chosen, [](const Node* n) { return is_review_item(n) || names_review(n); });
}

std::size_t remove_signatures(Attempt& chosen) {
    return remove_parts(chosen, [](const Node* n) { return names_signature(n); });
}

}  // namespace pith::extract
