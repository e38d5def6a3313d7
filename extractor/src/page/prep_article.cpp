// Readability.js's _prepArticle: cleanup of the chosen content. The order of
// the steps is Readability's and matters: data tables are marked before the
// conditional cleaning that spares them; share widgets go before conditional
// cleaning so their links do not count against real blocks.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <initializer_list>
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

// Source: Readability.js PRESENTATIONAL_ATTRIBUTES and DEPRECATED_SIZE_ATTRIBUTE_ELEMS.
constexpr std::string_view kPresentationalAttributes[] = {"align", "background", "bgcolor", "border", "cellpadding",
                                                          "cellspacing", "frame", "hspace", "rules", "style",
                                                          "valign", "vspace"};

void clean_styles(dom::Document& doc, Node* root) {
    for (Node* n = root; n != nullptr;) {
        if (n->kind != NodeKind::element) {
            n = dom::next_node(n, root);
            continue;
        }
        if (n->name == "svg") {  // SVG keeps its presentation attributes
            n = dom::next_node(n, root, true);
            continue;
        }
        // One look at each attribute (names are unique), last first so that a
        // removal never moves one not yet looked at.
        const bool sized = n->is(Tag::table) || n->is(Tag::th) || n->is(Tag::td) || n->is(Tag::hr) || n->is(Tag::pre);
        for (std::uint32_t i = n->attr_count; i-- > 0;) {
            const std::string_view name = n->attrs[i].name;
            if (std::find(std::begin(kPresentationalAttributes), std::end(kPresentationalAttributes), name) !=
                    std::end(kPresentationalAttributes) ||
                (sized && (name == "width" || name == "height"))) {
                doc.remove_attr(n, name);
            }
        }
        n = dom::next_node(n, root);
    }
}

// JavaScript parseInt(value, 10) || 1 for rowspan/colspan.
std::size_t span_or_one(std::string_view value) {
    const std::string_view t = text::trim(value);
    std::size_t start = (!t.empty() && (t[0] == '+' || t[0] == '-')) ? 1 : 0;
    long long parsed = 0;
    const auto [ptr, ec] = std::from_chars(t.data() + start, t.data() + t.size(), parsed);
    if (ec != std::errc() || ptr == t.data() + start || parsed == 0) {
        return 1;
    }
    if (start == 1 && t[0] == '-') {
        return 1;  // negative spans only ever lower the count in Readability; treat as one
    }
    return static_cast<std::size_t>(std::min<long long>(parsed, 1 << 16));
}

bool is_data_table(const Node* table) {
    return table->score.data_table;
}

// What _markDataTables reads of a table, in one walk instead of one per
// question (eight walks): on a table of a million cells each walk costs about
// a tenth of a second. A cell counts for the row it is in; rows do not nest
// unless tables do, and then the size is not used.
struct TableShape {
    const Node* first_caption = nullptr;
    bool has_data_element = false;  // col, colgroup, tfoot, thead or th
    bool has_nested_table = false;
    std::size_t rows = 0;
    std::size_t columns = 0;
};

TableShape table_shape(const Node* table) {
    TableShape shape;
    std::size_t in_row = 0;
    for (const Node* n = table->first_child; n != nullptr; n = dom::next_node(n, table)) {
        if (n->kind != NodeKind::element) {
            continue;
        }
        switch (n->tag) {
            case Tag::caption:
                shape.first_caption = shape.first_caption != nullptr ? shape.first_caption : n;
                break;
            case Tag::col:
            case Tag::colgroup:
            case Tag::tfoot:
            case Tag::thead:
            case Tag::th:
                shape.has_data_element = true;
                break;
            case Tag::table:
                shape.has_nested_table = true;
                break;
            case Tag::tr:
                shape.columns = std::max(shape.columns, in_row);
                in_row = 0;
                shape.rows += span_or_one(n->attr("rowspan"));
                break;
            case Tag::td:
                in_row += span_or_one(n->attr("colspan"));
                break;
            default:
                break;
        }
    }
    shape.columns = std::max(shape.columns, in_row);
    return shape;
}

void mark_data_tables(const std::vector<Node*>& tables) {
    for (Node* table : tables) {
        table->score.data_table = false;
        if (table->attr("role") == "presentation" || table->attr("datatable") == "0") {
            continue;
        }
        if (!table->attr("summary").empty()) {
            table->score.data_table = true;
            continue;
        }
        const TableShape shape = table_shape(table);
        if (shape.first_caption != nullptr && shape.first_caption->first_child != nullptr) {
            table->score.data_table = true;
            continue;
        }
        if (shape.has_data_element) {
            table->score.data_table = true;
            continue;
        }
        if (shape.has_nested_table) {
            continue;  // nested tables mean layout
        }
        // Source: Readability.js _markDataTables size rules.
        if (shape.columns == 1 || shape.rows == 1) {
            continue;
        }
        table->score.data_table = shape.rows >= 10 || shape.columns > 4 || shape.rows * shape.columns > 10;
    }
}

void fix_lazy_images(dom::Document& doc, const std::vector<Node*>& media) {
    for (Node* elem : media) {
        const bool is_img = elem->is(Tag::img);
        std::string_view src = is_img ? elem->attr("src") : std::string_view{};
        std::string_view mime;
        if (const std::size_t prefix = patterns::base64_data_url_prefix(src, mime); prefix > 0) {
            if (text::iequals_ascii(mime, "image/svg+xml")) {
                continue;  // SVG placeholders can be real images
            }
            bool src_could_be_removed = false;
            for (std::uint32_t i = 0; i < elem->attr_count; ++i) {
                if (elem->attrs[i].name != "src" && patterns::has_image_extension(elem->attrs[i].value)) {
                    src_could_be_removed = true;
                    break;
                }
            }
            // Source: Readability.js: base64 shorter than 133 chars is a placeholder pixel.
            if (src_could_be_removed && src.size() - prefix < 133) {
                doc.remove_attr(elem, "src");
                src = {};
            }
        }
        const std::string_view srcset = is_img ? elem->attr("srcset") : std::string_view{};
        if ((!src.empty() || (!srcset.empty() && srcset != "null")) &&
            !text::icontains_ascii(class_name(elem), "lazy")) {
            continue;
        }
        for (std::uint32_t j = 0; j < elem->attr_count; ++j) {
            const dom::Attribute attr = elem->attrs[j];
            if (attr.name == "src" || attr.name == "srcset" || attr.name == "alt") {
                continue;
            }
            std::string_view copy_to;
            if (patterns::looks_like_srcset(attr.value)) {
                copy_to = "srcset";
            } else if (patterns::looks_like_image_url(attr.value)) {
                copy_to = "src";
            }
            if (copy_to.empty()) {
                continue;
            }
            if (elem->is(Tag::img) || elem->is(Tag::picture)) {
                doc.set_attr(elem, copy_to, attr.value);
            } else if (elem->is(Tag::figure) && count_by_tag(elem, Tag::img) + count_by_tag(elem, Tag::picture) == 0) {
                Node* img = doc.create_element(Tag::img);
                doc.set_attr(img, copy_to, attr.value);
                dom::append_child(elem, img);
            }
        }
    }
}

bool has_allowed_video(const Node* element) {
    for (std::uint32_t i = 0; i < element->attr_count; ++i) {
        if (patterns::allowed_video(element->attrs[i].value)) {
            return true;
        }
    }
    return false;
}

// _removeNodes over the descendants with `tag`, last first, so that children
// are judged before their ancestors, as Readability does.
template <typename Predicate>
void remove_matching(const std::vector<Node*>& nodes, Predicate&& should_remove) {
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
        Node* n = *it;
        if (n->parent != nullptr && should_remove(n)) {
            dom::detach(n);
        }
    }
}

// _clean of each of `tags` in turn: removes every such element, sparing embeds
// from allowed video hosts. Whether an element goes depends on its own tag and
// attributes only, so cleaning the tags one after the other removes the same
// elements as one walk that removes them all, at the cost of one walk.
void clean(Node* root, std::initializer_list<Tag> tags) {
    std::vector<Node*> doomed;
    for (Node* n = root->first_child; n != nullptr; n = dom::next_node(n, root)) {
        if (n->kind != NodeKind::element || std::find(tags.begin(), tags.end(), n->tag) == tags.end()) {
            continue;
        }
        const bool is_embed = n->tag == Tag::object || n->tag == Tag::embed || n->tag == Tag::iframe;
        if (!(is_embed && has_allowed_video(n))) {
            doomed.push_back(n);
        }
    }
    for (auto it = doomed.rbegin(); it != doomed.rend(); ++it) {
        dom::detach(*it);
    }
}

// Readability's ad and loading labels are single short words: no white space
// inside, at most this many UTF-16 units.
constexpr std::size_t kLongestLabel = 24;

// A node's trimmed text while it could be such a label; built up from its
// texts as their spans are (dom::TextSpan), so that no node's text is built
// again from a subtree that may hold megabytes of white space around it.
struct LabelText {
    std::string text;
    bool possible = true;  // false: white space inside, or too long
};

bool holds_space(std::string_view s) noexcept {
    for (std::size_t pos = 0; pos < s.size();) {
        if (text::is_js_space(text::next_code_point(s, pos))) {
            return true;
        }
    }
    return false;
}

LabelText label_of(std::string_view data, const dom::TextSpan& span) {
    if (!span.seen) {
        return {};
    }
    const std::string_view trimmed = text::trim(data);
    if (span.length > kLongestLabel || holds_space(trimmed)) {
        return {{}, false};
    }
    return {std::string(trimmed), true};
}

// `a` followed by `b`, with their spans; `joined` is the span of both.
LabelText joined_label(const LabelText& a, const dom::TextSpan& a_span, const LabelText& b,
                       const dom::TextSpan& b_span, const dom::TextSpan& joined) {
    if (!a.possible || !b.possible || joined.length > kLongestLabel ||
        (a_span.seen && b_span.seen && (a_span.trailing || b_span.leading))) {
        return {{}, false};
    }
    return {a.text + b.text, true};
}

// What _cleanConditionally reads of the elements below a node: their text,
// the text of those of some tags (nested ones each whole, as Readability.js
// sums them), how many there are of some tags, and the text of their links.
struct BelowMeasures {
    dom::TextSpan text;  // the node's own text: its length is the content length
    LabelText label;     // and that text, while it could be an ad or loading label
    std::size_t list_length = 0;
    std::size_t heading_length = 0;
    std::size_t dense_length = 0;  // of the tags _getTextDensity counts
    std::size_t commas = 0;
    std::size_t paragraphs = 0;
    std::size_t images = 0;
    std::size_t list_items = 0;
    std::size_t inputs = 0;
    std::size_t embeds = 0;        // not from an allowed video host
    bool allowed_video = false;    // an embed from one
    bool data_table = false;
    std::size_t link_length = 0;       // of links elsewhere
    std::size_t hash_link_length = 0;  // of in-page (#) links
};

// The measures of the kept nodes a cleaning pass has judged. Nodes are judged
// last first, so every one below a node is judged before it, and nothing the
// pass removes afterwards is inside one: a kept node's measures still hold
// when the node above it reads them, instead of walking its subtree again
// (which cost the text times the nesting). Each is read once, by the nearest
// such node above, and dropped.
using MeasuredNodes = std::unordered_map<const Node*, BelowMeasures>;

// Adds element `e` below the node, whose text is `length` long.
void add_element(BelowMeasures& m, const Node* e, std::size_t length) {
    m.list_length += e->is(Tag::ul) || e->is(Tag::ol) ? length : 0;
    if (e->ns == dom::Namespace::html) {
        switch (e->tag) {
        case Tag::h1: case Tag::h2: case Tag::h3: case Tag::h4: case Tag::h5: case Tag::h6:
            m.heading_length += length;
            break;
        case Tag::span: case Tag::li: case Tag::td: case Tag::blockquote: case Tag::dl: case Tag::div:
        case Tag::img: case Tag::ol: case Tag::p: case Tag::pre: case Tag::table: case Tag::ul:
            m.dense_length += length;
            break;
        default:
            break;
        }
    }
    m.paragraphs += e->is(Tag::p) ? 1U : 0U;
    m.images += e->is(Tag::img) ? 1U : 0U;
    m.list_items += e->is(Tag::li) ? 1U : 0U;
    m.inputs += e->is(Tag::input) ? 1U : 0U;
    if (e->is(Tag::object) || e->is(Tag::embed) || e->is(Tag::iframe)) {
        const bool allowed = has_allowed_video(e);
        m.allowed_video = m.allowed_video || allowed;
        m.embeds += allowed ? 0U : 1U;
    }
    m.data_table = m.data_table || (e->is(Tag::table) && e->score.data_table);
    if (e->is(Tag::a)) {
        // Source: Readability.js _getLinkDensity: in-page (#) links weigh 0.3.
        (patterns::hash_url(e->attr("href")) ? m.hash_link_length : m.link_length) += length;
    }
}

// Adds the measures below a judged element, the element itself added apart.
void add_below(BelowMeasures& m, const BelowMeasures& below) {
    m.list_length += below.list_length;
    m.heading_length += below.heading_length;
    m.dense_length += below.dense_length;
    m.commas += below.commas;
    m.paragraphs += below.paragraphs;
    m.images += below.images;
    m.list_items += below.list_items;
    m.inputs += below.inputs;
    m.embeds += below.embeds;
    m.allowed_video = m.allowed_video || below.allowed_video;
    m.data_table = m.data_table || below.data_table;
    m.link_length += below.link_length;
    m.hash_link_length += below.hash_link_length;
}

// An open element of measure_below's walk: its text so far.
struct MeasureFrame {
    const Node* node;
    dom::TextSpan span;
    LabelText label;

    // Joins a text that follows what the element holds so far.
    void append(const dom::TextSpan& next, const LabelText& next_label) {
        const dom::TextSpan both = dom::joined(span, next);
        label = joined_label(label, span, next_label, next, both);
        span = both;
    }
};

// measure_below's walker (dom::walk_post_order): each element's text is
// joined to its parent's when the element closes, and a judged element's
// measures are taken (and dropped) instead of walking it.
struct BelowWalker {
    MeasuredNodes& judged;
    BelowMeasures measures;

    void text(const Node* node, std::vector<MeasureFrame>& frames) {
        const dom::TextSpan span = dom::span_of(node->data);
        frames.back().append(span, label_of(node->data, span));
        measures.commas += static_cast<std::size_t>(std::count(node->data.begin(), node->data.end(), ','));
    }
    dom::Visit enter(Node*& node, std::vector<MeasureFrame>& frames) {
        if (const auto found = judged.find(node); found != judged.end()) {
            add_element(measures, node, found->second.text.length);
            add_below(measures, found->second);
            frames.back().append(found->second.text, found->second.label);
            judged.erase(found);
            node = node->next;
            return dom::Visit::skip;
        }
        frames.push_back({node, {}, {}});
        return dom::Visit::descend;
    }
    void close(std::vector<MeasureFrame>& frames) {
        MeasureFrame done = std::move(frames.back());
        frames.pop_back();
        if (frames.empty()) {  // the measured node itself
            measures.text = done.span;
            measures.label = std::move(done.label);
            return;
        }
        add_element(measures, done.node, done.span.length);
        frames.back().append(done.span, done.label);
    }
};

// The node's measures in one walk of its subtree, down to the nodes `judged`
// holds.
BelowMeasures measure_below(const Node* node, MeasuredNodes& judged) {
    BelowWalker walker{judged, {}};
    std::vector<MeasureFrame> frames{{node, {}, {}}};
    dom::walk_post_order(frames, walker);
    return std::move(walker.measures);
}

// Source: Readability.js _cleanConditionally, over the node's measures.
bool measured_node_removed(const Node* node, Tag tag, const BelowMeasures& m, const ReadabilityOptions& options,
                           PassFlags flags) {
    if (m.data_table) {
        return false;
    }
    const double weight = class_weight(node, flags);
    if (weight < 0) {
        return true;
    }
    if (m.commas >= 10) {
        return false;  // lots of commas: prose, keep it
    }
    const std::size_t content_length = m.text.length;
    const auto share = [content_length](std::size_t part) {
        return content_length == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(content_length);
    };
    bool is_list = tag == Tag::ul || tag == Tag::ol;
    if (!is_list) {
        // JavaScript division: x / 0 is Infinity (> 0.9), 0 / 0 is NaN (not).
        is_list = content_length == 0 ? m.list_length > 0 : share(m.list_length) > 0.9;
    }
    const double p = static_cast<double>(m.paragraphs);
    const double img = static_cast<double>(m.images);
    const double li = static_cast<double>(m.list_items) - 100;
    const double input = static_cast<double>(m.inputs);
    const double heading_density = share(m.heading_length);  // _getTextDensity over h1-h6
    if (m.allowed_video) {
        return false;
    }
    // The node's inner text, when it could be an ad or loading label.
    if (m.label.possible && (patterns::ad_words(m.label.text) || patterns::loading_words(m.label.text))) {
        return true;
    }
    // _getLinkDensity: the links' text over the node's.
    const double density =
        content_length == 0 ? 0.0
                            : (static_cast<double>(m.link_length) + 0.3 * static_cast<double>(m.hash_link_length)) /
                                  static_cast<double>(content_length);
    const double text_dens = share(m.dense_length);  // _getTextDensity over span, li, td...
    const bool is_figure_child = has_ancestor_tag(node, Tag::figure);
    const double modifier = options.link_density_modifier;
    const std::size_t embed_count = m.embeds;

    // Source: Readability.js _cleanConditionally, the shouldRemoveNode rules.
    const bool have_to_remove =
        (!is_figure_child && img > 1 && p / img < 0.5) || (!is_list && li > p) || (input > std::floor(p / 3)) ||
        (!is_list && !is_figure_child && heading_density < 0.9 && content_length < 25 && (img == 0 || img > 2) &&
         density > 0) ||
        (!is_list && weight < 25 && density > 0.2 + modifier) || (weight >= 25 && density > 0.5 + modifier) ||
        ((embed_count == 1 && content_length < 75) || embed_count > 1) || (img == 0 && text_dens == 0);

    if (is_list && have_to_remove) {
        // A list of single images (a gallery) stays.
        for (const Node* child = node->first_element_child(); child != nullptr; child = child->next_element_sibling()) {
            if (child->element_child_count() > 1) {
                return true;
            }
        }
        if (m.images == m.list_items) {
            return false;
        }
    }
    return have_to_remove;
}

// Judges `node`; when it stays and `read_again` (an element with its tag is
// above it), keeps its measures in `judged` for that element.
bool clean_conditionally_removes(const Node* node, Tag tag, const ReadabilityOptions& options, PassFlags flags,
                                 MeasuredNodes& judged, bool read_again) {
    if (tag == Tag::table && is_data_table(node)) {
        return false;
    }
    if (has_ancestor_tag(node, Tag::table, -1, &is_data_table) || has_ancestor_tag(node, Tag::code)) {
        return false;
    }
    BelowMeasures measures = measure_below(node, judged);
    const bool removed = measured_node_removed(node, tag, measures, options, flags);
    if (!removed && read_again) {
        judged.emplace(node, std::move(measures));
    }
    return removed;
}

// Returns false, and leaves the rest, once `deadline` passes.
bool clean_conditionally(Node* root, Tag tag, const ReadabilityOptions& options, PassFlags flags,
                         std::chrono::steady_clock::time_point deadline) {
    if (!has(flags, PassFlags::clean_conditionally)) {
        return true;
    }
    // The elements with `tag` in document order, each with whether one of
    // them is above it: only such an element's measures are ever read again.
    std::vector<std::pair<Node*, bool>> nodes;
    dom::InsideTracker in_tag(root, false);
    for (Node* n = root->first_child; n != nullptr; n = dom::next_node(n, root)) {
        in_tag.reach(n);
        if (n->is(tag)) {
            nodes.emplace_back(n, in_tag.inside());
            in_tag.enter(n);
        }
    }
    constexpr std::size_t kElementsPerClockRead = 16;
    std::size_t read = 0;
    MeasuredNodes judged;
    // _removeNodes: last first, so that every element is judged before those above it.
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
        const auto [n, nested] = *it;
        if (n->parent == nullptr) {
            continue;
        }
        if (read++ % kElementsPerClockRead == 0 && std::chrono::steady_clock::now() >= deadline) {
            return false;
        }
        if (clean_conditionally_removes(n, tag, options, flags, judged, nested)) {
            dom::detach(n);
        }
    }
    return true;
}

// _cleanMatchedNodes under each child of the content: small share widgets.
void remove_share_widgets(Node* content) {
    std::vector<Node*> children;
    for (Node* c = content->first_element_child(); c != nullptr; c = c->next_element_sibling()) {
        children.push_back(c);
    }
    constexpr std::size_t kShareElementThreshold = 500;  // Source: Readability.js DEFAULT_CHAR_THRESHOLD
    for (Node* child : children) {
        const Node* end = next_in_document(child, true);
        Node* next = next_in_document(child);
        while (next != nullptr && next != end) {
            if (patterns::share_element(match_string(next)) &&
                dom::text_content_length(next, kShareElementThreshold) < kShareElementThreshold) {
                next = remove_and_get_next(next);
            } else {
                next = next_in_document(next);
            }
        }
    }
}

void flatten_single_cell_tables(const std::vector<Node*>& tables) {
    for (Node* table : tables) {
        if (table->parent == nullptr) {
            continue;
        }
        Node* tbody = has_single_tag_inside(table, Tag::tbody) ? table->first_element_child() : table;
        if (!has_single_tag_inside(tbody, Tag::tr)) {
            continue;
        }
        Node* row = tbody->first_element_child();
        if (!has_single_tag_inside(row, Tag::td)) {
            continue;
        }
        Node* cell = row->first_element_child();
        bool all_phrasing = true;
        for (const Node* c = cell->first_child; c != nullptr && all_phrasing; c = c->next) {
            all_phrasing = is_phrasing_content(c);
        }
        dom::Document::rename(cell, all_phrasing ? Tag::p : Tag::div);
        // Readability's _setNodeTag makes a fresh element: the td's table-only
        // attributes go along, as there.
        dom::replace(table, cell);
    }
}

}  // namespace

// The elements of the content that prep_article's steps work on, gathered in
// one walk before any step. A step that removes elements leaves them in these
// lists: a later step finds them detached (parent nullptr) or inside a
// detached subtree, where what it does changes nothing of the content.
struct PrepElements {
    std::vector<Node*> tables, media, h1, h2, p, br;
};

PrepElements prep_elements(Node* content) {
    PrepElements out;
    for (Node* n = dom::next_element(content, content); n != nullptr; n = dom::next_element(n, content)) {
        switch (n->tag) {
        case Tag::table: out.tables.push_back(n); break;
        case Tag::img:
        case Tag::picture:
        case Tag::figure: out.media.push_back(n); break;
        case Tag::h1: out.h1.push_back(n); break;
        case Tag::h2: out.h2.push_back(n); break;
        case Tag::p: out.p.push_back(n); break;
        case Tag::br: out.br.push_back(n); break;
        default: break;
        }
    }
    return out;
}

bool prep_article(dom::Document& doc, Node* content, const ReadabilityOptions& options, PassFlags flags,
                  std::chrono::steady_clock::time_point deadline) {
    clean_styles(doc, content);
    const PrepElements elements = prep_elements(content);
    mark_data_tables(elements.tables);
    fix_lazy_images(doc, elements.media);
    if (!clean_conditionally(content, Tag::form, options, flags, deadline) ||
        !clean_conditionally(content, Tag::fieldset, options, flags, deadline)) {
        return false;
    }
    clean(content, {Tag::object, Tag::embed, Tag::footer, Tag::link, Tag::aside});
    remove_share_widgets(content);
    clean(content, {Tag::iframe, Tag::input, Tag::textarea, Tag::select, Tag::button});
    remove_matching(elements.h1, [&](const Node* n) { return class_weight(n, flags) < 0; });
    remove_matching(elements.h2, [&](const Node* n) { return class_weight(n, flags) < 0; });
    if (!clean_conditionally(content, Tag::table, options, flags, deadline) ||
        !clean_conditionally(content, Tag::ul, options, flags, deadline) ||
        !clean_conditionally(content, Tag::div, options, flags, deadline)) {
        return false;
    }
    for (Node* h1 : elements.h1) {
        dom::Document::rename(h1, Tag::h2);
    }
    remove_matching(elements.p, [](const Node* p) {
        if (dom::has_text(p)) {  // most paragraphs: known at their first word
            return false;
        }
        const std::size_t media = count_by_tag(p, Tag::img) + count_by_tag(p, Tag::embed) +
                                  count_by_tag(p, Tag::object) + count_by_tag(p, Tag::iframe);
        return media == 0;
    });
    for (Node* br : elements.br) {
        const Node* next = next_non_blank(br->next);
        if (next != nullptr && next->is(Tag::p)) {
            dom::detach(br);
        }
    }
    flatten_single_cell_tables(elements.tables);
    return true;
}

}  // namespace pith::extract
