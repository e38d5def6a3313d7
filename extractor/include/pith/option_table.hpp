// The one option table: every extraction option a front-end can set, declared
// once with its name, kind, range or choices, default, help and the field it
// sets. pithd's [extract] config keys, the /extract API's options, the pith
// CLI's flags and `pith help extract` are all driven by it, and every value is
// checked here, so each front-end accepts the same values and refuses the
// same ones with the same words.
//
// Names: the row's name is the API option and the config key's last part
// (extract.NAME, PITH_EXTRACT_NAME, --extract-NAME); the CLI flag is --NAME
// with '-' for '_' (a boolean also takes --no-NAME).
//
// Thread-safety: the table is immutable; set_option writes only the options
// it is given.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "pith/options.hpp"
#include "pith/result.hpp"

namespace pith::extract {

enum class OptionKind : std::uint8_t {
    integer,  // a whole number within [min, max]
    number,   // a finite number within [min, max]
    boolean,  // true or false
    choice,   // one of `choices`
};

// A value as a front-end read it: typed from JSON or TOML, or text from a
// flag, an environment variable or a query parameter.
using OptionValue = std::variant<bool, std::int64_t, std::uint64_t, double, std::string>;
enum class ValueForm : std::uint8_t {
    typed,  // the value must have the option's own type ("retry": "true" is refused)
    text,   // text is read as the option's kind ("500", "true", "auto")
};

struct OptionRow {
    std::string_view name;  // "char_threshold"
    OptionKind kind;
    // How documentation spells the type: "integer", "bytes", "number",
    // "boolean" or "string".
    std::string_view type;
    // The part of ExtractOptions it sets: "budgets", "passes", "readability",
    // "lectito", "fitness", "metadata", "output", "pages".
    std::string_view group;
    std::string_view help;  // one line, lower case, no final full stop
    double min = 0.0;       // integer and number: the inclusive range
    double max = 0.0;
    std::span<const std::string_view> choices;  // choice: the names it takes
    // A budget that pithd's configuration caps: a request may lower it, never
    // raise it or lift it (0 = unlimited is then refused).
    bool server_cap = false;
    // Not a setting of its own but a preset of others (policy): a request or a
    // run may give it; a configuration sets the options it stands for.
    bool preset = false;
    // Stores a value that check_option_value accepted (integers come as
    // std::uint64_t, numbers as double, booleans as bool, choices as the name).
    void (*store)(ExtractOptions& options, const OptionValue& value);
    // The current value as text: "500", "0.25", "true", "auto"; "" for an
    // optional option without a value and for a preset.
    std::string (*show)(const ExtractOptions& options);
};

// Every option, grouped as ExtractOptions is, in the order help lists them.
[[nodiscard]] std::span<const OptionRow> option_table() noexcept;
// The row named `name`; nullptr when there is none.
[[nodiscard]] const OptionRow* find_option(std::string_view name) noexcept;

// The value `value` stands for under `row`, checked against its kind and
// range. Errors: invalid_argument whose message says what is wrong without
// naming the option ("must be an integer in 1..1000, got 0"): each front-end
// names it its own way (config key, API option, CLI flag) before it.
[[nodiscard]] Result<OptionValue> check_option_value(const OptionRow& row, const OptionValue& value, ValueForm form);
// check_option_value, then the value stored into `options`.
[[nodiscard]] Result<bool> set_option(ExtractOptions& options, const OptionRow& row, const OptionValue& value,
                                      ValueForm form);

// The range as help shows it: "1..1000", "[0, 1]", ">= 0", "any finite
// number", "readability, dom_smoothie"; "" for a boolean.
[[nodiscard]] std::string option_range_text(const OptionRow& row);
// The row's value in default ExtractOptions, as show() writes it.
[[nodiscard]] std::string option_default_text(const OptionRow& row);

// Options that set the same fields: a preset and the options it stands for
// (policy and strip_unlikelys, weight_classes, clean_conditionally, retry).
// `given` lists the names a request or a run gave; the Error says which two
// collide.
[[nodiscard]] std::optional<Error> conflicting_options(std::span<const std::string> given);

// The CLI flag of a row: "--char-threshold".
[[nodiscard]] std::string option_flag(const OptionRow& row);

}  // namespace pith::extract
