// What auto adds to an article from what the page declares rather than shows:
// a product's description from its JSON-LD, when the chosen article lacks it
// (issue 24: product pages keep it in tabs the DOM hides or fills by script).
// Internal header.
#pragma once

#include <string_view>

#include "strategies/run.hpp"

namespace pith::extract {

// Appends `description` as a paragraph of `chosen`'s article when fewer than
// half of its words are already there (each word counted as often as it
// occurs). True when it was added.
bool add_declared_description(Attempt& chosen, std::string_view description);

}  // namespace pith::extract
