#include "metadata/metadata.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <iterator>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "metadata/authors_dates.hpp"
#include "models/forest.hpp"
#include "pith/url.hpp"
#include "dom/inner_text.hpp"
#include "text/references.hpp"
#include "text/text.hpp"

namespace pith::extract {
namespace {

using dom::Node;
using dom::Tag;
using json = nlohmann::json;

// ---------------------------------------------------------------------------
// Tables (Readability.js 0.6.0 unless said otherwise).

// REGEXPS.jsonLdArticleTypes. The regex reads /^Article|...|APIReference$/, so
// "Article" is a prefix, "APIReference" a suffix and the rest are substrings.
constexpr std::string_view kArticleTypePrefix = "Article";
constexpr std::string_view kArticleTypeSuffix = "APIReference";
constexpr std::array<std::string_view, 17> kArticleTypeInfixes{
    "AdvertiserContentArticle", "NewsArticle",        "AnalysisNewsArticle",
    "AskPublicNewsArticle",     "BackgroundNewsArticle", "OpinionNewsArticle",
    "ReportageNewsArticle",     "ReviewNewsArticle",  "Report",
    "SatiricalArticle",         "ScholarlyArticle",   "MedicalScholarlyArticle",
    "SocialMediaPosting",       "BlogPosting",        "LiveBlogPosting",
    "DiscussionForumPosting",   "TechArticle",
};

// _getArticleMetadata's propertyPattern:
// /\s*(article|dc|dcterm|og|twitter)\s*:\s*(author|creator|description|published_time|title|site_name)\s*/gi
// The alternatives are tried in this order, as the regex does.
constexpr std::array<std::string_view, 5> kPropertyPrefixes{"article", "dc", "dcterm", "og", "twitter"};
constexpr std::array<std::string_view, 6> kPropertyNames{"author",         "creator", "description",
                                                         "published_time", "title",   "site_name"};

// _getArticleMetadata's namePattern:
// /^\s*(?:(dc|dcterm|og|twitter|parsely|weibo:(article|webpage))\s*[-\.:]\s*)?(author|creator|pub-date|description|title|site_name)\s*$/i
constexpr std::array<std::string_view, 7> kNamePrefixes{"dc",      "dcterm",        "og",           "twitter",
                                                        "parsely", "weibo:article", "weibo:webpage"};
constexpr std::array<std::string_view, 6> kNameNames{"author", "creator", "pub-date",
                                                     "description", "title", "site_name"};

// Priority lists of _getArticleMetadata, after the JSON-LD value.
constexpr std::array<std::string_view, 8> kTitleKeys{
    "dc:title",    "dcterm:title", "og:title",      "weibo:article:title",
    "weibo:webpage:title", "title", "twitter:title", "parsely-title"};
constexpr std::array<std::string_view, 4> kBylineKeys{"dc:creator", "dcterm:creator", "author", "parsely-author"};
constexpr std::array<std::string_view, 7> kExcerptKeys{
    "dc:description",          "dcterm:description",         "og:description", "weibo:article:description",
    "weibo:webpage:description", "description", "twitter:description"};
constexpr std::array<std::string_view, 1> kSiteNameKeys{"og:site_name"};
constexpr std::array<std::string_view, 2> kPublishedTimeKeys{"article:published_time", "parsely-pub-date"};

// pith: lead image meta keys in priority order (Open Graph, then Twitter cards).
constexpr std::array<std::string_view, 4> kImageKeys{"og:image", "og:image:url", "twitter:image",
                                                     "twitter:image:src"};

// _getArticleTitle thresholds: titles shorter or longer than these (UTF-16
// units) are replaced by a lone <h1>; short results (words) revert to the
// original title. Not tuned by pith.
constexpr std::size_t kTitleMinLength = 15;
constexpr std::size_t kTitleMaxLength = 150;
constexpr std::size_t kTitleMinWordsAfterCut = 3;
constexpr std::size_t kTitleMaxWordsBeforeColon = 5;
constexpr std::size_t kTitleShortWordCount = 4;

// _getJSONLD: name/headline similarity to the HTML title above which it is a match.
constexpr double kTitleSimilarityThreshold = 0.75;

// ---------------------------------------------------------------------------
// Character helpers.

char to_lower(char c) noexcept {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// Position after the run of JS white space (`\s*`) starting at `pos`.
std::size_t skip_js_space(std::string_view s, std::size_t pos) noexcept {
    while (pos < s.size()) {
        std::size_t next = pos;
        if (!text::is_js_space(text::next_code_point(s, next))) {
            break;
        }
        pos = next;
    }
    return pos;
}

// str.split(/\s+/).length: maximal white space runs plus one ("" counts 1).
std::size_t word_count(std::string_view s) noexcept {
    std::size_t runs = 0;
    bool in_space = false;
    for (std::size_t pos = 0; pos < s.size();) {
        const bool space = text::is_js_space(text::next_code_point(s, pos));
        runs += static_cast<std::size_t>(space && !in_space);
        in_space = space;
    }
    return runs + 1;
}

std::string remove_js_space(std::string_view s) {
    std::string out;
    for (std::size_t pos = 0; pos < s.size();) {
        const std::size_t start = pos;
        if (!text::is_js_space(text::next_code_point(s, pos))) {
            out.append(s.substr(start, pos - start));
        }
    }
    return out;
}

// The title's separators: Readability 0.6.0's [\|\-\\\/>»] (» is U+00BB, C2 BB)
// plus, as in later upstream Readability, the en dash U+2013 and em dash U+2014
// (E2 80 93/94) as flat separators: the corpus pages title-en-dash and mercurial
// expect them. \ / > » are the "hierarchical" ones.
// Returns the byte length of the separator at `pos` (0 if none).
std::size_t separator_at(std::string_view s, std::size_t pos, bool hierarchical_only) noexcept {
    if (pos >= s.size()) {
        return 0;
    }
    switch (s[pos]) {
    case '|':
    case '-':
        return hierarchical_only ? 0 : 1;
    case '\\':
    case '/':
    case '>':
        return 1;
    case '\xC2':
        return (pos + 1 < s.size() && s[pos + 1] == '\xBB') ? 2 : 0;
    case '\xE2':
        return (!hierarchical_only && pos + 2 < s.size() && s[pos + 1] == '\x80' &&
                (s[pos + 2] == '\x93' || s[pos + 2] == '\x94'))
                   ? 3
                   : 0;
    default:
        return 0;
    }
}

// Length of " <separator> " at `pos`, 0 if none there.
std::size_t spaced_separator_at(std::string_view s, std::size_t pos, bool hierarchical_only) noexcept {
    if (s[pos] != ' ') {
        return 0;
    }
    const std::size_t len = separator_at(s, pos + 1, hierarchical_only);
    return (len != 0 && pos + 1 + len < s.size() && s[pos + 1 + len] == ' ') ? len + 2 : 0;
}

// ---------------------------------------------------------------------------
// Document helpers.

// A template's contents live in a separate fragment in a browser DOM, out of
// reach of getElementsByTagName and textContent.
bool is_template(const Node* n) noexcept {
    return n->tag == Tag::template_ && n->ns == dom::Namespace::html;
}

// getElementsByTagName / querySelectorAll semantics for a lowercase name: every
// element with that local name, whatever its namespace. `fn` returns false to stop.
template <typename F>
void for_each_element(const dom::Document& doc, Tag tag, F&& fn) {
    const Node* root = doc.root();
    for (const Node* n = dom::next_element(root, root); n != nullptr;
         n = dom::next_element(n, root, is_template(n))) {
        if (n->tag == tag && !fn(n)) {
            return;
        }
    }
}

// document.title: the child text of the first HTML <title>, with ASCII white
// space stripped and collapsed.
std::string document_title(const dom::Document& doc) {
    std::string raw;
    for_each_element(doc, Tag::title, [&](const Node* n) {
        if (n->ns != dom::Namespace::html) {
            return true;
        }
        for (const Node* c = n->first_child; c != nullptr; c = c->next) {
            if (c->is_text()) {
                raw.append(c->data);
            }
        }
        return false;
    });
    std::string out;
    bool pending_space = false;
    for (const char c : raw) {
        if (text::is_html_space(c)) {
            pending_space = !out.empty();
            continue;
        }
        if (pending_space) {
            out.push_back(' ');
            pending_space = false;
        }
        out.push_back(c);
    }
    return out;
}

// ---------------------------------------------------------------------------
// pith's headline title (headline_title).

// Words of a title for comparing titles: lowercase ASCII letters and digits,
// every non-ASCII byte kept as a letter (so words in any script count), the
// rest separators.
std::vector<std::string> title_words(std::string_view s) {
    std::vector<std::string> words;
    std::string word;
    for (const char c : s) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x80 || std::isalnum(byte) != 0) {
            word.push_back(byte < 0x80 ? to_lower(c) : c);
        } else if (!word.empty()) {
            words.push_back(std::move(word));
            word.clear();
        }
    }
    if (!word.empty()) {
        words.push_back(std::move(word));
    }
    return words;
}

std::string joined_words(const std::vector<std::string>& words) {
    std::string out;
    for (const std::string& word : words) {
        out += out.empty() ? "" : " ";
        out += word;
    }
    return out;
}

std::string joined_words(std::string_view s) { return joined_words(title_words(s)); }

// A title's parts between spaced separators: " | ", " - ", " – ", " — ",
// " · ", " » ", " :: ", " / ", " • " (any white space around them).
std::vector<std::string_view> title_parts(std::string_view title) {
    static constexpr std::array<std::string_view, 9> kSeparators = {
        "|", "-", "\xE2\x80\x93", "\xE2\x80\x94", "\xC2\xB7", "\xC2\xBB", "::", "/", "\xE2\x80\xA2"};
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    std::size_t pos = 0;
    while (pos < title.size()) {
        std::size_t cut = 0;
        if (text::is_html_space(title[pos])) {
            const std::size_t after_space = skip_js_space(title, pos);
            for (const std::string_view separator : kSeparators) {
                if (title.substr(after_space).starts_with(separator)) {
                    const std::size_t end = after_space + separator.size();
                    if (end < title.size() && text::is_html_space(title[end])) {
                        cut = skip_js_space(title, end) - pos;
                    }
                    break;
                }
            }
        }
        if (cut == 0) {
            ++pos;
            continue;
        }
        if (const std::string_view part = text::trim(title.substr(start, pos - start)); !part.empty()) {
            parts.push_back(part);
        }
        pos += cut;
        start = pos;
    }
    if (const std::string_view part = text::trim(title.substr(start)); !part.empty()) {
        parts.push_back(part);
    }
    return parts;
}

// The content of the first <meta> named (property or name) each of `keys`, in
// one walk; "" where there is none.
template <std::size_t N>
std::array<std::string, N> meta_contents(const dom::Document& doc, const std::array<std::string_view, N>& keys) {
    std::array<std::string, N> found;
    for_each_element(doc, Tag::meta, [&](const Node* n) {
        const std::string_view content = text::trim(n->attr("content"));
        for (std::size_t i = 0; i < N && !content.empty(); ++i) {
            const bool named = text::iequals_ascii(text::trim(n->attr("property")), keys[i]) ||
                               text::iequals_ascii(text::trim(n->attr("name")), keys[i]);
            if (named && found[i].empty()) {
                found[i] = text::collapse_runs(content);
            }
        }
        return true;
    });
    return found;
}

// The host of an absolute URL, lowercase, without its dots and dashes.
std::string squeezed_host(std::string_view url) {
    const std::size_t scheme = url.find("://");
    if (scheme == std::string_view::npos) {
        return {};
    }
    std::string_view host = url.substr(scheme + 3);
    host = host.substr(0, host.find_first_of("/?#"));
    host = host.substr(host.find('@') == std::string_view::npos ? 0 : host.find('@') + 1);
    host = host.substr(0, host.find(':'));
    std::string out;
    for (const char c : host) {
        if (c != '.' && c != '-') {
            out.push_back(to_lower(c));
        }
    }
    return out;
}

// Whether some <h1> or <h2> has textContent.trim() === want (`want` trimmed).
// Headings nest (<h1><div><h2>...), so comparing each heading's text on its own
// is quadratic on hostile input. Instead one walk lists the text nodes with their
// offsets in the document's text and the text node range of every heading; a
// heading's trimmed text is then a byte range found in O(1), compared only when
// its length equals want's. Nested headings of equal length share the range, and
// are compared once; disjoint ones compare disjoint text. Linear overall.
bool some_heading_text_equals(const dom::Document& doc, std::string_view want) {
    constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    struct TextRun {
        std::string_view data;
        std::size_t offset = 0;       // of data[0] in the concatenated text
        std::size_t first = kNone;    // first non-space byte, kNone if all space
        std::size_t last_end = 0;     // end of the last non-space code point
    };
    struct Range {
        std::size_t begin = 0, end = 0;  // text run indices [begin, end)
    };
    std::vector<TextRun> runs;
    std::vector<Range> headings;
    std::vector<std::size_t> open;  // run index at entry of each enclosing heading
    std::size_t offset = 0;

    // Pre-order walk with exits (template contents are not in the document tree).
    const Node* root = doc.root();
    const Node* n = root->first_child;
    while (n != nullptr) {
        const bool heading = n->tag == Tag::h1 || n->tag == Tag::h2;
        if (n->is_text()) {
            TextRun run{n->data, offset};
            const std::string_view trimmed = text::trim(n->data);
            if (!trimmed.empty()) {
                run.first = static_cast<std::size_t>(trimmed.data() - n->data.data());
                run.last_end = run.first + trimmed.size();
            }
            runs.push_back(run);
            offset += n->data.size();
        } else if (n->is_element() && heading) {
            open.push_back(runs.size());
        }
        if (n->first_child != nullptr && n->is_element() && !is_template(n)) {
            n = n->first_child;
            continue;
        }
        while (n != nullptr) {
            if (n->is_element() && (n->tag == Tag::h1 || n->tag == Tag::h2)) {
                headings.push_back({open.back(), runs.size()});
                open.pop_back();
            }
            if (n->next != nullptr) {
                n = n->next;
                break;
            }
            n = n->parent == root ? nullptr : n->parent;
        }
    }

    // next_solid[i]: first run >= i with non-space text; prev_solid[i]: last run <= i.
    std::vector<std::size_t> next_solid(runs.size() + 1, kNone);
    std::vector<std::size_t> prev_solid(runs.size(), kNone);
    for (std::size_t i = runs.size(); i-- > 0;) {
        next_solid[i] = runs[i].first != kNone ? i : next_solid[i + 1];
    }
    for (std::size_t i = 0; i < runs.size(); ++i) {
        prev_solid[i] = runs[i].first != kNone ? i : (i > 0 ? prev_solid[i - 1] : kNone);
    }

    // Ranges of want's length starting at the same byte are the same range.
    std::unordered_set<std::size_t> failed_starts;
    for (const Range& h : headings) {
        const std::size_t first = h.begin < h.end ? next_solid[h.begin] : kNone;
        if (first == kNone || first >= h.end) {
            if (want.empty()) {
                return true;  // only white space inside
            }
            continue;
        }
        const std::size_t last = prev_solid[h.end - 1];
        const std::size_t start = runs[first].offset + runs[first].first;
        const std::size_t stop = runs[last].offset + runs[last].last_end;
        if (stop - start != want.size() || failed_starts.contains(start)) {
            continue;
        }
        std::size_t matched = 0;
        bool equal = true;
        for (std::size_t i = first; i <= last && equal; ++i) {
            const std::size_t from = i == first ? runs[i].first : 0;
            const std::size_t to = i == last ? runs[i].last_end : runs[i].data.size();
            const std::string_view piece = runs[i].data.substr(from, to - from);
            equal = want.substr(matched, piece.size()) == piece;
            matched += piece.size();
        }
        if (equal) {
            return true;
        }
        failed_starts.insert(start);
    }
    return false;
}

// ---------------------------------------------------------------------------
// <meta> name matching.

bool istarts_at(std::string_view s, std::size_t pos, std::string_view word) noexcept {
    return pos <= s.size() && text::istarts_with_ascii(s.substr(pos), word);
}

// matches[0] of propertyPattern (global, so the first and leftmost match),
// lowercased with white space removed: "<prefix>:<name>". A match can start in
// white space, but that gives the same key as starting at the prefix's first
// letter, so only letters are tried; each try is bounded, so this is linear.
std::optional<std::string> property_key(std::string_view s) {
    for (std::size_t start = 0; start < s.size(); ++start) {
        const char c = to_lower(s[start]);
        if (c < 'a' || c > 'z') {
            continue;
        }
        for (const std::string_view prefix : kPropertyPrefixes) {
            if (!istarts_at(s, start, prefix)) {
                continue;
            }
            std::size_t pos = skip_js_space(s, start + prefix.size());
            if (pos >= s.size() || s[pos] != ':') {
                continue;
            }
            pos = skip_js_space(s, pos + 1);
            for (const std::string_view name : kPropertyNames) {
                if (istarts_at(s, pos, name)) {
                    std::string key(prefix);
                    key.push_back(':');
                    key.append(name);
                    return key;
                }
            }
        }
    }
    return std::nullopt;
}

// namePattern.test(s).
bool name_matches(std::string_view s) {
    const std::string_view core = text::trim(s);
    auto is_name = [](std::string_view rest) {
        for (const std::string_view name : kNameNames) {
            if (text::iequals_ascii(rest, name)) {
                return true;
            }
        }
        return false;
    };
    if (is_name(core)) {
        return true;
    }
    for (const std::string_view prefix : kNamePrefixes) {
        if (!text::istarts_with_ascii(core, prefix)) {
            continue;
        }
        std::size_t pos = skip_js_space(core, prefix.size());
        if (pos >= core.size() || (core[pos] != '-' && core[pos] != '.' && core[pos] != ':')) {
            continue;
        }
        pos = skip_js_space(core, pos + 1);
        if (is_name(core.substr(pos))) {
            return true;
        }
    }
    return false;
}

// Key for a matching name: lowercased, white space removed, dots made colons.
std::string name_key(std::string_view s) {
    std::string key = remove_js_space(s);
    for (char& c : key) {
        c = c == '.' ? ':' : to_lower(c);
    }
    return key;
}

// ---------------------------------------------------------------------------
// JS value semantics over nlohmann::json.

// `value` in a boolean context.
bool truthy(const json& value) {
    switch (value.type()) {
    case json::value_t::null:
    case json::value_t::discarded:
        return false;
    case json::value_t::boolean:
        return value.get<bool>();
    case json::value_t::number_integer:
        return value.get<std::int64_t>() != 0;
    case json::value_t::number_unsigned:
        return value.get<std::uint64_t>() != 0;
    case json::value_t::number_float:
        return value.get<double>() != 0.0;
    case json::value_t::string:
        return !value.get_ref<const std::string&>().empty();
    default:
        return true;
    }
}

// value[key] for a non-null value: only objects have the properties read here;
// nullptr is `undefined`.
const json* property(const json& value, const char* key) {
    if (!value.is_object()) {
        return nullptr;
    }
    const auto it = value.find(key);
    return it == value.end() ? nullptr : &*it;
}

const std::string* string_property(const json& value, const char* key) {
    const json* p = property(value, key);
    return (p != nullptr && p->is_string()) ? &p->get_ref<const std::string&>() : nullptr;
}

bool is_article_type(std::string_view type) {
    if (type.starts_with(kArticleTypePrefix) || type.ends_with(kArticleTypeSuffix)) {
        return true;
    }
    for (const std::string_view infix : kArticleTypeInfixes) {
        if (type.find(infix) != std::string_view::npos) {
            return true;
        }
    }
    return false;
}

// /^https?\:\/\/schema\.org\/?$/
bool is_schema_org(std::string_view s) {
    return s == "http://schema.org" || s == "http://schema.org/" || s == "https://schema.org" ||
           s == "https://schema.org/";
}

// Where Readability's code would throw a TypeError (and so skip the script).
struct TypeError {};

// array.find(it => (it["@type"] || "").match(jsonLdArticleTypes)); the
// top-level array's `it["@type"] && ...` behaves the same. Reading a property
// of null and calling .match on a non-string throw.
const json* find_article(const json& array) {
    for (const json& item : array) {
        if (item.is_null()) {
            throw TypeError{};
        }
        const json* type = property(item, "@type");
        if (type == nullptr || !truthy(*type)) {
            continue;
        }
        if (!type->is_string()) {
            throw TypeError{};
        }
        if (is_article_type(type->get_ref<const std::string&>())) {
            return &item;
        }
    }
    return nullptr;
}

// pith: the first usable url in JSON-LD `image` (string, {url}, or an array of those).
std::optional<std::string> json_ld_image(const json& article) {
    const json* image = property(article, "image");
    if (image == nullptr) {
        return std::nullopt;
    }
    auto one = [](const json& v) -> std::optional<std::string> {
        const std::string* s = v.is_string() ? &v.get_ref<const std::string&>() : string_property(v, "url");
        if (s == nullptr) {
            return std::nullopt;
        }
        const std::string_view trimmed = text::trim(*s);
        return trimmed.empty() ? std::nullopt : std::optional<std::string>(trimmed);
    };
    if (!image->is_array()) {
        return one(*image);
    }
    for (const json& item : *image) {
        if (auto found = one(item)) {
            return found;
        }
    }
    return std::nullopt;
}

// The body of _getJSONLD's per-script callback: the metadata when this script
// holds a schema.org article, nullopt to move on to the next script.
std::optional<Metadata> article_from_json_ld(const dom::Document& doc, const std::string& content) {
    // JSON.parse rejects a byte order mark; nlohmann would skip it.
    if (content.starts_with("\xEF\xBB\xBF")) {
        return std::nullopt;
    }
    const json parsed = json::parse(content.begin(), content.end(), nullptr, false);
    if (parsed.is_discarded()) {
        return std::nullopt;
    }
    const json* article = &parsed;
    if (parsed.is_array()) {
        article = find_article(parsed);
        if (article == nullptr) {
            return std::nullopt;
        }
    }
    if (article->is_null()) {
        throw TypeError{};
    }
    bool schema_org = false;
    if (const json* context = property(*article, "@context")) {
        if (context->is_string()) {
            schema_org = is_schema_org(context->get_ref<const std::string&>());
        } else if (context->is_null()) {
            throw TypeError{};  // typeof null is "object"; null["@vocab"] throws
        } else if (const std::string* vocab = string_property(*context, "@vocab")) {
            schema_org = is_schema_org(*vocab);
        }
    }
    if (!schema_org) {
        return std::nullopt;
    }
    const json* type = property(*article, "@type");
    if (type == nullptr || !truthy(*type)) {
        const json* graph = property(*article, "@graph");
        if (graph != nullptr && graph->is_array()) {
            article = find_article(*graph);
            if (article == nullptr) {
                return std::nullopt;
            }
            type = property(*article, "@type");
        }
    }
    if (type == nullptr || !truthy(*type)) {
        return std::nullopt;
    }
    if (!type->is_string()) {
        throw TypeError{};
    }
    if (!is_article_type(type->get_ref<const std::string&>())) {
        return std::nullopt;
    }

    Metadata out;
    auto trimmed = [](const std::string& s) { return std::string(text::trim(s)); };
    const std::string* name = string_property(*article, "name");
    const std::string* headline = string_property(*article, "headline");
    if (name != nullptr && headline != nullptr && *name != *headline) {
        // Some sites put their own name in "name" and the title in "headline":
        // prefer whichever resembles the HTML title, "name" by default.
        // Readability keeps these two untrimmed.
        const std::string title = article_title(doc);
        const bool name_matches_title = text_similarity(*name, title) > kTitleSimilarityThreshold;
        const bool headline_matches_title = text_similarity(*headline, title) > kTitleSimilarityThreshold;
        out.title = (headline_matches_title && !name_matches_title) ? *headline : *name;
    } else if (name != nullptr) {
        out.title = trimmed(*name);
    } else if (headline != nullptr) {
        out.title = trimmed(*headline);
    }

    if (const json* author = property(*article, "author"); author != nullptr && truthy(*author)) {
        if (const std::string* author_name = string_property(*author, "name")) {
            out.byline = trimmed(*author_name);
        } else if (author->is_array() && !author->empty() && truthy((*author)[0]) &&
                   string_property((*author)[0], "name") != nullptr) {
            std::string joined;
            bool first = true;
            for (const json& item : *author) {
                if (const std::string* item_name = string_property(item, "name")) {
                    if (!first) {
                        joined += ", ";
                    }
                    joined += text::trim(*item_name);
                    first = false;
                }
            }
            out.byline = std::move(joined);
        }
    }
    if (const std::string* description = string_property(*article, "description")) {
        out.excerpt = trimmed(*description);
    }
    if (const json* publisher = property(*article, "publisher"); publisher != nullptr && truthy(*publisher)) {
        if (const std::string* publisher_name = string_property(*publisher, "name")) {
            out.site_name = trimmed(*publisher_name);
        }
    }
    if (const std::string* published = string_property(*article, "datePublished")) {
        out.published_time = trimmed(*published);
    }
    out.image = json_ld_image(*article);
    return out;
}

// textContent.replace(/^\s*<!\[CDATA\[|\]\]>\s*$/g, "").
std::string strip_cdata(std::string_view s) {
    std::size_t begin = 0;
    const std::size_t lead = skip_js_space(s, 0);
    if (s.substr(lead).starts_with("<![CDATA[")) {
        begin = lead + 9;
    }
    std::size_t end = s.size();
    const std::string_view trimmed = text::trim(s);
    if (!trimmed.empty() && trimmed.ends_with("]]>")) {
        const auto trimmed_end = static_cast<std::size_t>(trimmed.data() - s.data()) + trimmed.size();
        if (trimmed_end - 3 >= begin) {
            end = trimmed_end - 3;
        }
    }
    return std::string(s.substr(begin, end - begin));
}

// ---------------------------------------------------------------------------
// Helpers for read_metadata.

// a || b || c ... over optional strings, "" being falsy like in JS.
const std::string* first_truthy(std::initializer_list<const std::string*> values) {
    for (const std::string* v : values) {
        if (v != nullptr && !v->empty()) {
            return v;
        }
    }
    return nullptr;
}

const std::string* opt(const std::optional<std::string>& v) {
    return v ? &*v : nullptr;
}

using Values = std::map<std::string, std::string, std::less<>>;

const std::string* lookup(const Values& values, std::string_view key) {
    const auto it = values.find(key);
    return it == values.end() ? nullptr : &it->second;
}

template <std::size_t N>
const std::string* first_value(const Values& values, const std::array<std::string_view, N>& keys) {
    for (const std::string_view key : keys) {
        if (const std::string* v = lookup(values, key); v != nullptr && !v->empty()) {
            return v;
        }
    }
    return nullptr;
}

std::optional<std::string> unescaped(const std::string* v) {
    if (v == nullptr || v->empty()) {
        return std::nullopt;
    }
    return unescape_html_entities(*v);
}

// pith: the area a `sizes` attribute promises; "any" (scalable) beats every
// bitmap, a missing or unparsable value counts 0.
std::uint64_t icon_size(std::string_view sizes) {
    constexpr std::uint64_t kAny = UINT64_MAX;
    constexpr std::uint64_t kCap = 1'000'000;  // per dimension; keeps the product in range
    std::uint64_t best = 0;
    std::size_t pos = 0;
    while (pos < sizes.size()) {
        while (pos < sizes.size() && text::is_html_space(sizes[pos])) {
            ++pos;
        }
        std::size_t end = pos;
        while (end < sizes.size() && !text::is_html_space(sizes[end])) {
            ++end;
        }
        const std::string_view token = sizes.substr(pos, end - pos);
        pos = end;
        if (text::iequals_ascii(token, "any")) {
            return kAny;
        }
        std::uint64_t dims[2] = {0, 0};
        std::size_t i = 0;
        bool ok = true;
        for (int d = 0; d < 2 && ok; ++d) {
            const std::size_t digits_start = i;
            while (i < token.size() && token[i] >= '0' && token[i] <= '9') {
                dims[d] = std::min(kCap, dims[d] * 10 + static_cast<std::uint64_t>(token[i] - '0'));
                ++i;
            }
            ok = i > digits_start;
            if (ok && d == 0) {
                ok = i < token.size() && (token[i] == 'x' || token[i] == 'X');
                ++i;
            }
        }
        if (ok && i == token.size()) {
            best = std::max(best, dims[0] * dims[1]);
        }
    }
    return best;
}

std::optional<std::string> absolutise(std::optional<std::string> value, std::string_view base_url) {
    if (!value || base_url.empty()) {
        return value;
    }
    if (auto resolved = url::resolve(*value, base_url)) {
        return resolved;
    }
    return value;  // like Readability's toAbsoluteURI: keep what cannot be resolved
}

}  // namespace

// ---------------------------------------------------------------------------

std::string article_title(const dom::Document& doc) {
    const std::string doc_title = document_title(doc);
    const std::string orig(text::trim(doc_title));
    std::string cur = orig;
    bool had_hierarchical_separators = false;

    // Non-overlapping matches of / [\|\-\\\/>»] /g, left to right.
    std::size_t last_separator = std::string::npos;
    for (std::size_t i = 0; i < orig.size();) {
        const std::size_t len = spaced_separator_at(orig, i, false);
        if (len != 0) {
            last_separator = i;
            i += len;
        } else {
            ++i;
        }
    }

    if (last_separator != std::string::npos) {
        for (std::size_t i = 0; i < orig.size() && !had_hierarchical_separators; ++i) {
            had_hierarchical_separators = spaced_separator_at(orig, i, true) != 0;
        }
        cur = orig.substr(0, last_separator);
        // Too short: drop the first part (up to the first separator) instead.
        if (word_count(cur) < kTitleMinWordsAfterCut) {
            std::size_t i = 0;
            while (i < orig.size() && separator_at(orig, i, false) == 0) {
                ++i;
            }
            cur = i < orig.size() ? orig.substr(i + separator_at(orig, i, false)) : orig;
        }
    } else if (cur.find(": ") != std::string::npos) {
        // A heading holding exactly the title means the colon belongs to it.
        if (!some_heading_text_equals(doc, orig)) {
            cur = orig.substr(orig.rfind(':') + 1);
            const std::size_t first_colon = orig.find(':');
            if (word_count(cur) < kTitleMinWordsAfterCut) {
                cur = orig.substr(first_colon + 1);
            } else if (word_count(std::string_view(orig).substr(0, first_colon)) > kTitleMaxWordsBeforeColon) {
                // Too many words before the colon: something odd, keep it whole.
                cur = orig;
            }
        }
    } else {
        const std::size_t length = text::utf16_length(cur);
        if (length > kTitleMaxLength || length < kTitleMinLength) {
            const Node* only_h1 = nullptr;
            std::size_t h1_count = 0;
            for_each_element(doc, Tag::h1, [&](const Node* n) {
                only_h1 = n;
                return ++h1_count < 2;
            });
            if (h1_count == 1) {
                cur = dom::inner_text(only_h1, true);
            }
        }
    }

    cur = text::collapse_runs(text::trim(cur));
    // Four words or fewer: back to the original title unless a hierarchical
    // separator was cut and that removed at most one word.
    const std::size_t cur_words = word_count(cur);
    if (cur_words <= kTitleShortWordCount) {
        bool revert = !had_hierarchical_separators;
        if (!revert) {
            std::string without_separators;
            for (std::size_t i = 0; i < orig.size();) {
                const std::size_t len = separator_at(orig, i, false);
                if (len != 0) {
                    i += len;
                } else {
                    without_separators.push_back(orig[i++]);
                }
            }
            revert = cur_words != word_count(without_separators) - 1;
        }
        if (revert) {
            cur = orig;
        }
    }
    return cur;
}

Metadata read_json_ld(const dom::Document& doc) {
    std::optional<Metadata> found;
    for_each_element(doc, Tag::script, [&](const Node* script) {
        const dom::Attribute* type = script->find_attr("type");
        if (type == nullptr || type->value != "application/ld+json") {
            return true;
        }
        try {
            found = article_from_json_ld(doc, strip_cdata(dom::text_content(script)));
        } catch (const TypeError&) {
            found.reset();  // Readability logs the error and tries the next script
        } catch (const json::exception&) {
            found.reset();
        }
        return !found.has_value();
    });
    return found ? std::move(*found) : Metadata{};
}

Metadata read_metadata(const dom::Document& doc, const Metadata& json_ld, std::string_view base_url) {
    Values values;
    std::array<std::optional<std::string>, kImageKeys.size()> image_values;

    for_each_element(doc, Tag::meta, [&](const Node* meta) {
        const std::string_view content = meta->attr("content");
        if (content.empty()) {
            return true;
        }
        const std::string_view property = meta->attr("property");
        const std::string_view name = meta->attr("name");
        std::optional<std::string> key;
        if (!property.empty()) {
            key = property_key(property);
        }
        if (!key && !name.empty() && name_matches(name)) {
            key = name_key(name);
        }
        if (key) {
            // Later elements overwrite earlier ones, even with "".
            values[*key] = std::string(text::trim(content));
        }
        // pith: the first non-empty value per image key wins (Open Graph gives
        // the first of several og:image tags precedence).
        for (std::size_t i = 0; i < kImageKeys.size(); ++i) {
            if (!image_values[i] && (text::has_token_ascii_ci(property, kImageKeys[i]) ||
                                     text::has_token_ascii_ci(name, kImageKeys[i]))) {
                const std::string_view trimmed = text::trim(content);
                if (!trimmed.empty()) {
                    image_values[i] = std::string(trimmed);
                }
            }
        }
        return true;
    });

    Metadata out;
    const std::string* title = first_truthy({opt(json_ld.title), first_value(values, kTitleKeys)});
    out.title = title != nullptr ? unescape_html_entities(*title) : unescape_html_entities(article_title(doc));

    // article:author is often a profile URL rather than a name.
    const std::string* article_author = lookup(values, "article:author");
    if (article_author != nullptr && url::is_absolute(*article_author)) {
        article_author = nullptr;
    }
    out.byline = unescaped(first_truthy({opt(json_ld.byline), first_value(values, kBylineKeys), article_author}));
    out.excerpt = unescaped(first_truthy({opt(json_ld.excerpt), first_value(values, kExcerptKeys)}));
    out.site_name = unescaped(first_truthy({opt(json_ld.site_name), first_value(values, kSiteNameKeys)}));
    out.published_time =
        unescaped(first_truthy({opt(json_ld.published_time), first_value(values, kPublishedTimeKeys)}));

    // pith: lead image and favicon.
    const std::string* image = opt(json_ld.image);
    for (std::size_t i = 0; i < kImageKeys.size() && (image == nullptr || image->empty()); ++i) {
        image = opt(image_values[i]);
    }
    std::optional<std::string> link_image;
    const Node* best_icon = nullptr;
    const Node* best_touch_icon = nullptr;
    std::uint64_t best_icon_size = 0;
    std::uint64_t best_touch_icon_size = 0;
    for_each_element(doc, Tag::link, [&](const Node* link) {
        const std::string_view rel = link->attr("rel");
        const std::string_view href = text::trim(link->attr("href"));
        if (href.empty()) {
            return true;
        }
        if (!link_image && text::has_token_ascii_ci(rel, "image_src")) {
            link_image = std::string(href);
        }
        const bool icon = text::has_token_ascii_ci(rel, "icon");
        const bool touch_icon = text::has_token_ascii_ci(rel, "apple-touch-icon") ||
                                text::has_token_ascii_ci(rel, "apple-touch-icon-precomposed");
        if (icon || touch_icon) {
            const std::uint64_t size = icon_size(link->attr("sizes"));
            const Node*& best = icon ? best_icon : best_touch_icon;
            std::uint64_t& best_size = icon ? best_icon_size : best_touch_icon_size;
            if (best == nullptr || size > best_size) {
                best = link;
                best_size = size;
            }
        }
        return true;
    });
    if (image == nullptr || image->empty()) {
        image = opt(link_image);
    }
    out.image = absolutise(unescaped(image), base_url);
    if (const Node* icon = best_icon != nullptr ? best_icon : best_touch_icon) {
        const std::string href(text::trim(icon->attr("href")));
        out.favicon = absolutise(unescaped(&href), base_url);
    }
    return out;
}

double text_similarity(std::string_view a, std::string_view b) {
    // toLowerCase().split(/\W+/).filter(Boolean). Only two non-ASCII characters
    // lowercase into ASCII word characters: U+0130 to "i" + U+0307 and the
    // Kelvin sign U+212A to "k".
    auto tokenize = [](std::string_view s) {
        std::vector<std::string> tokens;
        std::string current;
        auto flush = [&] {
            if (!current.empty()) {
                tokens.push_back(std::move(current));
                current.clear();
            }
        };
        for (std::size_t pos = 0; pos < s.size();) {
            const char32_t c = text::next_code_point(s, pos);
            if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_') {
                current.push_back(static_cast<char>(c));
            } else if (c >= 'A' && c <= 'Z') {
                current.push_back(static_cast<char>(c - 'A' + 'a'));
            } else if (c == 0x212A) {
                current.push_back('k');
            } else if (c == 0x130) {
                current.push_back('i');
                flush();
            } else {
                flush();
            }
        }
        flush();
        return tokens;
    };
    const std::vector<std::string> tokens_a = tokenize(a);
    const std::vector<std::string> tokens_b = tokenize(b);
    if (tokens_a.empty() || tokens_b.empty()) {
        return 0.0;
    }
    const std::unordered_set<std::string_view> set_a(tokens_a.begin(), tokens_a.end());
    // Lengths of tokens.join(" ").
    std::size_t total = 0;
    std::size_t unique = 0;
    std::size_t unique_count = 0;
    for (const std::string& token : tokens_b) {
        total += token.size();
        if (!set_a.contains(token)) {
            unique += token.size();
            ++unique_count;
        }
    }
    total += tokens_b.size() - 1;
    if (unique_count > 0) {
        unique += unique_count - 1;
    }
    return 1.0 - static_cast<double>(unique) / static_cast<double>(total);
}

std::string unescape_html_entities(std::string_view s) {
    // Pass 1: /&(quot|amp|apos|lt|gt);/g (case-sensitive).
    static constexpr std::array<std::pair<std::string_view, char>, 5> kNamed{
        {{"quot;", '"'}, {"amp;", '&'}, {"apos;", '\''}, {"lt;", '<'}, {"gt;", '>'}}};
    std::string named;
    named.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        bool replaced = false;
        if (s[i] == '&') {
            for (const auto& [entity, c] : kNamed) {
                if (s.substr(i + 1).starts_with(entity)) {
                    named.push_back(c);
                    i += 1 + entity.size();
                    replaced = true;
                    break;
                }
            }
        }
        if (!replaced) {
            named.push_back(s[i++]);
        }
    }

    // Pass 2 over the result: /&#(?:x([0-9a-f]+)|([0-9]+));/gi.
    std::string out;
    out.reserve(named.size());
    for (std::size_t i = 0; i < named.size();) {
        std::size_t end = 0;
        if (const std::optional<char32_t> c = text::numeric_reference_at(named, i, end)) {
            text::append_utf8(out, *c);
            i = end + 1;
        } else {
            out.push_back(named[i++]);
        }
    }
    return out;
}

bool is_json_ld_article_type(std::string_view type) { return is_article_type(type); }

namespace {

// A link to its own heading ("#install") shown as one mark (¶, #, §, 🔗):
// documentation generators put one in every heading; it is not the title.
bool is_permalink_mark(const Node* n) {
    if (!n->is(Tag::a) || !n->attr("href").starts_with('#')) {
        return false;
    }
    const std::string text = dom::inner_text(n);
    std::size_t end = 0;
    const char32_t c = text.empty() ? U'\0' : text::next_code_point(text, end);
    return end == text.size() && !text.empty() && (c == U'#' || c == U'\u00B6' || c == U'\u00A7' || c == U'\U0001F517');
}

// A heading's text as it reads: a line break (<br>) or a block inside it
// ("News Product<br>Management", "<div>Data</div><div>Agency</div>")
// separates words, which textContent would glue; a permalink mark is not read.
std::string heading_text(const Node* heading) {
    std::string out;
    for (const Node* n = dom::next_node(heading, heading); n != nullptr;) {
        if (is_permalink_mark(n)) {
            n = dom::next_node(n, heading, true);
            continue;
        }
        if (n->is_text()) {
            out.append(n->data);
        } else if (n->is(Tag::br) || n->is(Tag::div) || n->is(Tag::p)) {
            out.push_back(' ');
        }
        n = dom::next_node(n, heading);
    }
    return out;
}

}  // namespace

namespace {

// Words sorted, each once, for the set operations below.
std::vector<std::string> word_set(std::vector<std::string> words) {
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    return words;
}

// The words two sets share, over all the words of both (Jaccard's index).
double shared_word_share(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    std::vector<std::string> both;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
    const std::size_t either = a.size() + b.size() - both.size();
    return either == 0 ? 0.0 : static_cast<double>(both.size()) / static_cast<double>(either);
}

bool holds_word(const std::vector<std::string>& set, const std::string& word) {
    return std::binary_search(set.begin(), set.end(), word);
}

// The lowercase words of a URL's path (runs of ASCII letters and digits).
std::vector<std::string> path_words(std::string_view url) {
    const std::size_t scheme = url.find("://");
    const std::size_t slash = scheme == std::string_view::npos ? scheme : url.find('/', scheme + 3);
    if (slash == std::string_view::npos) {
        return {};
    }
    const std::string_view path = url.substr(slash);
    return title_words(path.substr(0, path.find_first_of("?#")));
}

// The share of a text's ASCII letters that are capitals.
double capital_share(std::string_view text) noexcept {
    std::size_t letters = 0;
    std::size_t capitals = 0;
    for (const char c : text) {
        letters += std::isalpha(static_cast<unsigned char>(c)) != 0 ? 1U : 0U;
        capitals += c >= 'A' && c <= 'Z' ? 1U : 0U;
    }
    return letters == 0 ? 0.0 : static_cast<double>(capitals) / static_cast<double>(letters);
}

// What a page gives of its titles, as headline_title read them.
struct TitleSources {
    std::string_view title;
    std::string_view og_title;
    const std::vector<std::string_view>& parts;
    const std::vector<std::string_view>& og_parts;
    const std::vector<std::string>& h1_texts;
    std::string_view json_ld_title;
    std::string_view base_url;
    std::string_view site;  // og:site_name's words
    std::string_view host;  // squeezed_host
};

// Whether the host holds these words, run together.
bool host_holds(std::string_view host, std::string words) {
    std::erase(words, ' ');
    return !host.empty() && host.find(words) != std::string_view::npos;
}

// A title's first word (of title_words; four letters or more) found in the host.
bool first_word_in_host(std::string_view host, const std::vector<std::string>& words) {
    constexpr std::size_t kShortestHostWord = 4;
    return !words.empty() && words.front().size() >= kShortestHostWord && host_holds(host, words.front());
}

// The title model's candidates (TitleCandidate), the headline `rules` chose
// first, so that it wins a tie.
std::vector<TitleCandidate> title_candidates(const TitleSources& page, const HeadlineChoice& rules) {
    constexpr std::size_t kLongestTitle = 250;  // bytes, as a headline
    // Each text once, with every source that gave it.
    enum Source : std::size_t {
        from_headline, from_title_part, from_title, from_title_first, from_title_last, from_title_head,
        from_og_title, from_og_first, from_og_head, from_json_ld, from_first_h1, from_other_h1, source_count
    };
    struct Found {
        std::string text;
        std::string source;
        std::array<bool, source_count> from{};
    };
    std::vector<Found> found;
    const auto add = [&](std::string_view raw, Source from, std::string_view source) {
        std::string text = text::collapse_runs(text::trim(raw));
        std::replace_if(text.begin(), text.end(), text::is_html_space, ' ');
        text = text::collapse_runs(text);
        if (text.empty() || text.size() > kLongestTitle) {
            return;
        }
        auto same = std::find_if(found.begin(), found.end(), [&](const Found& f) { return f.text == text; });
        if (same == found.end()) {
            found.push_back(Found{std::move(text), std::string(source), {}});
            same = found.end() - 1;
        }
        same->from[from] = true;
    };
    // All of a title's parts but its last, as the title writes them.
    const auto head_of = [](std::string_view whole, const std::vector<std::string_view>& of) {
        if (of.size() < 2) {
            return std::string_view{};
        }
        const std::string_view last_kept = of[of.size() - 2];
        return whole.substr(static_cast<std::size_t>(of.front().data() - whole.data()),
                            static_cast<std::size_t>(last_kept.data() + last_kept.size() - of.front().data()));
    };
    if (rules.headline.source != "readability") {
        add(rules.headline.value, from_headline, rules.headline.source);
    }
    if (rules.title_part) {
        add(rules.title_part->value, from_title_part, rules.title_part->source);
    }
    add(page.title, from_title, "title");
    if (page.parts.size() > 1) {
        add(page.parts.front(), from_title_first, "title");
        add(page.parts.back(), from_title_last, "title");
        add(head_of(page.title, page.parts), from_title_head, "title");
    }
    add(page.og_title, from_og_title, "og:title");
    if (page.og_parts.size() > 1) {
        add(page.og_parts.front(), from_og_first, "og:title");
        add(head_of(page.og_title, page.og_parts), from_og_head, "og:title");
    }
    add(page.json_ld_title, from_json_ld, "json-ld");
    for (std::size_t i = 0; i < page.h1_texts.size(); ++i) {
        add(page.h1_texts[i], i == 0 ? from_first_h1 : from_other_h1, "h1");
    }

    // Each candidate's words are read once: they give its joined words (the
    // site's name and agreement are compared on those) and its word set.
    std::vector<std::vector<std::string>> words_of;
    std::vector<std::string> joined;
    words_of.reserve(found.size());
    joined.reserve(found.size());
    for (const Found& f : found) {
        words_of.push_back(title_words(f.text));
        joined.push_back(joined_words(words_of.back()));
    }
    const std::vector<std::string> title_set = word_set(title_words(page.title));
    const std::vector<std::string> h1_set =
        word_set(page.h1_texts.empty() ? std::vector<std::string>{} : title_words(page.h1_texts.front()));
    const std::vector<std::string> og_set = word_set(title_words(page.og_title));
    const std::vector<std::string> url_set = word_set(path_words(page.base_url));
    const auto count = [](std::size_t n) { return static_cast<double>(n); };
    std::vector<TitleCandidate> candidates;
    candidates.reserve(found.size());
    for (std::size_t i = 0; i < found.size(); ++i) {
        const Found& f = found[i];
        const std::vector<std::string>& words = words_of[i];
        const std::vector<std::string> own_set = word_set(words);
        std::vector<double> x(kTitleOwnFeatureCount, 0.0);
        for (std::size_t k = 0; k < source_count; ++k) {
            x[k] = f.from[k] ? 1.0 : 0.0;
        }
        const auto in_url = std::count_if(words.begin(), words.end(), [&](const std::string& w) {
            return holds_word(url_set, w);
        });
        std::size_t k = source_count;
        x[k++] = count(static_cast<std::size_t>(std::count(f.from.begin(), f.from.end(), true)));
        x[k++] = count(words.size());
        x[k++] = count(f.text.size());
        x[k++] = title_parts(f.text).size() > 1 ? 1.0 : 0.0;
        x[k++] = !joined[i].empty() && (joined[i] == page.site || host_holds(page.host, joined[i])) ? 1.0 : 0.0;
        x[k++] = first_word_in_host(page.host, words) ? 1.0 : 0.0;
        x[k++] = words.empty() ? 0.0 : static_cast<double>(in_url) / count(words.size());
        x[k++] = capital_share(f.text);
        x[k++] = count(page.h1_texts.size());
        x[k++] = count(page.parts.size());
        x[k++] = shared_word_share(own_set, title_set);
        x[k++] = shared_word_share(own_set, h1_set);
        x[k++] = shared_word_share(own_set, og_set);
        x[k++] = !words.empty() && std::all_of(words.begin(), words.end(), [&](const std::string& w) {
            return holds_word(title_set, w);
        }) ? 1.0 : 0.0;
        x[k++] = count(static_cast<std::size_t>(std::count(joined.begin(), joined.end(), joined[i])) - 1);
        x[k++] = page.og_title.empty() ? 0.0 : 1.0;
        x[k++] = page.json_ld_title.empty() ? 0.0 : 1.0;
        candidates.push_back(TitleCandidate{f.text, f.source, std::move(x)});
    }
    return candidates;
}

}  // namespace

std::span<const std::string_view, kTitleOwnFeatureCount> title_own_feature_names() noexcept {
    static constexpr std::array<std::string_view, kTitleOwnFeatureCount> kNames{
        "from_headline",   "from_title_part", "from_title",   "from_title_first", "from_title_last",
        "from_title_head", "from_og_title",   "from_og_first", "from_og_head",    "from_json_ld",
        "from_first_h1",   "from_other_h1",   "sources",      "words",            "bytes",
        "has_separator",   "names_site",      "first_word_in_host", "path_word_share", "capital_share",
        "h1_count",        "title_parts",     "title_overlap", "h1_overlap",      "og_overlap",
        "within_title",    "agreeing",        "has_og_title",  "has_json_ld"};
    return kNames;
}

HeadlineChoice headline_title(const dom::Document& doc, std::string_view base_url, std::string_view fallback,
                              std::string_view json_ld_title) {
    constexpr std::size_t kHeadingsTried = 3;
    constexpr std::size_t kLongestHeadline = 250;  // bytes; longer is a paragraph marked up as a heading
    constexpr double kSharedWords = 0.5;
    const std::string title = document_title(doc);
    // Named, not a structured binding: clang 14 does not let a lambda capture one.
    const std::array<std::string, 2> og = meta_contents<2>(doc, {"og:title", "og:site_name"});
    const std::string& og_title = og[0];
    const std::string site = joined_words(og[1]);
    const std::string host = squeezed_host(base_url);
    const std::vector<std::string_view> parts = title_parts(title);

    const auto in_host = [&](std::string words) { return host_holds(host, std::move(words)); };
    const auto is_site_name = [&](std::string_view heading) {
        const std::string words = joined_words(heading);
        if (words.empty() || words == site) {
            return true;
        }
        for (std::size_t i = 1; i < parts.size(); ++i) {
            if (joined_words(parts[i]) == words) {
                return true;
            }
        }
        return in_host(words);
    };
    // Whether a title's part names the site: its og:site_name, or all its
    // words or its first word found in the host.
    const auto names_site = [&](std::string_view part) {
        const std::vector<std::string> words = title_words(part);
        const std::string joined = joined_words(words);
        return !joined.empty() && (joined == site || in_host(joined) || first_word_in_host(host, words));
    };
    // A headline that ends as the title does after its first part, in a part
    // that names the site, loses that ending ("Tips | Site" against the same
    // title): the page repeats its title's tail in its heading. A headline
    // that is its title with a subtitle keeps it.
    const auto without_title_tail = [&](std::string text) {
        const std::vector<std::string_view> heading_parts = title_parts(text);
        std::size_t kept = heading_parts.size();
        for (std::size_t k = 1; k < heading_parts.size() && k < parts.size(); ++k) {
            if (joined_words(heading_parts[heading_parts.size() - k]) != joined_words(parts[parts.size() - k])) {
                break;
            }
            kept = heading_parts.size() - k;
        }
        if (kept == heading_parts.size() || !names_site(heading_parts.back())) {
            return text;
        }
        const std::string_view last = heading_parts[kept - 1];
        return std::string(text.data(), static_cast<std::size_t>(last.data() + last.size() - text.data()));
    };
    // The first <h1>s' texts, for the title model, and the headline: the
    // first of them that is not the site's name.
    std::string heading;
    std::vector<std::string> h1_texts;
    std::size_t tried = 0;
    for_each_element(doc, Tag::h1, [&](const Node* n) {
        if (n->ns != dom::Namespace::html) {
            return true;
        }
        std::string text = text::collapse_runs(text::trim(heading_text(n)));
        std::replace_if(text.begin(), text.end(), text::is_html_space, ' ');
        text = text::collapse_runs(text);
        const bool usable = !text.empty() && text.size() <= kLongestHeadline;
        if (usable) {
            h1_texts.push_back(text);
        }
        if (heading.empty() && tried < kHeadingsTried) {
            if (usable && !is_site_name(text)) {
                heading = without_title_tail(std::move(text));
            } else {
                ++tried;
            }
        }
        return h1_texts.size() < kHeadingsTried;
    });

    const std::vector<std::string_view> og_parts = title_parts(og_title);
    const std::string_view first_part = !og_parts.empty() ? og_parts.front()
                                        : !parts.empty()  ? parts.front()
                                                          : std::string_view{};
    const std::string_view part_source = !og_parts.empty() ? "og:title" : "title";
    const auto heuristic = [&]() -> HeadlineChoice {
        if (!heading.empty()) {
            const std::vector<std::string> words = title_words(heading);
            const std::vector<std::string> titles = title_words(title + " " + og_title);
            const auto shared =
                static_cast<double>(std::count_if(words.begin(), words.end(), [&](const std::string& w) {
                    return std::find(titles.begin(), titles.end(), w) != titles.end();
                }));
            if (first_part.empty()) {
                return {{heading, "h1"}, std::nullopt, {}};
            }
            if (!words.empty() && shared / static_cast<double>(words.size()) >= kSharedWords) {
                return {{heading, "h1"}, SourcedText{std::string(first_part), std::string(part_source)}, {}};
            }
        }
        if (first_part.empty()) {
            return {{std::string(fallback), "readability"}, std::nullopt, {}};
        }
        return {{std::string(first_part), std::string(part_source)}, std::nullopt, {}};
    };
    HeadlineChoice choice = heuristic();

    choice.candidates = title_candidates(TitleSources{title, og_title, parts, og_parts, h1_texts, json_ld_title,
                                                      base_url, site, host},
                                         choice);
    return choice;
}

namespace {

// Whether an author's name is the site's: the same, case aside, or the start
// of it ("Digjitale" of "Digjitale Signal").
bool names_the_site(std::string_view name, std::string_view site) {
    const std::string lower_name = text::to_lower_ascii(text::trim(name));
    const std::string lower_site = text::to_lower_ascii(text::trim(site));
    return !lower_name.empty() &&
           (lower_site == lower_name || (lower_site.starts_with(lower_name) && lower_site[lower_name.size()] == ' '));
}

}  // namespace

bool signed_by_the_site(const std::vector<std::string>& authors, const std::optional<std::string>& site) {
    const auto is_the_site = [&](const std::string& name) { return names_the_site(name, *site); };
    return site && !authors.empty() && std::all_of(authors.begin(), authors.end(), is_the_site);
}

namespace {

// Whether a page of this type has an author and a date of its own: an
// article, a forum thread or a documentation page (or a page of no known
// type). On a product, collection, listing or service page a byline, a
// JSON-LD author or a date shown is a review's, a testimonial's, an item's or
// the shop's.
bool authored_type(const std::optional<PageType>& type) {
    return !type || *type == PageType::article || *type == PageType::forum || *type == PageType::documentation;
}

namespace title_model {
#include "metadata/title_model.inc"
static_assert(kFeatureCount == kTitleFeatureCount, "title_model.inc was fitted on other features: refit");
}  // namespace title_model

// The title model's probability that `features` are those of the page's own
// title.
double title_score(std::span<const double> features, int fold) noexcept {
    using namespace title_model;
    const std::size_t m = models::model_for_fold(fold, kModels);
    const models::Forest forest = models::model_of(kNodes, kStarts, kModelTrees, m, 1, kBase[m]);
    return 1.0 / (1.0 + std::exp(-models::margin(forest, features)));
}

// The text with typographic quote marks (U+2018, U+2019, U+201C, U+201D)
// written as ASCII ones.
std::string with_plain_quotes(std::string_view text) {
    static constexpr std::array<std::pair<std::string_view, char>, 4> kQuotes{
        {{"\u2018", '\''}, {"\u2019", '\''}, {"\u201C", '"'}, {"\u201D", '"'}}};
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto quote = std::find_if(kQuotes.begin(), kQuotes.end(),
                                        [&](const auto& q) { return text.substr(i).starts_with(q.first); });
        if (quote != kQuotes.end()) {
            out.push_back(quote->second);
            i += quote->first.size();
        } else {
            out.push_back(text[i++]);
        }
    }
    return out;
}

// The title: the candidate the title model scores highest (bench/fit/
// fit_title.py fits it on wcxb-dev's titles), the first on a tie. Without a
// fitted model, the headline pith chose, or on a forum thread or a service
// page the title's first part it was chosen over (a thread's <h1> carries the
// forum's prefixes and tags, and a service page's is often its slogan).
// readability keeps Readability.js's.
void choose_title(Article& article, const Metadata& metadata, int model_fold) {
    MetadataSources& sources = article.metadata_sources;
    const std::optional<PageType> type = layout_page_type(article);
    const bool titled_by_its_title = type == PageType::forum || type == PageType::service;
    const bool readability = article.strategy == Strategy::readability;
    if (metadata.headline && !readability) {
        const SourcedText& chosen = titled_by_its_title && metadata.title_part ? *metadata.title_part
                                                                               : *metadata.headline;
        article.title = chosen.value;
        sources.title = chosen.source;
        std::array<double, kPageTypeCount> probabilities{};
        if (article.page_type_diagnostics) {
            probabilities = article.page_type_diagnostics->layout_probabilities;
        }
        double best = -1.0;
        for (const TitleCandidate& candidate : metadata.title_candidates) {
            std::vector<double> features = candidate.features;
            features.insert(features.end(), probabilities.begin(), probabilities.end());
            double score = 0.0;
            if constexpr (title_model::kModels > 0) {
                score = title_score(features, model_fold);
                if (score > best) {
                    best = score;
                    article.title = candidate.text;
                    sources.title = candidate.source;
                }
            }
            article.title_candidates.push_back({candidate.text, candidate.source, score, std::move(features)});
        }
        // Where the page writes the chosen title a second time with plain
        // quote marks (the <h1> typeset, the <title> not), the plain one.
        const std::string plain = with_plain_quotes(*article.title);
        const auto twin = std::find_if(metadata.title_candidates.begin(), metadata.title_candidates.end(),
                                       [&](const TitleCandidate& candidate) { return candidate.text == plain; });
        if (plain != *article.title && twin != metadata.title_candidates.end()) {
            article.title = twin->text;
            sources.title = twin->source;
        }
        // A soft hyphen the page put in its headline is no part of the
        // title's words, as it is none of the article's.
        article.title = text::without_invisible(*article.title);
    } else if (article.title) {
        sources.title = metadata.headline ? metadata.headline->source : "readability";
    }
}

// The authors from the sources in the order they are trusted; `byline_names`
// are the names of the byline kept. The site's own name given as the author
// is the publisher's: a person's full name a later source gives is taken
// instead, and with none an article or a thread keeps it (a company's blog, a
// personal site) while the other page types have no author.
void choose_authors(Article& article, const AuthorsAndDates& found, std::vector<std::string> byline_names) {
    MetadataSources& sources = article.metadata_sources;
    const std::optional<PageType> type = layout_page_type(article);
    const bool authored = authored_type(type);
    const auto site_named = [&](const std::vector<std::string>& names) {
        return signed_by_the_site(names, article.site_name);
    };
    article.authors.clear();
    sources.authors.reset();
    const auto offer = [&](std::vector<std::string> names, std::string_view source) {
        const auto a_person = [&] {
            return !site_named(names) && std::all_of(names.begin(), names.end(), looks_like_full_name);
        };
        if (!names.empty() && (article.authors.empty() || (site_named(article.authors) && a_person()))) {
            article.authors = std::move(names);
            sources.authors = std::string(source);
        }
    };
    // Where a JSON-LD author is not taken, the <meta> author tag, which
    // speaks for the page, is.
    if (authored || found.authors_source != "json-ld") {
        offer(found.authors, found.authors_source);
    } else {
        offer(found.meta_authors, found.meta_authors_source);
    }
    // A thread's author is its first poster, which forums mark as such, not
    // as an article's author. Marked as a poster (data-author, the posting's
    // itemprop=author), it comes before a byline found in the posts, which is
    // any poster's or a quoted one's; named only by a class, after it.
    const bool thread = type == PageType::forum && found.first_poster;
    if (thread && found.first_poster->source != AuthorsAndDates::kUserClass) {
        offer({found.first_poster->value}, found.first_poster->source);
    }
    if (authored) {
        offer(std::move(byline_names), "byline");
    }
    // On a listing, a service or a shop's page, rel=author links naming
    // several people sign the posts it shows, not the page.
    if (authored || found.rel_authors.size() == 1) {
        offer(found.rel_authors, "rel=author");
    }
    if (authored) {
        offer(found.card_authors, "meta twitter:data (labelled as the writer)");
    }
    if (thread) {
        offer({found.first_poster->value}, found.first_poster->source);
    }
    // An article's template may show its author unmarked; on other pages such
    // a link or label is more often a reviewer's, a testimonial's or a team's.
    if (type == PageType::article && found.shown_author) {
        offer({found.shown_author->value}, found.shown_author->source);
    }
    const bool own_author = !type || *type == PageType::article || *type == PageType::forum;
    if (!own_author && site_named(article.authors)) {
        article.authors.clear();
        sources.authors.reset();
    }
}

// publishedTime for every strategy but readability: what the page marks, else
// (on a page with a date of its own) the date shown after the headline, else
// Readability's reading as ISO 8601, else on an article or a thread what the
// page shows unmarked (on other pages a <time> or a date line dates a review,
// an event or a listing's item).
void choose_published_time(Article& article, const AuthorsAndDates& found) {
    MetadataSources& sources = article.metadata_sources;
    std::optional<std::string> readabilitys = article.published_time ? iso_date(*article.published_time)
                                                                     : std::nullopt;
    article.published_time.reset();
    const std::optional<PageType> type = layout_page_type(article);
    const bool own_date = authored_type(type);
    // The date a page shows under its headline is the one it stands by; a
    // JSON-LD datePublished on another day is more often a first version's
    // the CMS kept (on wcxb-dev the shown day is the annotated one on 29
    // such pages, the JSON-LD's on 13). A <meta> date is not overruled: there
    // the shown day is the annotated one on 7 pages against 27.
    const bool shown_over_json_ld = found.published && found.published->source == "json-ld" &&
                                    found.date_after_headline && own_date &&
                                    std::string_view(found.published->value).substr(0, 10) !=
                                        std::string_view(found.date_after_headline->value).substr(0, 10);
    if (shown_over_json_ld) {
        article.published_time = found.date_after_headline->value;
        sources.published_time = found.date_after_headline->source + " (json-ld's differs)";
    } else if (found.published) {
        article.published_time = found.published->value;
        sources.published_time = found.published->source;
    } else if (found.date_after_headline && own_date) {
        article.published_time = found.date_after_headline->value;
        sources.published_time = found.date_after_headline->source;
    } else if (readabilitys) {
        article.published_time = std::move(readabilitys);
    } else if (type == PageType::article || type == PageType::forum) {
        for (const std::optional<SourcedText>* shown :
             {&found.first_time, &found.date_before_headline, &found.date_element}) {
            if (*shown) {
                article.published_time = (*shown)->value;
                sources.published_time = (*shown)->source;
                break;
            }
        }
    }
}

}  // namespace

void apply_metadata(Article& article, const Metadata& metadata, const AuthorsAndDates& authors_dates,
                    const std::optional<std::string>& found_byline,
                    const std::optional<std::string>& found_byline_lines, const std::optional<std::string>& lang,
                    int model_fold) {
    article.title = metadata.title;
    const bool metadata_has_byline = metadata.byline.has_value() && !metadata.byline->empty();
    article.byline = metadata_has_byline ? metadata.byline : found_byline;
    article.lang = lang;
    article.excerpt = metadata.excerpt;
    article.site_name = metadata.site_name;
    article.published_time = metadata.published_time;
    article.image = metadata.image;
    article.favicon = metadata.favicon;

    choose_title(article, metadata, model_fold);
    if (article.strategy != Strategy::readability) {
        // Metadata a page escaped twice ("&amp;rsquo;" in og:title) reaches
        // Readability's decoding, which knows five names, as "&rsquo;".
        // readability keeps Readability.js's strings (its msn test expects
        // "&nbsp;" in the excerpt).
        for (std::optional<std::string>* field :
             {&article.title, &article.byline, &article.excerpt, &article.site_name}) {
            if (*field) {
                text::decode_character_references(**field);
            }
        }
    }
    // The found byline's names from its lines: "Jane Doe" and "Staff Writer"
    // in two elements read as two lines, not "Jane DoeStaff Writer".
    const bool lines_found = !metadata_has_byline && found_byline_lines;
    choose_authors(article, authors_dates,
                   article.byline ? author_names(lines_found ? *found_byline_lines : *article.byline)
                                  : std::vector<std::string>{});
    if (article.strategy != Strategy::readability) {
        choose_published_time(article, authors_dates);
    }
    MetadataSources& sources = article.metadata_sources;
    if (article.published_time && !sources.published_time) {
        sources.published_time = "readability";
    }
    if (authors_dates.modified) {
        article.modified_time = authors_dates.modified->value;
        sources.modified_time = authors_dates.modified->source;
    }
}

}  // namespace pith::extract
