// The pith CLI's command line: commands, the CLI's own flags, and every
// extraction option of the option table (pith/option_table.hpp) as a flag.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pith/options.hpp"
#include "pith/result.hpp"
#include "pith/rules.hpp"

namespace pith::cli {

enum class Command { extract, readable, rules, warc, help, version };
enum class Format { json, html, text, markdown };

struct CliArgs {
    Command command = Command::help;
    Command help_topic = Command::help;  // help: which command's page
    Format format = Format::json;
    bool front_matter = false;
    bool with_markdown = false;  // --with: renderings added to the JSON
    bool with_text = false;
    bool diagnostics = false;
    std::size_t jobs = 0;  // 0: hardware concurrency
    // --timeout-ms: the time each input's extraction may take, from its start
    // (the library's deadline, as pithd's request timeout sets it); 0: none.
    std::chrono::milliseconds timeout{0};
    extract::ExtractOptions options;
    std::vector<std::string> inputs;
    std::string rules_dir;     // --rules-dir (extract, rules show) or the folder of rules check
    std::string rules_action;  // rules: "check" or "show"
    std::string rules_url;     // rules show: the page's URL
    std::shared_ptr<const rules::RuleSet> rule_set;  // extract: loaded once before the jobs
    rules::InlineRule selectors;                     // --content-selector, --remove-selectors, --rule-*
    std::shared_ptr<const rules::SiteRule> selector_rule;
    // extract --max-pages: the CIDRs and host names the fetch of the next
    // pages may reach besides public addresses (pithd's fetch.allow).
    std::vector<std::string> fetch_allow;
};

// Upper bound for --jobs: far above any useful value, low enough that a typo
// cannot ask for a million threads.
inline constexpr std::size_t kMaxJobs = 1024;
// Upper bound for --timeout-ms: a day.
inline constexpr std::size_t kMaxTimeoutMs = 24U * 60U * 60U * 1000U;

// The arguments after the program's name. Errors: invalid_argument, a usage
// message naming the flag ("--char-threshold: must be an integer in
// 0..100000000, got -1").
[[nodiscard]] Result<CliArgs> parse_args(std::span<const std::string_view> args);

}  // namespace pith::cli
