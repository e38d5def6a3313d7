#include "page/prep.hpp"

#include <gtest/gtest.h>

#include <string>

#include "parse_or_fail.hpp"

namespace pith::extract {
namespace {

std::string paragraph(std::size_t characters) { return "<p>" + std::string(characters, 'a') + "</p>"; }

TEST(Readerable, EnoughLongVisibleParagraphsMakeAPageReadable) {
    // Each paragraph past 140 characters scores sqrt(length - 140); 20 is the bar.
    dom::Document yes = pith::test::parse_or_fail(paragraph(540) + paragraph(540));
    EXPECT_TRUE(is_probably_readable(yes, ReadableOptions{}));
    dom::Document short_ones = pith::test::parse_or_fail(paragraph(130) + paragraph(130) + paragraph(130));
    EXPECT_FALSE(is_probably_readable(short_ones, ReadableOptions{}));
    ReadableOptions lenient;
    lenient.min_content_length = 100;
    lenient.min_score = 5;
    EXPECT_TRUE(is_probably_readable(short_ones, lenient));
}

TEST(Readerable, HiddenAndUnlikelyParagraphsDoNotCount) {
    // Readability looks at the paragraph itself, not at its ancestors.
    dom::Document hidden =
        pith::test::parse_or_fail("<p style='display:none'>" + std::string(2000, 'a') + "</p>");
    EXPECT_FALSE(is_probably_readable(hidden, ReadableOptions{}));
    dom::Document comments =
        pith::test::parse_or_fail("<p class='comment'>" + std::string(2000, 'a') + "</p>");
    EXPECT_FALSE(is_probably_readable(comments, ReadableOptions{}));
}

}  // namespace
}  // namespace pith::extract
