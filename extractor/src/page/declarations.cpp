#include "page/declarations.hpp"

#include <string_view>

#include "text/text.hpp"

namespace pith::extract {

namespace {

using dom::Node;
using dom::Tag;

// Each string after a "@type" key: `"@type": "Product"` or `"@type": ["A", "B"]`.
void scan_types(std::string_view json, std::vector<std::string>& out) {
    constexpr std::size_t kMaxTypes = 64;  // a page's JSON-LD names a few; a hostile one may repeat it
    std::size_t pos = 0;
    while (out.size() < kMaxTypes && (pos = json.find("\"@type\"", pos)) != std::string_view::npos) {
        pos += 7;
        while (pos < json.size() && (json[pos] == ' ' || json[pos] == '\t' || json[pos] == '\n' || json[pos] == '\r')) {
            ++pos;
        }
        if (pos >= json.size() || json[pos] != ':') {
            continue;
        }
        ++pos;
        const std::size_t end = json.find_first_of(",}", pos);
        const std::size_t close = json.find(']', pos);
        const bool list = json.find('[', pos) < std::min(end, json.size()) && close != std::string_view::npos;
        const std::string_view value = json.substr(pos, (list ? close : std::min(end, json.size())) - pos);
        for (std::size_t q = value.find('"'); q != std::string_view::npos && out.size() < kMaxTypes;) {
            const std::size_t q2 = value.find('"', q + 1);
            if (q2 == std::string_view::npos) {
                break;
            }
            std::string type = text::to_lower_ascii(value.substr(q + 1, q2 - q - 1));
            if (const std::size_t slash = type.rfind('/'); slash != std::string::npos) {
                type.erase(0, slash + 1);  // "http://schema.org/Product" is "product"
            }
            if (!type.empty()) {
                out.push_back(std::move(type));
            }
            q = value.find('"', q2 + 1);
        }
        pos += value.size();
    }
}

bool has_rel(std::string_view rel, std::string_view token) {
    std::size_t pos = 0;
    while (pos < rel.size()) {
        while (pos < rel.size() && rel[pos] == ' ') {
            ++pos;
        }
        const std::size_t end = std::min(rel.find(' ', pos), rel.size());
        if (text::iequals_ascii(rel.substr(pos, end - pos), token)) {
            return true;
        }
        pos = end;
    }
    return false;
}

}  // namespace

PageDeclarations read_declarations(const dom::Document& doc) {
    PageDeclarations out;
    std::string og_url;
    const Node* root = doc.root();
    for (const Node* n = dom::next_element(root, root); n != nullptr; n = dom::next_element(n, root)) {
        if (n->is(Tag::script)) {
            if (text::iequals_ascii(text::trim(n->attr("type")), "application/ld+json")) {
                for (const Node* t = n->first_child; t != nullptr; t = t->next) {
                    if (t->is_text()) {
                        scan_types(t->data, out.json_ld_types);
                    }
                }
            }
        } else if (n->is(Tag::meta)) {
            const std::string_view property = n->attr("property");
            if (text::iequals_ascii(property, "og:type") && out.og_type.empty()) {
                out.og_type = text::to_lower_ascii(text::trim(n->attr("content")));
            } else if (text::iequals_ascii(property, "og:url") && og_url.empty()) {
                og_url = std::string(text::trim(n->attr("content")));
            }
        } else if (n->is(Tag::link) && out.canonical_url.empty() && has_rel(n->attr("rel"), "canonical")) {
            out.canonical_url = std::string(text::trim(n->attr("href")));
        }
    }
    if (out.canonical_url.empty()) {
        out.canonical_url = std::move(og_url);
    }
    return out;
}

}  // namespace pith::extract
