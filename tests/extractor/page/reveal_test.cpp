// reveal_hidden: a hidden element holding most of the page's text is taken as
// shown (page/prep.hpp's reveal_hidden_content), for every strategy but
// readability, and only when asked.
#include <gtest/gtest.h>

#include <string>

#include "pith/extract.hpp"
#include "survey_prose.hpp"

namespace pith::extract {
namespace {

// An access gate's page: a short notice, and the article in a wrapper its
// script shows once the visitor passes.
std::string gated(const std::string& hiding) {
    return "<html><head><title>Deltas</title></head><body><header><p>Confirm your age to continue.</p></header>"
           "<div " + hiding + "><article><h1>Deltas</h1>" + test::survey_paragraphs(8, "delta") +
           "</article></div></body></html>";
}

Article run(const std::string& html, Strategy strategy, bool reveal) {
    ExtractOptions options;
    options.strategy = strategy;
    options.reveal_hidden = reveal;
    return extract(html, options);
}

TEST(RevealHidden, TheArticleAScriptWouldShowIsTakenAsShownWhenAsked) {
    EXPECT_TRUE(ExtractOptions{}.reveal_hidden) << "on by default";
    for (const std::string hiding : {"style=\"display:none\"", "hidden", "aria-hidden=\"true\"",
                                     "style=\"visibility: hidden\""}) {
        const Article off = run(gated(hiding), Strategy::automatic, false);
        EXPECT_EQ(off.text_content.find("delta survey"), std::string::npos) << hiding;
        const Article on = run(gated(hiding), Strategy::automatic, true);
        EXPECT_EQ(on.status, Status::ok) << hiding;
        EXPECT_NE(on.text_content.find("The delta survey went on for years"), std::string::npos) << hiding;
        EXPECT_NE(on.decision.find("taken as shown"), std::string::npos) << on.decision;
        EXPECT_NE(run(gated(hiding), Strategy::fitness, true).text_content.find("delta survey"), std::string::npos);
    }
}

TEST(RevealHidden, ReadabilityKeepsDroppingHiddenContent) {
    const Article off = run(gated("hidden"), Strategy::readability, false);
    const Article on = run(gated("hidden"), Strategy::readability, true);
    EXPECT_EQ(on.status, off.status);
    EXPECT_EQ(on.content, off.content);
    EXPECT_EQ(on.text_content.find("delta survey"), std::string::npos);
}

// A hidden copy of part of the article (a print view, a modal) holds less
// than two thirds of the page's text: it stays hidden.
TEST(RevealHidden, AHiddenElementHoldingLessThanTwoThirdsStaysHidden) {
    const std::string html = "<html><head><title>Deltas</title></head><body><article>" +
                             test::survey_paragraphs(6, "delta") + "</article><div style=\"display:none\">" +
                             test::survey_paragraphs(6, "river") + "</div></body></html>";
    const Article on = run(html, Strategy::automatic, true);
    EXPECT_NE(on.text_content.find("delta survey"), std::string::npos);
    EXPECT_EQ(on.text_content.find("river survey"), std::string::npos);
    EXPECT_EQ(on.decision.find("taken as shown"), std::string::npos);
}

// A chain of hidden wrappers, each holding all the text, is revealed a few
// levels deep and no further: the walks it costs are bounded.
TEST(RevealHidden, ADeepChainOfHiddenWrappersCostsAFewWalks) {
    constexpr int kDepth = 2000;
    const std::string html = "<html><body>" +
                             test::nested_in("<div hidden>", "</div>", kDepth, test::survey_paragraphs(8, "delta")) +
                             "</body></html>";
    const Article on = run(html, Strategy::automatic, true);
    EXPECT_FALSE(on.error.has_value());
    EXPECT_EQ(on.text_content.find("delta survey"), std::string::npos) << "hidden below the fourth wrapper";
}

}  // namespace
}  // namespace pith::extract
