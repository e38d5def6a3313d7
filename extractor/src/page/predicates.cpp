// Node predicates and measures shared by the stages; each is the Readability.js
// helper it is named after, with the same edge cases.
#include <algorithm>

#include "page/patterns.hpp"
#include "page/predicates.hpp"
#include "page/prep.hpp"
#include "dom/inner_text.hpp"
#include "text/text.hpp"

namespace pith::extract {

using dom::Node;
using dom::NodeKind;
using dom::Tag;

std::string_view class_name(const Node* node) noexcept {
    // SVG elements expose an SVGAnimatedString, which Readability's string
    // checks skip.
    if (node->ns != dom::Namespace::html) {
        return {};
    }
    return node->attr("class");
}

std::string match_string(const Node* node) {
    std::string s(class_name(node));
    s.push_back(' ');
    s.append(node->attr("id"));
    return s;
}

Node* next_in_document(const Node* node, bool skip_children) noexcept {
    return dom::next_element(node, nullptr, skip_children);
}

Node* remove_and_get_next(Node* node) noexcept {
    Node* next = next_in_document(node, true);
    dom::detach(node);
    return next;
}

std::string inline_style_value(std::string_view style, std::string_view property) {
    std::string value;
    std::size_t pos = 0;
    while (pos < style.size()) {
        std::size_t end = style.find(';', pos);
        if (end == std::string_view::npos) {
            end = style.size();
        }
        const std::string_view decl = style.substr(pos, end - pos);
        pos = end + 1;
        const std::size_t colon = decl.find(':');
        if (colon == std::string_view::npos) {
            continue;
        }
        if (!text::iequals_ascii(text::trim(decl.substr(0, colon)), property)) {
            continue;
        }
        std::string v = text::to_lower_ascii(text::trim(decl.substr(colon + 1)));
        if (const std::size_t bang = v.find("!important"); bang != std::string::npos) {
            v = std::string(text::trim(std::string_view(v).substr(0, bang)));
        }
        value = std::move(v);
    }
    return value;
}

namespace {

bool is_phrasing_tag(const Node* n) noexcept {
    if (n->ns != dom::Namespace::html) {
        return false;
    }
    switch (n->tag) {
    // Source: Readability.js PHRASING_ELEMS (canvas, iframe, svg, video left out on purpose there).
    case Tag::abbr: case Tag::audio: case Tag::b: case Tag::bdo: case Tag::br: case Tag::button:
    case Tag::cite: case Tag::code: case Tag::data: case Tag::datalist: case Tag::dfn: case Tag::em:
    case Tag::embed: case Tag::i: case Tag::img: case Tag::input: case Tag::kbd: case Tag::label:
    case Tag::mark: case Tag::math: case Tag::meter: case Tag::noscript: case Tag::object:
    case Tag::output: case Tag::progress: case Tag::q: case Tag::ruby: case Tag::samp: case Tag::script:
    case Tag::select: case Tag::small: case Tag::span: case Tag::strong: case Tag::sub: case Tag::sup:
    case Tag::textarea: case Tag::time: case Tag::var: case Tag::wbr:
        return true;
    default:
        return false;
    }
}

bool is_transparent_phrasing_tag(const Node* n) noexcept {
    return n->is(Tag::a) || n->is(Tag::del) || n->is(Tag::ins);
}

}  // namespace

bool is_probably_visible(const Node* node) noexcept {
    // One pass over the attributes (an element has each name once): every
    // strategy asks this of every element.
    const dom::Attribute* style = nullptr;
    bool aria_hidden = false;
    for (std::uint32_t i = 0; i < node->attr_count; ++i) {
        const dom::Attribute& a = node->attrs[i];
        if (a.name == "hidden") {
            return false;
        }
        if (a.name == "style") {
            style = &a;
        } else if (a.name == "aria-hidden") {
            aria_hidden = a.value == "true";
        }
    }
    if (style != nullptr && (inline_style_value(style->value, "display") == "none" ||
                             inline_style_value(style->value, "visibility") == "hidden")) {
        return false;
    }
    if (aria_hidden) {
        // Wikimedia's fallback images are aria-hidden but are the real images.
        return class_name(node).find("fallback-image") != std::string_view::npos;
    }
    return true;
}

bool is_heading(const Node* node) noexcept {
    return node->is(Tag::h1) || node->is(Tag::h2) || node->is(Tag::h3) || node->is(Tag::h4) || node->is(Tag::h5) ||
           node->is(Tag::h6);
}

// Menu items, list boxes and their options (a filter's hundreds of languages,
// say) were tried as furniture too: out of fold on wcxb-dev 0.861 -> 0.863 after
// `make refit`, but trafilatura-dev's snippet F1 out of fold 0.9430 -> 0.9398
// (under issue 24's 0.941) and confidence's least-sure tenth 0.508 -> 0.439 of
// the bad pages. Not kept.
bool is_furniture_role(std::string_view role) noexcept {
    constexpr std::string_view kRoles[] = {"banner", "contentinfo", "navigation", "complementary", "search",
                                           "dialog", "alertdialog", "menu", "menubar"};
    for (const std::string_view r : kRoles) {
        if (role == r) {
            return true;
        }
    }
    return false;
}

bool is_inline_element(const Node* n) noexcept {
    if (n->ns != dom::Namespace::html) {
        return true;
    }
    switch (n->tag) {
    case Tag::a: case Tag::abbr: case Tag::b: case Tag::bdi: case Tag::bdo: case Tag::big: case Tag::br:
    case Tag::cite: case Tag::code: case Tag::data: case Tag::del: case Tag::dfn: case Tag::em: case Tag::font:
    case Tag::i: case Tag::img: case Tag::ins: case Tag::kbd: case Tag::label: case Tag::mark: case Tag::nobr:
    case Tag::q: case Tag::s: case Tag::samp: case Tag::small: case Tag::span: case Tag::strike: case Tag::strong:
    case Tag::sub: case Tag::sup: case Tag::time: case Tag::tt: case Tag::u: case Tag::var: case Tag::wbr:
        return true;
    default:
        return false;
    }
}

bool is_phrasing_content(const Node* node) noexcept {
    if (node->kind == NodeKind::text) {
        return true;
    }
    if (node->kind != NodeKind::element) {
        return false;
    }
    if (is_phrasing_tag(node)) {
        return true;
    }
    if (!is_transparent_phrasing_tag(node)) {
        return false;
    }
    // a, del and ins are phrasing when all their children are: walk down
    // through nested transparent elements only.
    for (const Node* n = node->first_child; n != nullptr;) {
        bool descend = false;
        if (n->kind == NodeKind::element) {
            if (is_transparent_phrasing_tag(n) && !is_phrasing_tag(n)) {
                descend = n->first_child != nullptr;
            } else if (!is_phrasing_tag(n)) {
                return false;
            }
        } else if (n->kind != NodeKind::text) {
            return false;
        }
        n = dom::next_node(n, node, !descend);
    }
    return true;
}

bool is_whitespace(const Node* node) noexcept {
    if (node->kind == NodeKind::text) {
        return text::is_blank(node->data);
    }
    return node->is(Tag::br);
}

bool is_element_without_content(const Node* node) noexcept {
    if (node->kind != NodeKind::element) {
        return false;
    }
    for (const Node* n = node->first_child; n != nullptr; n = dom::next_node(n, node)) {
        if (n->kind == NodeKind::text && !text::is_blank(n->data)) {
            return false;
        }
    }
    const std::size_t children = node->element_child_count();
    return children == 0 || children == count_by_tag(node, Tag::br) + count_by_tag(node, Tag::hr);
}

bool has_single_tag_inside(const Node* element, Tag tag) noexcept {
    const Node* only = element->first_element_child();
    if (only == nullptr || only->next_element_sibling() != nullptr || !only->is(tag)) {
        return false;
    }
    for (const Node* c = element->first_child; c != nullptr; c = c->next) {
        // /\S$/: a text child that ends in a non-space character counts as content.
        if (c->kind == NodeKind::text && !c->data.empty() && text::trim(c->data).size() > 0) {
            const std::string_view t = c->data;
            std::size_t start = t.size() - 1;
            while (start > 0 && (static_cast<unsigned char>(t[start]) & 0xC0U) == 0x80U) {
                --start;
            }
            std::size_t pos = start;
            if (!text::is_js_space(text::next_code_point(t, pos))) {
                return false;
            }
        }
    }
    return true;
}

bool has_child_block_element(const Node* element) noexcept {
    for (const Node* n = element->first_child; n != nullptr; n = dom::next_node(n, element)) {
        if (n->kind != NodeKind::element) {
            continue;
        }
        switch (n->tag) {
        // Source: Readability.js DIV_TO_P_ELEMS.
        case Tag::blockquote: case Tag::dl: case Tag::div: case Tag::img: case Tag::ol: case Tag::p:
        case Tag::pre: case Tag::table: case Tag::ul:
            return true;
        default:
            break;
        }
    }
    return false;
}

bool has_ancestor_tag(const Node* node, Tag tag, int max_depth, bool (*filter)(const Node*)) noexcept {
    int depth = 0;
    while (node->parent != nullptr) {
        if (max_depth > 0 && depth > max_depth) {
            return false;
        }
        if (node->parent->is(tag) && (filter == nullptr || filter(node->parent))) {
            return true;
        }
        node = node->parent;
        ++depth;
    }
    return false;
}

double link_density(const Node* element) {
    const std::size_t text_length = dom::inner_text_length(element);
    if (text_length == 0) {
        return 0.0;
    }
    double link_length = 0.0;
    for (const Node* n = element->first_child; n != nullptr; n = dom::next_node(n, element)) {
        if (!n->is(Tag::a)) {
            continue;
        }
        // Source: Readability.js: in-page (#) links weigh 0.3.
        const double coefficient = patterns::hash_url(n->attr("href")) ? 0.3 : 1.0;
        link_length += static_cast<double>(dom::inner_text_length(n)) * coefficient;
    }
    return link_length / static_cast<double>(text_length);
}

double class_weight(const Node* element, PassFlags flags) noexcept {
    if (!has(flags, PassFlags::weight_classes)) {
        return 0.0;
    }
    // Source: Readability.js _getClassWeight: +-25 for class and for id.
    double weight = 0.0;
    const std::string_view cls = class_name(element);
    if (!cls.empty()) {
        weight -= patterns::negative(cls) ? 25.0 : 0.0;
        weight += patterns::positive(cls) ? 25.0 : 0.0;
    }
    const std::string_view id = element->attr("id");
    if (!id.empty()) {
        weight -= patterns::negative(id) ? 25.0 : 0.0;
        weight += patterns::positive(id) ? 25.0 : 0.0;
    }
    return weight;
}

std::vector<Node*> elements_by_tag(const Node* root, Tag tag) {
    std::vector<Node*> out;
    for (Node* n = root->first_child; n != nullptr; n = dom::next_node(n, root)) {
        if (n->is(tag)) {
            out.push_back(n);
        }
    }
    return out;
}

std::size_t count_by_tag(const Node* root, Tag tag) noexcept {
    std::size_t count = 0;
    for (const Node* n = root->first_child; n != nullptr; n = dom::next_node(n, root)) {
        count += static_cast<std::size_t>(n->is(tag));
    }
    return count;
}

Node* next_non_blank(Node* node) noexcept {
    while (node != nullptr && node->kind != NodeKind::element && text::is_blank(node->data)) {
        node = node->next;
    }
    return node;
}

std::string css_path(const Node* node) {
    std::vector<const Node*> chain;
    for (const Node* n = node; n != nullptr && n->kind == NodeKind::element; n = n->parent) {
        chain.push_back(n);
    }
    std::string path;
    constexpr std::size_t kMaxShown = 12;  // keep diagnostics short on deep pages
    const std::size_t shown = std::min(chain.size(), kMaxShown);
    if (chain.size() > shown) {
        path = "…";
    }
    for (std::size_t i = shown; i > 0; --i) {
        const Node* n = chain[i - 1];
        if (!path.empty()) {
            path.push_back('>');
        }
        path.append(n->name);
        if (const std::string_view id = n->attr("id"); !id.empty()) {
            path.push_back('#');
            path.append(id);
        } else if (const std::string_view cls = text::trim(class_name(n)); !cls.empty()) {
            path.push_back('.');
            path.append(cls.substr(0, std::min(cls.find(' '), cls.size())));
        }
    }
    return path;
}

}  // namespace pith::extract
