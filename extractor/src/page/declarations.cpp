#include "page/declarations.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string_view>

#include "metadata/json_ld.hpp"
#include "metadata/metadata.hpp"
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

bool is_product_type(std::string_view type) {
    return type == "product" || type == "productgroup";
}

bool declares_product(const nlohmann::json& object) {
    const auto type = object.find("@type");
    if (type == object.end()) {
        return false;
    }
    const auto named = [](const nlohmann::json& value) {
        if (!value.is_string()) {
            return false;
        }
        std::string name = text::to_lower_ascii(value.get_ref<const std::string&>());
        if (const std::size_t slash = name.rfind('/'); slash != std::string::npos) {
            name.erase(0, slash + 1);
        }
        return is_product_type(name);
    };
    return named(*type) || (type->is_array() && std::any_of(type->begin(), type->end(), named));
}

// Tags out, entities decoded, white space collapsed: descriptions are often
// written as HTML inside the JSON string.
std::string plain_text(std::string_view html) {
    std::string out;
    out.reserve(html.size());
    bool in_tag = false;
    for (const char c : html) {
        if (c == '<') {
            in_tag = true;
            out.push_back(' ');
        } else if (c == '>' && in_tag) {
            in_tag = false;
        } else if (!in_tag) {
            out.push_back(c);
        }
    }
    return std::string(text::trim(text::collapse_runs(unescape_html_entities(out))));
}

// The description of the first product the script declares, at its top, in
// an array or in an @graph; "" when none. The walk is iterative and bounded.
std::string product_description(std::string_view script) {
    constexpr std::size_t kMaxBytes = 16U * 1024U;  // a description, not a catalogue
    constexpr std::size_t kMaxVisits = 4096;
    const nlohmann::json parsed = nlohmann::json::parse(script.begin(), script.end(), nullptr, false);
    if (parsed.is_discarded()) {
        return {};
    }
    std::string found;
    find_json_ld_object(
        parsed,
        [&](const nlohmann::json& value) {
            if (!declares_product(value)) {
                return false;
            }
            const auto description = value.find("description");
            if (description != value.end() && description->is_string()) {
                const std::string& raw = description->get_ref<const std::string&>();
                found = plain_text(std::string_view(raw).substr(0, kMaxBytes));
            }
            return !found.empty();
        },
        kMaxVisits);
    return found;
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
                    if (!t->is_text()) {
                        continue;
                    }
                    const std::size_t known = out.json_ld_types.size();
                    scan_types(t->data, out.json_ld_types);
                    if (out.product_description.empty() &&
                        std::any_of(out.json_ld_types.begin() + static_cast<std::ptrdiff_t>(known),
                                    out.json_ld_types.end(), [](const std::string& type) { return is_product_type(type); })) {
                        out.product_description = product_description(t->data);
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
        } else if (n->is(Tag::link) && out.canonical_url.empty() &&
                   text::has_token_ascii_ci(n->attr("rel"), "canonical")) {
            out.canonical_url = std::string(text::trim(n->attr("href")));
        }
    }
    if (out.canonical_url.empty()) {
        out.canonical_url = std::move(og_url);
    }
    return out;
}

}  // namespace pith::extract
