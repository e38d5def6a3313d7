// The orchestrator: extract() reads as the list of stages, each in the folder
// that names it. Their order is Readability.js's parse() and it matters:
//  1-3. page/load.cpp: the budget on input bytes, before any work; the decode
//       to UTF-8; one scan of the tags that cuts script and style text and
//       estimates the cost, whose budgets (budget/) are checked before gumbo
//       runs; then the parse (dom/);
//  4.   page/prepare.cpp: the site rule (rules/), the readerable preflight on
//       the page as parsed, noscript images, JSON-LD (read before scripts go),
//       scripts removed, React's streamed segments put in place (when asked,
//       not for `readability`), prep_document, <meta> metadata (metadata/);
//  4b.  classify/: the kind of page (article, forum, product...), which the
//       strategies extract each its own way;
//  4c.  page/prep_document.cpp (not for `readability`): with reveal_hidden, a
//       hidden element holding most of the page's text taken as shown; the
//       text the reader never sees removed;
//  5.   strategies/: the rule's body, or the strategy's passes, each on a
//       fresh copy of the prepared page, dropping one heuristic flag at a time
//       while the text is short (auto runs two strategies and chooses);
//  5b.  pages/: when the article may go on over more pages, the next page's
//       link, and the pagination and what repeats earlier pages taken out;
//  6.   metadata/: the page's metadata and what the passes found;
//  7.   inspect/annotate.cpp: the inspector's marks on the source, when asked;
//  8.   render/finish.cpp: post-processing, serialisation, renderings;
//  9.   confidence/score.cpp: the confidence, and low_confidence under the bar.
// Everything a stage needs comes in its arguments; no stage calls back here.
#include "pith/extract.hpp"

#include <exception>
#include <new>
#include <string_view>

#include "budget/budget.hpp"
#include "classify/page_type.hpp"
#include "confidence/confidence.hpp"
#include "dom/inner_text.hpp"
#include "inspect/annotate.hpp"
#include "metadata/metadata.hpp"
#include "page/page.hpp"
#include "page/prep.hpp"
#include "pipeline.hpp"
#include "render/render.hpp"
#include "strategies/run.hpp"

namespace pith::extract {

void prepare_for_strategy(PreparedPage& page, const ExtractOptions& options) {
    if (options.strategy == Strategy::readability) {
        return;
    }
    if (options.reveal_hidden) {
        page.revealed = reveal_hidden_content(page.doc, page.body_text_length);
        page.revealed_panels = reveal_disclosed_panels(page.doc);
    }
    drop_unshown_text(page.doc, page.body_text_length);
}

namespace {

void note_decision(Article& article, std::string_view note) {
    article.decision += article.decision.empty() ? "" : "; ";
    article.decision += note;
}

}  // namespace

Article article_from_page(PreparedPage& page, const ExtractOptions& options, Article article,
                          PageContext* context) {
    if (page.page_type) {
        article.page_type = page.page_type->type;
        article.page_type_diagnostics = page.page_type;
    }
    PassState state;
    StrategyRun run = find_article(page, options, state, article);  // 5
    if (run.stopped) {
        return refused(std::move(article), std::move(*run.stopped));
    }
    if (options.pages.max_pages > 1 && !options.input.url.empty()) {  // 5b
        PageContext own;
        PageContext& pages = context != nullptr ? *context : own;
        pages.links = find_page_links(page.doc.document_element(), page.base_url, options.input.url, page.applied);
        if (run.chosen) {
            static const BlockPrints kNone;
            pages.trimmed = trim_page(run.chosen->content, page.base_url, options.input.url,
                                      pages.earlier != nullptr ? *pages.earlier : kNone);
        }
    }
    // What a page shows of its authors and date without marking them is read
    // only for an article or a thread that lacks a marked one, or whose marked
    // author is the site itself: a person the page shows replaces it.
    const std::optional<PageType> type = layout_page_type(article);
    const bool authored = type == PageType::article || type == PageType::forum;
    const bool dated = page.authors_dates.published || page.authors_dates.date_after_headline;
    if (authored && (page.authors_dates.authors.empty() || !dated ||
                     signed_by_the_site(page.authors_dates.authors, page.metadata.site_name))) {
        read_unmarked_facts(page.doc, page.authors_dates);
    }
    apply_metadata(article, page.metadata, page.authors_dates, state.byline, state.byline_lines, state.lang,  // 6
                   options.runtime.model_fold);
    if (page.source_copy != nullptr) {                                  // 7
        article.annotated_source = annotate_source(page.doc, page.source_copy, article);
    }
    // An article without a word (what the cleaning left of a list of links,
    // or images alone) is no article: a reader, or a pipeline fed text, gets
    // nothing from it. Nor is page furniture (confidence.hpp's
    // reads_as_furniture). Readability.js returns both, so `readability` does.
    if (run.chosen && article.strategy != Strategy::readability) {
        if (!dom::has_text(run.chosen->content)) {
            run.chosen.reset();
            note_decision(article, "the article kept holds no text");
        } else if (!options.keep_furniture &&
                   reads_as_furniture(run.chosen->content, run.chosen->text_length, page.body_text_length)) {
            run.chosen.reset();
            note_decision(article, "the article kept reads as page furniture: a few words, no sentence");
        }
    }
    if (!run.chosen) {
        article.status = Status::no_content;
        return article;
    }
    Attempt& chosen = *run.chosen;
    finish_article(chosen.doc, chosen.content, chosen.dir, page.base_url, options, article);  // 8
    score_confidence(chosen, page.body_text_length, options, article);                          // 9
    return article;
}

namespace {

Article extract_unguarded(std::string_view bytes, const ExtractOptions& options, PageContext* context) {
    Article article;
    std::optional<LoadedPage> loaded = load_page(bytes, options, article);  // 1-3
    if (!loaded) {
        return article;
    }
    std::optional<PreparedPage> page = prepare_page(std::move(*loaded), options, article);  // 4
    if (!page) {
        return article;
    }
    classify(*page, options);  // 4b
    prepare_for_strategy(*page, options);  // 4c
    return article_from_page(*page, options, std::move(article), context);  // 5-9
}

// The one catch-all at the library's edge: allocation failures and anything
// else thrown become an `internal` error, never an exception in the caller.
template <typename Work>
Article guarded(Work&& work) {
    try {
        return work();
    } catch (const std::bad_alloc&) {
        Article article;
        article.error = Error{ErrorCode::internal, "out of memory"};
        return article;
    } catch (const std::exception& e) {
        Article article;
        article.error = Error{ErrorCode::internal, e.what()};
        return article;
    }
}

}  // namespace

Article extract(std::string_view html_bytes, const ExtractOptions& options) {
    return guarded([&] { return extract_unguarded(html_bytes, options, nullptr); });
}

Article extract_page(std::string_view html_bytes, const ExtractOptions& options, PageContext& context) {
    return guarded([&] { return extract_unguarded(html_bytes, options, &context); });
}

bool is_probably_readable(std::string_view html_bytes, std::string_view declared_charset,
                          const ReadableOptions& options) {
    try {
        ExtractOptions defaults;  // parsed under the default budgets
        defaults.input.charset = std::string(declared_charset);
        Article unused;
        const std::optional<LoadedPage> page = load_page(html_bytes, defaults, unused);
        return page && is_probably_readable(page->doc, options);
    } catch (const std::exception&) {
        return false;
    }
}

}  // namespace pith::extract
