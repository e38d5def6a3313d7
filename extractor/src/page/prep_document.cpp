// Document preparation, run once before the passes: what Readability.js's
// parse() does before _grabArticle (noscript images, scripts, styles, <br>
// chains, <font>), plus comment removal.
#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "page/patterns.hpp"
#include "page/predicates.hpp"
#include "page/prep.hpp"
#include "dom/inner_text.hpp"
#include "dom/walk.hpp"
#include "text/text.hpp"

namespace pith::extract {

using dom::Node;
using dom::NodeKind;
using dom::Tag;

namespace {

// _isSingleImage: an <img>, or a chain of only-children without text ending in one.
bool is_single_image(const Node* node) {
    while (node != nullptr) {
        if (node->is(Tag::img)) {
            return true;
        }
        if (node->element_child_count() != 1 || !text::trim(dom::text_content(node)).empty()) {
            return false;
        }
        node = node->first_element_child();
    }
    return false;
}

Node* first_img(Node* root) {
    if (root->is(Tag::img)) {
        return root;
    }
    for (Node* n = root->first_child; n != nullptr; n = dom::next_node(n, root)) {
        if (n->is(Tag::img)) {
            return n;
        }
    }
    return nullptr;
}

void remove_all(dom::Document& doc, Tag tag) {
    for (Node* n : elements_by_tag(doc.root(), tag)) {
        dom::detach(n);
    }
}

}  // namespace

void unwrap_noscript_images(dom::Document& doc) {
    // One walk finds both: removing an image removes no noscript.
    std::vector<Node*> images;
    std::vector<Node*> noscripts;
    for (Node* n = dom::next_element(doc.root(), doc.root()); n != nullptr; n = dom::next_element(n, doc.root())) {
        if (n->is(Tag::img)) {
            images.push_back(n);
        } else if (n->is(Tag::noscript)) {
            noscripts.push_back(n);
        }
    }
    // Images with no source at all are placeholders for the noscript copy.
    for (Node* img : images) {
        bool keep = false;
        for (std::uint32_t i = 0; i < img->attr_count && !keep; ++i) {
            const dom::Attribute& a = img->attrs[i];
            keep = a.name == "src" || a.name == "srcset" || a.name == "data-src" || a.name == "data-srcset" ||
                   patterns::has_image_extension(a.value);
        }
        if (!keep) {
            dom::detach(img);
        }
    }
    // A noscript holding a single image replaces the lazy image just before it.
    for (Node* noscript : noscripts) {
        if (noscript->parent == nullptr || !is_single_image(noscript)) {
            continue;
        }
        Node* prev_element = noscript->prev_element_sibling();
        if (prev_element == nullptr || !is_single_image(prev_element)) {
            continue;
        }
        Node* replacement = noscript->first_element_child();
        if (replacement == nullptr) {
            continue;
        }
        replacement = doc.clone(replacement);
        Node* prev_img = first_img(prev_element);
        Node* new_img = first_img(replacement);
        if (prev_img == nullptr || new_img == nullptr) {
            continue;
        }
        for (std::uint32_t i = 0; i < prev_img->attr_count; ++i) {
            const dom::Attribute attr = prev_img->attrs[i];
            if (attr.value.empty()) {
                continue;
            }
            if (attr.name == "src" || attr.name == "srcset" || patterns::has_image_extension(attr.value)) {
                const dom::Attribute* existing = new_img->find_attr(attr.name);
                if (existing != nullptr && existing->value == attr.value) {
                    continue;
                }
                std::string name(attr.name);
                if (existing != nullptr) {
                    name = "data-old-" + name;
                }
                doc.set_attr(new_img, name, attr.value);
            }
        }
        dom::replace(prev_element, replacement);
    }
}

void remove_scripts(dom::Document& doc) {
    remove_all(doc, Tag::script);
    // Parsed with scripting off, "<noscript><div></noscript>" never closes:
    // the end tag cannot close past the open <div>, so the rest of the page
    // lands inside the noscript. A browser running scripts reads it as text
    // and shows the page; so a noscript holding most of the page's text is
    // the page itself, and only its tag goes. Each unwrap measures the
    // noscript's text, so a page gets a few, not one per nesting level.
    constexpr int kMaxUnwrapped = 4;
    int unwrapped = 0;
    Node* root = doc.root();
    // Measured at the first noscript with text (unwrapping moves no text):
    // most pages have none, or only an image or a frame in one.
    std::optional<std::size_t> page_text;
    const auto page_length = [&] {
        if (!page_text) {
            page_text = dom::inner_text_length(root, false);
        }
        return *page_text;
    };
    for (Node* n = dom::next_element(root, root); n != nullptr;) {
        if (!n->is(Tag::noscript)) {
            n = dom::next_element(n, root);
            continue;
        }
        Node* noscript = n;
        const bool may_hold_page = unwrapped < kMaxUnwrapped && noscript->first_element_child() != nullptr;
        const std::size_t noscript_text = may_hold_page ? dom::inner_text_length(noscript, false) : 0;
        if (noscript_text > 0 && 2 * noscript_text > page_length()) {
            ++unwrapped;
            Node* first = noscript->first_child;  // the walk goes on through what it held
            while (noscript->first_child != nullptr) {
                dom::insert_before(noscript->parent, noscript->first_child, noscript);
            }
            dom::detach(noscript);
            n = first->is_element() ? first : dom::next_element(first, root);
        } else {
            n = dom::next_element(noscript, root, true);
            dom::detach(noscript);
        }
    }
}

namespace {

// _replaceBrs: two or more consecutive <br>s end a paragraph; the phrasing
// content after them becomes a <p>.
void replace_brs(dom::Document& doc, Node* body) {
    for (Node* br : elements_by_tag(body, Tag::br)) {
        Node* next = br->next;
        bool replaced = false;
        while ((next = next_non_blank(next)) != nullptr && next->is(Tag::br)) {
            replaced = true;
            Node* sibling = next->next;
            dom::detach(next);
            next = sibling;
        }
        if (!replaced || br->parent == nullptr) {
            continue;
        }
        Node* p = doc.create_element(Tag::p);
        dom::replace(br, p);
        next = p->next;
        while (next != nullptr) {
            // A further <br><br> pair starts the next paragraph.
            if (next->is(Tag::br)) {
                const Node* after = next_non_blank(next->next);
                if (after != nullptr && after->is(Tag::br)) {
                    break;
                }
            }
            if (!is_phrasing_content(next)) {
                break;
            }
            Node* sibling = next->next;
            dom::append_child(p, next);
            next = sibling;
        }
        while (p->last_child != nullptr && is_whitespace(p->last_child)) {
            dom::detach(p->last_child);
        }
        if (p->parent->is(Tag::p)) {
            dom::Document::rename(p->parent, Tag::div);
        }
    }
}

}  // namespace

void prep_document(dom::Document& doc) {
    // One walk finds what each step takes: comments and styles hold no
    // element, and the <br> replacement moves fonts without removing any.
    std::vector<Node*> comments;
    std::vector<Node*> styles;
    std::vector<Node*> fonts;
    for (Node* n = doc.root()->first_child; n != nullptr; n = dom::next_node(n, doc.root())) {
        if (n->kind == NodeKind::comment) {
            comments.push_back(n);
        } else if (n->is(Tag::style)) {
            styles.push_back(n);
        } else if (n->is(Tag::font)) {
            fonts.push_back(n);
        }
    }
    for (Node* n : comments) {
        dom::detach(n);
    }
    for (Node* n : styles) {
        dom::detach(n);
    }
    if (Node* body = doc.body()) {
        replace_brs(doc, body);
    }
    for (Node* font : fonts) {
        dom::Document::rename(font, Tag::span);
    }
}

namespace {

// React's streamed server rendering names its pieces by one counter: the
// hidden segment "S:n" fills the boundary "B:n" or the placeholder "P:n"
// (each id may carry the application's prefix before the letter).
struct StreamId {
    char kind = 0;            // 'S', 'B' or 'P'
    std::size_t letter = 0;   // the kind letter's position in the id
};

// What `id` names of a streamed page, if anything.
std::optional<StreamId> stream_id(std::string_view id) noexcept {
    const std::size_t colon = id.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == id.size()) {
        return std::nullopt;
    }
    const char kind = id[colon - 1];
    if (kind != 'S' && kind != 'B' && kind != 'P') {
        return std::nullopt;
    }
    for (const char c : id.substr(colon + 1)) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            return std::nullopt;
        }
    }
    return StreamId{kind, colon - 1};
}

bool is_boundary_comment(const Node* n, std::string_view data) noexcept {
    return n->kind == NodeKind::comment && n->data == data;
}

// The boundary's fallback (a spinner, a skeleton) runs from its template to
// the comment "/$" that closes it, boundaries nested inside counted; nullptr
// when no such comment follows among the template's next siblings (a
// fallback is a few nodes; the bound keeps a page of unclosed boundaries from
// costing a walk over all its siblings each).
Node* boundary_end(const Node* boundary) noexcept {
    constexpr int kMaxFallbackNodes = 256;
    int depth = 0;
    int walked = 0;
    for (Node* n = boundary->next; n != nullptr && walked < kMaxFallbackNodes; n = n->next, ++walked) {
        if (is_boundary_comment(n, "/$")) {
            if (depth == 0) {
                return n;
            }
            --depth;
        } else if (is_boundary_comment(n, "$") || is_boundary_comment(n, "$?") || is_boundary_comment(n, "$!")) {
            ++depth;
        }
    }
    return nullptr;
}

}  // namespace

std::size_t replay_streamed_segments(dom::Document& doc) {
    Node* root = doc.root();
    // "B:n" and "P:n" templates by id (attribute values live in the
    // document's arena, and a replay moves nodes without freeing any).
    std::unordered_map<std::string_view, Node*> places;
    std::vector<Node*> segments;                    // the hidden "S:n" <div>s, in document order
    for (Node* n = dom::next_element(root, root); n != nullptr; n = dom::next_element(n, root)) {
        const std::string_view id = n->attr("id");
        const std::optional<StreamId> streamed = id.empty() ? std::nullopt : stream_id(id);
        if (!streamed) {
            continue;
        }
        if (n->is(Tag::template_) && streamed->kind != 'S') {
            places.emplace(id, n);
        } else if (n->is(Tag::div) && n->has_attr("hidden") && streamed->kind == 'S' &&
                   segments.size() < kMaxStreamedSegments) {
            segments.push_back(n);
        }
    }
    std::size_t replayed = 0;
    std::string key;
    for (Node* segment : segments) {
        const std::string_view id = segment->attr("id");
        key.assign(id);
        const std::size_t letter = stream_id(id)->letter;
        Node* place = nullptr;
        for (const char kind : {'B', 'P'}) {
            key[letter] = kind;
            if (const auto found = places.find(std::string_view(key)); found != places.end()) {
                place = found->second;
                break;
            }
        }
        // A place inside its own segment (hostile markup) would take the
        // segment's children into themselves.
        if (place == nullptr || place->parent == nullptr || dom::is_within(place, segment)) {
            continue;
        }
        Node* parent = place->parent;
        Node* before = place;
        if (key[letter] == 'B') {
            // A boundary: its fallback goes, the content takes its place.
            if (Node* end = boundary_end(place)) {
                while (place->next != end) {
                    dom::detach(place->next);
                }
                before = end;
            }
        }
        while (segment->first_child != nullptr) {
            dom::insert_before(parent, segment->first_child, before);
        }
        dom::detach(place);
        dom::detach(segment);
        ++replayed;
    }
    return replayed;
}

std::size_t reveal_hidden_content(dom::Document& doc, std::size_t body_length) {
    Node* body = doc.body();
    if (body == nullptr || body_length == 0) {
        return 0;
    }
    // Each hidden element is measured once and skipped unless revealed; the
    // cap bounds the walks a chain of nested hidden wrappers could cost.
    constexpr std::size_t kMaxRevealed = 4;
    std::size_t revealed = 0;
    for (Node* n = dom::next_element(body, body); n != nullptr && revealed < kMaxRevealed;) {
        if (is_probably_visible(n)) {
            n = dom::next_element(n, body);
            continue;
        }
        if (3 * dom::inner_text_length(n) < 2 * body_length) {
            n = dom::next_element(n, body, true);
            continue;
        }
        doc.remove_attr(n, "style");
        doc.remove_attr(n, "hidden");
        doc.remove_attr(n, "aria-hidden");
        ++revealed;
        n = dom::next_element(n, body);
    }
    return revealed;
}

namespace {

// The site's own furniture: a disclosure inside it is a menu's drop-down,
// not a panel of the page's content.
bool is_furniture_landmark(const Node* n) noexcept {
    return n->is(Tag::nav) || n->is(Tag::header) || n->is(Tag::footer) || n->is(Tag::aside) ||
           is_furniture_role(n->attr("role"));
}

// The walk up from a disclosure stops after this many levels, so that a page
// of many controls nested deep costs a bounded walk each.
constexpr int kFurnitureLevels = 64;

bool in_furniture(const Node* n, const Node* body) noexcept {
    return dom::within_ancestors(n, body, kFurnitureLevels,
                                 [](const Node* up) { return up->is_element() && is_furniture_landmark(up); });
}

// A control that opens a panel: a tab, or a button (or anything) that says
// whether what it controls is expanded.
bool is_disclosure(const Node* n) noexcept {
    return n->attr("role") == "tab" || n->has_attr("aria-expanded");
}

}  // namespace

std::size_t reveal_disclosed_panels(dom::Document& doc) {
    Node* body = doc.body();
    if (body == nullptr) {
        return 0;
    }
    // One walk: the ids the page's disclosures control (the values are the
    // document's), and the hidden elements that could be their panels, as a
    // control may come after its panel.
    std::vector<std::string_view> controlled;
    std::vector<Node*> hidden;
    for (Node* n = dom::next_element(body, body); n != nullptr; n = dom::next_element(n, body)) {
        const std::string_view controls = n->attr("aria-controls");
        if (!controls.empty() && is_disclosure(n) && !in_furniture(n, body)) {
            text::for_each_token(controls, [&controlled](std::string_view id) {
                controlled.push_back(id);
                return false;
            });
        }
        if (!is_probably_visible(n) && (n->has_attr("id") || n->attr("role") == "tabpanel")) {
            hidden.push_back(n);
        }
    }
    std::sort(controlled.begin(), controlled.end());
    std::size_t revealed = 0;
    for (Node* n : hidden) {
        const bool panel = n->attr("role") == "tabpanel" ||
                           std::binary_search(controlled.begin(), controlled.end(), n->attr("id"));
        if (panel && !in_furniture(n, body)) {
            doc.remove_attr(n, "style");
            doc.remove_attr(n, "hidden");
            doc.remove_attr(n, "aria-hidden");
            ++revealed;
        }
    }
    return revealed;
}

namespace {

// Exact class tokens, as the CSS frameworks write them.
constexpr std::array<std::string_view, 15> kScreenReaderOnly{
    "sr-only",          "sr-only-focusable",      "visually-hidden",    "visually-hidden-focusable",
    "visuallyhidden",   "visually-hidden--inline", "screen-reader-text", "screen-reader-only",
    "is-screen-reader-text", "screenreader-only", "is-screenreader-only", "element-invisible",
    "u-hiddenvisually", "u-visually-hidden",      "hide-visually"};
// Utility classes that hide an element at every width. Not "invisible" or
// "elementor-invisible": a script fades that content in.
constexpr std::array<std::string_view, 6> kAlwaysHidden{"hidden", "d-none", "is-hidden", "hide", "u-hidden", "js-hidden"};
// A tab's siblings compared past this many cost more than they tell.
constexpr int kMaxSiblingsCompared = 64;
// Each hidden element measured is a walk of its subtree; past this many (a
// chain of nested hidden wrappers), the rest are kept unmeasured.
constexpr int kMaxMeasured = 4;

bool is_one_of(std::string_view token, std::span<const std::string_view> names) {
    return std::ranges::any_of(names, [token](std::string_view name) { return text::iequals_ascii(token, name); });
}

// "md:block", "s:flex", "d-lg-flex", "show@medium", "visible-md": a class
// that shows the element at some width, beside one that hides it.
bool is_responsive_display(std::string_view token) {
    static constexpr std::array<std::string_view, 9> kShown{"block", "flex",    "grid",     "inline",   "table",
                                                            "show",  "visible", "contents", "flow-root"};
    const bool qualified = token.find_first_of(":@") != std::string_view::npos ||
                           (token.starts_with("d-") && token.find('-', 2) != std::string_view::npos) ||
                           token.starts_with("visible-") || token.starts_with("show");
    return qualified && std::ranges::any_of(kShown, [token](std::string_view shown) {
               return token.find(shown) != std::string_view::npos;
           });
}

enum class OffScreen { no, for_screen_readers, by_utility_class };

OffScreen off_screen(const Node* n) {
    bool screen_reader = false;
    bool hidden = false;
    bool responsive = false;
    text::for_each_token(class_name(n), [&](std::string_view token) {
        screen_reader = is_one_of(token, kScreenReaderOnly);
        hidden = hidden || is_one_of(token, kAlwaysHidden);
        responsive = responsive || is_responsive_display(token);
        return screen_reader;
    });
    if (screen_reader) {
        return OffScreen::for_screen_readers;
    }
    return hidden && !responsive ? OffScreen::by_utility_class : OffScreen::no;
}

std::vector<std::string_view> classes_but_hiding(const Node* n) {
    std::vector<std::string_view> out;
    text::for_each_token(class_name(n), [&out](std::string_view token) {
        if (!is_one_of(token, kAlwaysHidden)) {
            out.push_back(token);
        }
        return false;
    });
    return out;
}

// A tab's panel, a carousel's slide, the swatches past the first few: a
// sibling of the same tag and classes is shown, and a script swaps them in.
bool is_alternative_panel(const Node* n) {
    const std::vector<std::string_view> own = classes_but_hiding(n);
    int compared = 0;
    for (const Node* sibling = n->parent->first_child; sibling != nullptr && compared < kMaxSiblingsCompared;
         sibling = sibling->next) {
        if (sibling == n || !sibling->is_element() || sibling->name != n->name) {
            continue;
        }
        ++compared;
        if (off_screen(sibling) == OffScreen::no && is_probably_visible(sibling) && classes_but_hiding(sibling) == own) {
            return true;
        }
    }
    return false;
}

// An SVG's <title> and <desc>: a tooltip and a description for assistive
// technology, never drawn. An icon's "Facebook" or "Close" would otherwise
// read as a word of the text beside it.
bool is_undrawn_svg_text(const Node* n) {
    return n->ns == dom::Namespace::svg && (n->name == "title" || n->name == "desc");
}

}  // namespace

std::size_t drop_unshown_text(dom::Document& doc, std::size_t body_length) {
    Node* body = doc.body();
    std::size_t dropped = 0;
    int measured = 0;
    // A page that a script shows once loaded hides its whole content by class.
    const auto holds_the_page = [&](const Node* n) {
        return measured++ >= kMaxMeasured || 3 * dom::inner_text_length(n) >= body_length;
    };
    for (Node* n = body != nullptr ? dom::next_element(body, body) : nullptr; n != nullptr;) {
        const OffScreen how = off_screen(n);
        const bool kept = !is_undrawn_svg_text(n) &&
                          (how == OffScreen::no ||
                           (how == OffScreen::by_utility_class && (is_alternative_panel(n) || holds_the_page(n))));
        if (kept) {
            n = dom::next_element(n, body);
            continue;
        }
        Node* next = dom::next_element(n, body, true);
        dom::detach(n);
        ++dropped;
        n = next;
    }
    return dropped;
}

}  // namespace pith::extract
