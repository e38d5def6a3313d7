// The measures of a node's text that Readability.js takes, with JavaScript's
// semantics (text/text.hpp): `.length` in UTF-16 code units, `\s` and trim()
// over ECMAScript's white space. Internal header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "pith/dom.hpp"

namespace pith::dom {

// Readability _getInnerText: textContent, trimmed, runs collapsed when `normalize`.
[[nodiscard]] std::string inner_text(const Node* node, bool normalize = true);

// UTF-16 length of inner_text(node, normalize) without building the string.
[[nodiscard]] std::size_t inner_text_length(const Node* node, bool normalize = true);

// inner_text_length(root), and `visit` called with inner_text_length(e) of
// every element e below root, children before parents, all in one walk: what
// summing the lengths of many nested elements costs once instead of once an
// element (Readability's densities over nested <div>s).
std::size_t inner_text_lengths(const Node* root,
                               const std::function<void(const Node* element, std::size_t length)>& visit);

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

// ASCII commas in the node's text (Readability _getCharCount(e, ",")),
// counting no further than `cap`: a caller asking whether there are ten
// reads the text only up to the tenth.
[[nodiscard]] std::size_t ascii_comma_count(const Node* node, std::size_t cap = SIZE_MAX) noexcept;

}  // namespace pith::dom
