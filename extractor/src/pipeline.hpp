// What the two entry points share (extract.cpp and inspect.cpp, the
// orchestrators, at the top of src/; no stage includes this): the steps
// after a page is prepared. Internal header.
#pragma once

#include "page/page.hpp"
#include "pith/article.hpp"
#include "pith/options.hpp"

namespace pith::extract {

// Steps 5 to 9 of extract() on `page` under `options`, continuing `article`
// (whose load and preparation fields are filled). The page is not changed but
// for the site rule's selection, so the inspector runs every strategy on it.
[[nodiscard]] Article article_from_page(PreparedPage& page, const ExtractOptions& options, Article article);

}  // namespace pith::extract
