// Token F1 between two texts, the measure the Mozilla corpus is scored with
// (the conformance test and the quality bench): texts split on JavaScript's
// white space, compared as multisets of tokens.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pith/dom.hpp"

namespace pith::test {

// Decodes the code point at `pos` and advances; a malformed byte counts as one
// non-space code point (inputs are parser output, so this is only defensive).
inline char32_t next_code_point(std::string_view s, std::size_t& pos) {
    const auto lead = static_cast<unsigned char>(s[pos]);
    std::size_t length = 1;
    char32_t cp = lead;
    if (lead >= 0xF0U) {
        length = 4;
        cp = lead & 0x07U;
    } else if (lead >= 0xE0U) {
        length = 3;
        cp = lead & 0x0FU;
    } else if (lead >= 0xC0U) {
        length = 2;
        cp = lead & 0x1FU;
    }
    if (length == 1 || pos + length > s.size()) {
        ++pos;
        return lead;
    }
    for (std::size_t i = 1; i < length; ++i) {
        cp = (cp << 6U) | (static_cast<unsigned char>(s[pos + i]) & 0x3FU);
    }
    pos += length;
    return cp;
}

// JavaScript's `\s` set (WhiteSpace and LineTerminator), the white space
// Readability itself normalises with.
inline bool is_space(char32_t c) {
    switch (c) {
    case 0x09: case 0x0A: case 0x0B: case 0x0C: case 0x0D: case 0x20: case 0xA0:
    case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000:
    case 0xFEFF:
        return true;
    default:
        return c >= 0x2000 && c <= 0x200A;
    }
}

inline std::vector<std::string_view> tokenize(std::string_view text) {
    std::vector<std::string_view> tokens;
    std::size_t pos = 0;
    std::size_t start = std::string_view::npos;
    while (pos < text.size()) {
        const std::size_t here = pos;
        if (is_space(next_code_point(text, pos))) {
            if (start != std::string_view::npos) {
                tokens.push_back(text.substr(start, here - start));
                start = std::string_view::npos;
            }
        } else if (start == std::string_view::npos) {
            start = here;
        }
    }
    if (start != std::string_view::npos) {
        tokens.push_back(text.substr(start));
    }
    return tokens;
}

struct TokenOverlap {
    double precision = 1.0;
    double recall = 1.0;
    double f1 = 1.0;
    std::vector<std::string_view> missing;  // expected tokens we lack, in expected order
    std::vector<std::string_view> extra;    // our tokens Readability lacks, in our order
};

// Multiset overlap of the two token lists; two empty texts agree fully.
inline TokenOverlap compare_tokens(const std::vector<std::string_view>& expected,
                            const std::vector<std::string_view>& actual) {
    TokenOverlap result;
    if (expected.empty() && actual.empty()) {
        return result;
    }
    std::unordered_map<std::string_view, std::size_t> unmatched;
    for (std::string_view token : expected) {
        ++unmatched[token];
    }
    std::size_t matched = 0;
    for (std::string_view token : actual) {
        auto it = unmatched.find(token);
        if (it != unmatched.end() && it->second > 0) {
            --it->second;
            ++matched;
        } else {
            result.extra.push_back(token);
        }
    }
    for (std::string_view token : expected) {
        auto it = unmatched.find(token);
        if (it->second > 0) {
            --it->second;
            result.missing.push_back(token);
        }
    }
    const auto m = static_cast<double>(matched);
    result.precision = actual.empty() ? 0.0 : m / static_cast<double>(actual.size());
    result.recall = expected.empty() ? 0.0 : m / static_cast<double>(expected.size());
    const double sum = result.precision + result.recall;
    result.f1 = sum > 0.0 ? 2.0 * result.precision * result.recall / sum : 0.0;
    return result;
}

// Both token lists of one parsed HTML document or fragment.
// Every view points into the Document's arena, so the struct moves freely.
struct PageTokens {
    std::vector<std::string_view> words;    // the body's textContent split: the scored tokens
    std::vector<std::string_view> in_nodes; // words split at element boundaries too
};

// expected.html is pretty-printed (Readability's harness writes it with
// newlines and indentation between blocks), so "defenders.</figcaption></figure>
// <h3>On" reads as two words there and one in raw output. `in_nodes` tokenises
// each text node alone, which hides that artefact on both sides alike; it is
// reported beside the scored F1 and drives the diff hints.
inline std::optional<PageTokens> page_tokens(std::string_view utf8_html, pith::dom::Document& holder) {
    auto parsed = pith::dom::parse_html(utf8_html);
    if (!parsed.ok()) {
        return std::nullopt;
    }
    holder = std::move(parsed).value();
    PageTokens tokens;
    const pith::dom::Node* body = holder.body();
    if (body == nullptr) {
        return tokens;
    }
    tokens.words = tokenize(holder.arena().copy(pith::dom::text_content(body)));
    for (const pith::dom::Node* node = body; node != nullptr; node = pith::dom::next_node(node, body)) {
        if (node->is_text()) {
            const auto words = tokenize(node->data);
            tokens.in_nodes.insert(tokens.in_nodes.end(), words.begin(), words.end());
        }
    }
    return tokens;
}

}  // namespace pith::test
