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
// gumbo's tokenizer decodes it inside an RCDATA element; nullopt for a name
// HTML does not define.
std::optional<std::string> named_reference(std::string_view reference) {
    const std::string markup = "<textarea>" + std::string(reference) + "</textarea>";
    GumboOutput* output = gumbo_parse(markup.c_str());
    std::optional<std::string> decoded;
    const GumboVector* stack = &output->root->v.element.children;  // html > head, body > textarea > text
    for (int depth = 0; depth < 3 && stack->length > 0; ++depth) {
        const auto* last = static_cast<const GumboNode*>(stack->data[stack->length - 1]);
        if (last->type != GUMBO_NODE_ELEMENT) {
            break;
        }
        stack = &last->v.element.children;
        if (last->v.element.tag == GUMBO_TAG_TEXTAREA && stack->length == 1) {
            const auto* text = static_cast<const GumboNode*>(stack->data[0]);
            // A legacy name decodes before a semicolon too ("&notaname;" gives
            // "¬aname;"): only a reference decoded whole, to a character or two,
            // none of them a letter or a digit, counts.
            const std::string_view value = text->type == GUMBO_NODE_TEXT ? text->v.text.text : "";
            const bool whole = !value.empty() && value.size() <= 8 &&
                               std::none_of(value.begin(), value.end(), [](char c) {
                                   return std::isalnum(static_cast<unsigned char>(c)) != 0;
                               });
            if (whole) {
                decoded = std::string(value);
            }
            break;
        }
    }
    gumbo_destroy_output(&kGumboDefaultOptions, output);
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
        const std::string reference = text.substr(amp, end + 1 - amp);
        auto known = decoded_names.find(reference);
        if (known == decoded_names.end()) {
            known = decoded_names.emplace(reference, named_reference(reference)).first;
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
