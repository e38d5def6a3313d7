// One pass of the readability strategy (grab_article) on its own.
#include "strategies/strategy.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "dom/inner_text.hpp"
#include "parse_or_fail.hpp"
#include "survey_prose.hpp"

namespace pith::extract {
namespace {

const std::string kPage =
    "<html lang=de><body><nav class='menu'><a href='/'>Home</a> <a href='/news'>News</a> <a href='/about'>About</a>"
    "</nav><div id='story' dir='rtl'><h1>Spring tides</h1><p class='byline'>By Ada Lindqvist</p>" +
    pith::test::survey_paragraphs(6, "tide") +
    "</div><div class='sidebar'><ul><li><a href='/1'>Other story one</a></li>"
    "<li><a href='/2'>Other story two</a></li></ul></div></body></html>";

StrategyResult pass(dom::Document& doc, PassState& state, PassFlags flags = PassFlags::all,
                    const ExtractOptions& options = {}) {
    PassInput input;
    input.flags = flags;
    return grab_article(doc, options, input, state);
}

TEST(Readability, TakesTheProseContainerOverNavigationAndSidebar) {
    dom::Document doc = pith::test::parse_or_fail(kPage);
    PassState state;
    const StrategyResult result = pass(doc, state);
    ASSERT_NE(result.content, nullptr);
    const std::string text = dom::text_content(result.content);
    EXPECT_NE(text.find("tide"), std::string::npos);
    EXPECT_EQ(text.find("Other story"), std::string::npos);
    EXPECT_EQ(text.find("About"), std::string::npos);
    EXPECT_EQ(result.diagnostics.chosen_root, "html>body>div#story");
    EXPECT_EQ(result.diagnostics.outcome, "accepted");
    EXPECT_EQ(result.text_length, dom::inner_text_length(result.content));
    EXPECT_EQ(result.diagnostics.text_length, result.text_length);
    EXPECT_FALSE(result.diagnostics.top_candidates.empty());
    EXPECT_GT(result.diagnostics.elements_seen, 5U);
}

TEST(Readability, CapturesTheBylineLangAndDirOnTheWay) {
    dom::Document doc = pith::test::parse_or_fail(kPage);
    PassState state;
    const StrategyResult result = pass(doc, state);
    ASSERT_NE(result.content, nullptr);
    EXPECT_EQ(state.byline, "By Ada Lindqvist");
    EXPECT_EQ(state.lang, "de");
    EXPECT_EQ(state.dir, "rtl");
    EXPECT_EQ(dom::text_content(result.content).find("By Ada Lindqvist"), std::string::npos)
        << "the byline is taken out of the article";
}

TEST(Readability, AShortArticleIsTooShortForTheThreshold) {
    dom::Document doc = pith::test::parse_or_fail("<body><div><p>Just one short paragraph, nothing more.</p></div></body>");
    PassState state;
    const StrategyResult result = pass(doc, state);
    ASSERT_NE(result.content, nullptr);
    EXPECT_EQ(result.diagnostics.outcome, "too_short");
}

TEST(Readability, NoBodyAndAPassedDeadlineEndThePass) {
    dom::Document empty;
    PassState state;
    EXPECT_EQ(pass(empty, state).diagnostics.outcome, "no_body");

    std::string big = "<body>";
    for (int i = 0; i < 5000; ++i) {
        big += "<div><p>x</p></div>";
    }
    dom::Document doc = pith::test::parse_or_fail(big);
    ExtractOptions options;
    options.runtime.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    const StrategyResult late = pass(doc, state, PassFlags::all, options);
    EXPECT_EQ(late.content, nullptr);
    EXPECT_EQ(late.diagnostics.outcome, "deadline");
}

TEST(Readability, WithoutStripUnlikelysTheSidebarStaysInThePage) {
    const std::string page = "<body><div class='sidebar'>" + pith::test::survey_paragraphs(5, "reef") +
                             "</div></body>";
    dom::Document stripped = pith::test::parse_or_fail(page);
    PassState state;
    const StrategyResult strict = pass(stripped, state, PassFlags::strip_unlikelys);
    EXPECT_TRUE(strict.content == nullptr || strict.text_length == 0) << dom::text_content(strict.content);
    dom::Document kept = pith::test::parse_or_fail(page);
    const StrategyResult relaxed = pass(kept, state, PassFlags::none);
    ASSERT_NE(relaxed.content, nullptr);
    EXPECT_NE(dom::text_content(relaxed.content).find("reef survey"), std::string::npos);
    EXPECT_EQ(relaxed.diagnostics.flags, PassFlags::none);
}

}  // namespace
}  // namespace pith::extract
