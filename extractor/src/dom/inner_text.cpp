// The text of a node as Readability measures it, without building strings
// where only a length is needed.
#include "dom/inner_text.hpp"

#include <algorithm>
#include <cstdint>

#include "text/ascii_block.hpp"
#include "text/text.hpp"

namespace pith::dom {

std::string inner_text(const Node* node, bool normalize) {
    const std::string content = text_content(node);
    const std::string_view trimmed = text::trim(content);
    if (normalize) {
        return text::collapse_runs(trimmed);
    }
    return std::string(trimmed);
}

namespace {

// A measure of text being read: its length so far as inner_text_length counts
// it, the white space since its last character, and whether it has one.
struct TextMeasure {
    std::size_t length = 0;
    std::size_t pending = 0;  // white space since the last character
    bool seen = false;        // a character other than white space was counted
};

// The bytes of the white space code point at s[pos], 0 for none.
std::size_t space_width(std::string_view s, std::size_t pos) noexcept {
    const auto b = static_cast<unsigned char>(s[pos]);
    return b < 0x80 ? static_cast<std::size_t>(b == ' ' || (b >= 0x09 && b <= 0x0D)) : text::space_at(s, pos);
}

// Reads `s` on from `m`: a run of white space between two characters counts
// one (normalized) or its length (every white space code point is one UTF-16
// unit), and none is counted before the first character or after the last.
void measure_text(std::string_view s, bool normalize, TextMeasure& m) noexcept {
    std::size_t pos = 0;
    while (pos < s.size()) {
        text::AsciiBlock block;
        if (normalize && m.seen && text::ascii_block(s, pos, block)) {  // eight ASCII bytes at once
            bool after_space = m.pending != 0;
            m.length += text::collapsed_units(block, after_space);
            m.pending = after_space ? 1 : 0;
            pos += 8;
            continue;
        }
        const std::size_t w = space_width(s, pos);
        if (w != 0) {
            ++m.pending;
            pos += w;
            continue;
        }
        if (m.seen) {
            m.length += normalize ? std::min<std::size_t>(m.pending, 1) : m.pending;
        }
        m.pending = 0;
        m.seen = true;
        const auto b = static_cast<unsigned char>(s[pos]);
        const std::size_t step = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
        m.length += step == 4 ? 2 : 1;
        pos += step;
    }
}

}  // namespace

TextSpan span_of(std::string_view s) noexcept {
    TextMeasure m;
    measure_text(s, true, m);
    // Unseen, any white space at all both leads and trails.
    const bool leading = m.seen ? !s.empty() && space_width(s, 0) != 0 : m.pending != 0;
    return TextSpan{m.length, m.seen, leading, m.seen && m.pending != 0};
}

// `a` followed by `b`: a run of white space between their characters counts one.
TextSpan joined(const TextSpan& a, const TextSpan& b) noexcept {
    if (!a.seen) {
        return TextSpan{b.length, b.seen, a.leading || b.leading, b.seen ? b.trailing : a.leading || b.leading};
    }
    if (!b.seen) {
        return TextSpan{a.length, true, a.leading, a.trailing || b.leading};
    }
    return TextSpan{a.length + b.length + ((a.trailing || b.leading) ? 1 : 0), true, a.leading, b.trailing};
}

std::size_t inner_text_length(const Node* node, bool normalize) {
    // Walks the text nodes once, tracking white space runs, so no string is built.
    TextMeasure m;
    for (const Node* n = node; n != nullptr; n = next_node(n, node)) {
        if (n->is_text()) {
            measure_text(n->data, normalize, m);
        }
    }
    return m.length;
}

namespace {

// The characters of `s` that are not white space, in UTF-16 units, or in
// code points when `astral_units` is 1.
std::size_t content_length(std::string_view s, std::size_t astral_units = 2) noexcept {
    std::size_t units = 0;
    for (std::size_t pos = 0; pos < s.size();) {
        const auto b = static_cast<unsigned char>(s[pos]);
        if (b < 0x80) {
            units += static_cast<std::size_t>(!(b == ' ' || (b >= 0x09 && b <= 0x0D)));
            ++pos;
            continue;
        }
        if (const std::size_t w = text::space_at(s, pos); w != 0) {
            pos += w;
            continue;
        }
        const std::size_t step = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
        units += step == 4 ? astral_units : 1;
        pos += step;
    }
    return units;
}

}  // namespace

bool has_text(const Node* node) noexcept {
    for (const Node* n = node; n != nullptr; n = next_node(n, node)) {
        if (n->is_text() && !text::is_blank(n->data)) {
            return true;
        }
    }
    return false;
}

bool inner_text_longer_than(const Node* node, std::size_t limit) {
    std::size_t content = 0;
    for (const Node* n = node; n != nullptr; n = next_node(n, node)) {
        if (n->is_text()) {
            content += content_length(n->data);
            if (content > limit) {
                return true;  // white space only adds to the length
            }
        }
    }
    return inner_text_length(node) > limit;
}

std::string inner_text_prefix(const Node* node, std::size_t code_points) {
    // Once the text read holds more than `code_points` characters that are
    // not white space, the prefix ends before the last of them, and every run
    // of white space in it is whole: collapsing what was read gives the
    // prefix the whole text would give.
    std::string content;
    std::size_t characters = 0;
    for (const Node* n = node; n != nullptr && characters <= code_points; n = next_node(n, node)) {
        if (n->is_text()) {
            content.append(n->data);
            characters += content_length(n->data, 1);
        }
    }
    const std::string words = text::collapse_runs(text::trim(content));
    std::size_t end = 0;
    for (std::size_t n = 0; n < code_points && end < words.size(); ++n) {
        (void)text::next_code_point(words, end);
    }
    return words.substr(0, end);
}

std::string text_lines(const Node* node) {
    std::string out;
    const Node* last_text_parent = nullptr;
    bool element_between = false;  // an element began since the last text
    bool line_break = false;       // a <br> since the last text
    bool ends_in_space = false;    // `out` ends in white space
    for (const Node* n = node; n != nullptr; n = next_node(n, node)) {
        if (n->is_element()) {
            element_between = true;
            line_break = line_break || n->is(Tag::br);
            continue;
        }
        if (!n->is_text() || n->data.empty()) {
            continue;
        }
        const bool boundary = element_between || n->parent != last_text_parent;
        const bool glued = !out.empty() && !ends_in_space && text::space_at(n->data, 0) == 0;
        if (!out.empty() && (line_break || (boundary && glued))) {
            out.push_back('\n');
        }
        out.append(n->data);
        const std::string_view trimmed = text::trim(n->data);
        ends_in_space = trimmed.empty() || trimmed.data() + trimmed.size() != n->data.data() + n->data.size();
        last_text_parent = n->parent;
        element_between = false;
        line_break = false;
    }
    return out;
}

std::size_t text_content_length(const Node* node, std::size_t cap) noexcept {
    std::size_t length = 0;
    for (const Node* n = node; n != nullptr; n = next_node(n, node)) {
        if (n->is_text()) {
            length += text::utf16_length(n->data);
            if (length > cap) {
                return length;
            }
        }
    }
    return length;
}

}  // namespace pith::dom
