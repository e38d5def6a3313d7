// A site rule as loaded: every expression compiled. Internal header.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "pith/rules.hpp"
#include "rules/xpath.hpp"

namespace pith::rules {

struct SiteRule {
    std::string source;  // "path/example.com.txt", or "path/x.toml: pattern example.com"

    // Alternatives, tried in order: the first that selects (or yields text) wins.
    std::vector<XPathExpression> body;
    std::vector<XPathExpression> title;
    std::vector<XPathExpression> author;
    std::vector<XPathExpression> date;
    // Multi-page articles: the link to the next page, and to the whole
    // article on one page (a link, or an element holding one, or an href).
    std::vector<XPathExpression> next_page_link;
    std::vector<XPathExpression> single_page_link;

    // Removed from the page before anything else looks at it.
    std::vector<XPathExpression> strip;
    std::vector<std::string> strip_id_or_class;  // an id or class holding this text
    std::vector<std::string> strip_image_src;    // an <img> whose src holds this text
    std::vector<XPathExpression> strip_attr;     // attributes removed (their elements stay)
    std::vector<XPathExpression> dissolve;       // elements replaced by their children
    std::vector<std::pair<std::string, XPathExpression>> wrap_in;  // tag, what to wrap

    // Text replaced in the HTML before the parse, in order.
    std::vector<std::pair<std::string, std::string>> replace;

    bool autodetect_on_failure = true;  // a body that selects nothing falls back to the generic pipeline
    bool prune = true;                  // clean the selected body as Readability cleans an article
    bool skip_json_ld = false;

    // Directives read and not acted on, by name, for the diagnostics.
    std::vector<std::string> ignored;
};

}  // namespace pith::rules
