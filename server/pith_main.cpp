// pith: the command-line front-end. Reads files (or stdin), runs the extractor
// on a few worker threads and prints JSON, NDJSON, HTML or text. A thin layer:
// every decision about the article itself belongs to the extractor, and the JSON
// shape to article_json.hpp. `pith --help` is the reference for flags and exit
// codes; keep kHelp* below in step with the parser.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <limits>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "pith/article_json.hpp"
#include "pith/extract.hpp"
#include "pith/rules.hpp"
#include "pith/result.hpp"

#ifndef PITH_VERSION
#define PITH_VERSION "0.1.0"
#endif

namespace pith::server {
namespace {

// Exit codes, ordered so that the numerically largest is the worst; several
// inputs exit with the worst of their codes.
constexpr int kExitOk = 0;          // extracted (ok or best_attempt) / readable
constexpr int kExitNothing = 1;     // no_content or budget_exceeded / not readable
constexpr int kExitUsage = 2;       // bad command line
constexpr int kExitInput = 3;       // an input could not be read or processed

// Upper bound for --jobs: far above any useful value, low enough that a typo
// cannot ask for a million threads.
constexpr std::size_t kMaxJobs = 1024;
// Pending output is flushed once it reaches this size, or whenever the writer
// has to wait for the next result (so NDJSON streams while slow files run).
constexpr std::size_t kFlushBytes = 256U * 1024U;
// Results finished ahead of the one being written, per worker: bounds memory
// when an early input is slow and later ones are fast.
constexpr std::size_t kLookaheadPerWorker = 4;

constexpr std::string_view kHelpMain = R"(pith - extract the readable article from HTML pages

Usage:
  pith extract [options] FILE...|-    extract the article of each input
  pith readable [options] FILE...|-   Readability's isProbablyReaderable preflight
  pith rules check DIR                load and check a folder of site rules
  pith rules show URL --rules-dir DIR the site rule that applies to a URL
  pith help [extract|readable]        show help (also: pith --help, pith COMMAND --help)
  pith --version                      print the version

Run 'pith help extract' or 'pith help readable' for each command's options,
output formats and exit codes.
)";

constexpr std::string_view kHelpExtract = R"(Usage: pith extract [options] FILE...|-

Extracts the main article from each HTML input. FILE '-' reads standard input
(at most once). Inputs in any charset; the charset is detected unless given.

Options:
  --strategy NAME         how the article is found: auto (default: runs
                          readability and fitness, removes boilerplate, keeps
                          the better), readability (Readability.js, exactly),
                          lectito (Lectito's scoring) or fitness (a weighted
                          body text tagger)
  --select-mode MODE      readability's container choice: readability
                          (default) or dom_smoothie
  --policy NAME           one readability pass with fixed heuristics, no
                          retries: strict, moderate, clean or raw
  --min-score-to-adjust X only candidates scoring above X are scaled by link
                          density (default: all are)
  --min-confidence X      an article whose confidence (the estimated
                          probability that it is right) is under X gets
                          status low_confidence, the article still in it;
                          0..1 (default 0: never)
  --lectito-min-score X   lectito: best score needed, else no_content (20)
  --lectito-char-threshold N
                          lectito: text length before retries stop (500)
  --lectito-min-content-length N
                          lectito: text an element needs to be a candidate
                          (140)
  --fitness NAME=VALUE    a fitness weight or threshold (repeatable); NAME is
                          one of link_density_weight, tag_density_weight,
                          title_case_weight, punctuation_weight,
                          punctuation_norm, word_count_weight, depth_weight,
                          document_word_postweight, min_child_fitness_ratio,
                          min_text_percentage
  --url URL               document URL: base for resolving relative links
                          (default: none, links stay relative); its host
                          picks the site rule
  --rules-dir DIR         site rules (see 'pith help rules'): the rule for
                          --url's host applies
  --content-selector CSS  the article is what this CSS selector list selects
                          (falls back to the strategy when it selects nothing)
  --remove-selectors CSS  removes what this CSS selector list selects first
  --rule-content XPATH    a rule of this run's own (repeatable: alternatives in
  --rule-title XPATH      order): the article, title, author and date are what
  --rule-author XPATH     the expressions select; --rule-remove strips what it
  --rule-date XPATH       selects. It takes the place of --rules-dir's rule
  --rule-remove XPATH
  --format FORMAT         json (default), html, text (clean text: blocks
                          separated by one blank line, list items and table
                          rows as lines) or markdown (GitHub-flavoured)
  --front-matter          with --format markdown: YAML front matter first
                          (title, author, date, site, url, language)
  --with FIELDS           add renderings to the JSON: markdown, text, or
                          markdown,text (only with --format json)
  --diagnostics           add per-pass diagnostics and stage timings to the
                          JSON (only with --format json)
  --max-input-bytes N     refuse inputs larger than N bytes before reading
                          them whole; 0 = unlimited (default: 16777216)
  --max-elements N        refuse documents with more than N elements;
                          0 = unlimited (default: 0)
  --max-depth N           refuse documents whose elements nest deeper than
                          about N, before parsing; 0 = unlimited (default: 8192)
  --max-attributes N      refuse documents with an element carrying more than
                          N attributes, before parsing; 0 = unlimited
                          (default: 512)
  --max-memory-bytes N    refuse documents whose estimated working memory is
                          larger, before parsing (too_much_memory), and stop
                          the parse if it outgrows its share; 0 = unlimited
                          (default: 268435456)
  --keep-classes          keep class attributes in the article HTML
  --no-retry              one pass with every heuristic; no relaxed retries
  --char-threshold N      article text length (UTF-16 units) a pass must reach
                          before retries stop (default: 500)
  --n-top-candidates N    candidates kept per pass (default: 5, minimum 1)
  --charset LABEL         charset of the inputs, e.g. utf-8, windows-1252
                          (default: detect from BOM, <meta> and content)
  --jobs N                worker threads for several inputs, 1 to 1024
                          (default: number of hardware threads)
  -h, --help              show this help
  --                      end of options; later arguments are files
N is a decimal integer without sign, X a decimal number. Options also accept
--flag=VALUE.

Output:
  json  one compact JSON object on one line: title, byline, dir, lang,
        content, textContent, length, excerpt, siteName, publishedTime, image,
        favicon, readerable, status (ok|best_attempt|no_content|
        budget_exceeded|low_confidence), confidence, charset; absent fields
        are null. A budget refusal adds "error": {"code","message"}.
  html  the article's HTML (content) followed by a newline
  text  the article's clean text followed by a newline (the JSON's textContent
        keeps Readability's exact text, white space of the page included)
  markdown  the article as GitHub-flavoured Markdown followed by a newline
  Several inputs print NDJSON: one object per line, in input order, each
  starting with a "file" field; they need --format json. An input that cannot
  be read prints {"file":...,"error":{"code":"io_error","message":...}} and the
  others continue; an internal failure prints code "internal" the same way.

Exit codes (several inputs: the worst, 3 > 1 > 0):
  0  article extracted (status ok or best_attempt)
  1  nothing readable (status no_content or budget_exceeded), or an article
     under --min-confidence (low_confidence); output printed
  2  usage error (unknown option, bad number, no input)
  3  an input could not be read or processed
)";

constexpr std::string_view kHelpRules = R"(Usage: pith rules check DIR
       pith rules show URL --rules-dir DIR

Site rules: Full-Text RSS site configs (example.com.txt covers example.com and
www.example.com; .example.com.txt its subdomains) and Lectito's fingerprint
files (*.toml, [[fingerprints]] pattern = "example.com").

  check DIR   loads every rule file under DIR and prints how many files, rules
              and expressions it loaded, every file it rejected (path:line:
              reason) and the directives it reads but does not act on
  show URL    prints the rule that applies to URL's host, from --rules-dir

Exit codes: 0 every file loaded (check) or a rule applies (show); 1 some file
was rejected, or no rule applies; 2 usage error.
)";

constexpr std::string_view kHelpReadable = R"(Usage: pith readable [options] FILE...|-

Runs Readability's isProbablyReaderable preflight on each HTML input. FILE '-'
reads standard input (at most once).

Options:
  --charset LABEL   charset of the inputs (default: detect)
  -h, --help        show this help
  --                end of options; later arguments are files

Output:
  One compact JSON object per input on its own line: {"readerable":true|false};
  several inputs add a leading "file" field (NDJSON, in input order). An input
  that cannot be read prints {"file":...,"error":{"code":"io_error",...}}.

Exit codes (several inputs: the worst, 3 > 1 > 0):
  0  readable
  1  not readable
  2  usage error (unknown option, no input)
  3  an input could not be read or processed
)";

enum class Command { extract, readable, rules, help, version };
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
    extract::ExtractOptions options;
    std::vector<std::string> inputs;
    std::string rules_dir;            // --rules-dir (extract, rules show) or the folder of rules check
    std::string rules_action;         // rules: "check" or "show"
    std::string rules_url;            // rules show: the page's URL
    std::shared_ptr<const rules::RuleSet> rule_set;  // extract: loaded once before the jobs
    rules::InlineRule selectors;                     // --content-selector, --remove-selectors
    std::shared_ptr<const rules::SiteRule> selector_rule;
};

Error usage(std::string message) {
    return Error{ErrorCode::invalid_argument, std::move(message)};
}

// A whole-string, unsigned, decimal number within [min, max].
Result<std::size_t> parse_size(std::string_view flag, std::string_view text, std::size_t min,
                               std::size_t max) {
    std::size_t value = 0;
    const char* const end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec == std::errc::invalid_argument || ptr != end) {
        return usage(std::string(flag) + ": '" + std::string(text) +
                     "' is not a non-negative integer");
    }
    if (ec == std::errc::result_out_of_range || value < min || value > max) {
        return usage(std::string(flag) + ": " + std::string(text) + " is out of range [" +
                     std::to_string(min) + ", " + std::to_string(max) + "]");
    }
    return value;
}

// A finite decimal number, e.g. "20", "-2.5", "0.25".
Result<double> parse_number(std::string_view flag, std::string_view text) {
    double number = 0.0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(number)) {
        return usage(std::string(flag) + " needs a finite number, got \"" + std::string(text) + "\"");
    }
    return number;
}

// --fitness NAME=VALUE: one of the fitness strategy's weights or thresholds.
Result<bool> set_fitness_option(extract::FitnessOptions& fitness, std::string_view assignment) {
    const std::size_t eq = assignment.find('=');
    const std::string_view name = assignment.substr(0, eq);
    for (const auto& field : extract::fitness_option_fields()) {
        if (field.name == name && eq != std::string_view::npos) {
            auto number = parse_number("--fitness " + std::string(name), assignment.substr(eq + 1));
            if (!number) {
                return std::move(number).error();
            }
            fitness.*field.member = *number;
            return true;
        }
    }
    std::string names;
    for (const auto& field : extract::fitness_option_fields()) {
        names += names.empty() ? "" : ", ";
        names += field.name;
    }
    return usage("--fitness wants NAME=VALUE with NAME one of " + names + ", got \"" + std::string(assignment) + "\"");
}

Result<Format> parse_format(std::string_view text) {
    if (text == "json") {
        return Format::json;
    }
    if (text == "html") {
        return Format::html;
    }
    if (text == "text") {
        return Format::text;
    }
    if (text == "markdown") {
        return Format::markdown;
    }
    return usage("--format: '" + std::string(text) + "' is not one of json, html, text, markdown");
}

// Parses the options and inputs of `extract` or `readable`.
Result<CliArgs> parse_command(Command command, std::span<const std::string_view> args) {
    CliArgs cli;
    cli.command = command;
    const bool is_extract = command == Command::extract;
    constexpr std::size_t kSizeMax = std::numeric_limits<std::size_t>::max();
    bool options_done = false;
    bool policy_given = false;
    bool no_retry_given = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string_view arg = args[i];
        if (options_done || arg == "-" || !arg.starts_with('-')) {
            cli.inputs.emplace_back(arg);
            continue;
        }
        if (arg == "--") {
            options_done = true;
            continue;
        }
        if (arg == "-h" || arg == "--help") {
            cli.command = Command::help;
            cli.help_topic = command;
            return cli;
        }
        // --flag VALUE or --flag=VALUE.
        const std::size_t eq = arg.find('=');
        const std::string_view flag = arg.substr(0, eq);
        std::optional<std::string_view> inline_value;
        if (eq != std::string_view::npos) {
            inline_value = arg.substr(eq + 1);
        }
        auto value = [&]() -> Result<std::string_view> {
            if (inline_value) {
                return *inline_value;
            }
            if (i + 1 >= args.size()) {
                return usage(std::string(flag) + " needs a value");
            }
            return args[++i];
        };
        auto enum_flag = [&](auto& out, auto from_name, std::string_view choices) -> Result<bool> {
            auto text = value();
            if (!text) {
                return std::move(text).error();
            }
            const auto found = from_name(*text);
            if (!found) {
                return usage(std::string(flag) + " must be one of " + std::string(choices) + ", got \"" +
                             std::string(*text) + "\"");
            }
            out = *found;
            return true;
        };
        auto number_flag = [&](double& out) -> Result<bool> {
            auto text = value();
            if (!text) {
                return std::move(text).error();
            }
            auto number = parse_number(flag, *text);
            if (!number) {
                return std::move(number).error();
            }
            out = *number;
            return true;
        };
        auto size_flag = [&](std::size_t& out, std::size_t min, std::size_t max) -> Result<bool> {
            auto text = value();
            if (!text) {
                return std::move(text).error();
            }
            auto number = parse_size(flag, *text, min, max);
            if (!number) {
                return std::move(number).error();
            }
            out = *number;
            return true;
        };

        Result<bool> parsed = true;
        if (flag == "--charset") {
            auto text = value();
            if (!text) {
                return std::move(text).error();
            }
            if (text->empty()) {
                return usage("--charset needs a non-empty label");
            }
            cli.options.charset = std::string(*text);
        } else if (!is_extract) {
            return usage("unknown option '" + std::string(flag) + "' for 'pith readable'");
        } else if (flag == "--url") {
            auto text = value();
            if (!text) {
                return std::move(text).error();
            }
            cli.options.url = std::string(*text);
        } else if (flag == "--format") {
            auto text = value();
            if (!text) {
                return std::move(text).error();
            }
            auto format = parse_format(*text);
            if (!format) {
                return std::move(format).error();
            }
            cli.format = *format;
        } else if (flag == "--diagnostics") {
            if (inline_value) {
                return usage("--diagnostics takes no value");
            }
            cli.diagnostics = true;
        } else if (flag == "--front-matter") {
            if (inline_value) {
                return usage("--front-matter takes no value");
            }
            cli.front_matter = true;
        } else if (flag == "--with") {
            auto text = value();
            if (!text) {
                return std::move(text).error();
            }
            for (std::string_view rest = *text; !rest.empty();) {
                const std::size_t comma = std::min(rest.find(','), rest.size());
                const std::string_view field = rest.substr(0, comma);
                if (field == "markdown") {
                    cli.with_markdown = true;
                } else if (field == "text") {
                    cli.with_text = true;
                } else {
                    return usage("--with: '" + std::string(field) + "' is not one of markdown, text");
                }
                rest.remove_prefix(std::min(comma + 1, rest.size()));
            }
        } else if (flag == "--max-input-bytes") {
            parsed = size_flag(cli.options.max_input_bytes, 0, kSizeMax);
        } else if (flag == "--max-depth") {
            parsed = size_flag(cli.options.max_nesting_depth, 0, kSizeMax);
        } else if (flag == "--max-memory-bytes") {
            parsed = size_flag(cli.options.max_memory_bytes, 0, kSizeMax);
        } else if (flag == "--max-attributes") {
            parsed = size_flag(cli.options.max_attributes_per_element, 0, kSizeMax);
        } else if (flag == "--keep-classes") {
            if (inline_value) {
                return usage("--keep-classes takes no value");
            }
            cli.options.keep_classes = true;
        } else if (flag == "--no-retry") {
            if (inline_value) {
                return usage("--no-retry takes no value");
            }
            cli.options.retry = false;
            no_retry_given = true;
        } else if (flag == "--max-elements") {
            parsed = size_flag(cli.options.max_elements, 0, kSizeMax);
        } else if (flag == "--char-threshold") {
            parsed = size_flag(cli.options.char_threshold, 0, kSizeMax);
        } else if (flag == "--n-top-candidates") {
            parsed = size_flag(cli.options.n_top_candidates, 1, kSizeMax);
        } else if (flag == "--strategy") {
            parsed = enum_flag(cli.options.strategy, extract::strategy_from_name, "readability, lectito, fitness, auto");
        } else if (flag == "--select-mode") {
            parsed = enum_flag(cli.options.select_mode, extract::select_mode_from_name, "readability, dom_smoothie");
        } else if (flag == "--policy") {
            extract::Policy policy = extract::Policy::strict;
            parsed = enum_flag(policy, extract::policy_from_name, "strict, moderate, clean, raw");
            cli.options.flags = extract::policy_flags(policy);
            cli.options.retry = false;
            policy_given = true;
        } else if (flag == "--rule-content" || flag == "--rule-title" || flag == "--rule-author" ||
                   flag == "--rule-date" || flag == "--rule-remove") {
            auto text = value();
            if (!text) {
                return std::move(text).error();
            }
            rules::InlineRule& r = cli.selectors;
            (flag == "--rule-content" ? r.content
             : flag == "--rule-title" ? r.title
             : flag == "--rule-author" ? r.author
             : flag == "--rule-date" ? r.date
                                     : r.remove)
                .emplace_back(*text);
        } else if (flag == "--content-selector" || flag == "--remove-selectors") {
            auto text = value();
            if (!text) {
                return std::move(text).error();
            }
            (flag == "--content-selector" ? cli.selectors.content_selector : cli.selectors.remove_selectors) =
                std::string(*text);
        } else if (flag == "--rules-dir") {
            auto text = value();
            if (!text) {
                return std::move(text).error();
            }
            cli.rules_dir = std::string(*text);
        } else if (flag == "--min-confidence") {
            parsed = number_flag(cli.options.min_confidence);
        } else if (flag == "--min-score-to-adjust") {
            parsed = number_flag(cli.options.min_score_to_adjust.emplace());
        } else if (flag == "--lectito-min-score") {
            parsed = number_flag(cli.options.lectito.min_score);
        } else if (flag == "--lectito-char-threshold") {
            parsed = size_flag(cli.options.lectito.char_threshold, 0, kSizeMax);
        } else if (flag == "--lectito-min-content-length") {
            parsed = size_flag(cli.options.lectito.min_content_length, 0, kSizeMax);
        } else if (flag == "--fitness") {
            auto text = value();
            if (!text) {
                return std::move(text).error();
            }
            parsed = set_fitness_option(cli.options.fitness, *text);
        } else if (flag == "--jobs") {
            parsed = size_flag(cli.jobs, 1, kMaxJobs);
        } else {
            return usage("unknown option '" + std::string(flag) + "' for 'pith extract'");
        }
        if (!parsed) {
            return std::move(parsed).error();
        }
    }

    if (policy_given && no_retry_given) {
        return usage("--policy already means one pass; drop --no-retry");
    }
    if (cli.inputs.empty()) {
        return usage("no input: give one or more FILEs, or '-' for standard input");
    }
    if (std::count(cli.inputs.begin(), cli.inputs.end(), "-") > 1) {
        return usage("'-' (standard input) may be given only once");
    }
    if (cli.inputs.size() > 1 && cli.format != Format::json) {
        return usage("several inputs need --format json (NDJSON output)");
    }
    if (cli.diagnostics && cli.format != Format::json) {
        return usage("--diagnostics needs --format json");
    }
    if ((cli.with_markdown || cli.with_text) && cli.format != Format::json) {
        return usage("--with needs --format json");
    }
    if (cli.front_matter && cli.format != Format::markdown) {
        return usage("--front-matter needs --format markdown");
    }
    const rules::InlineRule& own = cli.selectors;
    if (!own.content_selector.empty() || !own.remove_selectors.empty() || !own.content.empty() ||
        !own.title.empty() || !own.author.empty() || !own.date.empty() || !own.remove.empty()) {
        auto rule = rules::make_rule(cli.selectors, "the command line's --rule-* and selector flags");
        if (!rule) {
            return usage(rule.error().message);
        }
        cli.selector_rule = std::move(rule).value();
        cli.options.rule = cli.selector_rule.get();
    }
    cli.options.markdown = cli.format == Format::markdown || cli.with_markdown;
    cli.options.clean_text = cli.format == Format::text || cli.with_text;
    if (is_extract) {
        auto valid = extract::validate(cli.options);
        if (!valid) {
            return usage(valid.error().message);
        }
    }
    return cli;
}

Result<CliArgs> parse_rules_command(std::span<const std::string_view> args) {
    CliArgs cli;
    cli.command = Command::rules;
    if (args.empty()) {
        return usage("rules: give check DIR or show URL --rules-dir DIR");
    }
    if (args[0] == "--help" || args[0] == "-h") {
        cli.command = Command::help;
        cli.help_topic = Command::rules;
        return cli;
    }
    cli.rules_action = std::string(args[0]);
    std::vector<std::string_view> positional;
    for (std::size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--rules-dir" && i + 1 < args.size()) {
            cli.rules_dir = std::string(args[++i]);
        } else if (args[i].starts_with("--rules-dir=")) {
            cli.rules_dir = std::string(args[i].substr(12));
        } else if (args[i].starts_with("-")) {
            return usage("rules: unknown option '" + std::string(args[i]) + "'");
        } else {
            positional.push_back(args[i]);
        }
    }
    if (cli.rules_action == "check") {
        if (positional.size() != 1) {
            return usage("rules check wants one folder");
        }
        cli.rules_dir = std::string(positional[0]);
        return cli;
    }
    if (cli.rules_action == "show") {
        if (positional.size() != 1 || cli.rules_dir.empty()) {
            return usage("rules show wants a URL and --rules-dir DIR");
        }
        cli.rules_url = std::string(positional[0]);
        return cli;
    }
    return usage("rules: unknown action '" + cli.rules_action + "' (check or show)");
}

int run_rules(const CliArgs& cli) {
    rules::LoadReport report;
    const rules::RuleSet set = rules::RuleSet::load_directory(cli.rules_dir, report);
    if (cli.rules_action == "show") {
        const rules::SiteRule* rule = set.find_for_url(cli.rules_url);
        if (rule == nullptr) {
            std::printf("no rule applies to %s\n", cli.rules_url.c_str());
            return kExitNothing;
        }
        const std::string text = rules::describe(*rule);
        std::fwrite(text.data(), 1, text.size(), stdout);
        return kExitOk;
    }
    std::printf("%zu files, %zu rules, %zu expressions loaded; %zu files rejected\n", report.files, report.rules,
                report.expressions, report.rejected.size());
    for (const rules::FileNote& note : report.rejected) {
        std::printf("rejected %s:%zu: %s\n", note.path.c_str(), note.line, note.reason.c_str());
    }
    for (const rules::FileNote& note : report.ignored) {
        std::printf("ignored %s:%zu: %s\n", note.path.c_str(), note.line, note.reason.c_str());
    }
    return report.rejected.empty() ? kExitOk : kExitNothing;
}

Result<CliArgs> parse_args(std::span<const std::string_view> args) {
    CliArgs cli;
    if (args.empty()) {
        return usage("no command given");
    }
    const std::string_view first = args[0];
    const auto rest = args.subspan(1);
    if (first == "--help" || first == "-h" || first == "help") {
        cli.command = Command::help;
        if (first == "help" && !rest.empty()) {
            if (rest[0] == "extract") {
                cli.help_topic = Command::extract;
            } else if (rest[0] == "readable") {
                cli.help_topic = Command::readable;
            } else if (rest[0] == "rules") {
                cli.help_topic = Command::rules;
            } else {
                return usage("no help for '" + std::string(rest[0]) + "'");
            }
        }
        return cli;
    }
    if (first == "--version" || first == "version") {
        cli.command = Command::version;
        return cli;
    }
    if (first == "extract") {
        return parse_command(Command::extract, rest);
    }
    if (first == "readable") {
        return parse_command(Command::readable, rest);
    }
    if (first == "rules") {
        return parse_rules_command(rest);
    }
    return usage("unknown command '" + std::string(first) + "'");
}

struct Input {
    std::string bytes;
    bool over_limit = false;       // more than the limit was there; bytes holds limit + 1
    std::uintmax_t file_size = 0;  // from fstat for regular files, else 0
};

// Reads a file, or standard input for "-", but never more than max_bytes + 1
// bytes (0 = no limit): an oversized input is refused without being buffered.
Result<Input> read_input(const std::string& path, std::size_t max_bytes) {
    const bool is_stdin = path == "-";
    const int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    auto io_error = [&](int err) {
        return Error{ErrorCode::io_error,
                     (is_stdin ? std::string("standard input") : path) + ": " +
                         std::generic_category().message(err)};
    };
    if (fd < 0) {
        return io_error(errno);
    }
    Input input;
    std::string& bytes = input.bytes;
    const std::size_t cap = max_bytes == 0 ? std::numeric_limits<std::size_t>::max() : max_bytes + 1;
    struct stat info {};
    if (::fstat(fd, &info) == 0) {
        if (S_ISDIR(info.st_mode)) {
            if (!is_stdin) {
                ::close(fd);
            }
            return io_error(EISDIR);
        }
        if (S_ISREG(info.st_mode) && info.st_size > 0) {
            input.file_size = static_cast<std::uintmax_t>(info.st_size);
            bytes.reserve(std::min(static_cast<std::size_t>(info.st_size), cap));
        }
    }
    constexpr std::size_t kChunk = 64U * 1024U;
    for (;;) {
        const std::size_t old_size = bytes.size();
        if (old_size >= cap) {
            if (!is_stdin) {
                ::close(fd);
            }
            input.over_limit = true;
            return input;
        }
        const std::size_t chunk = std::min(kChunk, cap - old_size);
        bytes.resize(old_size + chunk);
        const ssize_t n = ::read(fd, bytes.data() + old_size, chunk);
        if (n < 0 && errno == EINTR) {
            bytes.resize(old_size);
            continue;
        }
        if (n <= 0) {
            const int err = errno;
            bytes.resize(old_size);
            if (!is_stdin) {
                ::close(fd);
            }
            if (n < 0) {
                return io_error(err);
            }
            return input;
        }
        bytes.resize(old_size + static_cast<std::size_t>(n));
    }
}

// Invalid UTF-8 (a file name, a page's text) must not stop the output.
std::string dump(const nlohmann::json& j) {
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// One compact JSON line; with `file`, a leading "file" field. nlohmann's json
// keeps object keys sorted, so the field is spliced in front of the dump.
std::string json_line(const nlohmann::json& body, const std::string* file) {
    std::string out;
    if (file == nullptr) {
        out = dump(body);
    } else {
        const std::string rest = dump(body);  // "{...}"
        out = "{\"file\":" + dump(nlohmann::json(*file));
        if (rest.size() > 2) {
            out += ',';
            out.append(rest, 1);
        } else {
            out += '}';
        }
    }
    out += '\n';
    return out;
}

struct JobResult {
    std::string out;  // for standard output
    std::string err;  // for standard error
    int exit_code = kExitOk;
};

JobResult error_result(const std::string& file, const Error& error, int exit_code) {
    JobResult r;
    const nlohmann::json body = {
        {"error",
         {{"code", std::string(error_code_name(error.code))}, {"message", error.message}}},
    };
    r.out = json_line(body, &file);
    r.err = "pith: " + error.message + "\n";
    r.exit_code = exit_code;
    return r;
}

// The Article for an input refused before it was read whole.
extract::Article oversized_article(const Input& input, std::size_t limit) {
    extract::Article article;
    article.status = extract::Status::budget_exceeded;
    const std::string size = input.file_size > limit ? std::to_string(input.file_size)
                                                     : "more than " + std::to_string(limit);
    article.error = Error{ErrorCode::input_too_large, "input is " + size + " bytes, limit " + std::to_string(limit)};
    return article;
}

JobResult extract_job(const CliArgs& cli, const std::string& file, bool several) {
    auto input = read_input(file, cli.options.max_input_bytes);
    if (!input) {
        return error_result(file, input.error(), kExitInput);
    }
    // Each job thread keeps its arena blocks from one input to the next.
    thread_local dom::BlockCache blocks(dom::kDefaultBlockCacheBytes);
    extract::ExtractOptions options = cli.options;
    options.block_cache = &blocks;
    extract::Article article = input->over_limit ? oversized_article(*input, cli.options.max_input_bytes)
                                                 : extract::extract(input->bytes, options);
    input->bytes = std::string();  // the answer of a large page needs the room
    JobResult r;
    const bool extracted =
        article.status == extract::Status::ok || article.status == extract::Status::best_attempt;
    r.exit_code = extracted ? kExitOk : kExitNothing;
    switch (cli.format) {
    case Format::json: {
        extract::JsonOptions json_options;
        json_options.diagnostics = cli.diagnostics;
        json_options.include_markdown = cli.with_markdown;
        json_options.include_clean_text = cli.with_text;
        r.out = json_line(extract::to_json(std::move(article), json_options), several ? &file : nullptr);
        return r;
    }
    case Format::html: r.out = article.content; break;
    case Format::text: r.out = article.text.value_or(std::string()); break;
    case Format::markdown:
        r.out = (cli.front_matter ? extract::yaml_front_matter(article, cli.options.url) : std::string()) +
                article.markdown.value_or(std::string());
        break;
    }
    if (!r.out.empty() && r.out.back() != '\n') {
        r.out += '\n';
    }
    if (!extracted) {
        r.err = "pith: " + file + ": " + std::string(extract::status_name(article.status));
        if (article.error) {
            r.err += ": " + article.error->message;
        }
        r.err += '\n';
    }
    return r;
}

JobResult readable_job(const CliArgs& cli, const std::string& file, bool several) {
    auto input = read_input(file, cli.options.max_input_bytes);
    if (!input) {
        return error_result(file, input.error(), kExitInput);
    }
    const bool readable = !input->over_limit && extract::is_probably_readable(input->bytes, cli.options.charset);
    JobResult r;
    r.out = json_line({{"readerable", readable}}, several ? &file : nullptr);
    r.exit_code = readable ? kExitOk : kExitNothing;
    return r;
}

// The one catch-all around a job: nothing escapes a worker thread.
JobResult guarded_job(const CliArgs& cli, const std::string& file, bool several) noexcept {
    try {
        return cli.command == Command::readable ? readable_job(cli, file, several)
                                                : extract_job(cli, file, several);
    } catch (const std::exception& e) {
        try {
            return error_result(file, Error{ErrorCode::internal, file + ": " + e.what()},
                                kExitInput);
        } catch (...) {
        }
    } catch (...) {
        try {
            return error_result(file, Error{ErrorCode::internal, file + ": unknown exception"},
                                kExitInput);
        } catch (...) {
        }
    }
    // Even building the error failed (out of memory): report without allocating much.
    JobResult r;
    r.exit_code = kExitInput;
    return r;
}

// Buffered standard output and error; written only by the main thread.
class Output {
public:
    void add(JobResult result) {
        if (!result.err.empty()) {
            flush();  // keep stderr lines next to the stdout line they belong to
            write(stderr, result.err);
        }
        out_ += result.out;
        exit_code_ = std::max(exit_code_, result.exit_code);
        if (out_.size() >= kFlushBytes) {
            flush();
        }
    }
    void flush() {
        write(stdout, out_);
        out_.clear();
        if (std::fflush(stdout) != 0) {
            failed_ = true;
        }
    }
    [[nodiscard]] bool failed() const noexcept { return failed_; }
    [[nodiscard]] int exit_code() const noexcept { return exit_code_; }

private:
    void write(std::FILE* stream, const std::string& bytes) {
        if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), stream) != bytes.size()) {
            failed_ = true;
        }
    }

    std::string out_;
    int exit_code_ = kExitOk;
    bool failed_ = false;
};

// Runs the jobs on `workers` threads; the main thread writes results in input
// order as soon as each next one is done.
void run_parallel(const CliArgs& cli, std::size_t workers, Output& output) {
    const std::size_t n = cli.inputs.size();
    const bool several = n > 1;
    const std::size_t lookahead = workers * kLookaheadPerWorker;

    std::mutex mutex;
    std::condition_variable changed;                  // slots or next_to_write changed
    std::vector<std::optional<JobResult>> slots(n);   // guarded by mutex
    std::size_t next_to_write = 0;                    // guarded by mutex
    bool abandoned = false;                           // guarded by mutex
    std::atomic<std::size_t> next_index{0};           // next input to claim

    auto worker = [&] {
        for (;;) {
            const std::size_t i = next_index.fetch_add(1);
            if (i >= n) {
                return;
            }
            {
                // Never waits for index next_to_write itself, so no deadlock.
                std::unique_lock lock(mutex);
                changed.wait(lock, [&] { return abandoned || i < next_to_write + lookahead; });
                if (abandoned) {
                    return;
                }
            }
            JobResult result = guarded_job(cli, cli.inputs[i], several);
            {
                const std::lock_guard lock(mutex);
                slots[i] = std::move(result);
            }
            changed.notify_all();
        }
    };

    // If the writer below throws, waiting workers must still end so the
    // jthreads can join. Declared after `threads`, so it is destroyed first.
    struct Abandon {
        std::mutex& mutex;
        std::condition_variable& changed;
        bool& abandoned;
        ~Abandon() {
            {
                const std::lock_guard lock(mutex);
                abandoned = true;
            }
            changed.notify_all();
        }
    };
    std::vector<std::jthread> threads;
    const Abandon abandon{mutex, changed, abandoned};
    try {
        threads.reserve(workers);
        for (std::size_t w = 0; w < workers; ++w) {
            threads.emplace_back(worker);
        }
    } catch (const std::system_error&) {
        // Fewer threads than asked for still finish the work; none means run here.
        if (threads.empty()) {
            for (const std::string& file : cli.inputs) {
                output.add(guarded_job(cli, file, several));
            }
            return;
        }
    }

    for (std::size_t i = 0; i < n; ++i) {
        JobResult result;
        {
            std::unique_lock lock(mutex);
            if (!slots[i]) {
                lock.unlock();
                output.flush();  // stream what is done while waiting
                lock.lock();
                changed.wait(lock, [&] { return slots[i].has_value(); });
            }
            result = std::move(*slots[i]);
            slots[i].reset();
            next_to_write = i + 1;
        }
        changed.notify_all();
        output.add(std::move(result));
    }
}

int run_jobs(const CliArgs& cli);

int run(const CliArgs& cli) {
    switch (cli.command) {
    case Command::help: {
        const std::string_view text = cli.help_topic == Command::extract    ? kHelpExtract
                                      : cli.help_topic == Command::readable ? kHelpReadable
                                      : cli.help_topic == Command::rules    ? kHelpRules
                                                                            : kHelpMain;
        std::fwrite(text.data(), 1, text.size(), stdout);
        return kExitOk;
    }
    case Command::version: std::fputs("pith " PITH_VERSION "\n", stdout); return kExitOk;
    case Command::rules: return run_rules(cli);
    case Command::extract:
    case Command::readable: break;
    }
    CliArgs loaded = cli;
    if (!cli.rules_dir.empty()) {
        rules::LoadReport report;
        auto set = std::make_shared<rules::RuleSet>(rules::RuleSet::load_directory(cli.rules_dir, report));
        for (const rules::FileNote& note : report.rejected) {
            std::fprintf(stderr, "pith: rule file rejected: %s:%zu: %s\n", note.path.c_str(), note.line,
                         note.reason.c_str());
        }
        loaded.rule_set = set;
        loaded.options.rules = set.get();
    }
    return run_jobs(loaded);
}

int run_jobs(const CliArgs& cli) {

    Output output;
    std::size_t jobs = cli.jobs;
    if (jobs == 0) {
        jobs = std::max<std::size_t>(1, std::thread::hardware_concurrency());
    }
    const std::size_t workers = std::min(jobs, cli.inputs.size());
    if (workers <= 1) {
        const bool several = cli.inputs.size() > 1;
        for (const std::string& file : cli.inputs) {
            output.add(guarded_job(cli, file, several));
        }
    } else {
        run_parallel(cli, workers, output);
    }
    output.flush();
    if (output.failed()) {
        std::fputs("pith: cannot write the output\n", stderr);
        return kExitInput;
    }
    return output.exit_code();
}

}  // namespace
}  // namespace pith::server

int main(int argc, char** argv) {
    try {
        const std::vector<std::string_view> args(argv + 1, argv + argc);
        auto cli = pith::server::parse_args(args);
        if (!cli) {
            std::fprintf(stderr, "pith: %s\nRun 'pith --help' for usage.\n",
                         cli.error().message.c_str());
            return pith::server::kExitUsage;
        }
        return pith::server::run(*cli);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "pith: internal error: %s\n", e.what());
        return pith::server::kExitInput;
    }
}
