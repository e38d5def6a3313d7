// The node predicates and measures every stage shares, each a port of the
// Readability.js function it names (predicates.cpp). Internal header.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "pith/dom.hpp"
#include "pith/options.hpp"

namespace pith::extract {

// className as Readability reads it: "" for elements outside the HTML namespace.
[[nodiscard]] std::string_view class_name(const dom::Node* node) noexcept;
// node.className + " " + node.id.
[[nodiscard]] std::string match_string(const dom::Node* node);
// _getNextNode: next element in document order (children first unless skipped).
[[nodiscard]] dom::Node* next_in_document(const dom::Node* node, bool skip_children = false) noexcept;
// _removeAndGetNext.
[[nodiscard]] dom::Node* remove_and_get_next(dom::Node* node) noexcept;
// The value of `property` in an inline style attribute ("" when absent),
// lower-cased, without "!important"; the last declaration wins, as in CSSOM.
[[nodiscard]] std::string inline_style_value(std::string_view style, std::string_view property);
// _isProbablyVisible (style display/visibility, hidden, aria-hidden).
[[nodiscard]] bool is_probably_visible(const dom::Node* node) noexcept;
// An <h1> to <h6> element.
[[nodiscard]] bool is_heading(const dom::Node* node) noexcept;
// _isPhrasingContent.
[[nodiscard]] bool is_phrasing_content(const dom::Node* node) noexcept;
// pith's own: the ARIA roles of the site's furniture around the content
// (banner, contentinfo, navigation, complementary, search, dialogs, menus).
[[nodiscard]] bool is_furniture_role(std::string_view role) noexcept;
// pith's own: elements that flow inside a line (and any outside HTML's
// namespace), whose text belongs to the block around them.
[[nodiscard]] bool is_inline_element(const dom::Node* node) noexcept;
// _isWhitespace: a blank text node or a <br>.
[[nodiscard]] bool is_whitespace(const dom::Node* node) noexcept;
// _isElementWithoutContent.
[[nodiscard]] bool is_element_without_content(const dom::Node* node) noexcept;
// _hasSingleTagInsideElement.
[[nodiscard]] bool has_single_tag_inside(const dom::Node* element, dom::Tag tag) noexcept;
// _hasChildBlockElement.
[[nodiscard]] bool has_child_block_element(const dom::Node* element) noexcept;
// _hasAncestorTag; max_depth <= 0 means unlimited. `filter` may be null.
[[nodiscard]] bool has_ancestor_tag(const dom::Node* node, dom::Tag tag, int max_depth = 3,
                                    bool (*filter)(const dom::Node*) = nullptr) noexcept;
// _getLinkDensity.
[[nodiscard]] double link_density(const dom::Node* element);
// _getClassWeight under `flags`.
[[nodiscard]] double class_weight(const dom::Node* element, PassFlags flags) noexcept;
// Descendant elements of `root` (not root itself) with the given tag, in document order.
[[nodiscard]] std::vector<dom::Node*> elements_by_tag(const dom::Node* root, dom::Tag tag);
[[nodiscard]] std::size_t count_by_tag(const dom::Node* root, dom::Tag tag) noexcept;
// _nextNode: skips white-space-only text nodes (and comments) from `node` on.
[[nodiscard]] dom::Node* next_non_blank(dom::Node* node) noexcept;
// A CSS-like path for diagnostics: "html>body>div#main>article.post".
[[nodiscard]] std::string css_path(const dom::Node* node);

}  // namespace pith::extract
