// The extractor: HTML bytes in, an Article out. Readability.js's algorithm
// (seeds 003 and 004) with element budgets, staged retry passes, a confidence
// score and per-pass diagnostics (seeds 000 and 001).
//
// Thread-safety: extract() and is_probably_readable() are reentrant; run as many
// concurrently as there are threads. They never throw on bad input.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pith/dom.hpp"
#include "pith/result.hpp"

namespace pith::rules {
class RuleSet;
struct SiteRule;
}  // namespace pith::rules

namespace pith::extract {

// Heuristic flags of one pass (Readability.js FLAG_*). A typed bitmask.
enum class PassFlags : std::uint8_t {
    none = 0,
    strip_unlikelys = 1U << 0U,
    weight_classes = 1U << 1U,
    clean_conditionally = 1U << 2U,
    all = 0x7,
};
[[nodiscard]] constexpr PassFlags operator|(PassFlags a, PassFlags b) noexcept {
    return static_cast<PassFlags>(static_cast<std::uint8_t>(a) | static_cast<std::uint8_t>(b));
}
[[nodiscard]] constexpr PassFlags operator&(PassFlags a, PassFlags b) noexcept {
    return static_cast<PassFlags>(static_cast<std::uint8_t>(a) & static_cast<std::uint8_t>(b));
}
[[nodiscard]] constexpr PassFlags without(PassFlags a, PassFlags b) noexcept {
    return static_cast<PassFlags>(static_cast<std::uint8_t>(a) & ~static_cast<std::uint8_t>(b));
}
[[nodiscard]] constexpr bool has(PassFlags set, PassFlags flag) noexcept {
    return (set & flag) != PassFlags::none;
}
// The flags' names joined by '|', e.g. "strip_unlikelys|weight_classes"; "none".
[[nodiscard]] std::string pass_flags_name(PassFlags flags);

// The algorithm that finds the article (issue 12). `readability` is
// Readability.js's, with dom_smoothie's selection modes and policies;
// `lectito` Lectito's scoring formula (seed 000); `fitness` the weighted body
// text tagger (seed 002); `automatic` ("auto") runs them and keeps the best.
enum class Strategy : std::uint8_t { readability, lectito, fitness, automatic };
[[nodiscard]] std::string_view strategy_name(Strategy strategy) noexcept;  // "auto" for automatic
[[nodiscard]] std::optional<Strategy> strategy_from_name(std::string_view name) noexcept;

// How the readability strategy moves from its top candidate to a container
// (seed 003): `readability` climbs to an ancestor that three close runners-up
// share; `dom_smoothie` intersects the ancestors of every close runner-up and
// takes the best-scored common ancestor below <body>.
enum class SelectMode : std::uint8_t { readability, dom_smoothie };
[[nodiscard]] std::string_view select_mode_name(SelectMode mode) noexcept;
[[nodiscard]] std::optional<SelectMode> select_mode_from_name(std::string_view name) noexcept;

// dom_smoothie's single-pass policies: the flags of one deterministic pass.
enum class Policy : std::uint8_t { strict, moderate, clean, raw };
[[nodiscard]] std::string_view policy_name(Policy policy) noexcept;
[[nodiscard]] std::optional<Policy> policy_from_name(std::string_view name) noexcept;
[[nodiscard]] constexpr PassFlags policy_flags(Policy policy) noexcept {
    switch (policy) {
    case Policy::strict: return PassFlags::all;
    case Policy::moderate: return PassFlags::weight_classes | PassFlags::clean_conditionally;
    case Policy::clean: return PassFlags::clean_conditionally;
    case Policy::raw: return PassFlags::none;
    }
    return PassFlags::all;
}

// Lectito's thresholds (seed 000).
struct LectitoOptions {
    double min_score = 20.0;               // no element scoring above it: no_content
    std::size_t char_threshold = 500;      // shorter article text: a looser retry, then best_attempt
    std::size_t min_content_length = 140;  // elements with less text are not candidates
};

// The body text tagger's weights and thresholds (seed 002). Weights only
// matter relative to each other; 0 ignores a feature. The defaults were fitted
// by bench/fit_fitness.py (a coordinate descent from equal weights and the
// thresholds 0.25, 0.66, 0.25, 0.05) on trafilatura-dev and Mozilla's pages:
// the mean of snippet F1 and token F1 went from 0.898 to 0.940. Tag density
// fitted to 0: the tagger finds containers by their links and words, not by
// how their text is nested.
struct FitnessOptions {
    double link_density_weight = 4.0;        // lower link density is fitter
    double tag_density_weight = 0.0;         // less text inside child blocks is fitter
    double title_case_weight = 0.2812;       // fewer Title Case Words is fitter
    double punctuation_weight = 0.25;        // more punctuation is fitter
    double word_count_weight = 1.5;          // more words is fitter
    double depth_weight = 1.5;               // deeper is fitter
    double document_word_postweight = 0.25;  // share of the final fitness that is the node's share of the page's words
    double min_child_fitness_ratio = 0.56;   // leading and trailing children below it (times the best child's) are pruned
    double min_text_percentage = 0.05;       // a container holding less of the page's text: the whole <body>
    double punctuation_norm = 0.05;          // punctuation per character at which that feature reaches 1
};

class ContentScorer;

// What extract() expects one document to cost, from the scan of its tags that
// runs before the parse. The coefficients are measured (cost.cpp says how):
// memory_bytes is an upper bound of the peak working memory over every shape
// of page tried, time a typical figure on one core.
struct CostEstimate {
    std::size_t input_bytes = 0;   // the page as given
    std::size_t markup_bytes = 0;  // what gumbo parses: decoded, script and style text cut
    std::size_t elements = 0;      // start tags
    std::size_t attributes = 0;    // on all start tags
    std::size_t comments = 0;      // comment nodes the parser will make
    std::size_t memory_bytes = 0;  // peak working memory, the page's own bytes included
    std::size_t parse_bytes = 0;   // gumbo's share of memory_bytes, enforced as a cap on its heap
    std::chrono::microseconds time{0};
};

// The cost of extracting a page of `input_bytes` whose decoded markup has
// `markup_bytes` and the tags `estimate` counts.
[[nodiscard]] CostEstimate estimate_cost(std::size_t input_bytes, std::size_t markup_bytes,
                                         std::size_t decoded_copy_bytes, const dom::MarkupEstimate& estimate);

// What ExtractOptions::annotate_source adds to `cost`'s memory: a copy of the
// page's DOM and the annotated page's HTML, upper bounds by its counts.
[[nodiscard]] std::size_t annotated_source_bytes(const CostEstimate& cost) noexcept;

struct ExtractOptions {
    std::string url;      // document URL: base for relative links ("" keeps them relative)
    std::string charset;  // charset declared by the caller (HTTP Content-Type), may be ""
    // Refused before decoding; 0 = unlimited. 16 MiB, pithd's default body limit:
    // the largest real page in either corpus is 1.6 MB, and gumbo alone needs
    // about a second per 20 MB here.
    std::size_t max_input_bytes = 16U * 1024U * 1024U;
    std::size_t max_elements = 0;          // 0 = unlimited (Readability maxElemsToParse)
    std::size_t max_nesting_depth = 8192;  // estimate checked before parsing; 0 = unlimited
    // Checked before parsing; 0 = unlimited. 512 is far above real pages and
    // keeps gumbo's pairwise duplicate check near a second on a 16 MiB page of
    // attributes (100,000 on one element took 24 s here).
    std::size_t max_attributes_per_element = 512;
    // Refused before parsing when the estimated working memory is larger
    // (too_much_memory), and gumbo is stopped if it outgrows its share; 0 =
    // unlimited. 256 MiB: 10 times the largest estimate over both corpora
    // (bench/cost_model.py).
    std::size_t max_memory_bytes = 256U * 1024U * 1024U;
    std::size_t char_threshold = 500;      // Readability DEFAULT_CHAR_THRESHOLD
    std::size_t n_top_candidates = 5;      // Readability DEFAULT_N_TOP_CANDIDATES
    PassFlags flags = PassFlags::all;      // flags of the first pass
    bool retry = true;                     // drop flags one at a time while text is short
    bool keep_classes = false;             // keep class attributes in content
    std::vector<std::string> classes_to_preserve;  // besides "page"
    bool disable_json_ld = false;
    double link_density_modifier = 0.0;    // Readability linkDensityModifier
    const ContentScorer* scorer = nullptr;  // nullptr = readability_scorer() (see scorer.hpp)
    Strategy strategy = Strategy::automatic;
    SelectMode select_mode = SelectMode::readability;
    // dom_smoothie's min_score_to_adjust: only candidates scoring above it are
    // scaled by (1 - link density); none scales every one, as Readability does.
    std::optional<double> min_score_to_adjust;
    LectitoOptions lectito;
    FitnessOptions fitness;
    // Site rules (pith/rules.hpp): the rule for the host of `url` applies,
    // or `rule` when given (a request's own). Both outlive the call.
    const rules::RuleSet* rules = nullptr;
    const rules::SiteRule* rule = nullptr;
    // Renderings of the article besides its HTML and textContent: GitHub-
    // flavoured Markdown (Article::markdown) and clean text (Article::text).
    bool markdown = false;
    bool clean_text = false;
    // Article::annotated_source: the page as parsed, with the elements the
    // extraction weighed marked on it (output/annotate.hpp), for the
    // inspector. It costs a copy of the page's DOM and its serialisation, which
    // the memory estimate counts.
    bool annotate_source = false;
    // An article whose confidence is under this comes back with status
    // low_confidence (the article still in it), for a caller that routes such
    // pages to a fallback. 0 = never. Within [0, 1].
    double min_confidence = 0.0;
    // When the work must end. Work whose estimated time does not fit before it
    // is refused; the parse and the DOM build are stopped when it passes, and
    // it is checked between stages, before each pass and within the candidate
    // walk. Past it, the result is a budget_exceeded Article with error
    // deadline_exceeded. Default: none.
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
    // Called once the cost is known and before the parse, on the calling
    // thread: a server reserves the memory here. An Error refuses the work; it
    // becomes the result's error, with status budget_exceeded.
    std::function<std::optional<Error>(const CostEstimate&)> admit;
    // Arena blocks kept between calls on the calling thread (dom::BlockCache),
    // so a worker's next page starts on memory already faulted in; nullptr:
    // every page gets fresh memory. Never shared between threads.
    dom::BlockCache* block_cache = nullptr;
};

// The fitness options by name, for the CLI, the API and the fitting script.
struct FitnessOptionField {
    std::string_view name;
    double FitnessOptions::*member;
};
[[nodiscard]] std::span<const FitnessOptionField> fitness_option_fields() noexcept;
// Each field finite and >= 0, the post-weight and the two ratios at most 1.
[[nodiscard]] Result<bool> validate(const FitnessOptions& fitness);

// Checks option ranges. Errors: invalid_argument naming the option.
[[nodiscard]] Result<bool> validate(const ExtractOptions& options);

enum class Status {
    ok,               // a pass reached char_threshold
    best_attempt,     // no pass did; the longest attempt is returned
    no_content,       // nothing readable at all
    budget_exceeded,  // refused by a budget; `error` says which
    low_confidence,   // an article, with a confidence under options.min_confidence
};
[[nodiscard]] std::string_view status_name(Status status) noexcept;

struct CandidateInfo {
    std::string path;  // CSS-like path, e.g. "html>body>div#main>article.post"
    double score = 0.0;
    double link_density = 0.0;
    // The element's dom::Node::source_index: where it is in the source
    // document. 0 when pith made the element (no source element is it).
    std::uint32_t source_index = 0;
};

struct PassDiagnostics {
    Strategy strategy = Strategy::readability;  // whose pass it was
    PassFlags flags = PassFlags::all;
    std::size_t elements_seen = 0;     // elements visited by the candidate walk
    std::size_t candidate_count = 0;   // nodes that received a content score
    std::vector<CandidateInfo> top_candidates;
    std::string chosen_root;           // path of the chosen top candidate
    std::uint32_t chosen_root_index = 0;  // its source_index, as CandidateInfo's
    std::size_t text_length = 0;       // UTF-16 units of the pass's article text
    std::int64_t duration_us = 0;
    // "accepted", "too_short", "best_attempt", "no_content" (lectito: no
    // element scored min_score), "no_body", "deadline"
    std::string outcome;
    std::string reason;  // why there was no content, when a strategy says
};

// A block auto removed from the article it kept as boilerplate.
struct RemovedBlock {
    std::string kind;         // "caption", "named", "links", "figure", "date_line", "label"
    std::string path;         // CSS-like path, as CandidateInfo's
    std::uint32_t source_index = 0;  // as CandidateInfo's
    std::size_t text_length = 0;  // UTF-16 units of its text
    std::string excerpt;      // its first 100 characters
};

// What one strategy found, as `auto` saw it before choosing.
struct StrategyOutcome {
    Strategy strategy = Strategy::readability;
    Status status = Status::no_content;
    std::string chosen_root;       // path of the root its article came from
    std::uint32_t chosen_root_index = 0;  // its source_index, as CandidateInfo's
    std::size_t text_length = 0;   // UTF-16 units of its article text
    bool kept = false;             // the one auto returned
};

// The signals the confidence model reads, in the order of its weights
// (output/confidence_model.inc, fitted by bench/fit_confidence.py). The last
// five are auto's: 0 for the other strategies.
inline constexpr std::size_t kConfidenceFeatureCount = 14;
[[nodiscard]] std::span<const std::string_view, kConfidenceFeatureCount> confidence_feature_names() noexcept;

// A site rule's part in one extraction.
struct RuleDiagnostics {
    std::string source;   // the file (and pattern) it came from
    // "applied": its body is the article; "fell_back": its body selected
    // nothing and the strategy ran; "no_body": it has none (only removals and
    // metadata); "no_content": its body selected nothing and it forbids the
    // fallback (autodetect_on_failure: no).
    std::string outcome;
    std::size_t removed = 0;            // elements its strip directives removed
    std::vector<std::string> errors;    // expressions that failed on this page
    std::vector<std::string> ignored;   // directives read and not acted on
};

struct StageTimings {
    std::int64_t decode_us = 0;
    std::int64_t prune_us = 0;      // cutting script and style text before the parse
    std::int64_t parse_us = 0;      // gumbo (with the budget estimate)
    std::int64_t dom_build_us = 0;  // building pith's DOM from gumbo's tree
    std::int64_t metadata_us = 0;
    std::int64_t passes_us = 0;
    std::int64_t serialize_us = 0;
    std::int64_t confidence_us = 0;  // its signals and the model
    std::int64_t render_us = 0;      // Markdown and clean text, when asked for
};

struct Article {
    // Readability.js field names and meanings.
    std::optional<std::string> title;
    std::optional<std::string> byline;
    std::optional<std::string> dir;
    std::optional<std::string> lang;
    std::string content;       // HTML of the article
    std::string text_content;  // its textContent
    // With ExtractOptions::markdown: GitHub-flavoured Markdown of content.
    std::optional<std::string> markdown;
    // With ExtractOptions::clean_text: text that reads as text (one blank
    // line between blocks, list items and table rows as lines).
    std::optional<std::string> text;
    // With ExtractOptions::annotate_source, once the page was parsed.
    std::optional<std::string> annotated_source;
    std::size_t length = 0;    // text_content length in UTF-16 code units
    std::optional<std::string> excerpt;
    std::optional<std::string> site_name;
    std::optional<std::string> published_time;
    // pith additions.
    std::optional<std::string> image;
    std::optional<std::string> favicon;
    bool readerable = false;   // is_probably_readable's answer on the same document
    Status status = Status::no_content;
    // The estimated probability that the article is right (output/confidence.hpp
    // says what "right" means); 0 when there is no article.
    double confidence = 0.0;
    std::optional<Error> error;  // set when status is budget_exceeded
    std::string charset;       // the charset the input was decoded from
    Strategy strategy = Strategy::readability;  // the strategy asked for
    std::vector<PassDiagnostics> passes;
    // The pass in `passes` whose article was returned; none when nothing was
    // found, or a site rule's body was the article.
    std::optional<std::size_t> article_pass;
    // auto only: each strategy's result and why one was kept.
    std::vector<StrategyOutcome> strategies;
    std::string decision;
    std::vector<RemovedBlock> removed;  // from the kept article, in document order
    std::optional<RuleDiagnostics> rule;  // when a site rule applied to the page
    // auto only: the share of each strategy's article text that the other's
    // holds (0 when either found nothing).
    double readability_in_fitness = 0.0;
    double fitness_in_readability = 0.0;
    // What the confidence was computed from, by confidence_feature_names();
    // empty when there is no article.
    std::vector<double> confidence_features;
    StageTimings timings;
    std::optional<CostEstimate> cost;  // once the tags were scanned
};

// YAML front matter for the article as a Markdown file, as Lectito's and
// defuddle's command lines write it: title, author, date, site, url (`url`,
// when not empty) and language, each only when known, between "---" lines,
// then a blank line.
[[nodiscard]] std::string yaml_front_matter(const Article& article, std::string_view url);

// Extracts the article from raw HTML bytes (any charset). Never throws on bad
// input; a budget refusal is an Article with status budget_exceeded.
[[nodiscard]] Article extract(std::string_view html_bytes, const ExtractOptions& options = {});

struct ReadableOptions {
    double min_score = 20.0;              // Readability-readerable minScore
    std::size_t min_content_length = 140; // Readability-readerable minContentLength
};

// Readability's isProbablyReaderable preflight on raw HTML bytes.
[[nodiscard]] bool is_probably_readable(std::string_view html_bytes,
                                        std::string_view declared_charset = {},
                                        const ReadableOptions& options = {});

}  // namespace pith::extract
