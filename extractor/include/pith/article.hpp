// The result of an extraction and its diagnostics, with the names the wire
// gives its enums beside them. pith/article_json.hpp decides the JSON shape;
// proto-docs/article.schema.json describes it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pith/cost.hpp"
#include "pith/options.hpp"
#include "pith/result.hpp"

namespace pith::extract {

enum class Status {
    ok,               // a pass reached char_threshold
    best_attempt,     // no pass did; the longest attempt is returned
    no_content,       // nothing readable at all
    budget_exceeded,  // refused by a budget; `error` says which
    low_confidence,   // an article, with a confidence under options.min_confidence
};
[[nodiscard]] std::string_view status_name(Status status) noexcept;

// The kind of page (issue 24), as the page-type classifier (classify/) finds
// it or the page_type option forces it. The main content each holds: an
// article's body; a forum's posts in order; a product's name, description and
// specifications; a collection's or a listing's repeated cards or rows;
// documentation's text and code; a service page's content sections.
inline constexpr std::size_t kPageTypeCount = 7;
[[nodiscard]] std::string_view page_type_name(PageType type) noexcept;
[[nodiscard]] std::optional<PageType> page_type_from_name(std::string_view name) noexcept;

// What the classifiers made of a page: the probability of each type, in
// PageType's order, and the type, from the page-type classifier (its layout
// and its words); and the same from the layout classifier (its URL,
// declarations and structure alone), which the extraction reads: auto's
// choice, and the models fitted after it, the block model, the judge, the
// confidence and the title model, were fitted on its probabilities.
struct PageTypeDiagnostics {
    PageType type = PageType::article;
    std::array<double, kPageTypeCount> probabilities{};
    bool forced = false;  // options.page_type named it; the probabilities are still the classifiers'
    PageType layout_type = PageType::article;  // the extraction's type: the forced one too
    std::array<double, kPageTypeCount> layout_probabilities{};
};

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
    std::string kind;         // "caption", "named", "links", "figure", "date_line", "contents", "label"
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

inline constexpr std::size_t kJudgeFeatureCount = 28;
[[nodiscard]] std::span<const std::string_view, kJudgeFeatureCount> judge_feature_names() noexcept;

// The signals the confidence models read (confidence/confidence_model.inc,
// fitted by bench/fit/fit_confidence.py), by name. auto's own (the agreement
// of its strategies, what its judge read and predicted, the candidate it
// kept) are 0 for the other strategies.
inline constexpr std::size_t kConfidenceFeatureCount = 53;
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

// A page an article was read from, when it was followed over several
// (options.pages.max_pages above 1).
struct PageVisit {
    std::string url;
    // How it was reached: "request" (the first), "rel=next", "next link",
    // "pagination" (the number after this page's), "site rule" (its
    // next_page_link), "single_page_link" (the rule's whole-article page).
    std::string via;
    std::size_t text_length = 0;      // UTF-16 units of the text it added
    std::size_t repeats_dropped = 0;  // blocks at its start or end that repeated an earlier page's
};

struct PagesDiagnostics {
    std::vector<PageVisit> pages;  // in the article's order
    // Why no further page was read: "no_next_page", "max_pages", "loop" (the
    // next link leads to a page already read), "other_host", "deadline",
    // "fetch_failed", "no_content" (the next page had no article),
    // "no_new_content" (all of it repeated the pages before), "refused" (a
    // budget refused it), "single_page" (the whole article's page was read).
    std::string stopped;
    std::string detail;  // the URL or the error behind `stopped`; "" when none
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

// Where the article's title, authors and dates were read: "h1", "og:title",
// "title", "readability" (Readability.js's own), "site rule", "json-ld",
// "meta <key>", "itemprop datePublished", "byline", "rel=author", "url",
// "text after the headline", "<time>" (an article's or a thread's first),
// "text before the headline",
// for a forum thread's first poster "data-author", "itemprop author" or
// "user class", for an article's unmarked author "author link", "author
// label" or "by line"; none when the field is empty.
struct MetadataSources {
    std::optional<std::string> title, authors, published_time, modified_time;
};

// A title pith could have given (every strategy but readability): its text,
// where it was first read ("h1", "og:title", "title", "json-ld"), the title
// model's probability that it is the page's own headline, and the features
// the model read (the candidate's, then the page type's probabilities).
struct TitleCandidateDiagnostics {
    std::string text;
    std::string source;
    double score = 0.0;
    std::vector<double> features;
};

// The share of a region's text that an article holds, and of the article's
// text that the region holds.
struct RegionArticleShares {
    double region_in_article = 0.0;
    double article_in_region = 0.0;
};

struct Article {
    // Readability.js field names and meanings.
    std::optional<std::string> title;
    std::optional<std::string> byline;
    // pith: the authors' names, without "By", dates or degrees (empty when
    // the page names none).
    std::vector<std::string> authors;
    std::optional<std::string> dir;
    std::optional<std::string> lang;
    std::string content;       // HTML of the article
    std::string text_content;  // its textContent
    // With RenderOptions::markdown: GitHub-flavoured Markdown of content.
    std::optional<std::string> markdown;
    // With RenderOptions::clean_text: text that reads as text (one blank
    // line between blocks, list items and table rows as lines).
    std::optional<std::string> text;
    // With RenderOptions::annotate_source, once the page was parsed.
    std::optional<std::string> annotated_source;
    std::size_t length = 0;    // text_content length in UTF-16 code units
    std::optional<std::string> excerpt;
    std::optional<std::string> site_name;
    std::optional<std::string> published_time;
    // pith additions.
    std::optional<std::string> modified_time;  // ISO 8601
    MetadataSources metadata_sources;
    std::optional<std::string> image;
    std::optional<std::string> favicon;
    bool readerable = false;   // is_probably_readable's answer on the same document
    Status status = Status::no_content;
    // The estimated probability that the article's word F1 against the page's
    // main content is 0.8 or more (confidence/confidence.hpp); 0 when there
    // is no article.
    double confidence = 0.0;
    // The article's word F1 the same models predict, in [0, 1]; none when
    // there is no article.
    std::optional<double> predicted_f1;
    std::optional<Error> error;  // set when status is budget_exceeded
    std::string charset;       // the charset the input was decoded from
    // Sequences of text decoded twice that were restored (repair_double_encoding).
    std::size_t double_encoded = 0;
    Strategy strategy = Strategy::readability;  // the strategy asked for
    // The page's type; none when the page was refused before it was read.
    std::optional<PageType> page_type;
    std::optional<PageTypeDiagnostics> page_type_diagnostics;
    // The titles the title model chose among, in the order they were found.
    std::vector<TitleCandidateDiagnostics> title_candidates;
    std::vector<PassDiagnostics> passes;
    // The pass in `passes` whose article was returned; none when nothing was
    // found, or a site rule's body was the article.
    std::optional<std::size_t> article_pass;
    // auto only: each strategy's result and why one was kept.
    std::vector<StrategyOutcome> strategies;
    std::string decision;
    std::vector<RemovedBlock> removed;  // from the kept article, in document order
    std::optional<RuleDiagnostics> rule;  // when a site rule applied to the page
    // When the article was followed over its pages (ArticleWalk).
    std::optional<PagesDiagnostics> pages;
    // auto only: the share of each strategy's article text that the other's
    // holds (0 when either found nothing).
    double readability_in_fitness = 0.0;
    double fitness_in_readability = 0.0;
    // auto only: what its judge read of its three candidates (the article
    // readability and fitness found, the page's main region pruned by the
    // block model and the region without its boilerplate), by judge_feature_names(), and the gain
    // in word F1 over the article it predicted for each region; empty when
    // the region was not a candidate.
    std::vector<double> judge_features;
    std::optional<double> region_gain;
    std::optional<double> cleaned_region_gain;
    // auto only: the word F1 the block model expects of the candidate
    // returned (its text weighed by the probability that its block of the
    // region is content); none when the region was not a candidate.
    std::optional<double> answer_block_f1;
    // auto only, when it returned a region and found an article beside it:
    // how much of each one's text the other holds (the confidence reads these
    // as its agreement).
    std::optional<RegionArticleShares> region_article_shares;
    // What the confidence was computed from, by confidence_feature_names();
    // empty when there is no article.
    std::vector<double> confidence_features;
    StageTimings timings;
    std::optional<CostEstimate> cost;  // once the tags were scanned
};

// The page type the extraction read: the layout classifier's, or the forced
// one (PageTypeDiagnostics); page_type when there are no diagnostics.
[[nodiscard]] inline std::optional<PageType> layout_page_type(const Article& article) noexcept {
    return article.page_type_diagnostics ? std::optional(article.page_type_diagnostics->layout_type)
                                         : article.page_type;
}

}  // namespace pith::extract
