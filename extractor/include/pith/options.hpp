// What an extraction is asked to do, grouped by the stage that reads it: the
// input, the budgets checked before the parse, the passes every strategy runs,
// each strategy's own tuning, the renderings, and the runtime hooks a server
// plugs in. Every option a front-end can set is a row of the option table
// (pith/option_table.hpp), which names, documents and validates it once.
//
// Thread-safety: plain values; share them read-only.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pith/cost.hpp"
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
// `region` is auto's own pass for pages that are not articles (the page's main
// region without its furniture, strategies/region.cpp): it names that pass in
// diagnostics and is not an option's choice.
enum class Strategy : std::uint8_t { readability, lectito, fitness, automatic, region };
[[nodiscard]] std::string_view strategy_name(Strategy strategy) noexcept;  // "auto" for automatic
[[nodiscard]] std::optional<Strategy> strategy_from_name(std::string_view name) noexcept;

// The kinds of page pith tells apart (pith/article.hpp says what each holds).
enum class PageType : std::uint8_t { article, forum, product, collection, listing, documentation, service };

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

// The page and what the caller knows of it.
struct InputOptions {
    std::string url;      // document URL: base for relative links ("" keeps them relative)
    std::string charset;  // charset declared by the caller (HTTP Content-Type), may be ""
};

// Limits checked before the expensive work (refusals are budget_exceeded
// Articles whose error names the limit). 0 = unlimited for each.
struct Budgets {
    // Refused before decoding. 16 MiB, pithd's default body limit: the largest
    // real page in either corpus is 1.6 MB, and gumbo alone needs about a
    // second per 20 MB here.
    std::size_t max_input_bytes = 16U * 1024U * 1024U;
    std::size_t max_elements = 0;          // Readability maxElemsToParse
    std::size_t max_nesting_depth = 8192;  // estimate checked before parsing
    // Checked before parsing. 512 is far above real pages and keeps gumbo's
    // pairwise duplicate check near a second on a 16 MiB page of attributes
    // (100,000 on one element took 24 s here).
    std::size_t max_attributes_per_element = 512;
    // Refused before parsing when the estimated working memory is larger
    // (too_much_memory), and gumbo is stopped if it outgrows its share. 256
    // MiB: 9.4 times the largest estimate over both corpora (bench/cost_model.py).
    std::size_t max_memory_bytes = 256U * 1024U * 1024U;
};

// The staged passes every strategy runs: the first pass's heuristics, and the
// retries that drop them one at a time while the text is short.
struct PassOptions {
    PassFlags flags = PassFlags::all;  // flags of the first pass
    bool retry = true;                 // drop flags one at a time while text is short
    std::size_t char_threshold = 500;  // Readability DEFAULT_CHAR_THRESHOLD
    std::size_t n_top_candidates = 5;  // Readability DEFAULT_N_TOP_CANDIDATES
};

class ContentScorer;

// The readability strategy's own tuning (seeds 003 and 004).
struct ReadabilityOptions {
    SelectMode select_mode = SelectMode::readability;
    // dom_smoothie's min_score_to_adjust: only candidates scoring above it are
    // scaled by (1 - link density); none scales every one, as Readability does.
    std::optional<double> min_score_to_adjust;
    double link_density_modifier = 0.0;     // Readability linkDensityModifier
    const ContentScorer* scorer = nullptr;  // nullptr = readability_scorer() (see scorer.hpp)
};

// Lectito's thresholds (seed 000).
struct LectitoOptions {
    double min_score = 20.0;               // no element scoring above it: no_content
    std::size_t char_threshold = 500;      // shorter article text: a looser retry, then best_attempt
    std::size_t min_content_length = 140;  // elements with less text are not candidates
};

// The body text tagger's weights and thresholds (seed 002). Weights only
// matter relative to each other; 0 ignores a feature. The defaults were fitted
// by bench/fit/fit_fitness.py (a coordinate descent from equal weights and the
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

// What the answer carries besides the article's HTML and textContent.
struct RenderOptions {
    bool markdown = false;    // Article::markdown: GitHub-flavoured Markdown
    bool clean_text = false;  // Article::text: text that reads as text
    // Article::annotated_source: the page as parsed, with the elements the
    // extraction weighed marked on it (inspect/annotate.hpp), for the
    // inspector. It costs a copy of the page's DOM and its serialisation, which
    // the memory estimate counts.
    bool annotate_source = false;
    bool keep_classes = false;                     // keep class attributes in content
    std::vector<std::string> classes_to_preserve;  // besides "page"
};

// Articles split over several pages (issue 27). extract() reads one page;
// ArticleWalk (pith/pages.hpp) reads the next ones its caller fetches.
struct PageOptions {
    // The most pages one article is read from, the first included; 1 reads
    // the page given and nothing else. Above 1, the page's pagination is
    // taken out of the article and its next page's link is looked for.
    std::size_t max_pages = 1;
};

// What a server plugs into one call; a library caller may leave them all.
struct RuntimeHooks {
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
    // The fitted models to use (page type, the block model, auto's judge, the
    // title model): -1 the ones fitted on every development page; 0-4 the ones
    // fitted without that fold of domains, for the quality bench's out-of-fold
    // figures (bench/quality.cpp). The confidence models have no fold models
    // (bench/fit/fit_confidence.py refits per fold for its own figures), so
    // `confidence` and `predicted_f1` stay the in-sample models' here.
    int model_fold = -1;
};

struct ExtractOptions {
    InputOptions input;
    Budgets budgets;
    Strategy strategy = Strategy::automatic;
    // The page's type when the caller knows it; none: the classifier says.
    std::optional<PageType> page_type;
    PassOptions passes;
    ReadabilityOptions readability;
    LectitoOptions lectito;
    FitnessOptions fitness;
    bool disable_json_ld = false;  // metadata from <meta> and the page only
    // Page builders and access gates send a page's content hidden and show it
    // from a script, which pith does not run. With this, a hidden element
    // holding two thirds of the page's text or more is taken as shown (every
    // strategy but readability). On by default: the fitted models are fitted
    // on the pages it reveals.
    bool reveal_hidden = true;
    // With this, text that was UTF-8, read as windows-1252 or Latin-1 and
    // stored as UTF-8 again ("â€™" for "’") is restored before parsing, where
    // the page reads as such (decode::repair_double_encoding). Off by default:
    // the fitted models are fitted on pages as sent, and refitted with it on,
    // their chain moved the confidence's routing under its floor (the
    // README's limitations give the figures).
    bool repair_double_encoding = false;
    // With this, the segments React's streamed server rendering sends hidden
    // after the page's shell (<div hidden id="S:n">) are put where its script
    // would put them, into their boundary or placeholder <template> (every
    // strategy but readability; page/prep.hpp's replay_streamed_segments). Off
    // by default: the fitted models are fitted on pages as sent, and refitted
    // with it on, their chain moved the confidence's routing under its floor
    // (the README's limitations give the figures).
    bool replay_streamed = false;
    // auto leaves out the later copies of a passage a page shows twice or
    // three times (strategies/left_out.hpp): a responsive page's second
    // layout, a teaser above its full text. With this, they stay, as the page
    // has them (auto's judge is fitted on its candidates so).
    bool keep_repeated = false;
    // An article that is page furniture (a few words, no sentence, under half
    // of the page's text: what is left of a page a script draws) is reported
    // as no_content. With this, it is returned as found (auto's judge is
    // fitted on its candidates so). Never for readability, which returns it.
    bool keep_furniture = false;
    // Where the page's JSON-LD declares its article's body and that body
    // holds twice the text of the article auto found in the page (a paywall's
    // teaser, the empty shell a script fills), auto takes it
    // (strategies/declared.hpp). With this off, the page's article stays.
    bool declared_body = true;
    // Site rules (pith/rules.hpp): the rule for the host of input.url applies,
    // or `rule` when given (a request's own). Both outlive the call.
    const rules::RuleSet* rules = nullptr;
    const rules::SiteRule* rule = nullptr;
    RenderOptions render;
    PageOptions pages;
    // An article whose confidence is under this comes back with status
    // low_confidence (the article still in it), for a caller that routes such
    // pages to a fallback. 0 = never. Within [0, 1].
    double min_confidence = 0.0;
    RuntimeHooks runtime;
};

// Checks every option's range (the option table's rules) and that input.url
// is absolute when given. Errors: invalid_argument naming the option.
[[nodiscard]] Result<bool> validate(const ExtractOptions& options);

// Readability-readerable's thresholds.
struct ReadableOptions {
    double min_score = 20.0;               // Readability-readerable minScore
    std::size_t min_content_length = 140;  // Readability-readerable minContentLength
};

}  // namespace pith::extract
