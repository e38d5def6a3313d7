// The command line of pith: `extract`, `readable`, `rules` and `help`. The
// extraction options are the option table's rows, each a flag --NAME (a
// boolean also --no-NAME); only the flags of the CLI itself are written here.
#include "cli/args.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <optional>
#include <system_error>

#include "pith/option_table.hpp"

namespace pith::cli {

namespace {

Error usage(std::string message) { return Error{ErrorCode::invalid_argument, std::move(message)}; }

// A whole-string, unsigned, decimal number within [min, max].
Result<std::size_t> parse_size(std::string_view flag, std::string_view text, std::size_t min, std::size_t max) {
    std::size_t value = 0;
    const char* const end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec == std::errc::invalid_argument || ptr != end) {
        return usage(std::string(flag) + ": '" + std::string(text) + "' is not a non-negative integer");
    }
    if (ec == std::errc::result_out_of_range || value < min || value > max) {
        return usage(std::string(flag) + ": " + std::string(text) + " is out of range [" + std::to_string(min) +
                     ", " + std::to_string(max) + "]");
    }
    return value;
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

// The option table's row a flag names: "--char-threshold" is char_threshold,
// "--no-retry" is retry set to false.
struct TableFlag {
    const extract::OptionRow* row = nullptr;
    bool negated = false;
};
std::optional<TableFlag> table_flag(std::string_view flag) {
    if (!flag.starts_with("--")) {
        return std::nullopt;
    }
    std::string name(flag.substr(2));
    std::replace(name.begin(), name.end(), '-', '_');
    if (const extract::OptionRow* row = extract::find_option(name)) {
        return TableFlag{row, false};
    }
    if (name.starts_with("no_")) {
        const extract::OptionRow* row = extract::find_option(std::string_view(name).substr(3));
        if (row != nullptr && row->kind == extract::OptionKind::boolean) {
            return TableFlag{row, true};
        }
    }
    return std::nullopt;
}

// --fitness NAME=VALUE, the older spelling of --fitness-NAME VALUE.
Result<std::pair<const extract::OptionRow*, std::string_view>> fitness_assignment(std::string_view assignment) {
    const std::size_t eq = assignment.find('=');
    const std::string name = "fitness_" + std::string(assignment.substr(0, eq));
    const extract::OptionRow* row = extract::find_option(name);
    if (row != nullptr && row->group == "fitness" && eq != std::string_view::npos) {
        return std::pair{row, assignment.substr(eq + 1)};
    }
    std::string names;
    for (const extract::OptionRow& r : extract::option_table()) {
        if (r.group == "fitness") {
            names += (names.empty() ? "" : ", ") + std::string(r.name.substr(8));
        }
    }
    return usage("--fitness wants NAME=VALUE with NAME one of " + names + ", got \"" + std::string(assignment) +
                 "\"");
}

// Parses the options and inputs of `extract`, `warc` or `readable`.
Result<CliArgs> parse_command(Command command, std::span<const std::string_view> args) {
    CliArgs cli;
    cli.command = command;
    const bool is_warc = command == Command::warc;
    const bool is_extract = command == Command::extract || is_warc;
    bool options_done = false;
    std::vector<std::string> given;  // the table's options, by name
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
        // The flag's value as a number in [min, max].
        auto size_value = [&](std::size_t min, std::size_t max) -> Result<std::size_t> {
            auto text = value();
            if (!text) {
                return std::move(text).error();
            }
            return parse_size(flag, *text, min, max);
        };
        auto no_value = [&]() -> Result<bool> {
            if (inline_value) {
                return usage(std::string(flag) + " takes no value");
            }
            return true;
        };

        if (flag == "--charset") {
            auto text = value();
            if (!text) {
                return std::move(text).error();
            }
            if (text->empty()) {
                return usage("--charset needs a non-empty label");
            }
            cli.options.input.charset = std::string(*text);
            continue;
        }
        if (!is_extract) {
            return usage("unknown option '" + std::string(flag) + "' for 'pith readable'");
        }
        // The extraction options: the option table's rows.
        if (const std::optional<TableFlag> option = table_flag(flag)) {
            const extract::OptionRow& row = *option->row;
            std::string text = "true";
            if (option->negated) {
                if (auto ok = no_value(); !ok) {
                    return std::move(ok).error();
                }
                text = "false";
            } else if (row.kind != extract::OptionKind::boolean || inline_value) {
                auto given_text = value();
                if (!given_text) {
                    return std::move(given_text).error();
                }
                text = std::string(*given_text);
            }
            if (auto set = extract::set_option(cli.options, row, text, extract::ValueForm::text); !set) {
                return usage(std::string(flag) + ": " + set.error().message);
            }
            given.emplace_back(row.name);
            continue;
        }
        Result<bool> parsed = true;
        if (flag == "--fitness") {
            auto text = value();
            if (!text) {
                return std::move(text).error();
            }
            auto assignment = fitness_assignment(*text);
            if (!assignment) {
                return std::move(assignment).error();
            }
            const auto [row, number] = assignment.value();
            if (auto set = extract::set_option(cli.options, *row, std::string(number), extract::ValueForm::text);
                !set) {
                return usage("--fitness " + std::string(row->name.substr(8)) + ": " + set.error().message);
            }
            given.emplace_back(row->name);
        } else if (flag == "--url" && !is_warc) {
            auto text = value();
            if (!text) {
                return std::move(text).error();
            }
            cli.options.input.url = std::string(*text);
        } else if (flag == "--fetch-allow" && !is_warc) {
            // Where --max-pages may fetch beyond the public internet.
            auto text = value();
            if (!text) {
                return std::move(text).error();
            }
            for (std::string_view rest = *text; !rest.empty();) {
                const std::size_t comma = std::min(rest.find(','), rest.size());
                if (const std::string_view entry = rest.substr(0, comma); !entry.empty()) {
                    cli.fetch_allow.emplace_back(entry);
                }
                rest.remove_prefix(std::min(comma + 1, rest.size()));
            }
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
            parsed = no_value();
            cli.diagnostics = true;
        } else if (flag == "--front-matter") {
            parsed = no_value();
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
        } else if (flag == "--rule-content" || flag == "--rule-title" || flag == "--rule-author" ||
                   flag == "--rule-date" || flag == "--rule-remove") {
            auto text = value();
            if (!text) {
                return std::move(text).error();
            }
            rules::InlineRule& r = cli.selectors;
            (flag == "--rule-content"  ? r.content
             : flag == "--rule-title"  ? r.title
             : flag == "--rule-author" ? r.author
             : flag == "--rule-date"   ? r.date
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
        } else if (flag == "--jobs") {
            auto jobs = size_value(1, kMaxJobs);
            if (!jobs) {
                return std::move(jobs).error();
            }
            cli.jobs = *jobs;
        } else if (flag == "--timeout-ms") {
            auto ms = size_value(0, kMaxTimeoutMs);
            if (!ms) {
                return std::move(ms).error();
            }
            cli.timeout = std::chrono::milliseconds(*ms);
        } else if (flag == "--model-fold") {
            // For the quality bench's out-of-fold figures: the fitted models
            // that never saw this fold of wcxb-dev's domains (bench/fit/).
            auto fold = size_value(0, 4);
            if (!fold) {
                return std::move(fold).error();
            }
            cli.options.runtime.model_fold = static_cast<int>(*fold);
        } else {
            return usage("unknown option '" + std::string(flag) + "' for 'pith " + (is_warc ? "warc" : "extract") +
                         "'");
        }
        if (!parsed) {
            return std::move(parsed).error();
        }
    }

    if (std::optional<Error> conflict = extract::conflicting_options(given)) {
        return usage(conflict->message);
    }
    if (cli.inputs.empty()) {
        return usage("no input: give one or more FILEs, or '-' for standard input");
    }
    if (std::count(cli.inputs.begin(), cli.inputs.end(), "-") > 1) {
        return usage("'-' (standard input) may be given only once");
    }
    if (is_warc && (cli.format == Format::html || cli.front_matter)) {
        return usage("pith warc writes NDJSON (--format json) or WARC conversion records (--format text or markdown)");
    }
    if (!is_warc && cli.inputs.size() > 1 && cli.format != Format::json) {
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
    cli.options.render.markdown = cli.format == Format::markdown || cli.with_markdown;
    cli.options.render.clean_text = cli.format == Format::text || cli.with_text;
    if (is_extract) {
        auto valid = extract::validate(cli.options);
        if (!valid) {
            return usage(valid.error().message);
        }
        if (cli.options.pages.max_pages > 1 && cli.options.input.url.empty()) {
            return usage("--max-pages above 1 needs --url: the page's address, which its next pages are found from");
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

}  // namespace

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
            } else if (rest[0] == "warc") {
                cli.help_topic = Command::warc;
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
    if (first == "warc") {
        return parse_command(Command::warc, rest);
    }
    if (first == "rules") {
        return parse_rules_command(rest);
    }
    return usage("unknown command '" + std::string(first) + "'");
}

}  // namespace pith::cli
