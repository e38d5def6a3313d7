// The inspector's view of a page: the source document as pith parsed it, with
// the elements the extraction weighed marked on it, serialised as HTML for a
// sandboxed frame (pithd's /inspect shows it).
//
// Marks, as attributes on the elements themselves (the frame runs no script,
// so everything the view shows is in the markup and one injected <style>):
//   data-pith-root      the root of the article returned: a solid outline
//   data-pith-pass-root a root another pass or strategy chose: a thinner one
//   data-pith-candidate a top candidate, its best rank: dashed
//   data-pith-removed   a block auto removed as boilerplate, by kind: dotted
// and `title`, one line per mark, which a browser shows on hover: the
// strategy, pass, rank, score and link density.
//
// Nothing is made safe here: the frame's sandbox and the page's
// Content-Security-Policy are what keep the page from running. Only
// <meta http-equiv="refresh"> is taken out, as it would navigate the frame
// away from the view.
#pragma once

#include <string>

#include "pith/dom.hpp"
#include "pith/article.hpp"

namespace pith::extract {

// Marks `source` (a copy of the parsed document, source indexes intact) from
// `article`'s diagnostics (its passes, article_pass and removed blocks) and
// returns it as HTML.
[[nodiscard]] std::string annotate_source(dom::Document& doc, dom::Node* source, const Article& article);

}  // namespace pith::extract
