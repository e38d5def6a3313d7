// The option table (pith/option_table.hpp) walked row by row through the three
// front-ends it drives: pithd's configuration (environment, flags and TOML),
// the /extract API (query and JSON) and the pith CLI. Each must take the same
// values, store the same value, and refuse the same values with the same
// message, each behind its own way of naming the option.
#include "pith/option_table.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/args.hpp"
#include "cli/help.hpp"
#include "config.hpp"
#include "pithd/request.hpp"

namespace {

using pith::Result;
using pith::extract::OptionKind;
using pith::extract::OptionRow;

// What one front-end made of one value: the value it stored, or the part of
// its message after its own name of the option.
struct Outcome {
    bool accepted = false;
    std::string value;  // OptionRow::show of the options it built
    std::string message;
};

std::string env_name(const OptionRow& row) {
    std::string env = "PITH_EXTRACT_" + std::string(row.name);
    for (char& c : env) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return env;
}

// The message without `prefix`; a mismatch shows whole, so the test names it.
std::string after(const std::string& message, const std::string& prefix) {
    return message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : "<no prefix " + prefix + "> " + message;
}

// The server's own limit on max_pages (fetch.max_pages, 10) lifted to the
// table's range, so that every front-end is judged by the table alone.
constexpr std::string_view kLiftedPageLimit = "--fetch-max-pages=100";

Outcome from_config(const OptionRow& row, pith::config::Sources sources, const std::string& prefix) {
    sources.args.emplace_back(kLiftedPageLimit);
    const Result<pith::config::Loaded> loaded = pith::config::load(sources);
    if (!loaded) {
        return {false, {}, after(loaded.error().message, prefix)};
    }
    return {true, row.show(loaded->config.extract), {}};
}

Outcome config_env(const OptionRow& row, const std::string& text) {
    pith::config::Sources sources;
    sources.environment[env_name(row)] = text;
    return from_config(row, sources, "extract." + std::string(row.name) + " (" + env_name(row) + "): ");
}

Outcome config_flag(const OptionRow& row, const std::string& text) {
    pith::config::Sources sources;
    const std::string flag = "--extract-" + pith::extract::option_flag(row).substr(2);
    sources.args = {flag + "=" + text};
    return from_config(row, sources, "extract." + std::string(row.name) + " (" + flag + "): ");
}

Outcome config_toml(const OptionRow& row, const std::string& literal) {
    pith::config::Sources sources;
    sources.config_text = "[extract]\n" + std::string(row.name) + " = " + literal + "\n";
    return from_config(row, sources, "extract." + std::string(row.name) + " (<config text>): ");
}

// The server behind the API: its budgets unlimited, so that a request's
// budget is judged by the table's range alone (the cap is the API's own rule).
pith::config::ServerConfig api_server() {
    pith::config::ServerConfig config;
    config.extract.budgets = pith::extract::Budgets{0, 0, 0, 0, 0};
    config.fetch.max_pages = 100;
    return config;
}

std::string percent_encoded(std::string_view text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (const char c : text) {
        const auto b = static_cast<unsigned char>(c);
        if (std::isalnum(b) || c == '-' || c == '.' || c == '_') {
            out += c;
        } else {
            out += '%';
            out += kHex[b >> 4U];
            out += kHex[b & 0xFU];
        }
    }
    return out;
}

Outcome from_api(const OptionRow& row, const Result<pith::server::ExtractRequest>& request) {
    if (!request) {
        return {false, {}, after(request.error().message, "option " + std::string(row.name) + ": ")};
    }
    return {true, row.show(request->options), {}};
}

Outcome api_query(const OptionRow& row, const std::string& text) {
    const std::string query = std::string(row.name) + "=" + percent_encoded(text);
    return from_api(row, pith::server::parse_raw_request("<p>x</p>", query, "", api_server()));
}

Outcome api_json(const OptionRow& row, const nlohmann::json& value) {
    const nlohmann::json body = {{"html", "<p>x</p>"}, {"options", {{std::string(row.name), value}}}};
    return from_api(row, pith::server::parse_json_request(body.dump(), "", api_server()));
}

Outcome cli(const OptionRow& row, const std::string& text) {
    const std::string flag = pith::extract::option_flag(row);
    const std::string assignment = flag + "=" + text;
    // A URL, which --max-pages above 1 needs.
    const std::vector<std::string_view> args = {"extract", "--url", "https://example.com/story", assignment,
                                                "page.html"};
    const Result<pith::cli::CliArgs> parsed = pith::cli::parse_args(args);
    if (!parsed) {
        return {false, {}, after(parsed.error().message, flag + ": ")};
    }
    return {true, row.show(parsed->options), {}};
}

std::string number_text(double value) {
    std::ostringstream out;
    out.precision(17);
    out << value;
    return out.str();
}

struct Values {
    std::vector<std::string> valid;    // as text
    std::vector<std::string> invalid;  // as text
};

// Values each row must take and refuse, from its own kind and range.
Values values_for(const OptionRow& row) {
    Values v;
    switch (row.kind) {
    case OptionKind::integer:
        v.valid = {number_text(row.min), number_text(row.max), pith::extract::option_default_text(row)};
        v.invalid = {number_text(row.max + 1), "1.5", "abc", "", " 5"};
        if (row.min > 0) {
            v.invalid.push_back(number_text(row.min - 1));
        } else {
            v.invalid.push_back("-1");
        }
        break;
    case OptionKind::number:
        v.valid = {"0.5"};
        if (std::isfinite(row.min)) {
            v.valid.push_back(number_text(row.min));
            v.invalid.push_back(number_text(row.min - 1));
        }
        if (std::isfinite(row.max)) {
            v.valid.push_back(number_text(row.max));
            v.invalid.push_back(number_text(row.max + 0.5));
        }
        if (!pith::extract::option_default_text(row).empty()) {
            v.valid.push_back(pith::extract::option_default_text(row));
        }
        v.invalid.insert(v.invalid.end(), {"abc", "nan", "inf", ""});
        break;
    case OptionKind::boolean:
        v.valid = {"true", "false", "1", "0", "yes", "off"};
        v.invalid = {"maybe", "2", "TRUE"};
        break;
    case OptionKind::choice:
        v.valid.assign(row.choices.begin(), row.choices.end());
        v.invalid = {"no_such_choice", "", std::string(row.choices.front()) + " "};
        break;
    }
    return v;
}

TEST(OptionTable, NamesAreUniqueAndEveryRowIsComplete) {
    std::vector<std::string_view> names;
    for (const OptionRow& row : pith::extract::option_table()) {
        EXPECT_FALSE(row.name.empty());
        EXPECT_FALSE(row.help.empty()) << row.name;
        EXPECT_FALSE(row.type.empty()) << row.name;
        EXPECT_FALSE(row.group.empty()) << row.name;
        EXPECT_NE(row.store, nullptr) << row.name;
        EXPECT_NE(row.show, nullptr) << row.name;
        EXPECT_EQ(std::count(names.begin(), names.end(), row.name), 0) << row.name << " twice";
        names.push_back(row.name);
        EXPECT_EQ(pith::extract::find_option(row.name), &row);
        if (row.kind == OptionKind::choice) {
            EXPECT_FALSE(row.choices.empty()) << row.name;
        }
        if (!row.preset) {
            // The default is a value the row itself takes.
            const std::string fallback = pith::extract::option_default_text(row);
            if (!fallback.empty()) {
                EXPECT_TRUE(pith::extract::check_option_value(row, fallback, pith::extract::ValueForm::text).ok())
                    << row.name << " = " << fallback;
            }
        }
    }
    EXPECT_TRUE(pith::extract::validate(pith::extract::ExtractOptions{}).ok());
}

// Text values: the environment, the config flags, the query and the CLI.
TEST(OptionTable, EveryFrontEndTakesAndRefusesTheSameTextWithTheSameWords) {
    for (const OptionRow& row : pith::extract::option_table()) {
        const Values values = values_for(row);
        for (const std::string& text : values.valid) {
            const Outcome api = api_query(row, text);
            const Outcome command_line = cli(row, text);
            ASSERT_TRUE(api.accepted) << row.name << "=" << text << ": " << api.message;
            ASSERT_TRUE(command_line.accepted) << row.name << "=" << text << ": " << command_line.message;
            EXPECT_EQ(api.value, command_line.value) << row.name << "=" << text;
            if (!row.preset) {  // a preset is no setting of the server's
                for (const Outcome& config : {config_env(row, text), config_flag(row, text)}) {
                    ASSERT_TRUE(config.accepted) << row.name << "=" << text << ": " << config.message;
                    EXPECT_EQ(config.value, api.value) << row.name << "=" << text;
                }
            }
        }
        for (const std::string& text : values.invalid) {
            const Outcome api = api_query(row, text);
            const Outcome command_line = cli(row, text);
            ASSERT_FALSE(api.accepted) << row.name << "=\"" << text << "\" was taken by the API";
            ASSERT_FALSE(command_line.accepted) << row.name << "=\"" << text << "\" was taken by the CLI";
            EXPECT_EQ(api.message, command_line.message) << row.name << "=\"" << text << "\"";
            EXPECT_NE(api.message.find("must be"), std::string::npos) << api.message;
            if (!row.preset) {
                for (const Outcome& config : {config_env(row, text), config_flag(row, text)}) {
                    ASSERT_FALSE(config.accepted) << row.name << "=\"" << text << "\" was taken by the config";
                    EXPECT_EQ(config.message, api.message) << row.name << "=\"" << text << "\"";
                }
            }
        }
    }
}

// Typed values: JSON request bodies and the TOML file keep their types, and
// a value of the wrong type is refused alike.
TEST(OptionTable, JsonAndTomlTakeAndRefuseTheSameTypedValues) {
    for (const OptionRow& row : pith::extract::option_table()) {
        std::vector<std::pair<nlohmann::json, bool>> cases;  // value, taken
        switch (row.kind) {
        case OptionKind::integer:
            cases = {{static_cast<std::uint64_t>(row.max), true}, {static_cast<std::uint64_t>(row.min), true},
                     {std::to_string(static_cast<std::uint64_t>(row.min)), false}, {1.5, false}, {true, false}};
            break;
        case OptionKind::number:
            cases = {{0.5, true}, {"0.5", false}, {false, false}};
            if (std::isfinite(row.max)) {
                cases.emplace_back(row.max + 1, false);
            }
            break;
        case OptionKind::boolean: cases = {{true, true}, {false, true}, {"true", false}, {1, false}}; break;
        case OptionKind::choice:
            cases = {{std::string(row.choices.back()), true}, {1, false}, {"no_such_choice", false}};
            break;
        }
        for (const auto& [value, taken] : cases) {
            const Outcome api = api_json(row, value);
            EXPECT_EQ(api.accepted, taken) << row.name << " = " << value.dump() << ": " << api.message;
            if (row.preset) {
                continue;
            }
            const Outcome toml = config_toml(row, value.dump());
            EXPECT_EQ(toml.accepted, taken) << row.name << " = " << value.dump() << ": " << toml.message;
            EXPECT_EQ(toml.message, api.message) << row.name << " = " << value.dump();
            EXPECT_EQ(toml.value, api.value) << row.name << " = " << value.dump();
        }
    }
}

TEST(OptionTable, APresetRefusesTheOptionsItSetsInEveryFrontEnd) {
    const auto api = pith::server::parse_raw_request("<p>x</p>", "policy=raw&retry=false", "", api_server());
    ASSERT_FALSE(api.ok());
    const std::vector<std::string_view> args = {"extract", "--policy", "raw", "--no-retry", "page.html"};
    const auto command_line = pith::cli::parse_args(args);
    ASSERT_FALSE(command_line.ok());
    EXPECT_EQ(api.error().message, command_line.error().message);
    EXPECT_NE(api.error().message.find("policy"), std::string::npos);
}

TEST(OptionTable, AServerCapIsTheApisOwnRule) {
    pith::config::ServerConfig config;  // max_depth 8192 by default
    const auto lowered = pith::server::parse_raw_request("<p>x</p>", "max_depth=100", "", config);
    ASSERT_TRUE(lowered.ok()) << lowered.error().message;
    EXPECT_EQ(lowered->options.budgets.max_nesting_depth, 100U);
    const auto raised = pith::server::parse_raw_request("<p>x</p>", "max_depth=9000", "", config);
    ASSERT_FALSE(raised.ok());
    EXPECT_EQ(raised.error().message, "option max_depth: must be an integer in 1..8192 (the server's limit), got 9000");
    const auto lifted = pith::server::parse_raw_request("<p>x</p>", "max_depth=0", "", config);
    ASSERT_FALSE(lifted.ok());
}

TEST(OptionTable, EveryHelpListsEveryOption) {
    const std::string cli_help = pith::cli::help_text(pith::cli::Command::extract);
    const std::string pithd_help = pith::config::help_text();
    for (const OptionRow& row : pith::extract::option_table()) {
        const std::string flag = pith::extract::option_flag(row);
        const std::string lead = row.kind == OptionKind::boolean ? "--[no-]" + flag.substr(2) : flag + " ";
        EXPECT_NE(cli_help.find("  " + lead), std::string::npos) << row.name << " is not in pith help extract";
        const std::string fallback = pith::extract::option_default_text(row);
        if (!fallback.empty()) {
            EXPECT_NE(cli_help.find("default " + fallback), std::string::npos) << row.name << "'s default";
        }
        if (!row.preset) {
            EXPECT_NE(pithd_help.find("--extract-" + flag.substr(2) + " "), std::string::npos)
                << row.name << " is not in pithd --help";
        }
    }
}

}  // namespace
