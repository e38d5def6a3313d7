// Stages of the extraction pipeline and the node predicates they share, each
// one a port of the Readability.js function it names. Internal header.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pith/dom.hpp"
#include "pith/article.hpp"
#include "pith/scorer.hpp"

namespace pith::extract {

// ---- shared predicates and measures (node_ops.cpp) ----

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
// _getTextDensity over descendants with one of `tags`.
[[nodiscard]] double text_density(const dom::Node* element, const std::vector<dom::Tag>& tags);
// Descendant elements of `root` (not root itself) with the given tag, in document order.
[[nodiscard]] std::vector<dom::Node*> elements_by_tag(const dom::Node* root, dom::Tag tag);
[[nodiscard]] std::size_t count_by_tag(const dom::Node* root, dom::Tag tag) noexcept;
// _nextNode: skips white-space-only text nodes (and comments) from `node` on.
[[nodiscard]] dom::Node* next_non_blank(dom::Node* node) noexcept;
// A CSS-like path for diagnostics: "html>body>div#main>article.post".
[[nodiscard]] std::string css_path(const dom::Node* node);

// ---- stages ----

// Document preparation before any pass (parse(): _unwrapNoscriptImages,
// _removeScripts, _prepDocument) plus comment removal.
void unwrap_noscript_images(dom::Document& doc);
void remove_scripts(dom::Document& doc);
void prep_document(dom::Document& doc);

// What one pass of _grabArticle needs from outside and gives back.
struct PassInput {
    PassFlags flags = PassFlags::all;
    std::string_view article_title;    // for the duplicate-title header check
    bool metadata_has_byline = false;  // Readability skips byline capture then
    const ContentScorer* scorer = nullptr;
};
struct PassState {  // carried across passes, as Readability keeps them on `this`
    std::optional<std::string> byline;
    std::optional<std::string> lang;
    std::optional<std::string> dir;
};
struct PassOutput {
    dom::Node* content = nullptr;  // detached article container, or nullptr
    std::size_t text_length = 0;   // UTF-16 units of its normalised inner text
    PassDiagnostics diagnostics;
};

// One _grabArticle pass over `doc` (mutates it). Includes prep_article.
[[nodiscard]] PassOutput grab_article(dom::Document& doc, const ExtractOptions& options, const PassInput& input,
                                      PassState& state);

// An article built from `blocks` (detached or not, in document order) the way
// grab_article builds its own: blocks that are not div, article, section, p,
// ol or ul become <div>s, prep_article cleans them under `flags`, and the
// whole is wrapped in Readability's page div. Returns the detached article.
[[nodiscard]] dom::Node* assemble_article(dom::Document& doc, const std::vector<dom::Node*>& blocks,
                                          const ExtractOptions& options, PassFlags flags);

// _prepArticle: cleanup of the chosen content.
void prep_article(dom::Document& doc, dom::Node* content, const ExtractOptions& options, PassFlags flags);

// _postProcessContent: absolute URLs, javascript: links, nested wrappers, classes.
void post_process(dom::Document& doc, dom::Node* content, const ExtractOptions& options, std::string_view base_url);

// The document's base URL: <base href> resolved against the document URL.
[[nodiscard]] std::string document_base_url(const dom::Document& doc, std::string_view document_url);

// Readability-readerable on a parsed document.
[[nodiscard]] bool is_probably_readable(const dom::Document& doc, const ReadableOptions& options);

}  // namespace pith::extract
