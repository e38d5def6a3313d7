// Readability.js's REGEXPS as hand-written matchers: built once, no std::regex,
// linear in the input. Each function names the regex it stands for; the
// needle lists are Readability 0.6's, verbatim.
#pragma once

#include <cstddef>
#include <string_view>

namespace pith::patterns {

// REGEXPS.unlikelyCandidates on "className id".
[[nodiscard]] bool unlikely_candidate(std::string_view s) noexcept;
// REGEXPS.okMaybeItsACandidate.
[[nodiscard]] bool maybe_candidate(std::string_view s) noexcept;
// REGEXPS.positive / REGEXPS.negative (class/id weights).
[[nodiscard]] bool positive(std::string_view s) noexcept;
[[nodiscard]] bool negative(std::string_view s) noexcept;
// REGEXPS.byline.
[[nodiscard]] bool byline(std::string_view s) noexcept;
// REGEXPS.shareElements: (\b|_)(share|sharedaddy)(\b|_).
[[nodiscard]] bool share_element(std::string_view s) noexcept;
// REGEXPS.videos: embeds from hosts whose players are kept.
[[nodiscard]] bool allowed_video(std::string_view s) noexcept;
// REGEXPS.adWords / REGEXPS.loadingWords on a whole inner text.
[[nodiscard]] bool ad_words(std::string_view s) noexcept;
[[nodiscard]] bool loading_words(std::string_view s) noexcept;
// REGEXPS.hashUrl: "#" followed by at least one character.
[[nodiscard]] bool hash_url(std::string_view s) noexcept;
// Number of pieces innerText.split(REGEXPS.commas) yields (commas + 1).
[[nodiscard]] std::size_t comma_split_count(std::string_view s) noexcept;
// /\.(jpg|jpeg|png|webp)/i anywhere in s.
[[nodiscard]] bool has_image_extension(std::string_view s) noexcept;
// /\.(jpg|jpeg|png|webp)\s+\d/ (case-sensitive): a srcset-like value.
[[nodiscard]] bool looks_like_srcset(std::string_view s) noexcept;
// /^\s*\S+\.(jpg|jpeg|png|webp)\S*\s*$/ (case-sensitive): a single image URL.
[[nodiscard]] bool looks_like_image_url(std::string_view s) noexcept;
// REGEXPS.b64DataUrl: length of the "data:<mime>;base64," prefix, 0 when no
// match; `mime` receives the media type.
[[nodiscard]] std::size_t base64_data_url_prefix(std::string_view s, std::string_view& mime) noexcept;

}  // namespace pith::patterns
