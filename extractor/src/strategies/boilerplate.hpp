// What pages put inside and around an article that a reader does not read as
// the article: captions and credits, bylines and date lines, share bars,
// newsletter and subscription boxes, "related" and "read more" link lists,
// author boxes, comment sections. Readability keeps most of it; auto removes
// it from the article it keeps. Internal header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "pith/dom.hpp"
#include "pith/article.hpp"

namespace pith::extract {

enum class BoilerplateKind : std::uint8_t {
    none,
    caption,    // <figcaption>
    named,      // its class or id names boilerplate (share, related, newsletter, byline...)
    links,      // a line or a list made of links
    date_line,  // a short line that only dates the article
    figure,     // a figure or an element named for images: its words go, its images stay
    contents,   // a table of contents: links to the page's own sections
    form,       // a <form>: its labels, placeholders and messages
};
[[nodiscard]] std::string_view boilerplate_kind_name(BoilerplateKind kind) noexcept;

// Removes boilerplate from `article` (an assembled article), with the label
// line that announced a removed block and label lines left at its end.
// Nothing holding more than 40% of the article's text goes. Returns what it
// removed, in the order it did.
std::vector<RemovedBlock> remove_boilerplate(dom::Node* article, bool links = true);

// Whether the element's class or id names boilerplate (share, related,
// newsletter, byline, comments...), as remove_boilerplate reads them.
[[nodiscard]] bool names_boilerplate(const dom::Node* element);

// Whether the element's class or id names a review ("review", "reviews" as a
// whole word: "product-reviews", not "preview" or "has-reviews").
[[nodiscard]] bool names_review(const dom::Node* element);

// Whether the element's class or id names a signature ("signature", "sig").
[[nodiscard]] bool names_signature(const dom::Node* element);
// What the element's class and id name, read once: boilerplate (as
// names_boilerplate), a page's chrome (pagination, filters, cookie banners,
// share bars, sidebars, ads), or what holds content (content, post, entry,
// description...).
struct ElementNames {
    bool boilerplate = false;
    bool chrome = false;
    bool content = false;
};
[[nodiscard]] ElementNames element_names(const dom::Node* element);

// Removes the characters that only guide line breaking from the article's
// text (text::without_invisible). Changed text is copied into `doc`'s arena:
// text nodes may view memory that other copies share.
void remove_invisible_characters(dom::Document& doc, dom::Node* article);

}  // namespace pith::extract
