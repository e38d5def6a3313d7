// Readability.js's _postProcessContent: absolute URLs (honouring <base href>),
// javascript: links unwrapped, redundant wrappers collapsed, classes stripped.
#include <algorithm>
#include <vector>

#include "page/predicates.hpp"
#include "page/prep.hpp"
#include "pith/url.hpp"
#include "text/text.hpp"

namespace pith::extract {

using dom::Node;
using dom::NodeKind;
using dom::Tag;

std::string document_base_url(const dom::Document& doc, std::string_view document_url) {
    for (const Node* n = doc.root(); n != nullptr; n = dom::next_element(n, doc.root())) {
        if (n->is(Tag::base) && n->has_attr("href")) {
            if (auto resolved = url::resolve(n->attr("href"), document_url)) {
                return *resolved;
            }
            break;
        }
    }
    return std::string(document_url);
}

namespace {

class UriFixer {
public:
    UriFixer(std::string_view base_url, std::string_view document_url)
        : base_(base_url), keep_fragments_(base_url == document_url) {}

    // toAbsoluteURI: in-page anchors stay relative unless a <base> moves them.
    [[nodiscard]] std::string absolute(std::string_view uri) const {
        if (keep_fragments_ && !uri.empty() && uri.front() == '#') {
            return std::string(uri);
        }
        if (auto resolved = url::resolve(uri, base_)) {
            return *resolved;
        }
        return std::string(uri);
    }

    // srcset: each "url [descriptor]" candidate gets its URL absolutised, keeping
    // Readability's /(\S+)(\s+[\d.]+[xw])?(\s*(?:,|$))/g reading of the list.
    [[nodiscard]] std::string absolute_srcset(std::string_view srcset) const {
        std::string out;
        std::size_t pos = 0;
        while (pos < srcset.size()) {
            if (is_space(srcset[pos])) {
                out.push_back(srcset[pos++]);
                continue;
            }
            std::size_t run_end = pos;
            while (run_end < srcset.size() && !is_space(srcset[run_end])) {
                ++run_end;
            }
            // Backtrack the greedy \S+ until the rest of the pattern matches.
            bool matched = false;
            for (std::size_t url_end = run_end; url_end > pos && !matched; --url_end) {
                std::size_t descriptor_end = url_end;
                const std::size_t after = match_descriptor(srcset, url_end);
                if (after != url_end) {
                    if (const std::size_t sep_end = match_separator(srcset, after); sep_end != std::string_view::npos) {
                        descriptor_end = after;
                        out += absolute(srcset.substr(pos, url_end - pos));
                        out.append(srcset.substr(url_end, descriptor_end - url_end));
                        out.append(srcset.substr(descriptor_end, sep_end - descriptor_end));
                        pos = sep_end;
                        matched = true;
                        break;
                    }
                }
                if (const std::size_t sep_end = match_separator(srcset, url_end); sep_end != std::string_view::npos) {
                    out += absolute(srcset.substr(pos, url_end - pos));
                    out.append(srcset.substr(url_end, sep_end - url_end));
                    pos = sep_end;
                    matched = true;
                }
            }
            if (!matched) {
                out.push_back(srcset[pos++]);
            }
        }
        return out;
    }

private:
    static bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

    // \s+[\d.]+[xw] at pos: returns the end, or pos when it does not match.
    static std::size_t match_descriptor(std::string_view s, std::size_t pos) {
        std::size_t i = pos;
        while (i < s.size() && is_space(s[i])) {
            ++i;
        }
        if (i == pos) {
            return pos;
        }
        const std::size_t digits = i;
        while (i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.')) {
            ++i;
        }
        if (i == digits || i >= s.size() || (s[i] != 'x' && s[i] != 'w')) {
            return pos;
        }
        return i + 1;
    }

    // \s*(?:,|$) at pos: returns the end, or npos.
    static std::size_t match_separator(std::string_view s, std::size_t pos) {
        std::size_t i = pos;
        while (i < s.size() && is_space(s[i])) {
            ++i;
        }
        if (i == s.size()) {
            return i;
        }
        return s[i] == ',' ? i + 1 : std::string_view::npos;
    }

    std::string base_;
    bool keep_fragments_;
};

void fix_relative_uris(dom::Document& doc, Node* content, std::string_view base_url, std::string_view document_url) {
    const UriFixer fixer(base_url, document_url);
    for (Node* link : elements_by_tag(content, Tag::a)) {
        const std::string_view href = link->attr("href");
        if (href.empty() || link->parent == nullptr) {
            continue;
        }
        if (href.substr(0, 11) == "javascript:") {
            // A javascript: link goes nowhere; keep its text.
            if (link->first_child != nullptr && link->first_child == link->last_child && link->first_child->is_text()) {
                dom::replace(link, doc.create_text(dom::text_content(link)));
            } else {
                Node* span = doc.create_element(Tag::span);
                dom::move_children(link, span);
                dom::replace(link, span);
            }
            continue;
        }
        doc.set_attr(link, "href", fixer.absolute(href));
    }
    for (Node* n = content->first_child; n != nullptr; n = dom::next_node(n, content)) {
        if (!(n->is(Tag::img) || n->is(Tag::picture) || n->is(Tag::figure) || n->is(Tag::video) ||
              n->is(Tag::audio) || n->is(Tag::source))) {
            continue;
        }
        for (std::string_view attr : {std::string_view("src"), std::string_view("poster")}) {
            if (const std::string_view v = n->attr(attr); !v.empty()) {
                doc.set_attr(n, attr, fixer.absolute(v));
            }
        }
        if (const std::string_view srcset = n->attr("srcset"); !srcset.empty()) {
            doc.set_attr(n, "srcset", fixer.absolute_srcset(srcset));
        }
    }
}

// Whether `node` has a text child that is not blank.
bool has_own_text(const Node* node) noexcept {
    for (const Node* c = node->first_child; c != nullptr; c = c->next) {
        if (c->kind == dom::NodeKind::text && !text::is_blank(c->data)) {
            return true;
        }
    }
    return false;
}

void simplify_nested_elements(dom::Document& doc, Node* content, WrapperText wrapper_text) {
    Node* node = content;
    while (node != nullptr) {
        if (node->parent != nullptr && (node->is(Tag::div) || node->is(Tag::section)) &&
            node->attr("id").substr(0, 11) != "readability") {
            if (is_element_without_content(node)) {
                node = remove_and_get_next(node);
                continue;
            }
            if ((has_single_tag_inside(node, Tag::div) || has_single_tag_inside(node, Tag::section)) &&
                (wrapper_text == WrapperText::ending_in_non_space || !has_own_text(node))) {
                Node* child = node->first_element_child();
                for (std::uint32_t i = 0; i < node->attr_count; ++i) {
                    doc.set_attr(child, node->attrs[i].name, node->attrs[i].value);
                }
                dom::replace(node, child);
                node = child;
                continue;
            }
        }
        node = next_in_document(node);
    }
}

void clean_classes(dom::Document& doc, Node* content, const std::vector<std::string>& extra_preserved) {
    for (Node* n = content; n != nullptr; n = dom::next_element(n, content)) {
        const dom::Attribute* cls = n->find_attr("class");
        if (cls == nullptr) {
            continue;
        }
        std::string kept;
        const std::string_view value = cls->value;
        std::size_t pos = 0;
        while (pos < value.size()) {
            while (pos < value.size() && text::is_js_space(static_cast<unsigned char>(value[pos]))) {
                ++pos;
            }
            std::size_t end = pos;
            while (end < value.size() && !text::is_js_space(static_cast<unsigned char>(value[end]))) {
                ++end;
            }
            const std::string_view token = value.substr(pos, end - pos);
            // Source: Readability.js CLASSES_TO_PRESERVE.
            if (!token.empty() && (token == "page" || std::find(extra_preserved.begin(), extra_preserved.end(),
                                                                token) != extra_preserved.end())) {
                if (!kept.empty()) {
                    kept.push_back(' ');
                }
                kept.append(token);
            }
            pos = end;
        }
        if (kept.empty()) {
            doc.remove_attr(n, "class");
        } else {
            doc.set_attr(n, "class", kept);
        }
    }
}

}  // namespace

void post_process(dom::Document& doc, Node* content, const RenderOptions& render, std::string_view document_url,
                  std::string_view base_url, WrapperText wrapper_text) {
    fix_relative_uris(doc, content, base_url, document_url);
    simplify_nested_elements(doc, content, wrapper_text);
    if (!render.keep_classes) {
        clean_classes(doc, content, render.classes_to_preserve);
    }
}

}  // namespace pith::extract
