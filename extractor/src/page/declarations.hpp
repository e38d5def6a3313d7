// What a page says of itself in its markup rather than its text: the
// schema.org @type values of its JSON-LD, its Open Graph type, its canonical
// URL, a declared product's description and a declared article's body. The
// page-type classifier reads them (classify/), auto the last two
// (strategies/declared.hpp); they are read during preparation, before the
// scripts that hold JSON-LD are removed.
// Internal header.
#pragma once

#include <string>
#include <vector>

#include "pith/dom.hpp"

namespace pith::extract {

struct PageDeclarations {
    // Every "@type" value of every JSON-LD script, lower case, without a
    // schema.org prefix ("newsarticle", "product", "breadcrumblist").
    std::vector<std::string> json_ld_types;
    std::string og_type;        // <meta property="og:type">, lower case; "" when none
    std::string canonical_url;  // <link rel="canonical">, else og:url; as written; "" when none
    // The "description" of the first schema.org Product or ProductGroup in the
    // JSON-LD, as plain text (entities decoded, tags dropped, white space
    // collapsed); "" when none. Product pages often keep it in a tab the DOM
    // hides or fills by script.
    std::string product_description;
    // The "articleBody" of the page's schema.org article (Article,
    // NewsArticle, BlogPosting, a forum's first post...) as paragraphs of
    // plain text, after its "description" where the body lacks that; empty
    // when none, or when the JSON-LD declares several different bodies (an
    // index of articles). A paywall, or a script that was never run, often
    // keeps from the DOM the text declared here.
    std::vector<std::string> article_body;
};

// One walk over the elements of `doc` as parsed. The JSON-LD is scanned for
// its "@type" members as text, not parsed: a page's dozen scripts cost no
// more than reading them. Only a script that declares a product, or holds an
// "articleBody", is parsed.
[[nodiscard]] PageDeclarations read_declarations(const dom::Document& doc);

}  // namespace pith::extract
