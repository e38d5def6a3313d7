// The option table on its own: how a value is read and checked, and what it
// sets. tests/server/option_table_test.cpp walks it through the front-ends.
#include "pith/option_table.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace pith::extract {
namespace {

const OptionRow& row(std::string_view name) {
    const OptionRow* found = find_option(name);
    EXPECT_NE(found, nullptr) << name;
    return *found;
}

TEST(OptionTableUnit, TextIsReadAsTheRowsKind) {
    ExtractOptions options;
    ASSERT_TRUE(set_option(options, row("char_threshold"), std::string("750"), ValueForm::text).ok());
    EXPECT_EQ(options.passes.char_threshold, 750U);
    ASSERT_TRUE(set_option(options, row("retry"), std::string("off"), ValueForm::text).ok());
    EXPECT_FALSE(options.passes.retry);
    ASSERT_TRUE(set_option(options, row("strategy"), std::string("lectito"), ValueForm::text).ok());
    EXPECT_EQ(options.strategy, Strategy::lectito);
    ASSERT_TRUE(set_option(options, row("fitness_depth_weight"), std::string("0.5"), ValueForm::text).ok());
    EXPECT_DOUBLE_EQ(options.fitness.depth_weight, 0.5);
    ASSERT_TRUE(set_option(options, row("max_depth"), std::string("100"), ValueForm::text).ok());
    EXPECT_EQ(options.budgets.max_nesting_depth, 100U);
}

TEST(OptionTableUnit, TypedValuesMustHaveTheKindsType) {
    ExtractOptions options;
    EXPECT_TRUE(set_option(options, row("retry"), false, ValueForm::typed).ok());
    const auto text_bool = set_option(options, row("retry"), std::string("false"), ValueForm::typed);
    ASSERT_FALSE(text_bool.ok());
    EXPECT_EQ(text_bool.error().message, "must be true or false, got \"false\"");
    const auto float_int = set_option(options, row("n_top_candidates"), 5.0, ValueForm::typed);
    ASSERT_FALSE(float_int.ok());
    EXPECT_EQ(float_int.error().message, "must be an integer in 1..1000, got 5.0");
    EXPECT_TRUE(set_option(options, row("min_confidence"), std::int64_t{1}, ValueForm::typed).ok())
        << "an integer is a number";
}

TEST(OptionTableUnit, RefusalsSayTheRangeAndTheValueAsGiven) {
    ExtractOptions options;
    const auto check = [&](std::string_view name, const std::string& text) {
        const auto set = set_option(options, row(name), text, ValueForm::text);
        EXPECT_FALSE(set.ok()) << name << "=" << text;
        return set.ok() ? std::string() : set.error().message;
    };
    EXPECT_EQ(check("n_top_candidates", "0"), "must be an integer in 1..1000, got 0");
    EXPECT_EQ(check("n_top_candidates", "-3"), "must be an integer in 1..1000, got -3");
    EXPECT_EQ(check("n_top_candidates", "ten"), "must be an integer in 1..1000, got \"ten\"");
    EXPECT_EQ(check("min_confidence", "1.5"), "must be a number in [0, 1], got 1.5");
    EXPECT_EQ(check("fitness_depth_weight", "-1"), "must be a number >= 0, got -1");
    EXPECT_EQ(check("lectito_min_score", "nan"), "must be a finite number, got nan");
    EXPECT_EQ(check("select_mode", "smooth"), "must be one of readability, dom_smoothie, got \"smooth\"");
    EXPECT_EQ(check("keep_classes", "maybe"), "must be true or false, got \"maybe\"");
    EXPECT_EQ(options.passes.n_top_candidates, 5U) << "a refused value changes nothing";
}

TEST(OptionTableUnit, APolicyIsItsFlagsWithoutRetries) {
    ExtractOptions options;
    ASSERT_TRUE(set_option(options, row("policy"), std::string("moderate"), ValueForm::text).ok());
    EXPECT_EQ(options.passes.flags, PassFlags::weight_classes | PassFlags::clean_conditionally);
    EXPECT_FALSE(options.passes.retry);
    EXPECT_EQ(row("policy").show(options), "") << "a preset has no value of its own";
    const std::vector<std::string> given = {"strategy", "policy", "weight_classes"};
    const auto conflict = conflicting_options(given);
    ASSERT_TRUE(conflict.has_value());
    EXPECT_NE(conflict->message.find("got policy and weight_classes"), std::string::npos) << conflict->message;
    EXPECT_FALSE(conflicting_options(std::vector<std::string>{"policy", "strategy"}).has_value());
}

TEST(OptionTableUnit, ValidateNamesTheOptionOutOfRange) {
    ExtractOptions options;
    EXPECT_TRUE(validate(options).ok());
    options.readability.link_density_modifier = 2.0;
    const auto bad = validate(options);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message, "link_density_modifier must be a number in [-1, 1], got 2");
    options = ExtractOptions{};
    options.readability.min_score_to_adjust = std::numeric_limits<double>::infinity();
    EXPECT_FALSE(validate(options).ok());
    options = ExtractOptions{};
    options.input.url = "relative/page.html";
    EXPECT_FALSE(validate(options).ok());
}

TEST(OptionTableUnit, FlagsRangesAndDefaultsAreSpelledForPeople) {
    EXPECT_EQ(option_flag(row("lectito_min_content_length")), "--lectito-min-content-length");
    EXPECT_EQ(option_range_text(row("max_depth")), "0..1000000");
    EXPECT_EQ(option_range_text(row("strategy")), "readability, lectito, fitness, auto");
    EXPECT_EQ(option_range_text(row("retry")), "");
    EXPECT_EQ(option_default_text(row("fitness_title_case_weight")), "0.2812");
    EXPECT_EQ(option_default_text(row("min_score_to_adjust")), "");
}

}  // namespace
}  // namespace pith::extract
