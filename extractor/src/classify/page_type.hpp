// The page-type classifier (issue 24): which of the seven kinds of page this
// is, from signals that cost one walk over the prepared page. Its model is a
// forest of boosted trees fitted by bench/fit/fit_page_model.py on wcxb-dev,
// in folds grouped by domain (page_type_model.inc says with what figures).
//
// The signals, none of which names a site:
//  - the URL's shape: depth, query, the last segment, a year, and words of
//    the web's common vocabulary in its path and host ("forum", "docs",
//    "products", "category", "blog", "pricing"...); the page's canonical URL
//    when the caller gave none;
//  - what the page declares: JSON-LD @type and Open Graph type;
//  - its structure: counts of the tags that tell kinds apart, words, link
//    density, paragraphs, headings and whether they are links, prices, dates,
//    class and id vocabulary, and the largest group of repeated siblings.
// Internal header.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

#include "page/declarations.hpp"
#include "page/page.hpp"
#include "pith/article.hpp"
#include "pith/dom.hpp"

namespace pith::extract {

inline constexpr std::size_t kPageTypeFeatureCount = 156;
using PageTypeFeatures = std::array<double, kPageTypeFeatureCount>;

// The features' names, in their order (the fitting script and diagnostics
// read them).
[[nodiscard]] std::span<const std::string_view, kPageTypeFeatureCount> page_type_feature_names() noexcept;

// The features of the prepared page `doc`, whose URL is `url` (the request's,
// else the page's canonical one; "" when neither is known). The walk that
// reads them also measures the body's text as dom::inner_text_length does,
// into `body_text_length` when given: the confidence step needs it.
[[nodiscard]] PageTypeFeatures page_type_features(const dom::Document& doc, const PageDeclarations& declarations,
                                                  std::string_view url, std::size_t* body_text_length = nullptr);

// The model's probability of each type, in PageType's order. `fold` >= 0
// uses the model fitted without that fold of domains (the quality bench's
// out-of-fold figures); -1 the model fitted on every page.
[[nodiscard]] std::array<double, kPageTypeCount> page_type_probabilities(const PageTypeFeatures& features,
                                                                         int fold = -1) noexcept;

// The page's type, forced by `forced` or the most probable one, with the
// probabilities.
[[nodiscard]] PageTypeDiagnostics classify_page(const PageTypeFeatures& features, std::optional<PageType> forced,
                                                int fold = -1) noexcept;

// The URL the classifier reads: the caller's, else the page's canonical one.
[[nodiscard]] std::string_view page_url(const PreparedPage& page, const ExtractOptions& options) noexcept;

// Step 4b of extract(): classifies the prepared page into page.page_type
// (options.page_type forces the type; options.runtime.model_fold picks the
// model).
void classify(PreparedPage& page, const ExtractOptions& options);

}  // namespace pith::extract
