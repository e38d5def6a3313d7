// Loading a page: from raw bytes to a parsed document, every budget judged
// before the work it guards (page.hpp lists the steps).
#include <chrono>
#include <string>

#include "budget/budget.hpp"
#include "dom/raw_text.hpp"
#include "page/page.hpp"
#include "pith/decode.hpp"
#include "pith/rules.hpp"
#include "rules/xpath.hpp"

namespace pith::extract {

namespace {

using Clock = std::chrono::steady_clock;

std::int64_t micros_since(Clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
}

}  // namespace

std::optional<LoadedPage> load_page(std::string_view bytes, const ExtractOptions& options, Article& article) {
    if (std::optional<Error> too_large = input_over_budget(bytes.size(), options.budgets)) {
        article = refused(std::move(article), std::move(*too_large));
        return std::nullopt;
    }

    auto stage_start = Clock::now();
    std::string decoded_storage;  // stays empty when the input already is valid UTF-8
    decode::DecodedView decoded = decode::to_utf8_view(bytes, options.input.charset, decoded_storage);
    article.charset = decoded.charset;
    std::string repaired_storage;  // stays empty unless the page reads as decoded twice
    if (options.repair_double_encoding) {
        article.double_encoded = decode::repair_double_encoding(decoded.utf8, repaired_storage);
        if (article.double_encoded > 0) {
            decoded.utf8 = repaired_storage;
        }
    }
    article.timings.decode_us = micros_since(stage_start);
    if (auto late = deadline_passed(options.runtime, "parsing")) {
        article = refused(std::move(article), std::move(*late));
        return std::nullopt;
    }

    // A site rule's text replacements come before everything that reads the markup.
    const rules::SiteRule* rule =
        options.rule != nullptr     ? options.rule
        : options.rules != nullptr ? options.rules->find_for_url(options.input.url)
                                   : nullptr;
    const std::optional<std::string> replaced =
        rule != nullptr ? rules::replaced_markup(*rule, decoded.utf8) : std::nullopt;
    const std::string_view utf8 = replaced ? std::string_view(*replaced) : decoded.utf8;

    stage_start = Clock::now();
    const dom::MarkupScan scan = dom::scan_markup(utf8);
    std::string pruned_storage;  // stays empty when there is nothing to cut
    const std::string_view markup = dom::without_ranges(utf8, scan.discardable, pruned_storage);
    article.timings.prune_us = micros_since(stage_start);

    const std::size_t copies = decoded_storage.size() + repaired_storage.size() + pruned_storage.size();
    CostEstimate estimate = estimate_cost(bytes.size(), markup.size(), copies, scan.estimate);
    if (rule != nullptr) {  // the rule's mirror of the page is reserved with the rest
        estimate.memory_bytes +=
            rules::mirror_memory_bytes(estimate.elements, estimate.attributes, estimate.markup_bytes);
    }
    if (options.render.annotate_source) {  // the source's copy and its serialisation
        estimate.memory_bytes += annotated_source_bytes(estimate);
    }
    const CostEstimate& cost = article.cost.emplace(estimate);
    if (std::optional<Error> refusal = refuse_before_parse(scan.estimate, cost, options)) {
        article = refused(std::move(article), std::move(*refusal));
        return std::nullopt;
    }

    dom::ParseTimings parse_timings;
    Result<dom::Document> parsed =
        dom::parse_html(markup, parse_limits(options, cost), &parse_timings, &scan.estimate);
    article.timings.parse_us = parse_timings.gumbo_us;
    article.timings.dom_build_us = parse_timings.dom_build_us;
    if (!parsed.ok()) {
        if (parsed.error().code == ErrorCode::parse_failed) {
            article.status = Status::no_content;
            article.error = parsed.error();
        } else {
            article = refused(std::move(article), std::move(parsed).error());
        }
        return std::nullopt;
    }
    // The DOM holds its own copies of the text: the decoded, repaired and cut copies go
    // when this returns.
    LoadedPage page{std::move(parsed).value(), rule, nullptr};
    // The inspector's copy of the page, taken before any stage edits it.
    if (options.render.annotate_source) {
        page.source_copy = page.doc.clone(page.doc.root());
    }
    return page;
}

}  // namespace pith::extract
