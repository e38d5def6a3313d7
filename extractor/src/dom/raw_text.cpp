// A lookahead scanner over the HTML tokenizer's states (WHATWG HTML, 13.2.5),
// reduced to finding tags and where raw text ends. Where it cannot tell, it
// skips ahead without cutting: a missed cut costs only speed, a wrong cut
// would change the document.
#include "dom/raw_text.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>

#include "pith/dom.hpp"
#include "text/ascii_block.hpp"
#include "text/text.hpp"

namespace pith::dom {

namespace {

constexpr std::size_t npos = std::string_view::npos;

char lower(char c) noexcept {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// Ends a tag name in an end tag that closes raw text ("appropriate end tag").
bool is_name_end(char c) noexcept {
    return text::is_html_space(c) || c == '/' || c == '>';
}

bool equals_lower(std::string_view text, std::size_t at, std::string_view lowercase) noexcept {
    if (at + lowercase.size() > text.size()) {
        return false;
    }
    for (std::size_t i = 0; i < lowercase.size(); ++i) {
        if (lower(text[at + i]) != lowercase[i]) {
            return false;
        }
    }
    return true;
}

// "</name" followed by whitespace, '/' or '>' at `at`.
bool is_end_tag(std::string_view html, std::size_t at, std::string_view name) noexcept {
    return at + 2 + name.size() < html.size() && html[at] == '<' && html[at + 1] == '/' &&
           equals_lower(html, at + 2, name) && is_name_end(html[at + 2 + name.size()]);
}

// RAWTEXT and RCDATA elements: where their end tag starts, or npos.
std::size_t rawtext_end(std::string_view html, std::size_t from, std::string_view name) noexcept {
    for (std::size_t at = html.find("</", from); at != npos; at = html.find("</", at + 2)) {
        if (is_end_tag(html, at, name)) {
            return at;
        }
    }
    return npos;
}

// Script data, with its escaped and double-escaped states: where the
// </script> end tag starts, or npos (the script runs to the end of input).
std::size_t script_end(std::string_view html, std::size_t at) noexcept {
    enum class State { data, escaped, double_escaped };
    State state = State::data;
    const std::size_t n = html.size();
    while (at < n) {
        if (state == State::data) {
            at = html.find('<', at);
            if (at == npos) {
                return npos;
            }
            if (is_end_tag(html, at, "script")) {
                return at;
            }
            if (html.compare(at, 4, "<!--") == 0) {
                // Script data escape start: "<!--" leaves us in escaped dash dash.
                at += 4;
                state = State::escaped;
                while (at < n && html[at] == '-') {
                    ++at;
                }
                if (at < n && html[at] == '>') {
                    state = State::data;
                    ++at;
                }
                continue;
            }
            ++at;
            continue;
        }
        // Escaped and double-escaped: only "-->", "<" and what follows it matter.
        const char c = html[at];
        if (c == '-') {
            std::size_t dashes = 0;
            while (at < n && html[at] == '-') {
                ++at;
                ++dashes;
            }
            if (dashes >= 2 && at < n && html[at] == '>') {
                state = State::data;
                ++at;
            }
            continue;
        }
        if (c != '<') {
            ++at;
            continue;
        }
        if (state == State::escaped) {
            if (is_end_tag(html, at, "script")) {
                return at;
            }
            // "<script" + delimiter starts the double-escaped state.
            if (at + 7 < n && equals_lower(html, at + 1, "script") && is_name_end(html[at + 7])) {
                state = State::double_escaped;
                at += 7;
                continue;
            }
        } else if (at + 8 < n && html[at + 1] == '/' && equals_lower(html, at + 2, "script") &&
                   is_name_end(html[at + 8])) {
            // "</script" + delimiter ends double escaping, not the element.
            state = State::escaped;
            at += 8;
            continue;
        }
        ++at;
    }
    return npos;
}

// The index of the '>' that ends a comment starting at `at` ("<!--"), or npos.
std::size_t comment_end(std::string_view html, std::size_t at) noexcept {
    std::size_t from = at + 4;
    // "<!-->" and "<!--->" are whole (abruptly closed) comments.
    if (from < html.size() && html[from] == '>') {
        return from;
    }
    if (html.compare(from, 2, "->") == 0) {
        return from + 1;
    }
    for (std::size_t dashes = html.find("--", from); dashes != npos; dashes = html.find("--", dashes + 1)) {
        if (dashes + 2 < html.size() && html[dashes + 2] == '>') {
            return dashes + 2;
        }
        if (html.compare(dashes + 2, 2, "!>") == 0) {
            return dashes + 3;
        }
    }
    return npos;
}

}  // namespace

// Reads the attributes of a tag the way the tokenizer does: quoted values may
// hold '>', unquoted ones end at space or '>'.
TagScan scan_tag(std::string_view html, std::size_t at, bool want_type) noexcept {
    TagScan tag;
    const std::size_t n = html.size();
    while (at < n) {
        while (at < n && (text::is_html_space(html[at]) || html[at] == '/')) {
            ++at;
        }
        if (at >= n) {
            return tag;
        }
        if (html[at] == '>') {
            tag.end = at;
            tag.self_closing = html[at - 1] == '/';
            return tag;
        }
        // An attribute name: a leading '=' belongs to it.
        const std::size_t name_start = at;
        ++tag.attributes;
        ++at;
        while (at < n && !text::is_html_space(html[at]) && html[at] != '/' && html[at] != '>' && html[at] != '=') {
            ++at;
        }
        const std::size_t name_end = at;
        while (at < n && text::is_html_space(html[at])) {
            ++at;
        }
        if (at >= n || html[at] != '=') {
            continue;  // no value
        }
        ++at;
        while (at < n && text::is_html_space(html[at])) {
            ++at;
        }
        if (at >= n) {
            return tag;
        }
        std::size_t value_start = at;
        std::size_t value_end;
        if (html[at] == '"' || html[at] == '\'') {
            value_end = html.find(html[at], at + 1);
            if (value_end == npos) {
                return tag;
            }
            ++value_start;
            at = value_end + 1;
        } else if (html[at] == '>') {
            tag.end = at;  // "name=>": an empty value, then the tag ends
            return tag;
        } else {
            while (at < n && !text::is_html_space(html[at]) && html[at] != '>') {
                ++at;
            }
            value_end = at;
        }
        if (want_type && name_end - name_start == 4 && equals_lower(html, name_start, "type")) {
            std::size_t b = value_start;
            std::size_t e = value_end;
            while (b < e && text::is_html_space(html[b])) {
                ++b;
            }
            while (e > b && text::is_html_space(html[e - 1])) {
                --e;
            }
            // A value with character references ("application&#x2F;ld&#x2B;json")
            // might decode to JSON-LD: keep that script rather than decode here.
            tag.json_ld = (e - b == 19 && equals_lower(html, b, "application/ld+json")) ||
                          html.substr(b, e - b).find('&') != npos;
        }
    }
    return tag;
}

namespace {

// Raw text elements whose content is skipped (not cut): RAWTEXT and RCDATA.
constexpr std::string_view kSkippedRawText[] = {"title", "textarea", "xmp", "iframe", "noembed", "noframes"};

// Elements that never hold children, or whose end tag the parser infers from
// the next sibling: neither makes the tree deeper (for the depth estimate).
constexpr std::string_view kAddNoDepth[] = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr", "keygen", "basefont", "bgsound", "frame", "p", "li", "dt", "dd", "option", "optgroup",
    "tr", "td", "th", "thead", "tbody", "tfoot", "colgroup", "rt", "rp", "html", "head", "body", "caption"};

// The one scan: tags read as the tokenizer reads them, the estimate counted,
// and, when `ranges` is given, the discardable raw text collected. No
// allocation without `ranges`.
MarkupEstimate scan(std::string_view html, std::vector<TextRange>* ranges) noexcept {
    MarkupEstimate estimate;
    std::size_t depth = 0;
    const auto cut = [&](std::size_t begin, std::size_t end) {
        if (ranges != nullptr) {
            ranges->push_back({begin, end});
        }
    };
    const std::size_t n = html.size();
    std::size_t at = 0;
    // Open <svg> and <math> elements, roughly: inside them a self-closing
    // <title/> or <style/> is a whole element, not the start of raw text.
    std::size_t foreign_depth = 0;
    while ((at = html.find('<', at)) != npos) {
        if (at + 1 >= n) {
            break;
        }
        const char next = html[at + 1];
        if (next == '!') {
            if (html.compare(at, 4, "<!--") == 0) {
                const std::size_t end = comment_end(html, at);
                if (end == npos) {
                    break;  // the comment runs to the end of input
                }
                // The comment's text, up to its "--" or "--!": comments are
                // deleted before anything reads them. Short ones stay, as the
                // marker would be longer.
                constexpr std::size_t kShortestCutComment = 64;
                const std::size_t text_end = html[end - 1] == '!' ? end - 3 : end - 2;
                if (text_end > at + 4 && text_end - (at + 4) >= kShortestCutComment) {
                    cut(at + 4, text_end);
                }
                ++estimate.comments;
                at = end + 1;
                continue;
            }
            // Doctype, bogus comment, or CDATA in foreign content: skip to the
            // furthest end either reading gives, so no tag inside is mistaken.
            std::size_t end = html.find('>', at + 2);
            if (html.compare(at + 2, 7, "[CDATA[") == 0) {
                const std::size_t cdata_end = html.find("]]>", at + 9);
                end = cdata_end == npos ? npos : std::max(end, cdata_end + 2);
            }
            if (end == npos) {
                break;
            }
            ++estimate.comments;
            at = end + 1;
            continue;
        }
        if (next == '?') {  // bogus comment
            const std::size_t end = html.find('>', at + 2);
            if (end == npos) {
                break;
            }
            ++estimate.comments;
            at = end + 1;
            continue;
        }
        const bool closing = next == '/';
        const std::size_t name_start = at + (closing ? 2 : 1);
        if (name_start >= n || !text::is_ascii_letter(html[name_start])) {
            if (closing && name_start < n && html[name_start] != '>') {
                // "</" + non-letter: a bogus comment up to '>'.
                const std::size_t end = html.find('>', name_start);
                if (end == npos) {
                    break;
                }
                ++estimate.comments;
                at = end + 1;
            } else {
                at += 1;  // a '<' that starts no tag is text
            }
            continue;
        }
        std::size_t name_end = name_start;
        while (name_end < n && !text::is_html_space(html[name_end]) && html[name_end] != '/' && html[name_end] != '>') {
            ++name_end;
        }
        const std::string_view name = html.substr(name_start, name_end - name_start);
        const auto named = [&](std::string_view lowercase) {
            return name.size() == lowercase.size() && equals_lower(name, 0, lowercase);
        };
        const bool is_script = !closing && named("script");
        const TagScan tag = scan_tag(html, name_end, is_script);
        if (tag.end == npos) {
            break;  // the input ends inside the tag
        }
        at = tag.end + 1;
        estimate.max_attributes = std::max(estimate.max_attributes, tag.attributes);
        estimate.attributes += closing ? 0 : tag.attributes;
        const bool adds_depth = std::none_of(std::begin(kAddNoDepth), std::end(kAddNoDepth), named);
        if (closing) {
            depth -= adds_depth && depth > 0 ? 1 : 0;
        } else {
            ++estimate.elements;
            if (adds_depth && !tag.self_closing) {
                estimate.max_depth = std::max(estimate.max_depth, ++depth);
            }
        }
        if (named("svg") || named("math")) {
            if (closing && foreign_depth > 0) {
                --foreign_depth;
            } else if (!closing && !tag.self_closing) {
                ++foreign_depth;
            }
            continue;
        }
        if (closing || (tag.self_closing && foreign_depth > 0)) {
            continue;
        }
        if (is_script) {
            const std::size_t end = script_end(html, at);
            if (!tag.json_ld && end != at) {
                cut(at, end == npos ? n : end);
            }
            if (end == npos) {
                break;
            }
            at = end;
        } else if (named("style")) {
            const std::size_t end = rawtext_end(html, at, "style");
            if (end != at) {
                cut(at, end == npos ? n : end);
            }
            if (end == npos) {
                break;
            }
            at = end;
        } else if (named("plaintext")) {
            break;  // the rest of the input is text
        } else {
            for (const std::string_view skipped : kSkippedRawText) {
                if (named(skipped)) {
                    const std::size_t end = rawtext_end(html, at, skipped);
                    at = end == npos ? n : end;
                    break;
                }
            }
        }
    }
    return estimate;
}

}  // namespace

MarkupScan scan_markup(std::string_view html) {
    MarkupScan result;
    result.estimate = scan(html, &result.discardable);
    return result;
}

MarkupEstimate estimate_markup(std::string_view html) noexcept {
    return scan(html, nullptr);
}

std::string_view without_discardable_raw_text(std::string_view html, std::string& storage) {
    return without_ranges(html, scan_markup(html).discardable, storage);
}

std::string_view without_ranges(std::string_view html, const std::vector<TextRange>& ranges, std::string& storage) {
    if (ranges.empty()) {
        return html;
    }
    std::size_t cut = 0;
    for (const TextRange& r : ranges) {
        cut += r.end - r.begin;
    }
    constexpr std::size_t kMarkerBytes = 48;  // "/*pith-cut:N:L:T*/" with 64-bit numbers, roughly
    storage.clear();
    storage.reserve(html.size() - cut + ranges.size() * kMarkerBytes);
    std::size_t kept_from = 0;
    for (const TextRange& r : ranges) {
        storage.append(html.substr(kept_from, r.begin - kept_from));
        storage.append(cut_marker(measure_cut(html.substr(r.begin, r.end - r.begin))));
        kept_from = r.end;
    }
    storage.append(html.substr(kept_from));
    return storage;
}

namespace {

constexpr std::string_view kMarkerPrefix = "/*pith-cut:";
constexpr std::string_view kMarkerSuffix = "*/";

// UTF-16 units of the code point starting at s[pos] (a lead byte).
std::size_t utf16_units(char lead) noexcept {
    return (static_cast<unsigned char>(lead) & 0xF8U) == 0xF0U ? 2 : 1;
}

}  // namespace

CutText measure_cut(std::string_view text, bool as_parsed) noexcept {
    // The parser turns "\r\n" into one "\n": a "\n" after "\r" counts nothing.
    CutText cut;
    std::size_t length = 0;
    bool in_leading = true;
    std::size_t since_non_space = 0;
    std::size_t pos = 0;
    char previous = '\0';
    while (pos < text.size()) {
        // Script text is mostly ASCII without carriage returns: past its
        // leading white space, eight such bytes are eight units at once.
        text::AsciiBlock block;
        if (!in_leading && previous != '\r' && text::ascii_block(text, pos, block) &&
            text::bytes_between(block, '\r', '\r') == 0) {
            length += 8;
            if (block.content != 0) {
                const auto last_content = static_cast<std::size_t>(63 - std::countl_zero(block.content)) / 8;
                since_non_space = 7 - last_content;
            } else {
                since_non_space += 8;
            }
            previous = text[pos + 7];
            pos += 8;
            continue;
        }
        const char lead = text[pos];
        std::size_t units = 1;
        bool space;
        if (static_cast<unsigned char>(lead) < 0x80U) {  // most script text is ASCII
            ++pos;
            space = lead == ' ' || (lead >= '\t' && lead <= '\r');
            if (lead == '\n' && previous == '\r' && !as_parsed) {
                units = 0;
            }
        } else {
            units = utf16_units(lead);
            space = text::is_js_space(text::next_code_point(text, pos));
        }
        previous = lead;
        length += units;
        if (space) {
            since_non_space += units;
            if (in_leading) {
                cut.leading_space += units;
            }
        } else {
            in_leading = false;
            since_non_space = 0;
        }
    }
    cut.length = length;
    cut.trailing_space = since_non_space;
    return cut;
}

std::string cut_marker(const CutText& cut) {
    return std::string(kMarkerPrefix) + std::to_string(cut.length) + ":" + std::to_string(cut.leading_space) + ":" +
           std::to_string(cut.trailing_space) + std::string(kMarkerSuffix);
}

std::optional<CutText> read_cut_marker(std::string_view text) noexcept {
    if (!text.starts_with(kMarkerPrefix) || !text.ends_with(kMarkerSuffix)) {
        return std::nullopt;
    }
    text = text.substr(kMarkerPrefix.size(), text.size() - kMarkerPrefix.size() - kMarkerSuffix.size());
    std::size_t values[3] = {};
    for (std::size_t i = 0; i < 3; ++i) {
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), values[i]);
        if (ec != std::errc{}) {
            return std::nullopt;
        }
        text.remove_prefix(static_cast<std::size_t>(ptr - text.data()));
        if (i < 2) {
            if (text.empty() || text.front() != ':') {
                return std::nullopt;
            }
            text.remove_prefix(1);
        }
    }
    if (!text.empty()) {
        return std::nullopt;
    }
    return CutText{values[0], values[1], values[2]};
}

std::size_t trimmed_text_length(const Node* node) noexcept {
    // The text is the concatenation of pieces; trimming it removes the white
    // space run at each end, which may span several pieces.
    std::size_t total = 0;
    std::size_t leading = 0;    // white space before the first non-space
    std::size_t trailing = 0;   // white space after the last non-space
    bool seen_non_space = false;
    for (const Node* n = node; n != nullptr; n = next_node(n, node)) {
        if (n->kind != NodeKind::text) {
            continue;
        }
        CutText piece;
        const Node* parent = n->parent;
        // By name: an <svg><style> is cut too, and its Tag is `other`.
        const bool raw = parent != nullptr && parent->kind == NodeKind::element &&
                         (parent->name == "script" || parent->name == "style");
        if (const std::optional<CutText> marker = raw ? read_cut_marker(n->data) : std::nullopt) {
            piece = *marker;
        } else {
            piece = measure_cut(n->data, /*as_parsed=*/true);
        }
        total += piece.length;
        const bool all_space = piece.leading_space == piece.length;
        if (!seen_non_space) {
            leading += all_space ? piece.length : piece.leading_space;
        }
        if (all_space) {
            trailing += piece.length;
        } else {
            seen_non_space = true;
            trailing = piece.trailing_space;
        }
    }
    return seen_non_space ? total - leading - trailing : 0;
}

}  // namespace pith::dom
