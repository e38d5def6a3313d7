// The article as Markdown (GitHub-flavoured) and as clean text, built from
// pith's DOM after post-processing; no HTML string is parsed again. The JSON
// shape is article_json.cpp's (pith/article_json.hpp). Internal header.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "pith/dom.hpp"
#include "pith/article.hpp"

namespace pith::extract {

// The language a code block names in its class ("language-cpp", "lang-py",
// "highlight-js"), on the <pre> or on the <code> it holds, by <pre>. Read
// before post-processing, which removes classes.
using CodeLanguages = std::unordered_map<const dom::Node*, std::string>;
[[nodiscard]] CodeLanguages code_languages(const dom::Node* content);

// GitHub-flavoured Markdown of `content`'s children. Tables that GFM cannot
// hold (a cell with a list, a heading, a code block or a table) are written
// as HTML. No trailing newline.
[[nodiscard]] std::string to_markdown(const dom::Node* content, const CodeLanguages& languages = {});

// Text that reads as text: one blank line between blocks, list items as "- "
// and "1. ", table rows with cells separated by " | ", white space inside a
// block collapsed, no line with leading or trailing white space.
[[nodiscard]] std::string to_clean_text(const dom::Node* content);

// Step 8 of extract(): the chosen article (`content`, in `doc`) post-
// processed (links against `base_url`, wrappers, classes), serialised into
// article.content, text_content and length, with the excerpt's fallback (its
// first paragraph) and the renderings options.render asks for.
void finish_article(dom::Document& doc, dom::Node* content, const std::optional<std::string>& dir,
                    std::string_view base_url, const ExtractOptions& options, Article& article);

// ---- shared by both renderings ----

// Visits `root`'s descendants in document order, iteratively: enter(node)
// returns whether to descend; leave(node) follows every enter.
template <typename Enter, typename Leave>
void walk_tree(const dom::Node* root, Enter&& enter, Leave&& leave) {
    const dom::Node* n = root->first_child;
    while (n != nullptr) {
        if (enter(n) && n->first_child != nullptr) {
            n = n->first_child;
            continue;
        }
        for (;;) {
            leave(n);
            if (n->next != nullptr) {
                n = n->next;
                break;
            }
            n = n->parent;
            if (n == root || n == nullptr) {
                n = nullptr;
                break;
            }
        }
    }
}

// Elements that start and end a block of text.
[[nodiscard]] bool is_block_element(const dom::Node* node) noexcept;

// The text of a <pre> as it shows: its text nodes as they are, a line
// break for each <br> and around each block inside (highlighters write a
// line per <div>, or lines joined by <br>).
[[nodiscard]] std::string preformatted_text(const dom::Node* pre);

// The number of an ordered list's first item: its start attribute when
// that is a number up to 1000, 1 otherwise.
[[nodiscard]] std::size_t list_start(const dom::Node* ol);

// A <pre> with headings, tables or paragraphs inside: old pages lay whole
// sections out in one. It is read as the blocks it holds, not as code.
[[nodiscard]] bool holds_blocks(const dom::Node* pre);

// A space before an inline element that reads as a word apart from the
// inline element just before it, though no white space separates them: a card's
// <span>Brand</span><span>Model</span>, a row of tag links. Stylesheets lay
// such siblings out apart; the text would run their words together. Only
// an ASCII letter or digit on both sides counts (elsewhere no words run
// together, and scripts without spaces keep none), each element must show
// two characters or more (a word split into a span per letter stays whole),
// and superscripts and subscripts stay attached. Called as the renderers
// enter an inline element: puts the space at the end of `out` unless it ends
// in white space already.
void separate_from_previous(std::string& out, const dom::Node* element);

// A permalink: a link into the page (its href a fragment) that shows only a
// mark, "¶", "§", "#", a link or an anchor sign, as documentation generators
// put beside each heading and definition for readers to copy. It says nothing
// of what it stands beside, and the renderings leave it out.
[[nodiscard]] bool is_permalink_mark(const dom::Node* a);

// Appends `text` with every run of white space (JavaScript's \s) made one
// space, and none at the start of `out` or after a space or a newline.
void append_collapsed(std::string& out, std::string_view text);

}  // namespace pith::extract
