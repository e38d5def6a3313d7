#include "page/prep.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "parse_or_fail.hpp"

namespace pith::extract {
namespace {

using pith::test::parse_or_fail;

std::string prepared(const char* html, PassFlags flags = PassFlags::all) {
    dom::Document doc = parse_or_fail(html);
    dom::Node* content = doc.body()->first_element_child();
    EXPECT_TRUE(prep_article(doc, content, ReadabilityOptions{}, flags, std::chrono::steady_clock::time_point::max()));
    return dom::inner_html(content);
}

const char* const kProse =
    "<p>The river had risen through the night, and by morning the lower fields lay under a sheet of brown water "
    "that reached the hedges, so the farmers, who had seen floods before, moved the sheep to the high pasture.</p>";

TEST(PrepArticle, StopsCleaningOnceTheDeadlineHasPassed) {
    // Blocks of links the conditional cleaning removes: past the deadline it
    // stops at its first element, and every one stays.
    std::string html = "<div>";
    for (int i = 0; i < 40; ++i) {
        html += "<div><a href=\"/more\">More links</a></div>";
    }
    html += "</div>";
    const auto count = [](const std::string& out) {
        std::size_t n = 0;
        for (std::size_t at = out.find("More links"); at != std::string::npos; at = out.find("More links", at + 1)) {
            ++n;
        }
        return n;
    };
    dom::Document doc = parse_or_fail(html.c_str());
    dom::Node* content = doc.body()->first_element_child();
    EXPECT_FALSE(prep_article(doc, content, ReadabilityOptions{}, PassFlags::all,
                              std::chrono::steady_clock::now() - std::chrono::seconds(1)));
    EXPECT_EQ(count(dom::inner_html(content)), 40U);
    // With time left, they go, as Readability.js removes them.
    EXPECT_EQ(count(prepared(html.c_str())), 0U);
}

TEST(PrepArticle, EachDivIsJudgedOnWhatIsLeftBelowIt) {
    // The block of links goes first (its text is all links). Counted, it would
    // make the <div>s around the prose mostly links as well; each is judged on
    // what is left, the outer one on the measures the inner one was judged on.
    const std::string links =
        "<div><a href=\"/more\">Read more stories from our newsroom about the weather, the harvest, the markets "
        "and the roads that the floods closed across the county this week</a></div>";
    const std::string html = "<div><div id=\"outer\"><div id=\"inner\">" + links + kProse + "</div></div></div>";
    const std::string out = prepared(html.c_str());
    EXPECT_EQ(out.find("newsroom"), std::string::npos) << out;
    EXPECT_NE(out.find("The river had risen"), std::string::npos) << out;
    EXPECT_NE(out.find("id=\"outer\""), std::string::npos) << out;
    EXPECT_NE(out.find("id=\"inner\""), std::string::npos) << out;
    // The same blocks without the prose: links alone, every <div> goes.
    const std::string bare = "<div><div id=\"outer\"><div id=\"inner\">" + links + "</div></div></div>";
    EXPECT_EQ(prepared(bare.c_str()).find("id=\"outer\""), std::string::npos);
}

TEST(PrepArticle, RemovesFormControlsAsidesFootersAndEmptyParagraphs) {
    const std::string out = prepared(
        "<div><p>Kept.</p><aside>aside</aside><footer>foot</footer><button>b</button><input><p> </p>"
        "<textarea>t</textarea><select><option>o</select><iframe src=x></iframe></div>");
    EXPECT_EQ(out, "<p>Kept.</p>");
}

TEST(PrepArticle, RemovesShortShareWidgets) {
    const std::string out = prepared(
        (std::string("<div><div>") + kProse + "<div class='share'>Share this</div></div></div>").c_str());
    EXPECT_EQ(out.find("Share this"), std::string::npos) << out;
    EXPECT_NE(out.find("brown water"), std::string::npos);
}

TEST(PrepArticle, NegativeHeadingsGoAndH1sBecomeH2s) {
    const std::string out = prepared("<div><h1>Title</h1><h2 class='comment'>Comments</h2><p>Body text.</p></div>");
    EXPECT_EQ(out, "<h2>Title</h2><p>Body text.</p>");
    const std::string unweighted =
        prepared("<div><h2 class='comment'>Comments</h2><p>Body text.</p></div>", PassFlags::clean_conditionally);
    EXPECT_NE(unweighted.find("Comments"), std::string::npos) << "without weight_classes class names do not count";
}

TEST(PrepArticle, ClutterIsCleanedOnlyUnderCleanConditionally) {
    const std::string page =
        std::string("<div>") + kProse + "<div class='related'><a href='/1'>one</a> <a href='/2'>two</a> "
        "<a href='/3'>three</a></div></div>";
    EXPECT_EQ(prepared(page.c_str()).find("three"), std::string::npos);
    EXPECT_NE(prepared(page.c_str(), PassFlags::none).find("three"), std::string::npos);
}

TEST(PrepArticle, ASingleCellTableBecomesItsContent) {
    EXPECT_EQ(prepared("<div><table><tr><td>just <b>text</b></td></tr></table></div>"), "<p>just <b>text</b></p>");
    EXPECT_EQ(prepared("<div><table><tr><td><p>a block</p></td></tr></table></div>"), "<div><p>a block</p></div>");
}

}  // namespace
}  // namespace pith::extract
