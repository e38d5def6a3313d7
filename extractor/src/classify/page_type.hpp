// The page-type classifier (issue 24): which of the seven kinds of page this
// is, from signals that cost one walk over the prepared page. Two models,
// forests of boosted trees fitted by bench/fit/fit_page_model.py on wcxb-dev
// in folds grouped by domain (the .inc files say with what figures):
//  - the page-type model reads every signal; its type is the answer's;
//  - the layout model reads the layout signals alone (the URL, the
//    declarations, the structure). The extraction reads its probabilities:
//    auto's choice and the models fitted after it (block model, judge,
//    confidence, title) were fitted on them, and fed the page-type model's
//    instead, refitted, they left word F1 about where it was and the
//    confidence's routing under its floor (fit_page_model.py says more).
//
// The signals, none of which names a site:
//  - the URL's shape: depth, query, the last segment, a year, and words of
//    the web's common vocabulary in its path and host ("forum", "docs",
//    "products", "category", "blog", "pricing"...); the page's canonical URL
//    when the caller gave none;
//  - what the page declares: JSON-LD @type and Open Graph type;
//  - its structure: counts of the tags that tell kinds apart, words, link
//    density, paragraphs, headings and whether they are links, prices, dates,
//    class and id vocabulary, and the largest group of repeated siblings;
//  - its words (the page-type model's alone): what the page offers its reader
//    in its <title> and h1-h3 headings and in its links and buttons ("add to
//    cart", "reply", "sort by", "read more", "on this page", "request a
//    demo"...), its question marks, its phone and mail links and its e-mail
//    fields, and how often the page's text uses each of the page words
//    (page_words.inc: common words whose use differs most between the kinds,
//    chosen by the fitting script on the pages of many domains, none the name
//    of a site).
// Internal header.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "page/declarations.hpp"
#include "page/page.hpp"
#include "pith/article.hpp"
#include "pith/dom.hpp"

namespace pith::extract {

// The layout features come first: the URL, the declarations and the
// structure. After them, the words a kind of page offers its reader: each
// kind phrase's count in the headings, then in the links and buttons, then
// four counts of what asks the reader to act (questions, phone and mail
// links, e-mail fields), then each page word's uses per 1,000 words of the
// body's text, then the text model's score of each type.
#include "classify/page_words.inc"  // kPageWords, sorted; kFeatureWordSlots

inline constexpr std::size_t kLayoutFeatureCount = 156;
inline constexpr std::size_t kKindPhraseFeatureCount = 117;
inline constexpr std::size_t kPageWordCount = kPageWords.size();  // every word counted
inline constexpr std::size_t kFeatureWordCount = kFeatureWordSlots.size();
inline constexpr std::size_t kPageTypeFeatureCount =
    kLayoutFeatureCount + 2 * kKindPhraseFeatureCount + 4 + kFeatureWordCount + kPageTypeCount;
using PageTypeFeatures = std::array<double, kPageTypeFeatureCount>;

// The features' names, in their order (the fitting script and diagnostics
// read them).
[[nodiscard]] std::span<const std::string_view, kPageTypeFeatureCount> page_type_feature_names() noexcept;

// The features of the prepared page `doc`, whose URL is `url` (the request's,
// else the page's canonical one; "" when neither is known). The walk that
// reads them also measures the body's text as dom::inner_text_length does,
// into `body_text_length` when given: the confidence step needs it. The
// text model's scores are those of the model for `fold` (as below).
[[nodiscard]] PageTypeFeatures page_type_features(const dom::Document& doc, const PageDeclarations& declarations,
                                                  std::string_view url, std::size_t* body_text_length = nullptr,
                                                  int fold = -1);

// Every word of the body's text as the page-word features read it, for the
// fitting script to choose kPageWords from: each word of 2 to
// kMaxPageWordLength ASCII letters, lowercased, with its count, and the
// number of words of any kind (the features' denominator).
inline constexpr std::size_t kMaxPageWordLength = 24;
struct PageWordCounts {
    std::map<std::string, std::size_t, std::less<>> words;
    std::size_t total = 0;
};
[[nodiscard]] PageWordCounts page_word_counts(const dom::Document& doc);

// The page-type model's probability of each type, in PageType's order.
// `fold` >= 0 uses the model fitted without that fold of domains (the
// quality bench's out-of-fold figures); -1 the model fitted on every page.
[[nodiscard]] std::array<double, kPageTypeCount> page_type_probabilities(const PageTypeFeatures& features,
                                                                         int fold = -1) noexcept;

// The layout model's, which reads the first kLayoutFeatureCount features
// only: what the extraction reads (PageTypeDiagnostics says why).
[[nodiscard]] std::array<double, kPageTypeCount> layout_type_probabilities(const PageTypeFeatures& features,
                                                                           int fold = -1) noexcept;

// The page's type by both models, forced by `forced` or the most probable
// one, with the probabilities.
[[nodiscard]] PageTypeDiagnostics classify_page(const PageTypeFeatures& features, std::optional<PageType> forced,
                                                int fold = -1) noexcept;

// The URL the classifier reads: the caller's, else the page's canonical one.
[[nodiscard]] std::string_view page_url(const PreparedPage& page, const ExtractOptions& options) noexcept;

// Step 4b of extract(): classifies the prepared page into page.page_type
// (options.page_type forces the type; options.runtime.model_fold picks the
// model).
void classify(PreparedPage& page, const ExtractOptions& options);

}  // namespace pith::extract
