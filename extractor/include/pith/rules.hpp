// Site rules: per-host XPath (and CSS) rules that override or help the
// generic extraction, loaded once from a folder of files in two formats:
//   - Lectito's TOML fingerprints ([[fingerprints]] pattern = "example.com",
//     [[fingerprints.extract]] title, content, author, date, remove);
//   - Full-Text RSS site configs ("example.com.txt" covers example.com and
//     www.example.com, ".example.com.txt" its subdomains only), the body of
//     rules wallabag and Full-Text RSS use.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pith/result.hpp"

namespace pith::rules {

struct SiteRule;  // rules/site_rule.hpp

// A file the loader refused, or a directive it read but does not act on.
struct FileNote {
    std::string path;
    std::size_t line = 0;  // 1-based; 0 for the whole file
    std::string reason;
};

struct LoadReport {
    std::size_t files = 0;        // read
    std::size_t rules = 0;        // loaded (a TOML file may hold several)
    std::size_t expressions = 0;  // XPath expressions compiled
    std::vector<FileNote> rejected;  // files refused whole, with the first reason
    std::vector<FileNote> ignored;   // directives recorded and not acted on (login, test_url...)
};

class RuleSet {
public:
    RuleSet();
    RuleSet(RuleSet&&) noexcept;
    RuleSet& operator=(RuleSet&&) noexcept;
    ~RuleSet();

    // Every *.txt (Full-Text RSS) and *.toml (fingerprints) file under `dir`.
    // A malformed file is rejected and the others still load.
    [[nodiscard]] static RuleSet load_directory(const std::string& dir, LoadReport& report);

    // One file's text, named as on disk (the name gives a Full-Text RSS
    // file's host). Returns false, with the reason in `report`, when refused.
    bool add_file(std::string_view file_name, std::string_view text, LoadReport& report);

    // The rule for `host` (lower case, no port): its own file, then its
    // www-less form, then the nearest parent domain's subdomain rule or
    // fingerprint. nullptr when none. Constant time in the number of rules.
    [[nodiscard]] const SiteRule* find(std::string_view host) const;
    // The rule for an absolute http(s) URL's host; nullptr when none.
    [[nodiscard]] const SiteRule* find_for_url(std::string_view url) const;

    [[nodiscard]] std::size_t size() const noexcept { return rules_.size(); }

private:
    std::vector<std::unique_ptr<SiteRule>> rules_;
    std::unordered_map<std::string, const SiteRule*> exact_;      // a host and its www. form
    std::unordered_map<std::string, const SiteRule*> subdomains_;  // a domain whose subdomains it covers
};

// A rule given with one request rather than loaded from a file: XPath
// expressions in the fingerprint format's fields, and CSS selectors (the
// API's content_selector and remove_selectors), which become XPath.
struct InlineRule {
    std::vector<std::string> content;  // XPath alternatives for the body
    std::vector<std::string> title;
    std::vector<std::string> author;
    std::vector<std::string> date;
    std::vector<std::string> remove;   // XPath of what to strip
    std::string content_selector;      // CSS selector list for the body
    std::string remove_selectors;      // CSS selector list of what to strip
};

// The rule, every expression compiled. Errors: invalid_argument naming the
// field and what is wrong with its expression.
[[nodiscard]] Result<std::shared_ptr<const SiteRule>> make_rule(const InlineRule& fields, std::string source);

// What a rule says, for people ("pith rules show"): its source and directives.
[[nodiscard]] std::string describe(const SiteRule& rule);

// The file (and the pattern, for a fingerprint) the rule came from.
[[nodiscard]] const std::string& rule_source(const SiteRule& rule);

}  // namespace pith::rules
