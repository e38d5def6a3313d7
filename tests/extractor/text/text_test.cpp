#include "text/text.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>

#include "text/ascii_block.hpp"
#include "text/needles.hpp"
#include "text/references.hpp"

namespace pith::text {
namespace {

TEST(Text, NextCodePointDecodesEachUtf8Length) {
    const std::string s = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";  // a é € 😀
    std::size_t pos = 0;
    EXPECT_EQ(next_code_point(s, pos), U'a');
    EXPECT_EQ(pos, 1U);
    EXPECT_EQ(next_code_point(s, pos), U'\u00E9');
    EXPECT_EQ(pos, 3U);
    EXPECT_EQ(next_code_point(s, pos), U'\u20AC');
    EXPECT_EQ(pos, 6U);
    EXPECT_EQ(next_code_point(s, pos), U'\U0001F600');
    EXPECT_EQ(pos, s.size());
}

TEST(Text, JavaScriptWhiteSpaceIsEcmaScriptsSet) {
    for (const char32_t c : {U' ', U'\t', U'\n', U'\r', U'\v', U'\f', U'\u00A0', U'\u1680', U'\u2000', U'\u200A',
                             U'\u2028', U'\u2029', U'\u202F', U'\u205F', U'\u3000', U'\uFEFF'}) {
        EXPECT_TRUE(is_js_space(c)) << static_cast<std::uint32_t>(c);
    }
    for (const char32_t c : {U'a', U'\u200B', U'\u0085', U'0', U'_'}) {
        EXPECT_FALSE(is_js_space(c)) << static_cast<std::uint32_t>(c);
    }
}

TEST(Text, Utf16LengthCountsSurrogatePairsTwice) {
    EXPECT_EQ(utf16_length(""), 0U);
    EXPECT_EQ(utf16_length("abc"), 3U);
    EXPECT_EQ(utf16_length("\xC3\xA9\xE2\x82\xAC"), 2U);
    EXPECT_EQ(utf16_length("\xF0\x9F\x98\x80"), 2U);
}

TEST(Text, SpaceAtGivesTheWhiteSpaceCodePointsLength) {
    const std::string s = " a\xC2\xA0" "b\xE3\x80\x80";  // space, a, NBSP, b, ideographic space
    EXPECT_EQ(space_at(s, 0), 1U);
    EXPECT_EQ(space_at(s, 1), 0U);
    EXPECT_EQ(space_at(s, 2), 2U);
    EXPECT_EQ(space_at(s, 4), 0U);
    EXPECT_EQ(space_at(s, 5), 3U);
    EXPECT_EQ(space_at("\xC3\xA9", 0), 0U);  // é starts with 0xC3: no white space does
}

TEST(Text, TrimRemovesJavaScriptWhiteSpaceAtBothEnds) {
    EXPECT_EQ(trim("  a b \n"), "a b");
    EXPECT_EQ(trim("\xC2\xA0x\xE2\x80\xA8"), "x");
    EXPECT_EQ(trim(" \t\n"), "");
    EXPECT_EQ(trim("\xC3\xA9"), "\xC3\xA9");
}

TEST(Text, CollapseRunsTurnsRunsOfTwoOrMoreIntoOneSpace) {
    EXPECT_EQ(collapse_runs("a  b\n\nc d"), "a b c d");
    EXPECT_EQ(collapse_runs("a\nb"), "a\nb");  // a single white space stays as it is
    EXPECT_EQ(collapse_runs("a \xC2\xA0 b"), "a b");
}

TEST(Text, AsciiCaseHelpersLeaveOtherBytesAlone) {
    EXPECT_EQ(to_lower_ascii("AbC \xC3\x89"), "abc \xC3\x89");
    EXPECT_TRUE(iequals_ascii("Content", "cONTENT"));
    EXPECT_FALSE(iequals_ascii("content", "contents"));
    EXPECT_TRUE(istarts_with_ascii("Article-Body", "article"));
    EXPECT_FALSE(istarts_with_ascii("art", "article"));
    EXPECT_TRUE(icontains_ascii("post-ENTRY-content", "entry"));
    EXPECT_FALSE(icontains_ascii("post", "entry"));
    EXPECT_TRUE(icontains_ascii("anything", ""));
}

TEST(Text, IsBlankIsTrimmedEmpty) {
    for (const std::string_view s : {"", " ", "\n\t \r", "\xC2\xA0", " \xE3\x80\x80 ", "a", " a ", "\xC3\xA9",
                                     " \xC2\xA0x", "\xEF\xBB\xBF"}) {
        EXPECT_EQ(is_blank(s), trim(s).empty()) << s;
    }
}

TEST(Text, CharacterReferencesAreDecodedOnlyWhenComplete) {
    const auto decoded = [](std::string s) {
        decode_character_references(s);
        return s;
    };
    EXPECT_EQ(decoded("SQL &#x26; AI &#X26; &#38; &#8217;s &#65;"), "SQL & AI & & \u2019s A");
    EXPECT_EQ(decoded("Caf&eacute; &reg; &ndash;"), "Caf\u00E9 \u00AE \u2013");
    // No semicolon, no digits, digits of the wrong base, no such name, a legacy
    // name with letters after it, and a bare '&': each stays as written.
    EXPECT_EQ(decoded("&#38 &#; &#x; &#12a; &#xZ; &notaname; &unknown; AT&T & &"),
              "&#38 &#; &#x; &#12a; &#xZ; &notaname; &unknown; AT&T & &");
    EXPECT_EQ(decoded("ends with &#38"), "ends with &#38");
    EXPECT_EQ(decoded(""), "");
}

TEST(Text, NeedleSetFindsWhatASearchPerNeedleFinds) {
    constexpr std::array<std::string_view, 5> kNeedles = {"ad", "side", "-x-", "bar", "s"};
    constexpr NeedleSet kSet{kNeedles};
    for (const std::string_view value : {"", "main", "SideBar", "top-x-1", "a-d", "pad", "xyz", "Z", "s"}) {
        bool expected = false;
        for (const std::string_view needle : kNeedles) {
            expected = expected || icontains_ascii(value, needle);
        }
        EXPECT_EQ(kSet.found_in(value), expected) << value;
    }
}

TEST(Text, AsciiBlockCountsEachClassOfEveryEightBytes) {
    // Every mix of spaces, commas and letters over eight bytes, counted
    // against a byte-at-a-time reading.
    for (unsigned pattern = 0; pattern < 6561; ++pattern) {  // 3^8
        std::string bytes;
        for (unsigned rest = pattern, i = 0; i < 8; ++i, rest /= 3) {
            bytes += "a ,"[rest % 3];
        }
        AsciiBlock block;
        ASSERT_TRUE(ascii_block(bytes, 0, block));
        const auto count = [&bytes](char c) { return static_cast<int>(std::count(bytes.begin(), bytes.end(), c)); };
        EXPECT_EQ(count_of(block.space), count(' ')) << bytes;
        EXPECT_EQ(count_of(block.content), 8 - count(' ')) << bytes;
        EXPECT_EQ(count_of(block.punctuation), count(',')) << bytes;
    }
}

TEST(Text, WordSetHoldsWholeWordsOnly) {
    constexpr WordSet kWords{std::to_array<std::string_view>({"ad", "ads", "share", "toc"})};
    EXPECT_TRUE(kWords.holds("ad"));
    EXPECT_TRUE(kWords.holds("toc"));
    EXPECT_FALSE(kWords.holds("a"));
    EXPECT_FALSE(kWords.holds("adss"));
    EXPECT_FALSE(kWords.holds(""));
}

TEST(Text, AppendUtf8EncodesEveryLength) {
    std::string out;
    for (const char32_t c : {U'a', U'\u00E9', U'\u20AC', U'\U0001F600'}) {
        append_utf8(out, c);
    }
    EXPECT_EQ(out, "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
}

TEST(Text, WithoutInvisibleDropsOnlyTheLineBreakingHints) {
    // Soft hyphen, zero-width space, word joiner, zero-width no-break space.
    EXPECT_EQ(without_invisible("del\u00ADta sedi\u200Bment\u2060 \uFEFFriver"), "delta sediment river");
    EXPECT_TRUE(has_invisible("del\u00ADta"));
    // Characters that share their lead bytes stay: a no-break space, an em
    // dash, a zero-width non-joiner (which shapes scripts), the euro sign.
    const std::string kept = "a\u00A0b\u2014c\u200Cd\u20AC\uFE0F";
    EXPECT_FALSE(has_invisible(kept));
    EXPECT_EQ(without_invisible(kept), kept);
    EXPECT_EQ(without_invisible(""), "");
}

TEST(Text, ShowsNothingOnlyWhereNoCharacterCanBeRead) {
    EXPECT_TRUE(shows_nothing(""));
    EXPECT_TRUE(shows_nothing(" \u00A0\t"));
    EXPECT_TRUE(shows_nothing("\u200D"));                       // a joiner with nothing to join
    EXPECT_TRUE(shows_nothing(" \u200B\u200E\u00AD\uFEFF "));  // line-breaking hints, a direction mark
    EXPECT_TRUE(shows_nothing("\uF054 \uE09A"));                // an icon font's glyphs
    EXPECT_TRUE(shows_nothing("\U000F0001"));
    EXPECT_FALSE(shows_nothing("a"));
    EXPECT_FALSE(shows_nothing("\u200D\u00B7"));                // a middle dot
    EXPECT_FALSE(shows_nothing("\U0001F468\u200D\U0001F469"));  // an emoji sequence the joiner binds
    EXPECT_FALSE(shows_nothing("\u2014"));
    EXPECT_FALSE(shows_nothing("\uF8FF\uFFFD"));                // the replacement character is shown
}

}  // namespace
}  // namespace pith::text
