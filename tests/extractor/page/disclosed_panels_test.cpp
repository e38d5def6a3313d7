// Panels a page sends hidden behind its own controls (page/prep.hpp's
// reveal_disclosed_panels): tab panels and what an expandable control names
// are taken as shown with reveal_hidden, for every strategy but readability;
// a menu's drop-down in the site's navigation, and hidden elements no control
// names, stay hidden.
#include <gtest/gtest.h>

#include <string>

#include "pith/extract.hpp"
#include "survey_prose.hpp"

namespace pith::extract {
namespace {

Article run(const std::string& html, Strategy strategy, bool reveal = true) {
    ExtractOptions options;
    options.strategy = strategy;
    options.reveal_hidden = reveal;
    return extract(html, options);
}

// A product's tabs: the description shown, the specifications and the care
// notes sent hidden (each way a page hides them), each named by its tab.
std::string tabbed_page(const std::string& hiding) {
    return "<html><head><title>Kettle</title></head><body><main><h1>Kettle</h1>" +
           test::survey_paragraphs(3, "kettle") +
           "<div role=\"tablist\"><button role=\"tab\" aria-selected=\"true\" aria-controls=\"t1\">Description</button>"
           "<button role=\"tab\" aria-selected=\"false\" aria-controls=\"t2\">Specifications</button>"
           "<button role=\"tab\" aria-selected=\"false\" aria-controls=\"t3\">Care</button></div>"
           "<div role=\"tabpanel\" id=\"t1\">" + test::survey_paragraphs(2, "copper") + "</div>"
           "<div role=\"tabpanel\" id=\"t2\" " + hiding + ">" + test::survey_paragraphs(2, "spout") + "</div>"
           "<div role=\"tabpanel\" id=\"t3\" " + hiding + ">" + test::survey_paragraphs(2, "descaling") +
           "</div></main></body></html>";
}

TEST(DisclosedPanels, TabPanelsBesideTheOneShownAreTakenAsShown) {
    for (const std::string hiding : {"hidden", "style=\"display: none\"", "aria-hidden=\"true\""}) {
        const Article on = run(tabbed_page(hiding), Strategy::automatic);
        EXPECT_EQ(on.status, Status::ok) << hiding;
        EXPECT_NE(on.text_content.find("The copper survey"), std::string::npos) << hiding;
        EXPECT_NE(on.text_content.find("The spout survey"), std::string::npos) << hiding;
        EXPECT_NE(on.text_content.find("The descaling survey"), std::string::npos) << hiding;
        EXPECT_NE(on.decision.find("2 hidden tab or expandable panels were taken as shown"), std::string::npos)
            << on.decision;
        const Article off = run(tabbed_page(hiding), Strategy::automatic, false);
        EXPECT_EQ(off.text_content.find("The spout survey"), std::string::npos) << hiding;
        EXPECT_EQ(off.decision.find("panels were taken as shown"), std::string::npos) << off.decision;
    }
}

// An FAQ whose answers open under their questions: each answer is the hidden
// element its button names in aria-controls, the button saying it is closed.
TEST(DisclosedPanels, AnswersAnExpandableControlNamesAreTakenAsShown) {
    std::string faq;
    for (const std::string topic : {"harbour", "lighthouse", "tide"}) {
        faq += "<h3><button aria-expanded=\"false\" aria-controls=\"a-" + topic + "\">What of the " + topic +
               "?</button></h3><div id=\"a-" + topic + "\" style=\"visibility: hidden; height: 0\">" +
               test::survey_paragraphs(2, topic) + "</div>";
    }
    const std::string html = "<html><body><main><h1>Questions</h1>" + test::survey_paragraphs(2, "coast") + faq +
                             "</main></body></html>";
    const Article on = run(html, Strategy::automatic);
    for (const std::string topic : {"harbour", "lighthouse", "tide"}) {
        EXPECT_NE(on.text_content.find("The " + topic + " survey"), std::string::npos) << topic;
    }
    EXPECT_NE(on.text_content.find("The harbour survey"), std::string::npos);
    EXPECT_NE(run(html, Strategy::fitness).text_content.find("The tide survey"), std::string::npos);
}

// A drop-down a menu button opens in the site's navigation is furniture, and
// a hidden element no control names (a modal's copy, a print view) is not a
// panel: both stay hidden.
TEST(DisclosedPanels, MenusInTheNavigationAndUnnamedHiddenElementsStayHidden) {
    const std::string html =
        "<html><body><nav><button aria-expanded=\"false\" aria-controls=\"menu\">Shop</button>"
        "<div id=\"menu\" hidden><p>The compass survey of every aisle, shelf and department of the shop.</p></div>"
        "</nav><div role=\"tab\" aria-controls=\"elsewhere\">Other</div><main><h1>Deltas</h1>" +
        test::survey_paragraphs(6, "delta") +
        "<div hidden id=\"print\">" + test::survey_paragraphs(2, "river") + "</div></main></body></html>";
    const Article on = run(html, Strategy::automatic);
    EXPECT_NE(on.text_content.find("The delta survey"), std::string::npos);
    EXPECT_EQ(on.text_content.find("compass survey"), std::string::npos);
    EXPECT_EQ(on.text_content.find("river survey"), std::string::npos);
    EXPECT_EQ(on.decision.find("panels were taken as shown"), std::string::npos) << on.decision;
}

TEST(DisclosedPanels, ReadabilityKeepsDroppingHiddenPanels) {
    const Article on = run(tabbed_page("hidden"), Strategy::readability, true);
    const Article off = run(tabbed_page("hidden"), Strategy::readability, false);
    EXPECT_EQ(on.content, off.content);
    EXPECT_EQ(on.text_content.find("The spout survey"), std::string::npos);
}

// Controls nested thousands deep, each naming a panel: every control's walk
// up to find the site's navigation is bounded, and the page is answered.
TEST(DisclosedPanels, ControlsNestedThousandsDeepCostBoundedWalks) {
    constexpr int kDepth = 2000;
    const std::string html = "<html><body><nav>" +
                             test::nested_in("<div role=\"tab\" aria-controls=\"p\">", "</div>", kDepth, "") +
                             "</nav><main>" + test::survey_paragraphs(6, "delta") +
                             "<div id=\"p\" role=\"tabpanel\" hidden>" + test::survey_paragraphs(2, "spout") +
                             "</div></main></body></html>";
    const Article on = run(html, Strategy::automatic);
    EXPECT_FALSE(on.error.has_value());
    EXPECT_NE(on.text_content.find("The delta survey"), std::string::npos);
    EXPECT_NE(on.text_content.find("The spout survey"), std::string::npos) << "a tab panel in <main>";
}

}  // namespace
}  // namespace pith::extract
