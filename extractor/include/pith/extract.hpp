// The extractor's entry points: HTML bytes in, an Article out.
// Readability.js's algorithm (seeds 003 and 004) and three more strategies,
// with element budgets, staged retry passes, a confidence score and per-pass
// diagnostics (seeds 000 and 001). What to ask is in pith/options.hpp, what
// comes back in pith/article.hpp.
//
// Thread-safety: extract() and is_probably_readable() are reentrant; run as many
// concurrently as there are threads. They never throw on bad input.
#pragma once

#include <string_view>

#include "pith/article.hpp"
#include "pith/options.hpp"

namespace pith::extract {

// Extracts the article from raw HTML bytes (any charset). Never throws on bad
// input; a budget refusal is an Article with status budget_exceeded.
[[nodiscard]] Article extract(std::string_view html_bytes, const ExtractOptions& options = {});

// Readability's isProbablyReaderable preflight on raw HTML bytes, parsed
// under the default budgets (a page they refuse is not readable).
[[nodiscard]] bool is_probably_readable(std::string_view html_bytes,
                                        std::string_view declared_charset = {},
                                        const ReadableOptions& options = {});

}  // namespace pith::extract
