// Metadata stage: the article's title, byline, excerpt, site name, publication
// time, lead image and favicon, read from JSON-LD, <meta>, <title>, headings and
// <link>. A port of Readability.js 0.6.0 (_getJSONLD, _getArticleMetadata,
// _getArticleTitle, _textSimilarity, _unescapeHtmlEntities) plus pith's `image`
// and `favicon`.
//
// Order: Readability reads JSON-LD before scripts are removed and the other
// metadata after _prepDocument; the orchestrator calls these at those points.
// These functions only read the document as given.
//
// Thread-safety: pure functions of their arguments; they never modify the
// Document. Returned strings are owned copies. No function throws on bad input
// (malformed JSON-LD is skipped like Readability's try/catch does).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pith/article.hpp"
#include "pith/dom.hpp"

namespace pith::extract {

// A value with where it was read, for diagnostics.
struct SourcedText {
    std::string value;
    std::string source;  // "json-ld", "meta article:published_time", "h1", "url", ...
};

// A title pith could give, with what the title model reads of it: which of
// the page's titles gave it (the headline chosen by rule, the title's part
// it was chosen over, <title>, its first or last part or all but its last,
// og:title, its first part or all but its last, JSON-LD, the first <h1> or
// another), its words and length, whether it has a separator or names the
// site, how much it shares with <title>, the first <h1>, og:title and the
// URL's path, and how many other candidates read the same.
inline constexpr std::size_t kTitleOwnFeatureCount = 29;
// What the title model reads: the candidate's features, then the page
// type's probabilities.
inline constexpr std::size_t kTitleFeatureCount = kTitleOwnFeatureCount + kPageTypeCount;
struct TitleCandidate {
    std::string text;
    std::string source;  // the first that gave it: "h1", "og:title", "title" or "json-ld"
    std::vector<double> features;  // kTitleOwnFeatureCount values
};

// The names of a candidate's features, in their order.
[[nodiscard]] std::span<const std::string_view, kTitleOwnFeatureCount> title_own_feature_names() noexcept;

// Every field is optional: absent is JSON null. read_metadata never leaves a
// field holding "" except `title` (Readability's title is always a string).
struct Metadata {
    std::optional<std::string> title, byline, excerpt, site_name, published_time, image, favicon;
    // pith's title for every strategy but readability (headline_title); none
    // when a site rule gives the title.
    std::optional<SourcedText> headline;
    // Where the headline is an <h1>: the first part of og:title or <title> it
    // was chosen over, a forum's or a service page's title (apply_metadata).
    std::optional<SourcedText> title_part;
    // The titles the title model chooses among (choose_title); none for
    // readability or when a site rule gives the title.
    std::vector<TitleCandidate> title_candidates;
};

// headline_title's choice, the title's first part where it chose an <h1>,
// and every title the model may choose instead.
struct HeadlineChoice {
    SourcedText headline;
    std::optional<SourcedText> title_part;
    std::vector<TitleCandidate> candidates;
};

// Readability _getArticleTitle: document.title, cut at " | ", " - ", " » ", ...
// (and, like upstream after 0.6.0, " – " and " — ") or ": ", or replaced by the
// only <h1> when too short or too long.
[[nodiscard]] std::string article_title(const dom::Document& doc);

// pith's title, the page's own headline rather than the document's title with
// its site name: the first <h1> (of the first three) that is not the site's
// name and shares at least half of its words with <title> and og:title; else
// the first part of og:title, else of <title>, cut at a spaced separator
// (| - – — · » :: / •). A site's name is og:site_name, a part of <title> after
// its first, or the page's host (`base_url`'s) spelled without its dots and
// dashes. Readability's title (`fallback`) when the page has none of these.
// On wcxb-dev the truth's title is the first <h1> on 64% of the pages and the
// first part of og:title or <title> on 71%; this choice matches 75%. The
// part it chose the <h1> over comes with it, for a forum or a service page.
// The source is "h1", "og:title", "title" or "readability".
// The candidates come with it: that headline and part, <title>, og:title,
// `json_ld_title` and the first three <h1>s, and the parts of the titles.
[[nodiscard]] HeadlineChoice headline_title(const dom::Document& doc, std::string_view base_url,
                                         std::string_view fallback, std::string_view json_ld_title = {});

// Whether a JSON-LD @type is one Readability reads as an article's
// (REGEXPS.jsonLdArticleTypes).
[[nodiscard]] bool is_json_ld_article_type(std::string_view type);

// Readability _getJSONLD: the first <script type="application/ld+json"> holding
// a schema.org object of an article @type (top-level array and @graph included)
// fills title, byline, excerpt, site_name and published_time (datePublished);
// pith also reads `image`. Values are as in the JSON (trimmed where Readability
// trims), so an empty string can appear. Empty result when nothing matches.
[[nodiscard]] Metadata read_json_ld(const dom::Document& doc);

// Readability _getArticleMetadata: <meta> values merged under `json_ld` in
// Readability's priority order, the title falling back to article_title(), every
// field HTML-unescaped. Adds `image` (JSON-LD image, og:image, og:image:url,
// twitter:image, twitter:image:src, <link rel=image_src>) and `favicon` (largest
// <link rel=icon>, else apple-touch-icon), both resolved against `base_url`
// unless it is "" (then left as written).
[[nodiscard]] Metadata read_metadata(const dom::Document& doc, const Metadata& json_ld,
                                     std::string_view base_url);

struct AuthorsAndDates;  // metadata/authors_dates.hpp

// Step 6 of extract(): the article's title, byline, lang, excerpt, site
// name, date, image and favicon from the page's metadata; the byline the
// passes found in the page (`found_byline`; its names are read from
// `found_byline_lines`, the same text line by line) when the metadata has none, and
// the lang they read off <html>. Then pith's fields: the authors (the page's
// marked-up authors, else the byline's names, else rel=author links), the
// modified date, and, for every strategy but readability, the headline as
// title and the marked-up publication date (Readability's when it reads as a
// date and the page marks none); with the source of each. The title is the
// candidate the title model scores highest (`model_fold` as the page-type
// model's), the headline where the model has none.
void apply_metadata(Article& article, const Metadata& metadata, const AuthorsAndDates& authors_dates,
                    const std::optional<std::string>& found_byline,
                    const std::optional<std::string>& found_byline_lines, const std::optional<std::string>& lang,
                    int model_fold = -1);

// Whether `authors` is the site's own name and nothing else (`site`, its
// og:site_name or JSON-LD publisher): the publisher signing for the page, whom
// a person's full name the page shows replaces (apply_metadata).
[[nodiscard]] bool signed_by_the_site(const std::vector<std::string>& authors, const std::optional<std::string>& site);

// Readability _textSimilarity: 1 - (length of b's words missing from a) / (length
// of b's words), words being runs of ASCII [A-Za-z0-9_] after lowercasing.
// 0 when either side has no word.
[[nodiscard]] double text_similarity(std::string_view a, std::string_view b);

// Readability _unescapeHtmlEntities: &quot; &amp; &apos; &lt; &gt;, then numeric
// references (&#65; &#x41;); invalid code points become U+FFFD.
[[nodiscard]] std::string unescape_html_entities(std::string_view s);

}  // namespace pith::extract
