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

#include "output/confidence.hpp"
#include "metadata/metadata.hpp"
#include "readability/pipeline.hpp"
#include "dom/raw_text.hpp"
#include "pith/decode.hpp"
#include "pith/dom.hpp"
#include "pith/url.hpp"
#include "text/text.hpp"

namespace pith::extract {

std::string_view status_name(Status status) noexcept {
    switch (status) {
    case Status::ok: return "ok";
    case Status::best_attempt: return "best_attempt";
    case Status::no_content: return "no_content";
    case Status::budget_exceeded: return "budget_exceeded";
    }
    return "no_content";
}

std::string pass_flags_name(PassFlags flags) {
    std::string out;
    auto add = [&](PassFlags flag, std::string_view name) {
        if (has(flags, flag)) {
            if (!out.empty()) {
                out.push_back('|');
            }
            out.append(name);
        }
    };
    add(PassFlags::strip_unlikelys, "strip_unlikelys");
    add(PassFlags::weight_classes, "weight_classes");
    add(PassFlags::clean_conditionally, "clean_conditionally");
    return out.empty() ? "none" : out;
}

Result<bool> validate(const ExtractOptions& options) {
    if (options.n_top_candidates == 0 || options.n_top_candidates > 1000) {
        return Error{ErrorCode::invalid_argument,
                     "n_top_candidates must be 1..1000, got " + std::to_string(options.n_top_candidates)};
    }
    if (!std::isfinite(options.link_density_modifier) || std::abs(options.link_density_modifier) > 1.0) {
        return Error{ErrorCode::invalid_argument, "link_density_modifier must be within [-1, 1]"};
    }
    if (!options.url.empty() && !url::is_absolute(options.url)) {
        return Error{ErrorCode::invalid_argument, "url must be an absolute URL, got \"" + options.url + "\""};
    }
    return true;
}

namespace {

using Clock = std::chrono::steady_clock;

std::int64_t micros_since(Clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
}

// The order in which retry passes drop heuristics (Readability.js, seed 003).
constexpr PassFlags kDropOrder[] = {PassFlags::strip_unlikelys, PassFlags::weight_classes,
                                    PassFlags::clean_conditionally};

struct Attempt {
    explicit Attempt(dom::Document copy) : doc(std::move(copy)) {}

    dom::Document doc;  // the pass's copy of the prepared document; owns content
    dom::Node* content = nullptr;
    std::size_t text_length = 0;
    std::size_t pass_index = 0;
    std::optional<std::string> dir;
    double runner_up_ratio = 0.0;
};

double runner_up_ratio(const PassDiagnostics& diag) {
    if (diag.top_candidates.size() < 2 || diag.top_candidates[0].score <= 0) {
        return 0.0;
    }
    return diag.top_candidates[1].score / diag.top_candidates[0].score;
}

// The parse's limits under `options`, gumbo's heap capped at the share of the
// memory budget that `cost` gives it.
dom::ParseLimits parse_limits(const ExtractOptions& options, const CostEstimate& cost) {
    dom::ParseLimits limits{options.max_elements, options.max_nesting_depth, options.max_attributes_per_element};
    limits.max_parse_bytes = options.max_memory_bytes > 0 ? cost.parse_bytes : 0;
    limits.deadline = options.deadline;
    limits.block_cache = options.block_cache;
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
    if (options.max_memory_bytes > 0 && cost.memory_bytes > options.max_memory_bytes) {
        return Error{ErrorCode::too_much_memory,
                     "the page would need about " + std::to_string(cost.memory_bytes >> 20U) + " MiB (" +
                         std::to_string(cost.elements) + " elements, " + std::to_string(cost.attributes) +
                         " attributes, " + std::to_string(cost.markup_bytes) + " bytes of markup), limit " +
                         std::to_string(options.max_memory_bytes >> 20U) + " MiB"};
    }
    if (options.deadline != Clock::time_point::max() && Clock::now() + cost.time > options.deadline) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(options.deadline - Clock::now());
        return Error{ErrorCode::deadline_exceeded, "the page would take about " +
                                                       std::to_string(cost.time.count() / 1000) + " ms, " +
                                                       std::to_string(std::max<std::int64_t>(left.count(), 0)) +
                                                       " ms are left"};
    }
    return options.admit ? options.admit(cost) : std::nullopt;
}

// A pass's copy of the prepared document: <html> with <head> and <body>.
// Its strings stay views into `prepared`'s arena, which outlives it.
dom::Document pass_copy(const dom::Document& prepared, dom::BlockCache* cache) {
    // A copy holds at most what the prepared document does (its text stays
    // shared), so one block of that size is all it needs.
    dom::Document copy(prepared.arena_bytes_used(), cache);
    if (const dom::Node* html = prepared.document_element()) {
        dom::append_child(copy.root(), copy.clone(html));
    }
    return copy;
}

Article budget_exceeded(Article article, Error error) {
    article.status = Status::budget_exceeded;
    article.error = std::move(error);
    return article;
}

// The deadline_exceeded error when options.deadline has passed, naming the
// stage that was about to start.
std::optional<Error> deadline_passed(const ExtractOptions& options, std::string_view next_stage) {
    if (Clock::now() < options.deadline) {
        return std::nullopt;
    }
    return Error{ErrorCode::deadline_exceeded, "deadline passed before " + std::string(next_stage)};
}

Article extract_unguarded(std::string_view bytes, const ExtractOptions& options) {
    Article article;
    if (options.max_input_bytes > 0 && bytes.size() > options.max_input_bytes) {
        return budget_exceeded(std::move(article),
                               Error{ErrorCode::input_too_large, "input is " + std::to_string(bytes.size()) +
                                                                     " bytes, limit " +
                                                                     std::to_string(options.max_input_bytes)});
    }

    auto stage_start = Clock::now();
    std::string decoded_storage;  // stays empty when the input already is valid UTF-8
    decode::DecodedView decoded = decode::to_utf8_view(bytes, options.charset, decoded_storage);
    article.charset = decoded.charset;
    article.timings.decode_us = micros_since(stage_start);
    if (auto late = deadline_passed(options, "parsing")) {
        return budget_exceeded(std::move(article), std::move(*late));
    }

    stage_start = Clock::now();
    const dom::MarkupScan scan = dom::scan_markup(decoded.utf8);
    std::string pruned_storage;  // stays empty when there is nothing to cut
    const std::string_view markup = dom::without_ranges(decoded.utf8, scan.discardable, pruned_storage);
    article.timings.prune_us = micros_since(stage_start);

    const std::size_t copies = decoded_storage.size() + pruned_storage.size();
    const CostEstimate& cost = article.cost.emplace(estimate_cost(bytes.size(), markup.size(), copies, scan.estimate));
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
    decoded_storage = std::string();  // the DOM holds its own copies now
    pruned_storage = std::string();
    if (auto late = deadline_passed(options, "metadata")) {
        return budget_exceeded(std::move(article), std::move(*late));
    }

    stage_start = Clock::now();
    article.readerable = is_probably_readable(doc, ReadableOptions{});
    const std::string base_url = document_base_url(doc, options.url);
    unwrap_noscript_images(doc);
    const Metadata json_ld = options.disable_json_ld ? Metadata{} : read_json_ld(doc);
    remove_scripts(doc);
    prep_document(doc);
    const Metadata metadata = read_metadata(doc, json_ld, base_url);
    article.timings.metadata_us = micros_since(stage_start);

    stage_start = Clock::now();
    PassState state;
    PassInput input;
    input.article_title = metadata.title ? std::string_view(*metadata.title) : std::string_view{};
    input.metadata_has_byline = metadata.byline.has_value() && !metadata.byline->empty();
    input.scorer = options.scorer;
    input.flags = options.flags;

    // Each pass works on its own copy of the prepared document, as Readability
    // restores page.innerHTML before a retry, and the prepared document stays
    // untouched as the source of the next copy. A copy has its own arena, so
    // an attempt that loses gives its memory back at once: at most two copies
    // (the running pass and the longest short attempt) are alive.
    std::optional<Attempt> chosen;
    std::optional<Attempt> longest;  // the longest attempt under char_threshold so far
    for (std::size_t pass = 0;; ++pass) {
        if (auto late = deadline_passed(options, "pass " + std::to_string(pass + 1))) {
            return budget_exceeded(std::move(article), std::move(*late));
        }
        Attempt attempt(pass_copy(doc, options.block_cache));
        PassOutput out = grab_article(attempt.doc, options, input, state);
        attempt.runner_up_ratio = runner_up_ratio(out.diagnostics);
        const bool stopped = out.diagnostics.outcome == "deadline";
        article.passes.push_back(std::move(out.diagnostics));
        if (stopped) {
            return budget_exceeded(std::move(article), Error{ErrorCode::deadline_exceeded,
                                                             "deadline passed during pass " + std::to_string(pass + 1)});
        }
        if (out.content == nullptr) {
            break;  // no <body>: nothing any pass could find
        }
        attempt.content = out.content;
        attempt.text_length = out.text_length;
        attempt.pass_index = pass;
        attempt.dir = state.dir;
        if (out.text_length >= options.char_threshold) {
            chosen = std::move(attempt);
            article.status = Status::ok;
            break;
        }
        // Ties go to the earliest attempt (Readability sorts with a stable sort).
        if (!longest || attempt.text_length > longest->text_length) {
            longest = std::move(attempt);
        }
        const auto next_drop = std::find_if(std::begin(kDropOrder), std::end(kDropOrder),
                                            [&](PassFlags f) { return has(input.flags, f); });
        if (!options.retry || next_drop == std::end(kDropOrder)) {
            break;
        }
        input.flags = without(input.flags, *next_drop);
    }
    if (!chosen && longest && longest->text_length > 0) {
        chosen = std::move(longest);
        chosen->dir = state.dir;  // Readability reads dir off the last pass's candidate
        article.status = Status::best_attempt;
        article.passes[chosen->pass_index].outcome = "best_attempt";
    }
    longest.reset();
    article.timings.passes_us = micros_since(stage_start);

    article.title = metadata.title;
    article.byline = input.metadata_has_byline ? metadata.byline : state.byline;
    article.lang = state.lang;
    article.excerpt = metadata.excerpt;
    article.site_name = metadata.site_name;
    article.published_time = metadata.published_time;
    article.image = metadata.image;
    article.favicon = metadata.favicon;
    if (!chosen) {
        article.status = Status::no_content;
        return article;
    }

    stage_start = Clock::now();
    article.dir = chosen->dir;
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

    article.confidence = compute_confidence(ConfidenceInputs{
        article.status, chosen->text_length, options.char_threshold, chosen->pass_index,
        link_density(chosen->content), chosen->runner_up_ratio, article.readerable});
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
