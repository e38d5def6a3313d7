// What the entry points share (extract.cpp, inspect.cpp and walk.cpp, the
// orchestrators, at the top of src/; no stage includes this): the steps
// after a page is prepared. Internal header.
#pragma once

#include "page/page.hpp"
#include "pages/links.hpp"
#include "pith/article.hpp"
#include "pith/options.hpp"

namespace pith::extract {

// What one page of an article followed over its pages (walk.cpp) is given,
// and what it gives back: with options.pages.max_pages above 1, step 5b
// finds its links and trims its article.
struct PageContext {
    const BlockPrints* earlier = nullptr;  // the blocks of the pages before; none for the first
    PageLinks links;
    TrimmedPage trimmed;
};

// Step 4c of extract(), after classify(), for every strategy but readability:
// with options.reveal_hidden, the hidden element holding most of the page's
// text taken as shown (page/prep.hpp's reveal_hidden_content; page.revealed
// says how many), and the tab and expandable panels the page's own controls
// open (reveal_disclosed_panels; page.revealed_panels); then the text the
// reader never sees removed (drop_unshown_text).
void prepare_for_strategy(PreparedPage& page, const ExtractOptions& options);

// Steps 5 to 9 of extract() on `page` under `options`, continuing `article`
// (whose load and preparation fields are filled). The page is not changed but
// for the site rule's selection, so the inspector runs every strategy on it.
[[nodiscard]] Article article_from_page(PreparedPage& page, const ExtractOptions& options, Article article,
                                        PageContext* context = nullptr);

// extract() for one page of a walk.
[[nodiscard]] Article extract_page(std::string_view html_bytes, const ExtractOptions& options, PageContext& context);

}  // namespace pith::extract
