// The text of a node as Readability measures it, without building strings
// where only a length is needed.
#include "dom/inner_text.hpp"

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

std::size_t inner_text_length(const Node* node, bool normalize) {
    // Walks the text nodes once, tracking white space runs, so no string is built.
    std::size_t length = 0;       // units committed so far
    std::size_t pending_units = 0;  // white space run not yet known to be interior
    std::size_t pending_count = 0;
    bool seen_content = false;
    for (const Node* n = node; n != nullptr; n = next_node(n, node)) {
        if (!n->is_text()) {
            continue;
        }
        const std::string_view s = n->data;
        std::size_t pos = 0;
        while (pos < s.size()) {
            // Fast path: a run of printable ASCII is one unit per byte.
            const auto first = static_cast<unsigned char>(s[pos]);
            if (first > ' ' && first < 0x80) {
                if (seen_content && pending_count > 0) {
                    length += (normalize && pending_count >= 2) ? 1 : pending_units;
                }
                pending_units = 0;
                pending_count = 0;
                seen_content = true;
                std::size_t end = pos + 1;
                while (end < s.size()) {
                    const auto b = static_cast<unsigned char>(s[end]);
                    if (b <= ' ' || b >= 0x80) {
                        break;
                    }
                    ++end;
                }
                length += end - pos;
                pos = end;
                continue;
            }
            // ASCII white space, the common case, without the code point decoding.
            if (first == ' ' || (first >= 0x09 && first <= 0x0D)) {
                ++pending_units;
                ++pending_count;
                ++pos;
                continue;
            }
            const std::size_t w = first < 0x80 ? 0 : text::space_at(s, pos);
            if (w != 0) {
                pending_units += text::utf16_length(s.substr(pos, w));
                ++pending_count;
                pos += w;
                continue;
            }
            if (seen_content && pending_count > 0) {
                length += (normalize && pending_count >= 2) ? 1 : pending_units;
            }
            pending_units = 0;
            pending_count = 0;
            seen_content = true;
            const auto b = static_cast<unsigned char>(s[pos]);
            const std::size_t step = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
            length += step == 4 ? 2 : 1;
            pos += step;
        }
    }
    return length;
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

std::size_t ascii_comma_count(const Node* node) noexcept {
    std::size_t count = 0;
    for (const Node* n = node; n != nullptr; n = next_node(n, node)) {
        if (n->is_text()) {
            for (const char c : n->data) {
                count += static_cast<std::size_t>(c == ',');
            }
        }
    }
    return count;
}

}  // namespace pith::dom
