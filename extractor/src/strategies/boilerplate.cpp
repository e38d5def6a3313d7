// Boilerplate inside an article, recognised three ways: by the words of its
// class and id, by the links it is made of, and by where it is left (a heading
// with nothing after it). Every removal is bounded by a share of the article's
// text, so that a class on the article's own wrapper never empties it.
#include "strategies/boilerplate.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "dom/walk.hpp"
#include "page/patterns.hpp"
#include "page/predicates.hpp"
#include "page/prep.hpp"
#include "strategies/walk.hpp"
#include "dom/inner_text.hpp"
#include "text/needles.hpp"
#include "text/text.hpp"

namespace pith::extract {

using dom::Node;
using dom::Tag;

namespace {

// Whole words of class and id (split on every character that is not a letter
// or a digit) that name boilerplate.
constexpr text::WordSet kBoilerplateWords{std::to_array<std::string_view>({
    "ad", "ads", "advert", "author", "authors", "avatar", "bio", "breadcrumb", "breadcrumbs", "byline", "caption",
    "captions", "carousel", "comment", "comments", "copyright", "credit", "credits", "cta", "date", "disclaimer",
    "factbox", "follow", "footer", "infobox", "meta", "more", "newsletter", "pagination", "popular", "print",
    "promo", "rating", "ratings", "readmore", "related", "share", "sharing", "sidebar", "signup", "slider",
    "social", "sponsor", "sponsored", "subscribe", "subscription", "tags", "timestamp", "toc", "trending",
})};

// Stems that name boilerplate wherever they appear in class or id.
constexpr text::NeedleSet kBoilerplateStems{std::to_array<std::string_view>({
    "breadcrumb", "byline", "caption", "copyright", "entry-utility", "flyout", "loading", "news-letter",
    "newsletter", "postmeta", "read-time", "reading-time", "readtime", "recommend", "related", "share", "social",
    "subscri",
})};

bool is_word_char(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || static_cast<unsigned char>(c) >= 0x80U;
}

// Class names that say what an element has or is in ("has-sharing",
// "is-sticky") rather than what it is; they never make it boilerplate.
bool is_modifier_class(std::string_view name) noexcept {
    return text::istarts_with_ascii(name, "has-") || text::istarts_with_ascii(name, "is-") ||
           text::istarts_with_ascii(name, "with-") || text::istarts_with_ascii(name, "no-");
}

// The ASCII letters and digits of `text`, lower case, run together: a
// heading's words as the slug an id makes of them, whatever joins them and
// whichever marks ("what's new" and "whats-new" alike) the slug dropped.
std::string slug_letters(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if (text::is_ascii_alnum(c)) {
            out.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
        }
    }
    return out;
}

// Whether the element's id is its heading's words ("sharing-with-a-team" on
// a section headed "Sharing with a team", or on that heading itself), as
// documentation generators, Markdown renderers and editors write ids: the
// author named the section, not the page's furniture.
bool id_is_own_heading(const Node* element) {
    const std::string id = slug_letters(element->attr("id"));
    if (id.empty()) {
        return false;
    }
    const Node* heading = is_heading(element) ? element : element->first_element_child();
    if (heading != nullptr && !is_heading(heading)) {
        heading = heading->first_element_child();
    }
    if (heading == nullptr || !is_heading(heading)) {
        return false;
    }
    return slug_letters(dom::inner_text(heading)) == id;
}

// Whether naming_words counts an id that is the element's heading's words.
enum class HeadingIds : std::uint8_t { count, ignore };

// The element's class names, modifiers left out, and its id; lower case.
std::string naming_words(const Node* element, HeadingIds heading_ids = HeadingIds::count) {
    std::string names;
    const std::string_view classes = class_name(element);
    for (std::size_t i = 0; i < classes.size();) {
        const std::size_t end = std::min(classes.find_first_of(" \t\n\f\r", i), classes.size());
        if (const std::string_view name = classes.substr(i, end - i); !name.empty() && !is_modifier_class(name)) {
            names.append(name).push_back(' ');
        }
        i = end + 1;
    }
    if (heading_ids == HeadingIds::count || !id_is_own_heading(element)) {
        names.append(element->attr("id"));
    }
    return text::to_lower_ascii(names);
}

// Whether one of `names`'s words (runs of letters and digits) is in `words`.
template <std::size_t N>
bool has_word_from(std::string_view names, const text::WordSet<N>& words) {
    for (std::size_t i = 0; i < names.size();) {
        if (!is_word_char(names[i])) {
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < names.size() && is_word_char(names[end])) {
            ++end;
        }
        if (words.holds(names.substr(i, end - i))) {
            return true;
        }
        i = end;
    }
    return false;
}

// WordPress's sidebar widgets ("widget", "widget_text", "widget-area"); a
// page builder's content blocks are named "...-widget-..." instead.
bool is_widget_class(std::string_view classes) noexcept {
    for (std::size_t i = 0; i < classes.size();) {
        const std::size_t end = std::min(classes.find_first_of(" \t\n\f\r", i), classes.size());
        if (text::istarts_with_ascii(classes.substr(i, end - i), "widget")) {
            return true;
        }
        i = end + 1;
    }
    return false;
}

// Whole words of class and id that name a page's chrome, which no kind of
// page counts as its content.
constexpr text::WordSet kChromeWords{std::to_array<std::string_view>({
    "ad", "ads", "advert", "advertisement", "breadcrumb", "breadcrumbs", "consent", "cookie", "cookies", "facet",
    "facets", "filter", "filters", "gdpr", "modal", "newsletter", "pager", "pagination", "popup", "share",
    "sharing", "sidebar", "social", "sponsor", "sponsored", "subscribe", "toolbar",
})};
constexpr text::NeedleSet kChromeStems{std::to_array<std::string_view>({"breadcrumb", "cookie", "newsletter", "pagination", "sidebar", "social"})};

// Whole words of class and id that name what holds a page's content.
constexpr text::WordSet kContentWords{std::to_array<std::string_view>({
    "answer", "article", "body", "content", "description", "detail", "details", "entry", "main", "message",
    "post", "question", "review", "story", "summary", "text", "thread",
})};

// Names that remove_boilerplate reads beside kBoilerplateWords and
// kBoilerplateStems, and the block model does not (it was fitted on those
// alone): cookie and consent banners ("cookie" within any name, the others
// as words), and tables of contents named in full ("table-of-contents",
// "TableOfContentsDropDown").
constexpr text::WordSet kBannerWords{std::to_array<std::string_view>({"consent", "gdpr"})};
constexpr text::NeedleSet kFurnitureStems{
    std::to_array<std::string_view>({"cookie", "table-of-contents", "table_of_contents", "tableofcontents"})};

// Whole words of class and id that name customers' reviews and posts'
// signatures (left_out.hpp).
constexpr text::WordSet kReviewWords{std::to_array<std::string_view>({"review", "reviews"})};
constexpr text::WordSet kSignatureWords{std::to_array<std::string_view>({"sig", "signature", "signatures"})};

// A short line that announces what follows rather than saying something:
// "Related articles:", a paragraph that is one bold phrase, or the
// <summary> a <details> box opens with.
bool is_label_line(const Node* node) {
    if (is_heading(node) || node->is(Tag::summary)) {
        return true;
    }
    if (!node->is(Tag::p) && !node->is(Tag::div)) {
        return false;
    }
    constexpr std::size_t kMaxLabelLength = 50;
    if (dom::inner_text_longer_than(node, kMaxLabelLength)) {
        return false;
    }
    const std::string line = dom::inner_text(node);
    if (line.empty()) {
        return false;
    }
    if (line.back() == ':') {
        return true;
    }
    const Node* only = node->first_element_child();
    return only != nullptr && only->next_element_sibling() == nullptr && (only->is(Tag::strong) || only->is(Tag::b)) &&
           dom::inner_text_length(only) == text::utf16_length(line);
}

// Blocks that are one line of a page's furniture when made of links.
bool is_line_block(const Node* node) noexcept {
    return node->is(Tag::p) || node->is(Tag::li) || node->is(Tag::dt) || node->is(Tag::dd) || is_heading(node);
}

bool is_list(const Node* node) noexcept { return node->is(Tag::ul) || node->is(Tag::ol); }

// A line made of links: half its text or more in links, and shorter than
// prose. A sentence of 80 characters or more that ends as sentences do (not
// with the "..." of a cut teaser) is prose however many of its words link
// somewhere, unless it is all one link: titles and calls to action rarely end
// in a full stop, and a sentence that links only some of its words is text.
bool is_link_line(const Node* line, std::size_t length, double link_density) {
    constexpr std::size_t kMaxLinkLineLength = 300;
    if (link_density < 0.5 || length >= kMaxLinkLineLength) {
        return false;
    }
    constexpr std::size_t kMinSentenceLength = 80;
    constexpr double kAllLinks = 0.9;
    if (is_heading(line) || length < kMinSentenceLength || link_density >= kAllLinks) {
        return true;
    }
    const std::string text = dom::inner_text(line);
    const std::string_view trimmed = text::trim(text);
    if (trimmed.ends_with("..") || trimmed.ends_with("\u2026")) {
        return true;
    }
    return !(trimmed.ends_with('.') || trimmed.ends_with('!') || trimmed.ends_with("\u3002") ||
             trimmed.ends_with("\uFF01"));
}

bool is_section_block(const Node* node) noexcept {
    return node->is(Tag::div) || node->is(Tag::section) || node->is(Tag::aside) || node->is(Tag::nav) ||
           node->is(Tag::header) || node->is(Tag::footer) || node->is(Tag::table);
}

// A table of contents: a list, or a box, of three or more links to the
// page's own sections ("#install"), their text most of its text. Readability weighs
// in-page links at 0.3, so that footnotes and a contents list do not sink an
// article; the reader of the article has its headings already.
bool is_table_of_contents(const Node* node, std::size_t length, const Measures& measures) {
    constexpr std::size_t kMinEntries = 3;
    constexpr double kMinLinkedShare = 0.7;
    std::size_t entries = 0;
    std::size_t linked = 0;
    for (const Node* n = dom::next_element(node, node); n != nullptr;) {
        if (!n->is(Tag::a)) {
            n = dom::next_element(n, node);
            continue;
        }
        if (patterns::hash_url(text::trim(n->attr("href")))) {
            ++entries;
            linked += measures.text(n);
        }
        n = dom::next_element(n, node, true);
    }
    return entries >= kMinEntries && static_cast<double>(linked) >= kMinLinkedShare * static_cast<double>(length);
}

template <std::size_t N>
bool has_stem_from(std::string_view names, const text::NeedleSet<N>& stems) noexcept {
    return stems.found_in(names);
}

// Whether `names` (naming_words(element)) or the element's classes name boilerplate.
bool boilerplate_named(const Node* element, std::string_view names) {
    return is_widget_class(class_name(element)) || has_stem_from(names, kBoilerplateStems) ||
           has_word_from(names, kBoilerplateWords);
}

// Whether the element's class or id names boilerplate, a heading's own id
// aside, or a banner or a table of contents (kBannerWords, kFurnitureStems),
// which names_boilerplate does not read.
bool named_as_furniture(const Node* element) {
    if (!element->has_attr("class") && !element->has_attr("id")) {
        return false;
    }
    const std::string names = naming_words(element, HeadingIds::ignore);
    return boilerplate_named(element, names) || has_stem_from(names, kFurnitureStems) ||
           has_word_from(names, kBannerWords);
}

// Whether a sibling beside `node` reads on the same line: text that is not
// blank, or an inline element.
bool has_inline_neighbour(const Node* node) noexcept {
    for (const Node* side : {node->prev, node->next}) {
        const bool forward = side == node->next;
        for (const Node* n = side; n != nullptr; n = forward ? n->next : n->prev) {
            if (n->is_text() && text::is_blank(n->data)) {
                continue;
            }
            if (n->is_text() || (n->is_element() && is_inline_element(n) && dom::has_text(n))) {
                return true;
            }
            if (n->is_element()) {
                break;
            }
        }
    }
    return false;
}

// A jump within the page that stands as a line of its own: "Skip to main
// content", "Back to top" (a link to "#..." or "#", short, not in a heading,
// with nothing beside it on its line). A footnote's mark or its way back sits
// in a line of text; a heading's own anchor is the heading.
bool is_in_page_jump(const Node* link, std::size_t length, const Measures& measures) {
    constexpr std::size_t kMaxJumpLength = 40;
    // Wrappers looked through, and ancestors looked up for a heading: more
    // than any page nests, few enough that a hostile page of deep chains of
    // such links costs a bounded walk per link.
    constexpr int kLevels = 64;
    if (!link->is(Tag::a) || length > kMaxJumpLength || !text::trim(link->attr("href")).starts_with('#')) {
        return false;
    }
    const Node* line = link;
    for (int i = 0; i < kLevels && line->parent != nullptr && line->parent->is_element() &&
                    is_inline_element(line->parent) && measures.text(line->parent) == length;
         ++i) {
        line = line->parent;
    }
    int looked = 0;
    for (const Node* n = line->parent; n != nullptr && n->is_element() && looked < kLevels; n = n->parent, ++looked) {
        if (is_heading(n)) {
            return false;
        }
    }
    return !has_inline_neighbour(line);
}

bool is_media(const Node* node) noexcept {
    return node->is(Tag::img) || node->is(Tag::picture) || node->is(Tag::video) || node->is(Tag::audio) ||
           node->is(Tag::iframe) || node->is(Tag::svg) || node->is(Tag::object) || node->is(Tag::embed);
}

bool holds_media(const Node* node) noexcept {
    for (const Node* n = node; n != nullptr; n = dom::next_element(n, node)) {
        if (is_media(n)) {
            return true;
        }
    }
    return false;
}

// Removes the words of a figure-like element and keeps its images.
void strip_text_keep_media(Node* root) {
    for (Node* n = root->first_child; n != nullptr;) {
        if (n->is_element() && !is_media(n) && n->first_child != nullptr && holds_media(n)) {
            n = n->first_child;  // the words around the image inside it go too
            continue;
        }
        // The next node: a sibling, else the next sibling of the nearest
        // ancestor that has one (taken before `n` may be detached).
        Node* next = n->next;
        for (Node* up = n->parent; next == nullptr && up != root; up = up->parent) {
            next = up->next;
        }
        if (n->is_text() || (n->is_element() && !holds_media(n))) {
            dom::detach(n);
        }
        n = next;
    }
}

// Class and id words of elements that hold an image and its caption.
constexpr text::WordSet kImageWords{std::to_array<std::string_view>({"image", "img", "photo", "picture", "gallery"})};

bool names_image(const Node* element) {
    if (!element->has_attr("class") && !element->has_attr("id")) {
        return false;
    }
    return has_word_from(naming_words(element), kImageWords);
}

// Digits from `at` on: how many.
std::size_t digits_at(std::string_view line, std::size_t at) noexcept {
    std::size_t end = at;
    while (end < line.size() && line[end] >= '0' && line[end] <= '9') {
        ++end;
    }
    return end - at;
}

// A date in digits: a year from 1900 to 2099 standing alone, or three numbers
// joined by the same '.', '/' or '-' as in d.m.yyyy, d/m/yy or yyyy-mm-dd
// (version numbers such as 3.6.0 have a one-digit last part, dates never).
bool has_numeric_date(std::string_view line) {
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (digits_at(line, i) == 0 || (i > 0 && digits_at(line, i - 1) > 0)) {
            continue;
        }
        const std::size_t first = digits_at(line, i);
        const std::string_view run = line.substr(i, first);
        if (first == 4 && (run.starts_with("19") || run.starts_with("20"))) {
            return true;
        }
        const std::size_t sep1 = i + first;
        if (sep1 >= line.size() || (line[sep1] != '.' && line[sep1] != '/' && line[sep1] != '-')) {
            continue;
        }
        const std::size_t second = digits_at(line, sep1 + 1);
        const std::size_t sep2 = sep1 + 1 + second;
        if (second == 0 || second > 2 || sep2 >= line.size() || line[sep2] != line[sep1]) {
            continue;
        }
        const std::size_t third = digits_at(line, sep2 + 1);
        const bool day_first = first <= 2 && (third == 2 || third == 4);
        const bool year_first = first == 4 && (third == 1 || third == 2);
        if (day_first || year_first) {
            return true;
        }
    }
    return false;
}

constexpr std::size_t kMaxDateLineLength = 80;

// A line that only dates the article: "Published 23.10.2018", "16 March 2021".
bool is_date_line(const Node* node, const Measures& measures) {
    if (!(node->is(Tag::p) || node->is(Tag::time) || (node->is(Tag::div) && !has_child_block_element(node))) ||
        measures.text(node) > kMaxDateLineLength) {
        return false;
    }
    const std::string line = dom::inner_text(node);
    constexpr std::size_t kMaxDateLineWords = 10;
    if (line.empty() || text::utf16_length(line) > kMaxDateLineLength || text::count_words(line) > kMaxDateLineWords) {
        return false;
    }
    return node->is(Tag::time) || count_by_tag(node, Tag::time) > 0 || has_numeric_date(line);
}

RemovedBlock record(std::string_view kind, const Node* node) {
    RemovedBlock block;
    block.kind = kind;
    block.path = css_path(node);
    block.source_index = node->source_index;
    block.text_length = dom::inner_text_length(node);
    constexpr std::size_t kExcerptCodePoints = 100;
    block.excerpt = dom::inner_text_prefix(node, kExcerptCodePoints);
    return block;
}

// Detaches `node`, and the label line just before it when it introduced it
// ("Related articles" before a box of links). A block without links (a
// byline, a caption) is introduced by nothing: the heading before it is the
// article's own.
void remove_with_label(Node* node, std::string_view kind, double link_density, std::vector<RemovedBlock>& removed) {
    Node* previous = node->prev_element_sibling();
    while (previous != nullptr && previous->is(Tag::br)) {
        previous = previous->prev_element_sibling();
    }
    removed.push_back(record(kind, node));
    dom::detach(node);
    constexpr double kMinIntroducedLinkDensity = 0.3;
    if (previous != nullptr && link_density >= kMinIntroducedLinkDensity && is_label_line(previous)) {
        removed.push_back(record("label", previous));
        dom::detach(previous);
    }
}

// The first text of `scope` that is not blank, or nullptr.
const Node* first_words(const Node* scope) {
    for (const Node* n = scope; n != nullptr; n = dom::next_node(n, scope)) {
        if (n->is_text() && !text::is_blank(n->data)) {
            return n;
        }
    }
    return nullptr;
}

// Whether `node` holds the article's first words: a label line that does is
// all that is left and announces nothing but itself (a thread's one post is
// its title).
bool holds_first_words(const Node* node, const Node* article) {
    const Node* first = first_words(node);
    return first != nullptr && first == first_words(article);
}

// The label line that holds the article's last words, if one does.
Node* last_label(Node* article) {
    // Backwards in document order from the article's last node: the walk
    // stops at the last words, where a forward walk read the whole article
    // (and runs again after every label it removes).
    const Node* last_text = nullptr;
    for (const Node* n = dom::last_descendant(article); n != nullptr; n = dom::previous_node(n, article)) {
        if (n->is_text() && !text::is_blank(n->data)) {
            last_text = n;
            break;
        }
    }
    for (Node* up = last_text != nullptr ? last_text->parent : nullptr; up != nullptr && up != article; up = up->parent) {
        if (is_label_line(up)) {
            return up;
        }
        if (up->is(Tag::div) && up->element_child_count() > 1) {
            break;
        }
    }
    return nullptr;
}

// Date lines before the article's first paragraph of prose or after its
// last: inside the text, a date is more often an event's than the page's.
void remove_date_lines(Node* article, const Measures& measures, std::vector<RemovedBlock>& removed) {
    constexpr std::size_t kProseLength = 150;
    std::vector<Node*> date_lines_before;  // before the first paragraph of prose
    std::vector<Node*> date_lines_after;   // after the latest one so far
    bool seen_prose = false;
    for (Node* n = dom::next_element(article, article); n != nullptr;) {
        if (is_date_line(n, measures)) {
            (seen_prose ? date_lines_after : date_lines_before).push_back(n);
            n = dom::next_element(n, article, true);
            continue;
        }
        if (n->is(Tag::p) && measures.text(n) >= kProseLength && dom::inner_text_length(n) >= kProseLength) {
            seen_prose = true;
            date_lines_after.clear();
        }
        n = dom::next_element(n, article);
    }
    for (const std::vector<Node*>* lines : {&date_lines_before, &date_lines_after}) {
        for (Node* line : *lines) {
            removed.push_back(record("date_line", line));
            dom::detach(line);
        }
    }
}

}  // namespace

std::string_view boilerplate_kind_name(BoilerplateKind kind) noexcept {
    switch (kind) {
    case BoilerplateKind::none: return "none";
    case BoilerplateKind::caption: return "caption";
    case BoilerplateKind::named: return "named";
    case BoilerplateKind::links: return "links";
    case BoilerplateKind::date_line: return "date_line";
    case BoilerplateKind::figure: return "figure";
    case BoilerplateKind::contents: return "contents";
    case BoilerplateKind::form: return "form";
    }
    return "none";
}

namespace {

// What `node` is, when it holds at most `max_removed` UTF-16 units of text
// (figcaptions always count).
BoilerplateKind classify(const Node* node, const Measures& measures, std::size_t max_removed, bool links) {
    if (node->is(Tag::figcaption)) {
        return BoilerplateKind::caption;
    }
    const std::size_t length = measures.text(node);
    if (length > max_removed) {
        return BoilerplateKind::none;
    }
    // Before the names: a table of contents named "toc" is still one, and
    // its label goes with it.
    if (links && length > 0 && (is_list(node) || is_section_block(node)) &&
        is_table_of_contents(node, length, measures)) {
        return BoilerplateKind::contents;
    }
    // A heading, or a section, whose id is the heading's words is named by
    // its author ("sharing-with-a-team"): that id does not make it furniture.
    // (The block model reads every name as written: it was fitted on them.)
    if (node->is(Tag::nav) || node->is(Tag::template_) || node->is(Tag::aside) || named_as_furniture(node)) {
        return BoilerplateKind::named;
    }
    // A form's labels and messages ("Email*", "Thank you! Your submission
    // has been received") are left when the region drops its controls. A
    // page that wraps everything in one form (ASP.NET's) keeps it: it holds
    // more than max_removed. The messages site builders put beside the form
    // were also tried, by class and id words naming a form and a state
    // ("w-form-done", "form-error"): on wcxb-dev five pages moved, four up by
    // under 0.01 and a documentation page about forms down by 0.027, the mean
    // unchanged (0.8706), so they are left to the block model.
    if (node->is(Tag::form)) {
        return BoilerplateKind::form;
    }
    constexpr std::size_t kMaxCaptionLength = 300;
    if (length > 0 && length <= kMaxCaptionLength && (node->is(Tag::figure) || names_image(node))) {
        return BoilerplateKind::figure;
    }
    if (!links) {
        return BoilerplateKind::none;
    }
    if (length > 0 && is_in_page_jump(node, length, measures)) {
        return BoilerplateKind::links;
    }
    if (length > 0 && (is_line_block(node) || is_list(node))) {
        const double density = measures.link_density_with_self(node);
        if (is_list(node) ? density >= 0.7 : is_link_line(node, length, density)) {
            return BoilerplateKind::links;
        }
    }
    if (length > 0 && is_section_block(node) && measures.link_density_with_self(node) >= 0.6) {
        return BoilerplateKind::links;  // a box of links: teasers, a menu, a tag cloud
    }
    return BoilerplateKind::none;
}

}  // namespace

// Ruby annotations (<rt>, and the <rp> parentheses around them) are
// pronunciation guides over the text, not words of it: "子(こ)ども" reads
// "子ども". They go unrecorded; a page may have thousands.
void remove_ruby_annotations(Node* article) {
    for (Node* n = dom::next_element(article, article); n != nullptr;) {
        if (n->is(Tag::rt) || n->is(Tag::rp)) {
            Node* next = dom::next_element(n, article, true);
            dom::detach(n);
            n = next;
            continue;
        }
        n = dom::next_element(n, article);
    }
}

void remove_invisible_characters(dom::Document& doc, Node* article) {
    for (Node* n = article; n != nullptr; n = dom::next_node(n, article)) {
        if (n->is_text() && text::has_invisible(n->data)) {
            n->data = doc.arena().copy(text::without_invisible(n->data));
        }
    }
}

std::vector<RemovedBlock> remove_boilerplate(Node* article, bool links) {
    remove_ruby_annotations(article);
    const Measures measures(article);
    // Nothing that holds more than this share of the article is removed.
    const auto max_removed = static_cast<std::size_t>(static_cast<double>(measures.text(article)) * 0.4);
    // The article's longest paragraph is its own text, whatever its
    // wrappers are named: no wrapper that holds it goes (the paragraph itself
    // still may, when it is itself named as furniture).
    const Node* longest_paragraph = nullptr;
    for (const Node* n = article; n != nullptr; n = dom::next_element(n, article)) {
        if (n->is(Tag::p) && (longest_paragraph == nullptr || measures.text(n) > measures.text(longest_paragraph))) {
            longest_paragraph = n;
        }
    }
    // A paragraph under a tenth of the article is not what the article is
    // made of: an author box's biography is often a page's longest.
    if (longest_paragraph != nullptr && measures.text(longest_paragraph) * 10 < measures.text(article)) {
        longest_paragraph = nullptr;
    }
    const auto holds_longest_paragraph = [&](const Node* node) {
        return longest_paragraph != nullptr && dom::is_within(longest_paragraph->parent, node);
    };
    std::vector<RemovedBlock> removed;
    for (Node* node = dom::next_element(article, article); node != nullptr;) {
        BoilerplateKind kind = classify(node, measures, max_removed, links);
        if (kind != BoilerplateKind::none && holds_longest_paragraph(node)) {
            kind = BoilerplateKind::none;
        }
        if (kind == BoilerplateKind::none) {
            node = dom::next_element(node, article);
            continue;
        }
        Node* next = dom::next_element(node, article, true);
        if (kind == BoilerplateKind::figure && holds_media(node)) {
            removed.push_back(record(boilerplate_kind_name(kind), node));
            strip_text_keep_media(node);
        } else {
            // A table of contents' in-page links weigh 0.3 in the link
            // density; it is introduced by its label all the same.
            const double density =
                kind == BoilerplateKind::contents ? 1.0 : measures.link_density_with_self(node);
            remove_with_label(node, boilerplate_kind_name(kind), density, removed);
        }
        node = next;
    }
    remove_date_lines(article, measures, removed);
    for (Node* label = last_label(article); label != nullptr && !holds_first_words(label, article);
         label = last_label(article)) {
        removed.push_back(record("label", label));
        dom::detach(label);
    }
    return removed;
}

bool names_boilerplate(const Node* element) {
    return (element->has_attr("class") || element->has_attr("id")) &&
           boilerplate_named(element, naming_words(element));
}

namespace {

// Whether the element's class or id holds one of `words` as a whole word.
template <std::size_t N>
bool named_by(const Node* element, const text::WordSet<N>& words) {
    return (element->has_attr("class") || element->has_attr("id")) && has_word_from(naming_words(element), words);
}

}  // namespace

bool names_review(const Node* element) { return named_by(element, kReviewWords); }

bool names_signature(const Node* element) { return named_by(element, kSignatureWords); }

ElementNames element_names(const Node* element) {
    ElementNames out;
    if (!element->has_attr("class") && !element->has_attr("id")) {
        return out;
    }
    const std::string names = naming_words(element);
    out.boilerplate = boilerplate_named(element, names);
    out.chrome = has_stem_from(names, kChromeStems) || has_word_from(names, kChromeWords);
    out.content = has_word_from(names, kContentWords);
    return out;
}

}  // namespace pith::extract
