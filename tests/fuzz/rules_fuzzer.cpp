// libFuzzer harness for site rules: the first byte picks what the rest is —
// a Full-Text RSS file, a fingerprint TOML file, a CSS selector list or an
// XPath expression — and whatever loads is applied to a small page, so the
// rule parsers, the CSS translation, libxml2's engine over the mirror and
// the rule's application are all explored.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "pith/extract.hpp"
#include "pith/rules.hpp"
#include "rules/css.hpp"
#include "rules/xpath.hpp"

namespace {

constexpr std::string_view kPage =
    "<html><head><title>Deltas</title></head><body><div id=\"nav\"><a href=\"/\">Home</a></div>"
    "<div id=\"story\" class=\"post entry\"><h1>How deltas grow</h1><p class=\"by\">By Ada</p>"
    "<p>Rivers carry the land they drain, and where they meet the sea the water slows.</p>"
    "<aside class=\"share\">Share</aside><p>Sediment settles <em>layer</em> on layer.<br>Years pass.</p>"
    "</div><ul><li>One</li><li>Two</li></ul></body></html>";

void apply(const pith::rules::SiteRule* rule) {
    if (rule == nullptr) {
        return;
    }
    pith::extract::ExtractOptions options;
    options.input.url = "https://example.com/a";
    options.rule = rule;
    options.render.markdown = true;
    (void)pith::extract::extract(kPage, options);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    switch (data[0] % 4) {
    case 0:
    case 1: {
        pith::rules::RuleSet rules;
        pith::rules::LoadReport report;
        rules.add_file(data[0] % 4 == 0 ? "example.com.txt" : "rules.toml", text, report);
        apply(rules.find("example.com"));
        break;
    }
    case 2: {
        pith::rules::InlineRule fields;
        fields.content_selector = std::string(text);
        auto rule = pith::rules::make_rule(fields, "fuzz");
        if (rule.ok()) {
            apply(rule.value().get());
        }
        break;
    }
    default: {
        pith::rules::InlineRule fields;
        fields.content.emplace_back(text);
        fields.title.emplace_back(text);
        auto rule = pith::rules::make_rule(fields, "fuzz");
        if (rule.ok()) {
            apply(rule.value().get());
        }
        break;
    }
    }
    return 0;
}
