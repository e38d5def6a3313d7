// What a site rule does to a page: text replaced before the parse, elements
// removed, unwrapped and wrapped after it, and the body and metadata it
// selects. extract() calls these in its order. Internal header.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pith/dom.hpp"
#include "rules/site_rule.hpp"

namespace pith::rules {

// The host of an absolute URL ("scheme://host..."), lower case, without port,
// user or trailing dots; "" when there is no "://".
[[nodiscard]] std::string host_of(std::string_view url);

// The markup with the rule's find/replace pairs applied in order; nullopt
// when it has none.
[[nodiscard]] std::optional<std::string> replaced_markup(const SiteRule& rule, std::string_view markup);

struct Applied {
    std::vector<dom::Node*> body;  // what the first body alternative that selects anything selected
    std::optional<std::string> title;
    std::optional<std::string> author;
    std::optional<std::string> date;
    // The hrefs of the rule's next_page_link and single_page_link, as written.
    std::optional<std::string> next_page_href;
    std::optional<std::string> single_page_href;
    std::size_t removed = 0;   // elements stripped
    std::vector<std::string> errors;  // expressions that failed on this page
};

// Applies the rule to the parsed document: strip, strip_id_or_class,
// strip_image_src, strip_attr, dissolve, wrap_in; then reads the body,
// title, author and date (all from one mirror of the page).
[[nodiscard]] Applied apply_rule(const SiteRule& rule, dom::Document& doc);

}  // namespace pith::rules
