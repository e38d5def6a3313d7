// The orchestrator. The order of the stages is Readability.js's parse() and it
// matters:
//  1. budget on input bytes, before any work;
//  2. decode to UTF-8 (BOM, caller charset, <meta> prescan, detection);
//  3. one scan of the tags (raw_text.hpp) finds the script and style text to
//     cut (the pipeline deletes those elements, and their text is 40% of the
//     bytes gumbo would tokenize) and estimates the budgets, which are checked
//     before gumbo runs; then the parse;
//  4. the readerable preflight, on the untouched document;
//  5. noscript images unwrapped, then JSON-LD read (it lives in <script>s),
//     then scripts removed and the document prepared, then <meta> metadata;
//  6. passes: each works on a fresh copy of the prepared <body>, dropping one
//     heuristic flag at a time while the text is shorter than char_threshold;
//  7. post-processing of the chosen content (URLs, wrappers, classes);
//  8. serialisation, excerpt fallback, confidence.
#include "pith/extract.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <new>
#include <sstream>

#include "output/annotate.hpp"
#include "output/confidence.hpp"
#include "pith/rules.hpp"
#include "rules/apply.hpp"
#include "rules/xpath.hpp"
#include "output/render.hpp"
#include "metadata/metadata.hpp"
#include "readability/pipeline.hpp"
#include "strategies/run.hpp"
#include "dom/raw_text.hpp"
#include "pith/decode.hpp"
#include "pith/dom.hpp"
#include "pith/url.hpp"
#include "text/text.hpp"

namespace pith::extract {

namespace {

using Clock = std::chrono::steady_clock;

std::int64_t micros_since(Clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
}

// The parse's limits under `options`, gumbo's heap capped at the share of the
// memory budget that `cost` gives it.
dom::ParseLimits parse_limits(const ExtractOptions& options, const CostEstimate& cost) {
    dom::ParseLimits limits{options.budgets.max_elements, options.budgets.max_nesting_depth, options.budgets.max_attributes_per_element};
    limits.max_parse_bytes = options.budgets.max_memory_bytes > 0 ? cost.parse_bytes : 0;
    limits.deadline = options.runtime.deadline;
    limits.block_cache = options.runtime.block_cache;
    return limits;
}

// Why the page must not be parsed, judged before the parse: the budgets on
// its tags, then on its estimated memory, then the time left, then the
// caller's own admission (which reserves what it admits, so it comes last).
std::optional<Error> refuse_before_parse(const dom::MarkupEstimate& estimate, const CostEstimate& cost,
                                         const ExtractOptions& options) {
    if (Result<bool> within = dom::check_markup_budgets(estimate, parse_limits(options, cost)); !within.ok()) {
        return std::move(within).error();
    }
    if (options.budgets.max_memory_bytes > 0 && cost.memory_bytes > options.budgets.max_memory_bytes) {
        return Error{ErrorCode::too_much_memory,
                     "the page would need about " + std::to_string(cost.memory_bytes >> 20U) + " MiB (" +
                         std::to_string(cost.elements) + " elements, " + std::to_string(cost.attributes) +
                         " attributes, " + std::to_string(cost.markup_bytes) + " bytes of markup), limit " +
                         std::to_string(options.budgets.max_memory_bytes >> 20U) + " MiB"};
    }
    if (options.runtime.deadline != Clock::time_point::max() && Clock::now() + cost.time > options.runtime.deadline) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(options.runtime.deadline - Clock::now());
        return Error{ErrorCode::deadline_exceeded, "the page would take about " +
                                                       std::to_string(cost.time.count() / 1000) + " ms, " +
                                                       std::to_string(std::max<std::int64_t>(left.count(), 0)) +
                                                       " ms are left"};
    }
    return options.runtime.admit ? options.runtime.admit(cost) : std::nullopt;
}

Article budget_exceeded(Article article, Error error) {
    article.status = Status::budget_exceeded;
    article.error = std::move(error);
    return article;
}

// The article a site rule's body selected: the selected elements, copied in
// document order into a document of their own, cleaned as Readability cleans
// an article when the rule prunes.
StrategyRun rule_body_run(const std::vector<dom::Node*>& body, const ExtractOptions& options, bool prune) {
    StrategyRun run;
    Attempt attempt{dom::Document(64U * 1024U, options.runtime.block_cache)};
    std::vector<dom::Node*> blocks;
    blocks.reserve(body.size());
    for (const dom::Node* node : body) {
        blocks.push_back(attempt.doc.clone(node));
    }
    attempt.content = assemble_article(attempt.doc, blocks, options, prune ? options.passes.flags : PassFlags::none);
    attempt.text_length = text::inner_text_length(attempt.content);
    run.status = attempt.text_length > 0 ? Status::ok : Status::no_content;
    if (attempt.text_length > 0) {
        run.chosen.emplace(std::move(attempt));
    }
    return run;
}

Article extract_unguarded(std::string_view bytes, const ExtractOptions& options) {
    Article article;
    if (options.budgets.max_input_bytes > 0 && bytes.size() > options.budgets.max_input_bytes) {
        return budget_exceeded(std::move(article),
                               Error{ErrorCode::input_too_large, "input is " + std::to_string(bytes.size()) +
                                                                     " bytes, limit " +
                                                                     std::to_string(options.budgets.max_input_bytes)});
    }

    auto stage_start = Clock::now();
    std::string decoded_storage;  // stays empty when the input already is valid UTF-8
    decode::DecodedView decoded = decode::to_utf8_view(bytes, options.input.charset, decoded_storage);
    article.charset = decoded.charset;
    article.timings.decode_us = micros_since(stage_start);
    if (auto late = deadline_passed(options, "parsing")) {
        return budget_exceeded(std::move(article), std::move(*late));
    }

    // A site rule's text replacements come before everything that reads the markup.
    const rules::SiteRule* rule =
        options.rule != nullptr ? options.rule
                                : options.rules != nullptr ? options.rules->find_for_url(options.input.url) : nullptr;
    std::optional<std::string> replaced = rule != nullptr ? rules::replaced_markup(*rule, decoded.utf8) : std::nullopt;
    const std::string_view utf8 = replaced ? std::string_view(*replaced) : decoded.utf8;

    stage_start = Clock::now();
    const dom::MarkupScan scan = dom::scan_markup(utf8);
    std::string pruned_storage;  // stays empty when there is nothing to cut
    const std::string_view markup = dom::without_ranges(utf8, scan.discardable, pruned_storage);
    article.timings.prune_us = micros_since(stage_start);

    const std::size_t copies = decoded_storage.size() + pruned_storage.size();
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
        return budget_exceeded(std::move(article), std::move(*refusal));
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
            return article;
        }
        return budget_exceeded(std::move(article), std::move(parsed).error());
    }
    dom::Document& doc = parsed.value();
    // The inspector's copy of the page, taken before any stage edits it.
    dom::Node* const source_copy = options.render.annotate_source ? doc.clone(doc.root()) : nullptr;
    decoded_storage = std::string();  // the DOM holds its own copies now
    pruned_storage = std::string();
    replaced.reset();
    std::optional<rules::Applied> applied;
    if (rule != nullptr) {
        applied = rules::apply_rule(*rule, doc);
        article.rule = RuleDiagnostics{rules::rule_source(*rule), "", applied->removed, applied->errors, rule->ignored};
    }
    if (auto late = deadline_passed(options, "metadata")) {
        return budget_exceeded(std::move(article), std::move(*late));
    }

    stage_start = Clock::now();
    article.readerable = is_probably_readable(doc, ReadableOptions{});
    const std::string base_url = document_base_url(doc, options.input.url);
    unwrap_noscript_images(doc);
    const bool skip_json_ld = options.disable_json_ld || (rule != nullptr && rule->skip_json_ld);
    const Metadata json_ld = skip_json_ld ? Metadata{} : read_json_ld(doc);
    remove_scripts(doc);
    prep_document(doc);
    Metadata metadata = read_metadata(doc, json_ld, base_url);
    if (applied) {  // what the rule names wins over what the page says of itself
        if (applied->title) {
            metadata.title = applied->title;
        }
        if (applied->author) {
            metadata.byline = applied->author;
        }
        if (applied->date) {
            metadata.published_time = applied->date;
        }
    }
    article.timings.metadata_us = micros_since(stage_start);

    stage_start = Clock::now();
    PassState state;
    PassInput input;
    input.article_title = metadata.title ? std::string_view(*metadata.title) : std::string_view{};
    input.metadata_has_byline = metadata.byline.has_value() && !metadata.byline->empty();
    input.scorer = options.readability.scorer;
    input.flags = options.passes.flags;
    article.strategy = options.strategy;
    StrategyRun run;
    if (applied) {
        std::erase_if(applied->body, [&doc](const dom::Node* n) { return !rules::is_attached(n, doc.root()); });
    }
    if (applied && !applied->body.empty()) {
        run = rule_body_run(applied->body, options, rule->prune);
        article.rule->outcome = "applied";
        if (options.strategy == Strategy::automatic) {
            article.decision = "the site rule's body was kept; no strategy ran";
        }
    } else if (applied && !rule->body.empty() && !rule->autodetect_on_failure) {
        run.status = Status::no_content;
        article.rule->outcome = "no_content";
    } else {
        run = run_strategy(doc, options, input, state, article);
        if (applied) {
            article.rule->outcome = rule->body.empty() ? "no_body" : "fell_back";
        }
    }
    if (run.stopped) {
        return budget_exceeded(std::move(article), std::move(*run.stopped));
    }
    std::optional<Attempt>& chosen = run.chosen;
    article.status = run.status;
    article.timings.passes_us = micros_since(stage_start);

    article.title = metadata.title;
    article.byline = input.metadata_has_byline ? metadata.byline : state.byline;
    article.lang = state.lang;
    article.excerpt = metadata.excerpt;
    article.site_name = metadata.site_name;
    article.published_time = metadata.published_time;
    article.image = metadata.image;
    article.favicon = metadata.favicon;
    if (chosen && chosen->pass_index < article.passes.size()) {  // a rule's body ran no pass
        article.article_pass = chosen->pass_index;
    }
    if (source_copy != nullptr) {
        article.annotated_source = annotate_source(doc, source_copy, article);
    }
    if (!chosen) {
        article.status = Status::no_content;
        return article;
    }

    stage_start = Clock::now();
    article.dir = chosen->dir;
    // Classes name code blocks' languages; post-processing removes them.
    const CodeLanguages languages = options.render.markdown ? code_languages(chosen->content) : CodeLanguages{};
    post_process(chosen->doc, chosen->content, options, base_url);
    if (!article.excerpt || article.excerpt->empty()) {
        if (const std::vector<dom::Node*> ps = elements_by_tag(chosen->content, dom::Tag::p); !ps.empty()) {
            article.excerpt = std::string(text::trim(dom::text_content(ps.front())));
        }
    }
    article.content = dom::inner_html(chosen->content);
    article.text_content = dom::text_content(chosen->content);
    article.length = text::utf16_length(article.text_content);
    article.timings.serialize_us = micros_since(stage_start);
    if (options.render.markdown || options.render.clean_text) {
        stage_start = Clock::now();
        if (options.render.markdown) {
            article.markdown = to_markdown(chosen->content, languages);
        }
        if (options.render.clean_text) {
            article.text = to_clean_text(chosen->content);
        }
        article.timings.render_us = micros_since(stage_start);
    }

    stage_start = Clock::now();
    ConfidenceInputs inputs;
    // A rule's article has no strategies to agree: it is judged by the signals all strategies share.
    const bool by_rule = article.rule && article.rule->outcome == "applied";
    inputs.strategy = by_rule ? Strategy::readability : options.strategy;
    inputs.status = article.status;
    inputs.text_length = chosen->text_length;
    inputs.page_text_length = doc.body() != nullptr ? text::inner_text_length(doc.body()) : 0;
    inputs.relaxation = chosen->relaxation;
    inputs.link_density = link_density(chosen->content);
    inputs.runner_up_ratio = chosen->runner_up_ratio;
    inputs.readerable = article.readerable;
    constexpr std::size_t kProseParagraph = 80;
    for (const dom::Node* p : elements_by_tag(chosen->content, dom::Tag::p)) {
        if (const std::size_t length = text::inner_text_length(p); length >= kProseParagraph) {
            ++inputs.paragraphs;
            inputs.paragraph_text += length;
        }
    }
    for (const RemovedBlock& block : article.removed) {
        inputs.removed_text += block.text_length;
    }
    inputs.readability_in_fitness = article.readability_in_fitness;
    inputs.fitness_in_readability = article.fitness_in_readability;
    for (const StrategyOutcome& outcome : article.strategies) {
        (outcome.strategy == Strategy::fitness ? inputs.fitness_length : inputs.readability_length) =
            outcome.text_length;
        if (outcome.strategy == Strategy::fitness) {
            inputs.kept_fitness = outcome.kept;
        }
    }
    const ConfidenceFeatures features = confidence_features(inputs);
    article.confidence = confidence_from(inputs.strategy, features);
    article.confidence_features.assign(features.begin(), features.end());
    if (article.confidence < options.min_confidence) {
        article.status = Status::low_confidence;
    }
    article.timings.confidence_us = micros_since(stage_start);
    return article;
}

}  // namespace

Article extract(std::string_view html_bytes, const ExtractOptions& options) {
    try {
        return extract_unguarded(html_bytes, options);
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

bool is_probably_readable(std::string_view html_bytes, std::string_view declared_charset,
                          const ReadableOptions& options) {
    try {
        const decode::DecodedText decoded = decode::to_utf8(html_bytes, declared_charset);
        std::string pruned_storage;
        const dom::MarkupScan scan = dom::scan_markup(decoded.utf8);
        const std::string_view markup = dom::without_ranges(decoded.utf8, scan.discardable, pruned_storage);
        const ExtractOptions defaults;
        const CostEstimate cost = estimate_cost(html_bytes.size(), markup.size(),
                                                decoded.utf8.size() + pruned_storage.size(), scan.estimate);
        if (refuse_before_parse(scan.estimate, cost, defaults)) {
            return false;  // not parsed within the default budgets
        }
        Result<dom::Document> parsed = dom::parse_html(markup, parse_limits(defaults, cost), nullptr, &scan.estimate);
        return parsed.ok() && is_probably_readable(parsed.value(), options);
    } catch (const std::exception&) {
        return false;
    }
}

}  // namespace pith::extract
