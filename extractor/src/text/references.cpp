#include "text/references.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <string_view>

#include <gumbo.h>

namespace pith::text {
namespace {

// The character a complete named reference stands for ("&reg;" -> "®"), as
// gumbo's tokenizer decodes it in a textarea (RCDATA: references are read,
// tags are not); nullopt for a name HTML does not define.
std::optional<std::string> named_reference(std::string_view reference) {
    GumboOptions options = kGumboDefaultOptions;
    options.fragment_context = GUMBO_TAG_TEXTAREA;
    options.fragment_namespace = GUMBO_NAMESPACE_HTML;
    GumboOutput* output = gumbo_parse_with_options(&options, reference.data(), reference.size());
    const GumboVector& nodes = output->root->v.element.children;
    std::optional<std::string> decoded;
    if (nodes.length == 1) {
        const auto* node = static_cast<const GumboNode*>(nodes.data[0]);
        // A legacy name decodes before a semicolon too ("&notaname;" gives
        // "¬aname;"): only a reference decoded whole, to a character or two,
        // none of them a letter or a digit, counts.
        const std::string_view value = node->type == GUMBO_NODE_TEXT ? node->v.text.text : "";
        const bool whole = !value.empty() && value.size() <= 8 && std::none_of(value.begin(), value.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) != 0;
        });
        if (whole) {
            decoded = std::string(value);
        }
    }
    gumbo_destroy_output(&options, output);
    return decoded;
}

}  // namespace

void decode_named_references(std::string& text) {
    std::map<std::string, std::optional<std::string>, std::less<>> decoded_names;
    std::string out;
    std::size_t copied = 0;
    for (std::size_t amp = text.find('&'); amp != std::string::npos; amp = text.find('&', amp + 1)) {
        std::size_t end = amp + 1;
        while (end < text.size() && end - amp <= 32 && std::isalnum(static_cast<unsigned char>(text[end]))) {
            ++end;
        }
        if (end == amp + 1 || end >= text.size() || text[end] != ';' ||
            !std::isalpha(static_cast<unsigned char>(text[amp + 1]))) {
            continue;
        }
        // One parse per distinct name: a hostile 1 MB og:title of "&reg;" repeated parses once.
        const std::string_view reference = std::string_view(text).substr(amp, end + 1 - amp);
        auto known = decoded_names.find(reference);
        if (known == decoded_names.end()) {
            known = decoded_names.emplace(std::string(reference), named_reference(reference)).first;
        }
        if (const std::optional<std::string>& decoded = known->second) {
            out.append(text, copied, amp - copied).append(*decoded);
            copied = end + 1;
        }
    }
    if (copied > 0) {
        text = out.append(text, copied, std::string::npos);
    }
}

}  // namespace pith::text
