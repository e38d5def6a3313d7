// A page on its way to the strategies: loaded (decoded, cut, estimated,
// admitted and parsed, every budget judged before the work it guards), then
// prepared (the site rule applied, the readerable preflight, metadata, and
// Readability's document preparation). The strategies run on copies of the
// prepared page, which they never change. Internal header.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "metadata/authors_dates.hpp"
#include "metadata/metadata.hpp"
#include "page/declarations.hpp"
#include "pith/article.hpp"
#include "pith/dom.hpp"
#include "pith/options.hpp"
#include "rules/apply.hpp"

namespace pith::extract {

struct LoadedPage {
    dom::Document doc;                       // as parsed
    const rules::SiteRule* rule = nullptr;   // the site rule that applies, or none
    dom::Node* source_copy = nullptr;        // with render.annotate_source: the page as parsed
};

// Steps 1 to 3 of extract(): the budget on input bytes, before any work; the
// decode to UTF-8 (BOM, caller charset, <meta> prescan, detection); the site
// rule's text replacements; one scan of the tags that cuts the script and
// style text (the pipeline deletes those elements, and their text is 40% of
// the bytes gumbo would tokenize) and estimates the cost, whose budgets and
// admission are judged before gumbo runs; then the parse. Fills `article`'s
// charset, cost and timings; nullopt when the page goes no further, with
// `article` final (budget_exceeded, or no_content when the parser gave up).
[[nodiscard]] std::optional<LoadedPage> load_page(std::string_view bytes, const ExtractOptions& options,
                                                  Article& article);

struct PreparedPage {
    dom::Document doc;                      // prepared; the strategies copy it
    const rules::SiteRule* rule = nullptr;
    std::optional<rules::Applied> applied;  // what the rule did and selected
    dom::Node* source_copy = nullptr;       // LoadedPage's
    Metadata metadata;                      // JSON-LD, <meta> and the rule's fields, in that priority
    AuthorsAndDates authors_dates;          // pith's authors and dates, the rule's first
    std::string base_url;                   // for resolving the article's links
    PageDeclarations declarations;          // JSON-LD types, Open Graph type, canonical URL
    // Step 4b, classify/: what kind of page it is.
    std::optional<PageTypeDiagnostics> page_type;
    std::size_t body_text_length = 0;  // dom::inner_text_length(doc.body()), measured by classify's walk
    // Step 4c: hidden elements taken as shown (page/prep.hpp's
    // reveal_hidden_content, then reveal_disclosed_panels).
    std::size_t revealed = 0;
    std::size_t revealed_panels = 0;
    // Step 4: React's streamed segments moved into place (page/prep.hpp's
    // replay_streamed_segments).
    std::size_t streamed_segments = 0;
};

// Step 4: the site rule's removals, the readerable preflight on the page as
// the rule left it, noscript images unwrapped, JSON-LD read (it lives in
// <script>s), scripts removed, React's streamed segments put in place (with
// replay_streamed), the document prepared, <meta> metadata read.
// Fills `article`'s readerable, rule diagnostics and metadata timing; nullopt
// when the deadline passed first, with `article` final.
[[nodiscard]] std::optional<PreparedPage> prepare_page(LoadedPage loaded, const ExtractOptions& options,
                                                       Article& article);

}  // namespace pith::extract
