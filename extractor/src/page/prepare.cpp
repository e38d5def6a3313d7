// Preparing a loaded page for the strategies (page.hpp lists the steps).
#include <chrono>

#include "budget/budget.hpp"
#include "page/page.hpp"
#include "page/prep.hpp"
#include "rules/site_rule.hpp"

namespace pith::extract {

std::optional<PreparedPage> prepare_page(LoadedPage loaded, const ExtractOptions& options, Article& article) {
    PreparedPage page{std::move(loaded.doc), loaded.rule, std::nullopt, loaded.source_copy, {}, {}, {}, {}, {}};
    dom::Document& doc = page.doc;
    const rules::SiteRule* rule = page.rule;
    if (rule != nullptr) {
        page.applied = rules::apply_rule(*rule, doc);
        article.rule =
            RuleDiagnostics{rules::rule_source(*rule), "", page.applied->removed, page.applied->errors, rule->ignored};
    }
    if (auto late = deadline_passed(options.runtime, "metadata")) {
        article = refused(std::move(article), std::move(*late));
        return std::nullopt;
    }

    const auto started = std::chrono::steady_clock::now();
    article.readerable = is_probably_readable(doc, ReadableOptions{});
    page.base_url = document_base_url(doc, options.input.url);
    unwrap_noscript_images(doc);
    page.declarations = read_declarations(doc);  // before the scripts holding JSON-LD go
    const bool skip_json_ld = options.disable_json_ld || (rule != nullptr && rule->skip_json_ld);
    const Metadata json_ld = skip_json_ld ? Metadata{} : read_json_ld(doc);
    const JsonLdFacts json_ld_facts = skip_json_ld ? JsonLdFacts{} : read_json_ld_facts(doc);
    remove_scripts(doc);
    if (options.strategy != Strategy::readability && options.replay_streamed) {
        page.streamed_segments = replay_streamed_segments(doc);
    }
    prep_document(doc);
    page.metadata = read_metadata(doc, json_ld, page.base_url);
    // Readability's title stays Readability's (Mozilla's expected titles).
    if (options.strategy != Strategy::readability) {
        HeadlineChoice choice = headline_title(doc, page.base_url, page.metadata.title.value_or(""),
                                               json_ld.title.value_or(""));
        page.metadata.headline = std::move(choice.headline);
        page.metadata.title_part = std::move(choice.title_part);
        page.metadata.title_candidates = std::move(choice.candidates);
    }
    page.authors_dates = read_authors_and_dates(doc, json_ld_facts, options.input.url);
    if (page.applied) {  // what the rule names wins over what the page says of itself
        if (page.applied->title) {
            page.metadata.title = page.applied->title;
            page.metadata.headline = SourcedText{*page.applied->title, "site rule"};
            page.metadata.title_part.reset();
            page.metadata.title_candidates.clear();
        }
        if (page.applied->author) {
            page.metadata.byline = page.applied->author;
            page.authors_dates.authors = author_names(*page.applied->author);
            page.authors_dates.authors_source = "site rule";
        }
        if (page.applied->date) {
            page.metadata.published_time = page.applied->date;
            page.authors_dates.published =
                SourcedText{iso_date(*page.applied->date).value_or(*page.applied->date), "site rule"};
        }
    }
    article.timings.metadata_us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started).count();
    return page;
}

}  // namespace pith::extract
