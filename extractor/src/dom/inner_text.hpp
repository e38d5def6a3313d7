// The measures of a node's text that Readability.js takes, with JavaScript's
// semantics (text/text.hpp): `.length` in UTF-16 code units, `\s` and trim()
// over ECMAScript's white space. Internal header.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "pith/dom.hpp"

namespace pith::dom {

// Readability _getInnerText: textContent, trimmed, runs collapsed when `normalize`.
[[nodiscard]] std::string inner_text(const Node* node, bool normalize = true);

// UTF-16 length of inner_text(node, normalize) without building the string.
[[nodiscard]] std::size_t inner_text_length(const Node* node, bool normalize = true);

// The normalized measure of a stretch of text, read alone, with what joining
// it to its neighbours needs: whether it starts or ends with white space.
// Joined in document order, the spans of a node's texts give its
// inner_text_length, so a subtree's span can stand for it in a larger one.
struct TextSpan {
    std::size_t length = 0;   // trimmed, runs collapsed
    bool seen = false;        // holds a character other than white space
    bool leading = false;     // white space before its first character (or, unseen, any at all)
    bool trailing = false;    // white space after its last character
};
[[nodiscard]] TextSpan span_of(std::string_view s) noexcept;
// `a` followed by `b`: a run of white space between their characters counts one.
[[nodiscard]] TextSpan joined(const TextSpan& a, const TextSpan& b) noexcept;

// Whether the node's text holds a character other than white space
// (inner_text_length(node) > 0), reading up to the first one.
[[nodiscard]] bool has_text(const Node* node) noexcept;

// Whether inner_text_length(node) > limit. Stops reading once the node's
// characters other than white space are more than `limit`, so that asking
// whether a long paragraph is a short line costs little.
[[nodiscard]] bool inner_text_longer_than(const Node* node, std::size_t limit);

// The first `code_points` code points of inner_text(node), built from only as
// much of the node's text as they need.
[[nodiscard]] std::string inner_text_prefix(const Node* node, std::size_t code_points);

// textContent with a line break where two elements' texts would run
// together ("Jane Doe" and "Staff Writer" in two <p>s, with nothing between)
// and at each <br>: what a reader sees as separate lines, for reading names
// and dates out of a byline.
[[nodiscard]] std::string text_lines(const Node* node);

// UTF-16 length of the raw textContent, counting stops early once past `cap`
// (the result is then some value > cap).
[[nodiscard]] std::size_t text_content_length(const Node* node, std::size_t cap) noexcept;

}  // namespace pith::dom
