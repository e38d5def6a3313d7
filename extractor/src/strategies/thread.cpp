#include "strategies/thread.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dom/inner_text.hpp"
#include "dom/walk.hpp"
#include "page/predicates.hpp"
#include "text/needles.hpp"
#include "text/text.hpp"

namespace pith::extract {

namespace {

using dom::Node;
using dom::Tag;

// Shorter lines ("Thanks!", "+1") repeat in any thread without quoting.
constexpr std::size_t kShortestRepeatedLine = 40;  // bytes
// Each quote searches the whole text: a thread shows a few dozen, and the cap
// bounds the work on a page of thousands.
constexpr std::size_t kMostQuotesSearched = 256;

// A quote and where its text lies in the article's text.
struct Quote {
    Node* node = nullptr;
    std::size_t begin = 0;
    std::size_t end = 0;
    std::string longest_line;
};

// Appends the text node's text, white space collapsed, as one line of `text`;
// returns the line (a copy: `text` grows on).
std::string append_line(std::string& text, std::string_view data) {
    std::string line = text::collapse_runs(text::trim(data));
    if (!line.empty()) {
        text.append(line).push_back('\n');
    }
    return line;
}

}  // namespace

std::size_t remove_repeated_quotes(Attempt& chosen) {
    Node* const root = chosen.content;
    if (root == nullptr) {
        return 0;
    }
    // The article's text line by line, and each outermost quote's span of it.
    std::string text;
    std::vector<Quote> quotes;
    for (Node* n = root; n != nullptr;) {
        if (n->is(Tag::blockquote)) {
            Quote quote{n, text.size(), 0, {}};
            for (const Node* inner = n; inner != nullptr; inner = dom::next_node(inner, n)) {
                if (inner->is_text()) {
                    if (std::string line = append_line(text, inner->data);
                        line.size() > quote.longest_line.size()) {
                        quote.longest_line = std::move(line);
                    }
                }
            }
            quote.end = text.size();
            quotes.push_back(std::move(quote));
            n = dom::next_node(n, root, true);
            continue;
        }
        if (n->is_text()) {
            append_line(text, n->data);
        }
        n = dom::next_node(n, root);
    }
    if (quotes.empty()) {
        return 0;
    }
    // Whether `at` falls inside one of the quotes (sorted, disjoint).
    const auto in_a_quote = [&](std::size_t at) {
        const auto after = std::upper_bound(quotes.begin(), quotes.end(), at,
                                            [](std::size_t pos, const Quote& q) { return pos < q.begin; });
        return after != quotes.begin() && at < std::prev(after)->end;
    };
    std::vector<Node*> repeated;
    for (std::size_t q = 0; q < std::min(quotes.size(), kMostQuotesSearched); ++q) {
        const Quote& quote = quotes[q];
        if (quote.longest_line.size() < kShortestRepeatedLine) {
            continue;
        }
        for (std::size_t at = text.find(quote.longest_line); at != std::string::npos;
             at = text.find(quote.longest_line, at + 1)) {
            if (!in_a_quote(at)) {
                repeated.push_back(quote.node);
                break;
            }
        }
    }
    return remove_from_article(chosen, repeated);
}

namespace {

// A header's text: a name or a date, never a sentence.
constexpr std::size_t kLongestHeader = 40;  // UTF-16 units of inner text (dom::inner_text_length)
constexpr std::size_t kMostNameWords = 4;
// How many texts after a header are searched for one that stayed: a post's
// first few lines.
constexpr std::size_t kTextsSearched = 64;

// The path segments forum software puts before a member's id or name
// ("/members/name.123/", "/u/name", "/user/123", "profile.php?id=").
constexpr text::WordSet kProfileSegments{std::to_array<std::string_view>({
    "member", "member.php", "memberlist.php", "members", "people", "profile", "profile.php", "profiles", "u",
    "user", "users",
})};
// Words of a class, id or itemprop that name a post's author.
constexpr text::WordSet kAuthorNames{std::to_array<std::string_view>({
    "author", "poster", "user", "username",
})};

bool links_a_profile(std::string_view href) {
    const std::string_view path = href.substr(0, std::min(href.find_first_of("?#"), href.size()));
    for (std::size_t i = 0; i < path.size();) {
        const std::size_t slash = std::min(path.find('/', i), path.size());
        if (const std::string segment = text::to_lower_ascii(path.substr(i, slash - i));
            kProfileSegments.holds(segment)) {
            // "member.php?u=12" names the member in its query, "/members/" its next segment.
            const std::string_view rest = path.substr(std::min(slash + 1, path.size()));
            if (segment.ends_with(".php") ? href.size() > path.size() : !rest.empty() && rest != "/") {
                return true;
            }
        }
        i = slash + 1;
    }
    return false;
}

// What the element's class, itemprop or rel name: a post's author, or their
// avatar (a link around a picture or an initial, not the name).
enum class Naming { nothing, author, avatar };

Naming naming(const Node* element) {
    std::string names = text::to_lower_ascii(class_name(element));
    names.push_back(' ');
    names.append(text::to_lower_ascii(element->attr("itemprop"))).push_back(' ');
    names.append(text::to_lower_ascii(element->attr("rel")));
    bool author = false;
    for (std::size_t i = 0; i < names.size();) {
        if (!std::isalnum(static_cast<unsigned char>(names[i]))) {
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < names.size() && std::isalnum(static_cast<unsigned char>(names[end]))) {
            ++end;
        }
        if (const std::string_view word = std::string_view(names).substr(i, end - i); word == "avatar") {
            return Naming::avatar;
        } else if (kAuthorNames.holds(word)) {
            author = true;
        }
        i = end;
    }
    return author ? Naming::author : Naming::nothing;
}

// How far up a header's ancestors are read: posts sit a few levels under
// their thread, and a page nested thousands deep must not cost that much per
// link.
constexpr std::size_t kLevelsUp = 32;

// Whether the element is in a quote (a quoted post's author stays with the
// quote), or is a menu's entry ("View Profile" in a list of a few words).
bool in_a_quote_or_menu(const Node* node, const Node* root) {
    std::size_t level = 0;
    for (const Node* n = node->parent; n != nullptr && n != root && level < kLevelsUp; n = n->parent, ++level) {
        if (n->is(Tag::blockquote)) {
            return true;
        }
        if (n->is(Tag::li)) {
            return !dom::inner_text_longer_than(n, kLongestHeader);
        }
    }
    return false;
}

// Whether the element sits in a sentence ("On <time>May 1</time> the hum
// stopped"): a text of more than a few words just before or after it, or
// after an inline element around it.
bool in_a_sentence(const Node* element, const Node* root) {
    constexpr std::size_t kMostWordsBeside = 3;
    constexpr std::size_t kInlineLevels = 4;
    const auto a_sentence = [](const Node* sibling) {
        return sibling != nullptr && sibling->is_text() &&
               text::count_words(text::collapse_runs(text::trim(sibling->data))) > kMostWordsBeside;
    };
    const Node* n = element;
    for (std::size_t level = 0; level < kInlineLevels && n->parent != nullptr && n != root; ++level) {
        if (a_sentence(n->prev) || a_sentence(n->next)) {
            return true;
        }
        if (n->parent == root || !is_inline_element(n->parent)) {
            break;
        }
        n = n->parent;
    }
    return false;
}

// A name has a letter ("5" linking to a member's posts is a count).
bool has_a_letter(std::string_view line) noexcept {
    return std::any_of(line.begin(), line.end(), [](char c) {
        return static_cast<unsigned char>(c) >= 0x80 || std::isalpha(static_cast<unsigned char>(c)) != 0;
    });
}

enum class HeaderKind { none, name, date };

HeaderKind header_kind(const Node* element, const Node* root) {
    if (!element->is(Tag::time) && !element->is(Tag::a)) {
        return HeaderKind::none;
    }
    // Read only when short: a link or a <time> may wrap the rest of the page.
    if (dom::inner_text_longer_than(element, kLongestHeader)) {
        return HeaderKind::none;
    }
    const std::string line = dom::inner_text(element);
    if (line.empty() || in_a_quote_or_menu(element, root) || in_a_sentence(element, root)) {
        return HeaderKind::none;
    }
    if (element->is(Tag::time)) {
        return HeaderKind::date;
    }
    const Naming own = naming(element);
    const Naming parent = element->parent != nullptr ? naming(element->parent) : Naming::nothing;
    if (own == Naming::avatar || parent == Naming::avatar) {
        return HeaderKind::none;
    }
    const bool named = own == Naming::author || parent == Naming::author;
    if (text::count_words(line) <= kMostNameWords && has_a_letter(line) &&
        (links_a_profile(element->attr("href")) || named)) {
        return HeaderKind::name;
    }
    return HeaderKind::none;
}

bool is_item_or_cell(const Node* node) noexcept {
    return node->is(Tag::li) || node->is(Tag::dd) || node->is(Tag::dt) || node->is(Tag::td) || node->is(Tag::th);
}

}  // namespace

PostHeaders::PostHeaders(Node* content) {
    std::vector<HeaderKind> kinds;
    std::vector<std::size_t> texts_before;
    for (Node* n = content; n != nullptr;) {
        const HeaderKind kind = n->is_element() && n != content ? header_kind(n, content) : HeaderKind::none;
        if (kind == HeaderKind::none) {
            if (n->is_text() && !text::is_blank(n->data)) {
                texts_.push_back(n);
            }
            n = dom::next_node(n, content);
            continue;
        }
        texts_before.push_back(texts_.size());
        for (Node* inner = n; inner != nullptr; inner = dom::next_node(inner, n)) {
            if (inner->is_text() && !text::is_blank(inner->data)) {
                texts_.push_back(inner);
            }
        }
        headers_.push_back({n, texts_.size(), texts_.size()});
        kinds.push_back(kind);
        n = dom::next_node(n, content, true);
    }
    // Each header's next of its kind, from the last one back.
    std::size_t next_name = texts_.size();
    std::size_t next_date = texts_.size();
    for (std::size_t h = headers_.size(); h-- > 0;) {
        std::size_t& next = kinds[h] == HeaderKind::name ? next_name : next_date;
        headers_[h].next_header = next;
        next = texts_before[h];
    }
}

std::size_t PostHeaders::restore(dom::Document& doc, Node* content) const {
    if (headers_.empty()) {
        return 0;
    }
    // What the cleaning left, read in one walk: asking each node for its
    // ancestors would cost the page's depth per header.
    std::vector<const Node*> left;
    for (const Node* n = content; n != nullptr; n = dom::next_node(n, content)) {
        if (n->is_text() || n->is(Tag::a) || n->is(Tag::time)) {
            left.push_back(n);
        }
    }
    std::sort(left.begin(), left.end());
    const auto stayed = [&left](const Node* n) { return std::binary_search(left.begin(), left.end(), n); };
    std::size_t restored = 0;
    for (const Header& header : headers_) {
        if (stayed(header.node)) {
            continue;
        }
        const std::size_t last = std::min(header.next_header, header.first_text_after + kTextsSearched);
        Node* anchor = nullptr;
        for (std::size_t t = header.first_text_after; t < last && anchor == nullptr; ++t) {
            if (stayed(texts_[t])) {
                anchor = texts_[t];
            }
        }
        if (anchor == nullptr) {
            continue;
        }
        // The line goes before the block the anchor's text is in, or first
        // in it when that block is a list's item or a table's cell.
        Node* block = anchor->parent;
        while (block != content && is_inline_element(block)) {
            block = block->parent;
        }
        Node* line = doc.create_element(Tag::p);
        dom::append_child(line, header.node);
        if (block == content || is_item_or_cell(block)) {
            dom::insert_before(block, line, block->first_child);
        } else {
            dom::insert_before(block->parent, line, block);
        }
        ++restored;
    }
    return restored;
}

}  // namespace pith::extract
