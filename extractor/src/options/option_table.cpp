// The option table (pith/option_table.hpp): one row per extraction option,
// and the one place their values are read and checked.
#include "pith/option_table.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

#include "options/names.hpp"
#include "pith/article.hpp"
#include "pith/url.hpp"

namespace pith::extract {

namespace {

constexpr double kUnbounded = std::numeric_limits<double>::infinity();
constexpr double kMaxBytes = 1099511627776.0;  // 1 TiB: far above any page, low enough to catch a typo

// ---- reading and writing a field of ExtractOptions ----

// A field one level down: (options.*Group).*Member.
template <auto Group, auto Member>
auto& field_of(ExtractOptions& options) {
    return (options.*Group).*Member;
}
template <auto Group, auto Member>
const auto& field_of(const ExtractOptions& options) {
    return (options.*Group).*Member;
}

std::string number_text(double value) {
    std::array<char, 64> buffer{};
    const auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    return ec == std::errc{} ? std::string(buffer.data(), end) : std::string("?");
}

template <auto Group, auto Member>
void store_size(ExtractOptions& options, const OptionValue& value) {
    field_of<Group, Member>(options) = static_cast<std::size_t>(std::get<std::uint64_t>(value));
}
template <auto Group, auto Member>
std::string show_size(const ExtractOptions& options) {
    return std::to_string(field_of<Group, Member>(options));
}
template <auto Group, auto Member>
void store_number(ExtractOptions& options, const OptionValue& value) {
    field_of<Group, Member>(options) = std::get<double>(value);
}
template <auto Group, auto Member>
std::string show_number(const ExtractOptions& options) {
    return number_text(field_of<Group, Member>(options));
}
template <auto Group, auto Member>
void store_bool(ExtractOptions& options, const OptionValue& value) {
    field_of<Group, Member>(options) = std::get<bool>(value);
}
template <auto Group, auto Member>
std::string show_bool(const ExtractOptions& options) {
    return field_of<Group, Member>(options) ? "true" : "false";
}
template <auto Member>
void store_top_bool(ExtractOptions& options, const OptionValue& value) {
    options.*Member = std::get<bool>(value);
}
template <auto Member>
std::string show_top_bool(const ExtractOptions& options) {
    return options.*Member ? "true" : "false";
}
template <PassFlags Flag>
void store_flag(ExtractOptions& options, const OptionValue& value) {
    PassFlags& flags = options.passes.flags;
    flags = std::get<bool>(value) ? (flags | Flag) : without(flags, Flag);
}
template <PassFlags Flag>
std::string show_flag(const ExtractOptions& options) {
    return has(options.passes.flags, Flag) ? "true" : "false";
}

// ---- row builders: one line of arguments a row ----

template <auto Group, auto Member>
constexpr OptionRow integer_row(std::string_view name, std::string_view type, std::string_view group,
                                std::string_view help, double min, double max, bool server_cap = false) {
    return OptionRow{name,      OptionKind::integer, type,  group,
                     help,      min,                 max,   {},
                     server_cap, false,              store_size<Group, Member>, show_size<Group, Member>};
}
template <auto Group, auto Member>
constexpr OptionRow number_row(std::string_view name, std::string_view group, std::string_view help, double min,
                               double max) {
    return OptionRow{name, OptionKind::number, "number", group, help, min, max, {}, false, false,
                     store_number<Group, Member>, show_number<Group, Member>};
}
template <auto Group, auto Member>
constexpr OptionRow bool_row(std::string_view name, std::string_view group, std::string_view help) {
    return OptionRow{name, OptionKind::boolean, "boolean", group, help, 0.0, 0.0, {}, false, false,
                     store_bool<Group, Member>, show_bool<Group, Member>};
}
template <PassFlags Flag>
constexpr OptionRow flag_row(std::string_view name, std::string_view help) {
    return OptionRow{name, OptionKind::boolean, "boolean", "passes", help, 0.0, 0.0, {}, false, false,
                     store_flag<Flag>, show_flag<Flag>};
}
template <auto Member>
constexpr OptionRow top_bool_row(std::string_view name, std::string_view group, std::string_view help) {
    return OptionRow{name, OptionKind::boolean, "boolean", group, help, 0.0, 0.0, {}, false, false,
                     store_top_bool<Member>, show_top_bool<Member>};
}

constexpr OptionRow fitness_row(std::string_view name, void (*store)(ExtractOptions&, const OptionValue&),
                                std::string (*show)(const ExtractOptions&), std::string_view help, bool share) {
    return OptionRow{name, OptionKind::number, "number", "fitness", help, 0.0, share ? 1.0 : kUnbounded, {},
                     false, false, store, show};
}
template <auto Member>
constexpr OptionRow fitness_weight(std::string_view name, std::string_view help, bool share = false) {
    return fitness_row(name, store_number<&ExtractOptions::fitness, Member>,
                       show_number<&ExtractOptions::fitness, Member>, help, share);
}

// The rows that are neither a plain field nor a flag.
void store_strategy(ExtractOptions& options, const OptionValue& value) {
    options.strategy = *kStrategyNames.find(std::get<std::string>(value));
}
std::string show_strategy(const ExtractOptions& options) { return std::string(strategy_name(options.strategy)); }
void store_select_mode(ExtractOptions& options, const OptionValue& value) {
    options.readability.select_mode = *kSelectModeNames.find(std::get<std::string>(value));
}
std::string show_select_mode(const ExtractOptions& options) {
    return std::string(select_mode_name(options.readability.select_mode));
}
void store_page_type(ExtractOptions& options, const OptionValue& value) {
    options.page_type = kPageTypeNames.find(std::get<std::string>(value));  // "auto": none
}
std::string show_page_type(const ExtractOptions& options) {
    return options.page_type ? std::string(page_type_name(*options.page_type)) : std::string("auto");
}
// A policy is dom_smoothie's single deterministic pass: its flags, no retries.
void store_policy(ExtractOptions& options, const OptionValue& value) {
    options.passes.flags = policy_flags(*kPolicyNames.find(std::get<std::string>(value)));
    options.passes.retry = false;
}
std::string show_nothing(const ExtractOptions&) { return {}; }
void store_min_score_to_adjust(ExtractOptions& options, const OptionValue& value) {
    options.readability.min_score_to_adjust = std::get<double>(value);
}
std::string show_min_score_to_adjust(const ExtractOptions& options) {
    return options.readability.min_score_to_adjust ? number_text(*options.readability.min_score_to_adjust) : "";
}
void store_min_confidence(ExtractOptions& options, const OptionValue& value) {
    options.min_confidence = std::get<double>(value);
}
std::string show_min_confidence(const ExtractOptions& options) { return number_text(options.min_confidence); }

using E = ExtractOptions;

// Ranges: the budgets and lengths are pith's (far above real pages, low
// enough to catch a typo); n_top_candidates and link_density_modifier are
// Readability's; the fitness shares are shares of a whole.
constexpr OptionRow kRows[] = {
    // budgets
    integer_row<&E::budgets, &Budgets::max_input_bytes>(
        "max_input_bytes", "bytes", "budgets",
        "refuse HTML larger than this before decoding (input_too_large); 0 = unlimited", 0, kMaxBytes, true),
    integer_row<&E::budgets, &Budgets::max_elements>(
        "max_elements", "integer", "budgets", "refuse pages with more elements (too_many_elements); 0 = unlimited",
        0, 1e9, true),
    integer_row<&E::budgets, &Budgets::max_nesting_depth>(
        "max_depth", "integer", "budgets",
        "refuse pages nesting deeper than about this, before parsing (too_deep); 0 = unlimited", 0, 1e6, true),
    integer_row<&E::budgets, &Budgets::max_attributes_per_element>(
        "max_attributes", "integer", "budgets",
        "refuse pages with an element carrying more attributes, before parsing (too_many_attributes); "
        "0 = unlimited",
        0, 1e6, true),
    integer_row<&E::budgets, &Budgets::max_memory_bytes>(
        "max_memory_bytes", "bytes", "budgets",
        "refuse pages whose estimated working memory is larger, before parsing (too_much_memory), and stop the "
        "parse if it outgrows its share; 0 = unlimited",
        0, kMaxBytes, true),
    // the strategy and the passes every strategy runs
    OptionRow{"strategy", OptionKind::choice, "string", "strategy",
              "how the article is found: auto (runs readability and fitness, removes boilerplate, keeps the "
              "better, or the page's main region when its judge predicts it clearly better), readability (Readability.js, exactly), lectito (Lectito's scoring) or fitness (a weighted "
              "body text tagger)",
              0.0, 0.0, kStrategyChoices, false, false, store_strategy, show_strategy},
    OptionRow{"page_type", OptionKind::choice, "string", "strategy",
              "the kind of page, when the caller knows it: auto (the classifier says), article, forum, product, "
              "collection, listing, documentation or service; auto extracts each its own way",
              0.0, 0.0, kPageTypeChoices, false, false, store_page_type, show_page_type},
    OptionRow{"policy", OptionKind::choice, "string", "passes",
              "one pass with fixed heuristics and no retries: strict (all of them), moderate (no "
              "strip_unlikelys), clean (clean_conditionally only) or raw (none)",
              0.0, 0.0, kPolicyNames.all(), false, true, store_policy, show_nothing},
    flag_row<PassFlags::strip_unlikelys>("strip_unlikelys",
                                         "the first pass removes unlikely candidates (navigation, comments, ...)"),
    flag_row<PassFlags::weight_classes>("weight_classes", "the first pass weighs class and id names"),
    flag_row<PassFlags::clean_conditionally>(
        "clean_conditionally", "the first pass cleans forms, tables, lists and divs that look like clutter"),
    bool_row<&E::passes, &PassOptions::retry>(
        "retry", "passes", "drop one heuristic at a time while the text is shorter than char_threshold"),
    integer_row<&E::passes, &PassOptions::char_threshold>(
        "char_threshold", "integer", "passes",
        "article text length (UTF-16 units) a pass must reach before retries stop", 0, 1e8),
    integer_row<&E::passes, &PassOptions::n_top_candidates>("n_top_candidates", "integer", "passes",
                                                            "candidates kept per pass", 1, 1000),
    // readability
    OptionRow{"select_mode", OptionKind::choice, "string", "readability",
              "how the readability strategy picks its container: readability (climb to what three runners-up "
              "share) or dom_smoothie (the best-scored ancestor every close runner-up shares)",
              0.0, 0.0, kSelectModeNames.all(), false, false, store_select_mode, show_select_mode},
    OptionRow{"min_score_to_adjust", OptionKind::number, "number", "readability",
              "only candidates scoring above it are scaled by link density; unset, all are", -kUnbounded,
              kUnbounded, {}, false, false, store_min_score_to_adjust, show_min_score_to_adjust},
    number_row<&E::readability, &ReadabilityOptions::link_density_modifier>(
        "link_density_modifier", "readability", "added to the link-density thresholds of conditional cleaning",
        -1.0, 1.0),
    // lectito
    number_row<&E::lectito, &LectitoOptions::min_score>("lectito_min_score", "lectito",
                                                        "lectito: the best score needed, else no_content",
                                                        -kUnbounded, kUnbounded),
    integer_row<&E::lectito, &LectitoOptions::char_threshold>(
        "lectito_char_threshold", "integer", "lectito", "lectito: text length before retries stop", 0, 1e8),
    integer_row<&E::lectito, &LectitoOptions::min_content_length>(
        "lectito_min_content_length", "integer", "lectito", "lectito: text an element needs to be a candidate",
        0, 1e8),
    // fitness (seed 002): weights count relative to each other
    fitness_weight<&FitnessOptions::link_density_weight>("fitness_link_density_weight",
                                                         "fitness: weight of low link density"),
    fitness_weight<&FitnessOptions::tag_density_weight>("fitness_tag_density_weight",
                                                        "fitness: weight of text outside child blocks"),
    fitness_weight<&FitnessOptions::title_case_weight>("fitness_title_case_weight",
                                                       "fitness: weight of few Title Case Words"),
    fitness_weight<&FitnessOptions::punctuation_weight>("fitness_punctuation_weight",
                                                        "fitness: weight of punctuation"),
    fitness_weight<&FitnessOptions::punctuation_norm>(
        "fitness_punctuation_norm", "fitness: punctuation per character at which that feature reaches 1"),
    fitness_weight<&FitnessOptions::word_count_weight>("fitness_word_count_weight",
                                                       "fitness: weight of many words"),
    fitness_weight<&FitnessOptions::depth_weight>("fitness_depth_weight", "fitness: weight of depth"),
    fitness_weight<&FitnessOptions::document_word_postweight>(
        "fitness_document_word_postweight",
        "fitness: share of the final fitness that is the element's share of the page's words", true),
    fitness_weight<&FitnessOptions::min_child_fitness_ratio>(
        "fitness_min_child_fitness_ratio",
        "fitness: leading and trailing children under this share of the best child's fitness are pruned", true),
    fitness_weight<&FitnessOptions::min_text_percentage>(
        "fitness_min_text_percentage",
        "fitness: a container holding less of the page's words falls back to the whole <body>", true),
    // metadata and output
    top_bool_row<&E::disable_json_ld>("disable_json_ld", "metadata", "ignore JSON-LD metadata"),
    top_bool_row<&E::reveal_hidden>("reveal_hidden", "passes",
                                    "take a hidden element holding two thirds of the page's text or more, and the "
                                    "tab and expandable panels the page's own controls open, as shown (content a "
                                    "script reveals); not for readability"),
    top_bool_row<&E::repair_double_encoding>("repair_double_encoding", "passes",
                                             "restore text that was UTF-8, read as windows-1252 or Latin-1 and "
                                             "stored as UTF-8 again (\"â€™\" for \"’\"), where the page reads so"),
    top_bool_row<&E::replay_streamed>("replay_streamed", "passes",
                                      "put the hidden segments React's streamed server rendering sends after the "
                                      "page (ids S:0, S:1...) where its script would, in place of their boundary's "
                                      "fallback or placeholder; not for readability"),
    top_bool_row<&E::declared_body>("declared_body", "passes",
                                    "auto: take the article body the page's JSON-LD declares where it holds twice "
                                    "the text of the article found in the page (a paywall's teaser, a script's "
                                    "empty shell)"),
    bool_row<&E::render, &RenderOptions::keep_classes>("keep_classes", "output",
                                                       "keep class attributes in the article HTML"),
    top_bool_row<&E::keep_repeated>("keep_repeated", "output",
                                    "auto: keep the later copies of a passage the page shows two or three times "
                                    "(by default they are left out)"),
    top_bool_row<&E::keep_furniture>("keep_furniture", "output",
                                     "return an article of page furniture (a few words, no sentence, under half of "
                                     "the page's text) as found, not as no_content"),
    integer_row<&E::pages, &PageOptions::max_pages>(
        "max_pages", "integer", "pages",
        "read an article split over pages from up to this many, following its next-page links (URL "
        "requests); 1 = the page given only",
        1, 100),
    OptionRow{"min_confidence", OptionKind::number, "number", "output",
              "an article whose confidence is under this comes back with status low_confidence, the article "
              "still in it; 0 = never",
              0.0, 1.0, {}, false, false, store_min_confidence, show_min_confidence},
};

// What a value looked like, for messages: text and strings quoted, numbers as written.
std::string shown(const OptionValue& value) {
    struct Visitor {
        std::string operator()(bool b) const { return b ? "true" : "false"; }
        std::string operator()(std::int64_t i) const { return std::to_string(i); }
        std::string operator()(std::uint64_t u) const { return std::to_string(u); }
        std::string operator()(double d) const {
            std::string text = number_text(d);
            // A whole number written as a float stays visibly a float.
            if (std::isfinite(d) && text.find_first_of(".e") == std::string::npos) {
                text += ".0";
            }
            return text;
        }
        std::string operator()(const std::string& s) const { return "\"" + s + "\""; }
    };
    return std::visit(Visitor{}, value);
}

// Text read as a number where it is one: "500" an integer, "-1" a negative
// one, "0.5" a float; anything else stays text.
OptionValue read_number_text(const std::string& text) {
    const char* const end = text.data() + text.size();
    std::int64_t whole = 0;
    if (const auto [ptr, ec] = std::from_chars(text.data(), end, whole); !text.empty() && ec == std::errc{} &&
                                                                         ptr == end) {
        return whole;
    }
    std::uint64_t large = 0;
    if (const auto [ptr, ec] = std::from_chars(text.data(), end, large); !text.empty() && ec == std::errc{} &&
                                                                         ptr == end) {
        return large;
    }
    double number = 0.0;
    if (const auto [ptr, ec] = std::from_chars(text.data(), end, number); !text.empty() && ec == std::errc{} &&
                                                                          ptr == end) {
        return number;
    }
    return text;
}

std::optional<bool> read_bool_text(const std::string& text) {
    if (text == "true" || text == "1" || text == "yes" || text == "on") {
        return true;
    }
    if (text == "false" || text == "0" || text == "no" || text == "off") {
        return false;
    }
    return std::nullopt;
}

std::string choices_text(std::span<const std::string_view> choices) {
    std::string out;
    for (const std::string_view choice : choices) {
        out += (out.empty() ? "" : ", ") + std::string(choice);
    }
    return out;
}

Error refused(const OptionRow& row, const OptionValue& value) {
    std::string what;
    switch (row.kind) {
    case OptionKind::integer: what = "must be an integer in " + option_range_text(row); break;
    case OptionKind::number:
        what = std::isinf(row.min) && std::isinf(row.max) ? "must be a finite number"
                                                          : "must be a number " + std::string(std::isinf(row.max)
                                                                                                  ? ""
                                                                                                  : "in ") +
                                                                option_range_text(row);
        break;
    case OptionKind::boolean: what = "must be true or false"; break;
    case OptionKind::choice: what = "must be one of " + option_range_text(row); break;
    }
    return Error{ErrorCode::invalid_argument, what + ", got " + shown(value)};
}

}  // namespace

std::span<const OptionRow> option_table() noexcept { return kRows; }

const OptionRow* find_option(std::string_view name) noexcept {
    const auto found = std::find_if(std::begin(kRows), std::end(kRows),
                                    [name](const OptionRow& row) { return row.name == name; });
    return found == std::end(kRows) ? nullptr : &*found;
}

Result<OptionValue> check_option_value(const OptionRow& row, const OptionValue& given, ValueForm form) {
    const auto* text = std::get_if<std::string>(&given);
    switch (row.kind) {
    case OptionKind::integer: {
        const OptionValue value = text != nullptr && form == ValueForm::text ? read_number_text(*text) : given;
        std::optional<double> number;
        std::uint64_t whole = 0;
        if (const auto* u = std::get_if<std::uint64_t>(&value)) {
            whole = *u;
            number = static_cast<double>(*u);
        } else if (const auto* i = std::get_if<std::int64_t>(&value)) {
            whole = *i < 0 ? 0 : static_cast<std::uint64_t>(*i);
            number = static_cast<double>(*i);
        }
        if (!number || *number < row.min || *number > row.max) {
            return refused(row, value);
        }
        return OptionValue{whole};
    }
    case OptionKind::number: {
        const OptionValue value = text != nullptr && form == ValueForm::text ? read_number_text(*text) : given;
        std::optional<double> number;
        if (const auto* d = std::get_if<double>(&value)) {
            number = *d;
        } else if (const auto* u = std::get_if<std::uint64_t>(&value)) {
            number = static_cast<double>(*u);
        } else if (const auto* i = std::get_if<std::int64_t>(&value)) {
            number = static_cast<double>(*i);
        }
        if (!number || !std::isfinite(*number) || *number < row.min || *number > row.max) {
            return refused(row, value);
        }
        return OptionValue{*number};
    }
    case OptionKind::boolean: {
        if (const auto* b = std::get_if<bool>(&given)) {
            return OptionValue{*b};
        }
        if (text != nullptr && form == ValueForm::text) {
            if (const std::optional<bool> on = read_bool_text(*text)) {
                return OptionValue{*on};
            }
        }
        return refused(row, given);
    }
    case OptionKind::choice:
        if (text != nullptr && std::find(row.choices.begin(), row.choices.end(), *text) != row.choices.end()) {
            return given;
        }
        return refused(row, given);
    }
    return refused(row, given);
}

Result<bool> set_option(ExtractOptions& options, const OptionRow& row, const OptionValue& value, ValueForm form) {
    Result<OptionValue> checked = check_option_value(row, value, form);
    if (!checked) {
        return std::move(checked).error();
    }
    row.store(options, checked.value());
    return true;
}

std::string option_range_text(const OptionRow& row) {
    switch (row.kind) {
    case OptionKind::integer:
        return std::to_string(static_cast<std::uint64_t>(row.min)) + ".." +
               std::to_string(static_cast<std::uint64_t>(row.max));
    case OptionKind::number:
        if (std::isinf(row.min) && std::isinf(row.max)) {
            return "any finite number";
        }
        if (std::isinf(row.max)) {
            return ">= " + number_text(row.min);
        }
        {
            // Appended piece by piece: GCC 12 warns (-Wrestrict) on the
            // chain of operator+ here, a known false positive.
            std::string range = "[";
            range += number_text(row.min);
            range += ", ";
            range += number_text(row.max);
            return range + "]";
        }
    case OptionKind::boolean: return {};
    case OptionKind::choice: return choices_text(row.choices);
    }
    return {};
}

std::string option_default_text(const OptionRow& row) { return row.show(ExtractOptions{}); }

std::optional<Error> conflicting_options(std::span<const std::string> given) {
    const bool policy = std::find(given.begin(), given.end(), "policy") != given.end();
    if (!policy) {
        return std::nullopt;
    }
    for (const std::string_view set_by_policy : {"strip_unlikelys", "weight_classes", "clean_conditionally", "retry"}) {
        if (std::find(given.begin(), given.end(), set_by_policy) != given.end()) {
            return Error{ErrorCode::invalid_argument,
                         "policy sets strip_unlikelys, weight_classes, clean_conditionally and retry: give policy "
                         "or those, not both (got policy and " +
                             std::string(set_by_policy) + ")"};
        }
    }
    return std::nullopt;
}

std::string option_flag(const OptionRow& row) {
    std::string flag = "--" + std::string(row.name);
    std::replace(flag.begin(), flag.end(), '_', '-');
    return flag;
}

Result<bool> validate(const ExtractOptions& options) {
    for (const OptionRow& row : kRows) {
        const std::string value = row.show(options);
        if (row.preset || value.empty()) {
            continue;  // a preset has no value of its own; an optional may have none
        }
        if (Result<OptionValue> ok = check_option_value(row, OptionValue{value}, ValueForm::text); !ok) {
            return Error{ErrorCode::invalid_argument, std::string(row.name) + " " + ok.error().message};
        }
    }
    if (!options.input.url.empty() && !url::is_absolute(options.input.url)) {
        return Error{ErrorCode::invalid_argument, "url must be an absolute URL, got \"" + options.input.url + "\""};
    }
    return true;
}

}  // namespace pith::extract
