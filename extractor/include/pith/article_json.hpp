// An Article as JSON, with Readability.js's field names. The one place that
// decides the wire shape of an extraction result; pithd and the pith CLI both
// use it, and proto-docs/article.schema.json describes what it produces.
#pragma once

#include <nlohmann/json.hpp>

#include "pith/article.hpp"
#include "pith/inspect.hpp"

namespace pith::extract {

struct JsonOptions {
    bool diagnostics = false;     // add "diagnostics": per-pass records and stage timings
    bool include_content = true;  // "content" (article HTML); omitted when false
    bool include_text = true;     // "textContent"; omitted when false
    // "markdown" and "text" (clean text): the article's renderings, "" when it
    // has none (nothing was extracted). Omitted when false.
    bool include_markdown = false;
    bool include_clean_text = false;
};

// The article as a JSON object:
//   title, byline, dir, lang, content, textContent, length, excerpt, siteName,
//   publishedTime (Readability.js names), then image, favicon, readerable,
//   status (status_name), confidence, charset.
// Absent optionals are null. When the article carries an error (status
// budget_exceeded) it adds "error": {"code": error_code_name, "message"}.
// With options.diagnostics it adds
//   "diagnostics": {strategy, auto, confidence_features, passes, cost, timings_us}
// as proto-docs/article.schema.json describes them.
// Strings are copied; the result does not refer to `article`. Reentrant. Strings
// are passed through as they are, so dump() them with error_handler_t::replace
// if they may hold invalid UTF-8.
[[nodiscard]] nlohmann::json to_json(const Article& article, const JsonOptions& options = {});
// The same, moving the article's content and text into the JSON instead of
// copying them: on a large page they are most of the answer's memory.
[[nodiscard]] nlohmann::json to_json(Article&& article, const JsonOptions& options = {});

// What the inspector shows beside the article: {"source": the annotated page
// (Article::annotated_source; null when the page was not parsed),
// "strategies": [{strategy, status, confidence, length, chosen_root,
// chosen_root_index, text, agreement: {strategy name: share}}]}.
[[nodiscard]] nlohmann::json inspection_json(const Inspection& inspection);

}  // namespace pith::extract
