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

// The character a complete reference stands for ("&reg;" -> "®", "&#x26;" ->
// "&"), as gumbo's tokenizer decodes it in a textarea (RCDATA: references are
// read, tags are not); nullopt for a name HTML does not define.
std::optional<std::string> decoded_reference(std::string_view reference) {
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
        // none of them a letter or a digit, counts. A numeric one is read to
        // its semicolon, so any character it gives ("&#65;", "A") is whole.
        const std::string_view value = node->type == GUMBO_NODE_TEXT ? node->v.text.text : "";
        const bool numeric = reference.size() > 1 && reference[1] == '#';
        const bool whole = !value.empty() && value.size() <= 8 &&
                           (numeric || std::none_of(value.begin(), value.end(), [](char c) {
                                return std::isalnum(static_cast<unsigned char>(c)) != 0;
                            }));
        if (whole) {
            decoded = std::string(value);
        }
    }
    gumbo_destroy_output(&options, output);
    return decoded;
}

// Where the reference that begins at `amp` ends (at its ';'), or npos when
// what follows the '&' is no complete reference: a name of letters and
// digits that begins with a letter, "#" and decimal digits, or "#x" and hex
// digits, each of at most 32 characters.
std::size_t reference_end(std::string_view text, std::size_t amp) {
    enum class Digits { name, decimal, hex } digits = Digits::name;
    std::size_t start = amp + 1;
    if (start < text.size() && text[start] == '#') {
        ++start;
        digits = Digits::decimal;
        if (start < text.size() && (text[start] == 'x' || text[start] == 'X')) {
            ++start;
            digits = Digits::hex;
        }
    } else if (start >= text.size() || std::isalpha(static_cast<unsigned char>(text[start])) == 0) {
        return std::string_view::npos;
    }
    const auto allowed = [digits](char c) {
        const auto b = static_cast<unsigned char>(c);
        switch (digits) {
        case Digits::decimal: return std::isdigit(b) != 0;
        case Digits::hex: return std::isxdigit(b) != 0;
        case Digits::name: break;
        }
        return std::isalnum(b) != 0;
    };
    std::size_t end = start;
    while (end < text.size() && end - amp <= 32 && allowed(text[end])) {
        ++end;
    }
    return end == start || end >= text.size() || text[end] != ';' ? std::string_view::npos : end;
}

}  // namespace

void decode_character_references(std::string& text) {
    std::map<std::string, std::optional<std::string>, std::less<>> decoded_names;
    std::string out;
    std::size_t copied = 0;
    for (std::size_t amp = text.find('&'); amp != std::string::npos; amp = text.find('&', amp + 1)) {
        const std::size_t end = reference_end(text, amp);
        if (end == std::string_view::npos) {
            continue;
        }
        // One parse per distinct reference: a hostile 1 MB og:title of "&reg;" repeated parses once.
        const std::string_view reference = std::string_view(text).substr(amp, end + 1 - amp);
        auto known = decoded_names.find(reference);
        if (known == decoded_names.end()) {
            known = decoded_names.emplace(std::string(reference), decoded_reference(reference)).first;
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
