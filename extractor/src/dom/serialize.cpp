// HTML5 fragment serialisation (the HTML standard's "serializing HTML
// fragments" algorithm, as element.innerHTML gives it), iteratively.
#include "pith/dom.hpp"

namespace pith::dom {

namespace {

bool is_void(const Node* n) {
    if (n->ns != Namespace::html) {
        return false;
    }
    switch (n->tag) {
    case Tag::area: case Tag::base: case Tag::basefont: case Tag::bgsound: case Tag::br:
    case Tag::col: case Tag::embed: case Tag::frame: case Tag::hr: case Tag::img:
    case Tag::input: case Tag::keygen: case Tag::link: case Tag::meta: case Tag::param:
    case Tag::source: case Tag::track: case Tag::wbr:
        return true;
    default:
        return false;
    }
}

// Text inside these is written as is (scripting is off, so noscript is escaped).
bool is_raw_text_parent(const Node* n) {
    if (n == nullptr || n->kind != NodeKind::element || n->ns != Namespace::html) {
        return false;
    }
    switch (n->tag) {
    case Tag::style: case Tag::script: case Tag::xmp: case Tag::iframe: case Tag::noembed:
    case Tag::noframes: case Tag::plaintext:
        return true;
    default:
        return false;
    }
}

void append_escaped(std::string& out, std::string_view s, bool attribute_mode) {
    std::size_t run_start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        std::string_view replacement;
        const char c = s[i];
        if (c == '&') {
            replacement = "&amp;";
        } else if (c == '\xC2' && i + 1 < s.size() && s[i + 1] == '\xA0') {
            replacement = "&nbsp;";
        } else if (attribute_mode && c == '"') {
            replacement = "&quot;";
        } else if (!attribute_mode && c == '<') {
            replacement = "&lt;";
        } else if (!attribute_mode && c == '>') {
            replacement = "&gt;";
        } else {
            continue;
        }
        out.append(s.substr(run_start, i - run_start));
        out.append(replacement);
        if (c == '\xC2') {
            ++i;  // consumed both bytes of U+00A0
        }
        run_start = i + 1;
    }
    out.append(s.substr(run_start));
}

void append_start(const Node* n, std::string& out) {
    switch (n->kind) {
    case NodeKind::element:
        out.push_back('<');
        out.append(n->name);
        for (std::uint32_t i = 0; i < n->attr_count; ++i) {
            out.push_back(' ');
            out.append(n->attrs[i].name);
            out.append("=\"");
            append_escaped(out, n->attrs[i].value, true);
            out.push_back('"');
        }
        out.push_back('>');
        break;
    case NodeKind::text:
        if (is_raw_text_parent(n->parent)) {
            out.append(n->data);
        } else {
            append_escaped(out, n->data, false);
        }
        break;
    case NodeKind::comment:
        out.append("<!--");
        out.append(n->data);
        out.append("-->");
        break;
    case NodeKind::doctype:
        out.append("<!DOCTYPE ");
        out.append(n->name);
        out.push_back('>');
        break;
    case NodeKind::document:
        break;
    }
}

void append_end(const Node* n, std::string& out) {
    if (n->kind == NodeKind::element && !is_void(n)) {
        out.append("</");
        out.append(n->name);
        out.push_back('>');
    }
}

// Serialises the children of `scope` (and `scope` itself when include_self).
void serialize(const Node* scope, bool include_self, std::string& out) {
    if (include_self) {
        append_start(scope, out);
        if (is_void(scope)) {
            return;
        }
    }
    const Node* n = scope->first_child;
    while (n != nullptr) {
        append_start(n, out);
        if (n->first_child != nullptr && !is_void(n)) {
            n = n->first_child;
            continue;
        }
        append_end(n, out);
        while (n != scope && n->next == nullptr) {
            n = n->parent;
            if (n != scope) {
                append_end(n, out);
            }
        }
        if (n == scope) {
            break;
        }
        n = n->next;
    }
    if (include_self) {
        append_end(scope, out);
    }
}

}  // namespace

// A close upper estimate of the serialised size, so the output grows at most once.
std::size_t estimate_html_bytes(const Node* scope) {
    std::size_t bytes = 0;
    for (const Node* n = scope; n != nullptr; n = next_node(n, scope)) {
        bytes += n->data.size() + n->name.size() * 2 + 5;
        for (std::uint32_t i = 0; i < n->attr_count; ++i) {
            bytes += n->attrs[i].name.size() + n->attrs[i].value.size() + 4;
        }
    }
    return bytes + bytes / 16;  // room for escapes
}

std::string inner_html(const Node* node) {
    std::string out;
    out.reserve(estimate_html_bytes(node));
    serialize(node, false, out);
    return out;
}

std::string outer_html(const Node* node) {
    std::string out;
    serialize(node, true, out);
    return out;
}

void append_outer_html(const Node* node, std::string& out) {
    serialize(node, true, out);
}

}  // namespace pith::dom
