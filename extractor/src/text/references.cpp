#include "text/references.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string_view>

#include <gumbo.h>

#include "text/text.hpp"

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

// Where the named reference that begins at `amp` ends (at its ';'), or npos:
// a letter, then letters and digits, at most 32 characters in all.
std::size_t named_reference_end(std::string_view text, std::size_t amp) {
    std::size_t end = amp + 1;
    while (end < text.size() && end - amp <= 32 && std::isalnum(static_cast<unsigned char>(text[end]))) {
        ++end;
    }
    if (end == amp + 1 || end >= text.size() || text[end] != ';' ||
        !std::isalpha(static_cast<unsigned char>(text[amp + 1]))) {
        return std::string_view::npos;
    }
    return end;
}

}  // namespace

std::optional<char32_t> numeric_reference_at(std::string_view text, std::size_t amp, std::size_t& end) {
    if (amp + 1 >= text.size() || text[amp] != '&' || text[amp + 1] != '#') {
        return std::nullopt;
    }
    constexpr std::uint32_t kTooLarge = 0x110000;  // saturate: anything above is invalid anyway
    std::size_t j = amp + 2;
    const bool hex = j < text.size() && (text[j] == 'x' || text[j] == 'X');
    j += hex ? 1 : 0;
    const std::size_t digits_start = j;
    std::uint32_t value = 0;
    for (; j < text.size(); ++j) {
        const auto c = static_cast<unsigned char>(text[j]);
        int digit = -1;
        if (c >= '0' && c <= '9') {
            digit = c - '0';
        } else if (hex && std::isxdigit(c) != 0) {
            digit = std::tolower(c) - 'a' + 10;
        }
        if (digit < 0) {
            break;
        }
        value = std::min(kTooLarge, value * (hex ? 16U : 10U) + static_cast<std::uint32_t>(digit));
    }
    if (j == digits_start || j >= text.size() || text[j] != ';') {
        return std::nullopt;
    }
    end = j;
    if (value == 0 || value >= kTooLarge || (value >= 0xD800 && value <= 0xDFFF)) {
        return U'\uFFFD';
    }
    return static_cast<char32_t>(value);
}

void decode_character_references(std::string& text) {
    std::map<std::string, std::optional<std::string>, std::less<>> decoded_names;
    std::string out;
    std::size_t copied = 0;
    for (std::size_t amp = text.find('&'); amp != std::string::npos; amp = text.find('&', amp + 1)) {
        std::size_t end = 0;
        if (const std::optional<char32_t> c = numeric_reference_at(text, amp, end)) {
            out.append(text, copied, amp - copied);
            append_utf8(out, *c);
            copied = end + 1;
            continue;
        }
        end = named_reference_end(text, amp);
        if (end == std::string_view::npos) {
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
