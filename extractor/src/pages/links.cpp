// The next page's link and the pagination of one page (links.hpp).
#include "pages/links.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "dom/inner_text.hpp"
#include "metadata/authors_dates.hpp"
#include "pith/url.hpp"
#include "text/text.hpp"

namespace pith::extract {

namespace {

using dom::Node;
using dom::Tag;

// Query parameters that number pages.
constexpr std::array<std::string_view, 10> kPageParameters = {
    "page", "p", "pg", "paged", "pagenum", "pageno", "page_num", "pagina", "seite", "strona"};

// Path words that come before a page's number ("/page/2", "story-page-2").
constexpr std::array<std::string_view, 6> kPageWords = {"page", "p", "seite", "pagina", "strona", "pg"};

// What links to the next page say, in the languages of the corpora and the
// commonest others, once arrows and punctuation are trimmed and ASCII is
// lower-cased.
constexpr std::array<std::string_view, 41> kNextWords = {
    "next", "next page", "nextpage", "weiter", "nächste", "nächste seite", "vor", "suivant", "suivante",
    "page suivante", "siguiente", "página siguiente", "próxima", "próxima página", "successiva",
    "pagina successiva", "avanti", "volgende", "volgende pagina", "następna", "następna strona", "dalej",
    "следующая", "Следующая", "далее", "Далее", "次へ", "次のページ", "下一页", "下一頁", "다음", "sonraki",
    "seuraava", "nästa", "neste", "næste", "další", "következő", "наступна", "Наступна", "urmatoarea"};

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// A number of one to `digits` ASCII digits, 1 or more; nullopt otherwise.
std::optional<std::size_t> small_number(std::string_view s, std::size_t digits) {
    if (s.empty() || s.size() > digits || s.front() == '0') {
        return std::nullopt;
    }
    std::size_t value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc{} || end != s.data() + s.size()) {
        return std::nullopt;
    }
    return value;
}

bool is_page_word(std::string_view word) {
    return std::find(kPageWords.begin(), kPageWords.end(), text::to_lower_ascii(word)) != kPageWords.end();
}

struct PathPage {
    std::string path;
    std::size_t number = 1;
};

// The page number the path's last segment gives: "2", "page/2", "story-2",
// "story-page-2.html", "story_2.html". Two digits at most: a longer number
// at the end of a path is an article's id, not a page.
PathPage path_page(std::string_view path) {
    PathPage plain{std::string(path), 1};
    while (plain.path.size() > 1 && plain.path.back() == '/') {
        plain.path.pop_back();
    }
    const std::string_view trimmed = plain.path;
    const std::size_t slash = trimmed.rfind('/');
    if (slash == std::string_view::npos) {
        return plain;
    }
    std::string_view directory = trimmed.substr(0, slash);
    const std::string_view segment = trimmed.substr(slash + 1);
    if (const std::optional<std::size_t> number = small_number(segment, 2)) {
        // "/story/2", "/story/page/2"
        if (const std::size_t before = directory.rfind('/');
            before != std::string_view::npos && is_page_word(directory.substr(before + 1))) {
            directory = directory.substr(0, before);
        }
        return PathPage{std::string(directory.empty() ? "/" : directory), *number};
    }
    // "story-2.html", "story_page_2", "story-p2"
    const std::size_t dot = segment.rfind('.');
    const std::string_view extension = dot == std::string_view::npos ? std::string_view{} : segment.substr(dot);
    std::string_view stem = segment.substr(0, dot == std::string_view::npos ? segment.size() : dot);
    std::size_t digits = 0;
    while (digits < stem.size() && is_digit(stem[stem.size() - 1 - digits])) {
        ++digits;
    }
    const std::optional<std::size_t> number = small_number(stem.substr(stem.size() - digits), 2);
    if (!number) {
        return plain;
    }
    stem.remove_suffix(digits);
    const bool glued_word = stem.ends_with("p") || stem.ends_with("page");
    if (glued_word && stem.size() > 1) {
        stem.remove_suffix(stem.ends_with("page") ? 4 : 1);
    }
    if (stem.empty() || (stem.back() != '-' && stem.back() != '_' && stem.back() != ',')) {
        return plain;
    }
    stem.remove_suffix(1);
    if (const std::size_t sep = stem.find_last_of("-_"); sep != std::string_view::npos && is_page_word(stem.substr(sep + 1))) {
        stem = stem.substr(0, sep);
    }
    if (stem.empty()) {
        return plain;
    }
    return PathPage{std::string(directory) + "/" + std::string(stem) + std::string(extension), *number};
}

struct SplitUrl {
    std::string path;
    std::string query;
};

std::optional<SplitUrl> split_url(std::string_view absolute_url) {
    const std::optional<std::string> normalised = url::resolve(absolute_url, {});
    if (!normalised) {
        return std::nullopt;
    }
    std::string_view rest = *normalised;
    const std::size_t scheme_end = rest.find("://");
    if (scheme_end == std::string_view::npos) {
        return std::nullopt;
    }
    rest.remove_prefix(scheme_end + 3);
    rest = rest.substr(0, std::min(rest.find('#'), rest.size()));
    const std::size_t path_start = std::min(rest.find_first_of("/?"), rest.size());
    SplitUrl out;
    rest.remove_prefix(path_start);
    const std::size_t question = std::min(rest.find('?'), rest.size());
    const std::string_view path = rest.substr(0, question);
    out.path = path.empty() ? std::string(1, '/') : std::string(path);
    if (question < rest.size()) {
        out.query = std::string(rest.substr(question + 1));
    }
    return out;
}

// The article's key: its path and query. The host is left out: a page on
// another host is told apart by the walk, which names it.
std::string joined(std::string_view path, std::string_view query) {
    std::string out(path);
    if (!query.empty()) {
        out += '?';
        out += query;
    }
    return out;
}

// The link text without arrows, punctuation and spaces around it.
std::string_view link_words(std::string_view text) {
    const auto is_trim = [](std::string_view s, std::size_t& length) {
        static constexpr std::array<std::string_view, 12> kMarks = {"»", "›", "→", "«", "‹", "←", "…", "–", "—",
                                                                     "\xC2\xA0", "·", "|"};
        for (const std::string_view mark : kMarks) {
            if (s.starts_with(mark)) {
                length = mark.size();
                return true;
            }
        }
        length = 1;
        return !s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r' ||
                              s.front() == '>' || s.front() == '<' || s.front() == '-' || s.front() == ':' ||
                              s.front() == '.' || s.front() == '[' || s.front() == ']' || s.front() == '(' ||
                              s.front() == ')');
    };
    std::size_t length = 0;
    while (!text.empty() && is_trim(text, length)) {
        text.remove_prefix(length);
    }
    // From the end: the marks are UTF-8 sequences, so test each suffix.
    for (bool trimmed = true; trimmed && !text.empty();) {
        trimmed = false;
        for (std::size_t n = 1; n <= std::min<std::size_t>(3, text.size()); ++n) {
            const std::string_view tail = text.substr(text.size() - n);
            if (is_trim(tail, length) && length == n) {
                text.remove_suffix(n);
                trimmed = true;
                break;
            }
        }
    }
    return text;
}

bool says_next(const Node* a, std::string_view text) {
    const std::string words = text::to_lower_ascii(text::collapse_runs(link_words(text)));
    if (words.empty()) {
        // An arrow alone: "»", "›", "→", ">"
        const std::string_view raw = text::trim(text);
        return raw == "»" || raw == "›" || raw == "→" || raw == ">" || raw == ">>";
    }
    if (std::find(kNextWords.begin(), kNextWords.end(), words) != kNextWords.end()) {
        return true;
    }
    // An icon link: its class or label says it. "next" as a part of a class
    // ("pagination-next", "nav-next") but not of a word ("nextgen").
    for (const std::string_view attribute : {"class", "aria-label", "title", "id"}) {
        const std::string value = text::to_lower_ascii(a->attr(attribute));
        for (std::size_t at = value.find("next"); at != std::string::npos; at = value.find("next", at + 1)) {
            const bool starts = at == 0 || !is_letter(value[at - 1]);
            const bool ends = at + 4 == value.size() || !is_letter(value[at + 4]);
            if (starts && ends && words.size() <= 20) {
                return true;
            }
        }
    }
    return false;
}

// Link text as long as this and longer is a headline, not a page link.
constexpr std::size_t kMaxPageLinkText = 40;
// A pagination block holds a row of page links and a few words ("Page 2 of 5").
constexpr std::size_t kMaxPaginationText = 300;

// The text of a link or a block that may be short: "" when it is longer than
// `cap` UTF-16 units, without building the text of a large subtree.
std::string short_text(const Node* node, std::size_t cap) {
    if (dom::text_content_length(node, cap) > cap) {
        return {};
    }
    return text::collapse_runs(text::trim(dom::text_content(node)));
}

// FNV-1a of the block's collapsed, lower-cased text.
std::uint64_t print_of(std::string_view collapsed) {
    std::uint64_t hash = 14695981039346656037ULL;
    for (const char c : collapsed) {
        hash ^= static_cast<unsigned char>(lower(c));
        hash *= 1099511628211ULL;
    }
    return hash;
}

bool is_block(const Node* n) {
    switch (n->tag) {
    case Tag::p: case Tag::h1: case Tag::h2: case Tag::h3: case Tag::h4: case Tag::h5: case Tag::h6:
    case Tag::li: case Tag::blockquote: case Tag::pre: case Tag::figcaption: case Tag::dd: case Tag::dt:
    case Tag::table: case Tag::ul: case Tag::ol: case Tag::dl: case Tag::div: case Tag::section:
    case Tag::article: case Tag::aside: case Tag::header: case Tag::footer: case Tag::figure: case Tag::nav:
    case Tag::main: case Tag::details:
        return n->is_element();
    default: return false;
    }
}

// The blocks of `content` that hold no other block, in document order.
std::vector<Node*> leaf_blocks(Node* content) {
    std::vector<Node*> blocks;
    std::unordered_set<const Node*> holders;  // blocks with a block inside
    for (Node* n = dom::next_element(content, content); n != nullptr; n = dom::next_element(n, content)) {
        if (!is_block(n)) {
            continue;
        }
        blocks.push_back(n);
        for (const Node* up = n->parent; up != nullptr && up != content; up = up->parent) {
            if (is_block(up)) {
                holders.insert(up);
                break;
            }
        }
    }
    std::erase_if(blocks, [&](const Node* n) { return holders.contains(n); });
    return blocks;
}

std::size_t link_text_length(const Node* root) {
    std::size_t length = 0;
    for (const Node* a = dom::next_element(root, root); a != nullptr;) {
        if (a->is(Tag::a)) {
            length += text::trim(dom::text_content(a)).size();
            a = dom::next_element(a, root, true);
        } else {
            a = dom::next_element(a, root);
        }
    }
    return length;
}

}  // namespace

PagedUrl paged_url(std::string_view absolute_url) {
    const std::optional<SplitUrl> url = split_url(absolute_url);
    if (!url) {
        return PagedUrl{std::string(absolute_url), 1};
    }
    std::size_t number = 1;
    std::string query;
    std::string_view rest = url->query;
    while (!rest.empty()) {
        const std::size_t amp = std::min(rest.find('&'), rest.size());
        const std::string_view pair = rest.substr(0, amp);
        rest.remove_prefix(std::min(amp + 1, rest.size()));
        const std::size_t eq = pair.find('=');
        const std::string name = text::to_lower_ascii(pair.substr(0, std::min(eq, pair.size())));
        if (eq != std::string_view::npos &&
            std::find(kPageParameters.begin(), kPageParameters.end(), name) != kPageParameters.end()) {
            if (const std::optional<std::size_t> value = small_number(pair.substr(eq + 1), 4)) {
                number = *value;
                continue;
            }
        }
        if (!pair.empty()) {
            query += query.empty() ? "" : "&";
            query += pair;
        }
    }
    if (number != 1 || query != url->query) {
        std::string path = url->path;
        while (path.size() > 1 && path.back() == '/') {
            path.pop_back();
        }
        return PagedUrl{joined(path, query), number};
    }
    const PathPage in_path = path_page(url->path);
    return PagedUrl{joined(in_path.path, query), in_path.number};
}

std::optional<PagePair> pages_of_same_article(std::string_view here, std::string_view there) {
    const PagedUrl a = paged_url(here);
    const PagedUrl b = paged_url(there);
    if (a.article == b.article) {
        return PagePair{a.number, b.number};
    }
    // This page's URL may end in a number of its own ("/story-12") that is
    // no page number: read whole, it is page 1.
    const std::optional<SplitUrl> whole = split_url(here);
    if (whole) {
        std::string path = whole->path;
        while (path.size() > 1 && path.back() == '/') {
            path.pop_back();
        }
        if (joined(path, whole->query) == b.article) {
            return PagePair{1, b.number};
        }
    }
    return std::nullopt;
}

PageLinks find_page_links(const dom::Node* root, std::string_view base_url, std::string_view page_url,
                          const std::optional<rules::Applied>& applied) {
    PageLinks links;
    const auto absolute = [&](std::string_view href) -> std::optional<std::string> {
        href = text::trim(href);
        if (href.empty() || href.front() == '#' || text::istarts_with_ascii(href, "javascript:")) {
            return std::nullopt;
        }
        std::optional<std::string> resolved = url::resolve(href, base_url);
        if (resolved && !(resolved->starts_with("http://") || resolved->starts_with("https://"))) {
            return std::nullopt;
        }
        return resolved;
    };
    if (applied && applied->single_page_href) {
        links.single_page = absolute(*applied->single_page_href);
    }
    if (applied && applied->next_page_href) {
        if ((links.next = absolute(*applied->next_page_href))) {
            links.next_via = "site rule";
            return links;
        }
    }
    if (root == nullptr) {
        return links;
    }
    // A later page of this article (any other page, for rel=next: the walk
    // tells a loop back to an earlier page).
    const auto later_page = [&](const std::string& url, bool any_other) {
        const std::optional<PagePair> pair = pages_of_same_article(page_url, url);
        return pair && (any_other ? pair->there != pair->here : pair->there > pair->here);
    };
    std::optional<std::string> next_link, numbered;
    for (const Node* n = dom::next_element(root, root); n != nullptr; n = dom::next_element(n, root)) {
        if (!n->is(Tag::a) && !n->is(Tag::link)) {
            continue;
        }
        const std::optional<std::string> target = absolute(n->attr("href"));
        if (!target) {
            continue;
        }
        if (text::has_token_ascii_ci(n->attr("rel"), "next")) {
            if (later_page(*target, true)) {
                links.next = target;
                links.next_via = "rel=next";
                return links;
            }
            continue;
        }
        if (!n->is(Tag::a) || (next_link && numbered)) {
            continue;
        }
        const std::string words = short_text(n, kMaxPageLinkText);
        if (words.empty() && dom::text_content_length(n, kMaxPageLinkText) > kMaxPageLinkText) {
            continue;  // a headline or a block, not a page link
        }
        const std::optional<PagePair> pair = pages_of_same_article(page_url, *target);
        if (!pair || pair->there <= pair->here || in_comment_thread(n)) {
            continue;
        }
        if (!next_link && says_next(n, words)) {
            next_link = target;
        } else if (!numbered && pair->there == pair->here + 1 && words == std::to_string(pair->there)) {
            numbered = target;
        }
    }
    if (next_link) {
        links.next = next_link;
        links.next_via = "next link";
    } else if (numbered) {
        links.next = numbered;
        links.next_via = "pagination";
    }
    return links;
}

TrimmedPage trim_page(dom::Node* content, std::string_view base_url, std::string_view page_url,
                      const BlockPrints& earlier) {
    TrimmedPage trimmed;
    // The pagination: the largest block around a link to a page of this
    // article that is mostly links and short (a row of page numbers, "Next").
    std::vector<Node*> pagination;
    for (Node* n = dom::next_element(content, content); n != nullptr;) {
        if (!n->is(Tag::a)) {
            n = dom::next_element(n, content);
            continue;
        }
        const std::optional<std::string> target = url::resolve(text::trim(n->attr("href")), base_url);
        if (!target || !pages_of_same_article(page_url, *target)) {
            n = dom::next_element(n, content, true);
            continue;
        }
        Node* block = nullptr;
        for (Node* up = n->parent; up != nullptr && up != content; up = up->parent) {
            if (dom::text_content_length(up, kMaxPaginationText) > kMaxPaginationText) {
                break;
            }
            const std::string text = text::collapse_runs(text::trim(dom::text_content(up)));
            if (2 * link_text_length(up) < text.size()) {
                break;
            }
            block = up;
        }
        const std::string words = short_text(n, kMaxPageLinkText);
        const bool page_like = dom::text_content_length(n, kMaxPageLinkText) < kMaxPageLinkText &&
                               (says_next(n, words) || small_number(words, 4).has_value() ||
                                link_words(words).empty());
        Node* removed = block != nullptr ? block : (page_like ? n : nullptr);
        Node* after = dom::next_element(removed != nullptr ? removed : n, content, true);
        if (removed != nullptr) {
            pagination.push_back(removed);
        }
        n = after;
    }
    for (Node* block : pagination) {
        if (block->parent != nullptr) {
            dom::detach(block);
            ++trimmed.pagination_dropped;
        }
    }

    std::vector<Node*> blocks = leaf_blocks(content);
    std::vector<std::uint64_t> prints(blocks.size(), 0);
    std::vector<bool> empty(blocks.size(), false);
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const std::string text = text::collapse_runs(text::trim(dom::text_content(blocks[i])));
        empty[i] = text.empty();
        prints[i] = print_of(text);
    }
    std::vector<bool> dropped(blocks.size(), false);
    if (!earlier.empty()) {
        // From each end, blocks that repeat an earlier page's until one does not.
        for (std::size_t i = 0; i < blocks.size() && (empty[i] || earlier.contains(prints[i])); ++i) {
            dropped[i] = !empty[i];
        }
        for (std::size_t i = blocks.size(); i > 0 && (empty[i - 1] || earlier.contains(prints[i - 1])); --i) {
            dropped[i - 1] = !empty[i - 1];
        }
    }
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        if (dropped[i]) {
            dom::detach(blocks[i]);
            ++trimmed.repeats_dropped;
        } else if (!empty[i]) {
            trimmed.prints.push_back(prints[i]);
        }
    }
    return trimmed;
}

}  // namespace pith::extract
