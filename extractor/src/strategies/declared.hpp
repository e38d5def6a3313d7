// What auto takes from what the page declares rather than shows: a product's
// description from its JSON-LD, when the chosen article lacks it (issue 24:
// product pages keep it in tabs the DOM hides or fills by script), and an
// article's body, when the DOM shows little of it. Internal header.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "strategies/run.hpp"

namespace pith::extract {

// Appends `description` as a paragraph of `chosen`'s article when fewer than
// half of its words are already there (each word counted as often as it
// occurs). True when it was added.
bool add_declared_description(Attempt& chosen, std::string_view description);

// The text lengths (UTF-16, as dom::inner_text_length) of a declared body
// taken and of the article found in the page that it replaced (0 for none).
struct DeclaredBodyTaken {
    std::size_t declared = 0;
    std::size_t found = 0;
};

// Replaces `run`'s article (or gives it one) with the article body the page
// declares (PageDeclarations::article_body, its paragraphs) when that body
// holds at least twice the text of the article found in the DOM and reaches
// the passes' char_threshold: the DOM then shows a teaser, a paywall's box or
// the empty shell a script was to fill. The DOM's article is kept otherwise:
// it has the page's structure, links and images, the declared body only its
// text. nullopt when it was kept, or when the deadline passed while the body
// was assembled.
std::optional<DeclaredBodyTaken> take_declared_body(StrategyRun& run, const std::vector<std::string>& body,
                                                    const ExtractOptions& options);

}  // namespace pith::extract
