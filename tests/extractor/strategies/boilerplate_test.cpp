#include "strategies/boilerplate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "pith/dom.hpp"
#include "dom/inner_text.hpp"
#include "text/text.hpp"

namespace {

using pith::extract::remove_boilerplate;
using pith::extract::RemovedBlock;

// Four paragraphs of prose, so that what a test adds stays a small share of the article.
std::string prose() {
    std::string out;
    for (int i = 0; i < 4; ++i) {
        out += "<p>Rivers carry the land they drain, and where they meet the sea the water slows, the sediment "
               "settles out of the current, and a delta grows there layer on layer over the years.</p>";
    }
    return out;
}

struct Cleaned {
    pith::dom::Document doc;
    std::vector<RemovedBlock> removed;
    std::string text;  // the article's text after the removal, runs collapsed
};

// Parses `article_html` as the inside of an article <div> and removes its boilerplate.
Cleaned clean(const std::string& article_html) {
    auto parsed = pith::dom::parse_html("<html><body><div id=\"article\">" + article_html + "</div></body></html>");
    EXPECT_TRUE(parsed.ok());
    Cleaned out{std::move(parsed).value(), {}, {}};
    pith::dom::Node* article = out.doc.body()->first_element_child();
    out.removed = remove_boilerplate(article);
    out.text = pith::dom::inner_text(article);
    return out;
}

bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

TEST(Boilerplate, CaptionsGoAndTheirImagesStay) {
    const Cleaned c = clean(prose() +
                            "<figure><img src=\"delta.jpg\"><figcaption>A delta from above. Photo: "
                            "Agency</figcaption></figure>" +
                            "<div class=\"image-box\"><img src=\"b.jpg\"><p>Photo credit line</p></div>");
    EXPECT_FALSE(has(c.text, "A delta from above"));
    EXPECT_FALSE(has(c.text, "Photo credit line"));
    EXPECT_EQ(pith::dom::outer_html(c.doc.body()).find("delta.jpg") != std::string::npos, true);
    EXPECT_EQ(pith::dom::outer_html(c.doc.body()).find("b.jpg") != std::string::npos, true);
    ASSERT_EQ(c.removed.size(), 2U);
    EXPECT_EQ(c.removed[0].kind, "figure");
    EXPECT_EQ(c.removed[1].kind, "figure");
}

TEST(Boilerplate, NamedFurnitureGoesWithTheLabelThatAnnouncedIt) {
    const Cleaned c = clean(prose() +
                            "<h3>Read next</h3><div class=\"related-posts\"><p><a href=\"/mouths\">Another story "
                            "about rivers and their mouths</a></p></div>" +
                            "<div class=\"share-bar\">Share on the networks</div>" +
                            "<div id=\"newsletter\">Get the weekly letter in your inbox</div>");
    EXPECT_FALSE(has(c.text, "Read next"));
    EXPECT_FALSE(has(c.text, "Another story"));
    EXPECT_FALSE(has(c.text, "Share on"));
    EXPECT_FALSE(has(c.text, "weekly letter"));
    EXPECT_TRUE(has(c.text, "Rivers carry the land"));
    ASSERT_GE(c.removed.size(), 4U);
    EXPECT_EQ(c.removed[0].kind, "named");
    EXPECT_EQ(c.removed[1].kind, "label");
    EXPECT_EQ(c.removed[1].excerpt, "Read next");
}

// A heading left at the article's end announced what was removed after it,
// and goes; one that holds the article's first words is all that is left.
TEST(Boilerplate, ALabelLeftAtTheEndGoesUnlessItIsAllThereIs) {
    const Cleaned ending = clean(prose() + "<h3>More from the newsroom</h3>");
    EXPECT_FALSE(has(ending.text, "More from the newsroom"));
    EXPECT_TRUE(has(ending.text, "Rivers carry the land"));
    ASSERT_FALSE(ending.removed.empty());
    EXPECT_EQ(ending.removed.back().kind, "label");

    const Cleaned headings = clean("<h2>Test case one</h2><img src=\"a.jpg\"><h2>Test case two</h2>"
                                   "<img src=\"b.jpg\">");
    EXPECT_TRUE(has(headings.text, "Test case one")) << headings.text;
}

TEST(Boilerplate, AFigcaptionOutsideAFigureGoesToo) {
    const Cleaned c = clean(prose() + "<figcaption>A delta from above</figcaption>");
    EXPECT_FALSE(has(c.text, "A delta from above"));
    ASSERT_EQ(c.removed.size(), 1U);
    EXPECT_EQ(c.removed[0].kind, "caption");
}

TEST(Boilerplate, NavigationTemplatesAndSidebarWidgetsGo) {
    const Cleaned c = clean(prose() + "<nav><p>Home, News, Sport and Culture</p></nav>" +
                            "<template><p>{{title}} by {{author}}</p></template>" +
                            "<div class=\"widget_text\"><p>Our mystery button</p></div>" +
                            "<div class=\"elementor-widget-text-editor\"><p>A page builder holds text in blocks "
                            "named like this one, and they are the article.</p></div>");
    EXPECT_FALSE(has(c.text, "Home, News"));
    EXPECT_FALSE(has(c.text, "{{title}}"));
    EXPECT_FALSE(has(c.text, "mystery button"));
    EXPECT_TRUE(has(c.text, "A page builder holds text"));
}

TEST(Boilerplate, RubyAnnotationsAreNotWords) {
    const Cleaned c = clean("<p><ruby>子<rp>(</rp><rt>こ</rt><rp>)</rp></ruby>どもへの法律ができて、親が子どもを"
                            "教育するために、家で体罰をしてはいけないことになりました。</p>" + prose());
    EXPECT_TRUE(has(c.text, "子どもへの法律ができて")) << c.text;
    EXPECT_TRUE(c.removed.empty()) << "annotations go unrecorded";
}

TEST(Boilerplate, TheLongestParagraphStaysWhateverItsWrapperIsNamed) {
    // A page that fell back to <body>: the article sits in a wrapper named
    // like furniture, and holds less than 40% of the text.
    std::string article = "<div class=\"share-wrapper\"><p>";
    for (int i = 0; i < 5; ++i) {
        article += "The delta grows where the river slows and drops its load, year after year, metre by metre. ";
    }
    article += "</p></div>";
    const Cleaned c = clean(article + prose() + prose());
    EXPECT_TRUE(has(c.text, "The delta grows where the river slows"));
}

TEST(Boilerplate, AnAuthorBoxGoesEvenWhenItsBiographyIsTheLongestParagraph) {
    std::string biography = "<div class=\"author-info\"><p>";
    for (int i = 0; i < 2; ++i) {
        biography += "Ada Lindqvist has surveyed river deltas for twenty years, writes about water and land, and "
                     "teaches at the coastal institute. ";
    }
    biography += "</p></div>";
    const Cleaned c = clean(prose() + prose() + prose() + prose() + biography);
    EXPECT_FALSE(has(c.text, "Ada Lindqvist has surveyed")) << "under a tenth of the article, it protects nothing";
    EXPECT_TRUE(has(c.text, "Rivers carry the land"));
}

TEST(Boilerplate, AHeadingBeforeABylineIsTheArticlesOwn) {
    const Cleaned c = clean("<h2>How River Deltas Build Land</h2><p class=\"byline\">By Ada Lindqvist</p>" + prose());
    EXPECT_TRUE(has(c.text, "How River Deltas Build Land"));
    EXPECT_FALSE(has(c.text, "By Ada Lindqvist"));
}

TEST(Boilerplate, ClassesThatSayWhatAnElementHasDoNotCount) {
    const Cleaned c = clean("<header class=\"has-sharing\"><p>The delta grows every year, and the people who "
                            "live on it watch the shore.</p></header>" + prose());
    EXPECT_TRUE(has(c.text, "The delta grows every year"));
    EXPECT_TRUE(c.removed.empty());
}

TEST(Boilerplate, NothingHoldingMoreThanFortyPercentOfTheArticleGoes) {
    // The whole article sits in a wrapper whose class names boilerplate.
    const Cleaned c = clean("<div class=\"related\">" + prose() + "</div>");
    EXPECT_TRUE(has(c.text, "Rivers carry the land"));
    EXPECT_TRUE(c.removed.empty());
}

TEST(Boilerplate, LinesAndListsMadeOfLinksGo) {
    const Cleaned c = clean(prose() + "<p>Read more: <a href=\"/x\">Why deltas sink when rivers are dammed</a></p>" +
                            "<ul><li><a href=\"/a\">Glaciers</a></li><li><a href=\"/b\">Coral reefs</a></li></ul>" +
                            "<p>The survey's data are <a href=\"/data\">published openly</a>, and anyone can "
                            "check the figures against the maps drawn a century ago.</p>");
    EXPECT_FALSE(has(c.text, "Why deltas sink"));
    EXPECT_FALSE(has(c.text, "Coral reefs"));
    EXPECT_TRUE(has(c.text, "published openly")) << "prose with a link is not a link line";
}

TEST(Boilerplate, ATableOfContentsGoesWithItsLabel) {
    const Cleaned c = clean("<h2>Contents</h2><ol><li><a href=\"#silt\">Where the silt settles</a></li>"
                            "<li><a href=\"#dams\">What dams change</a><ol><li><a href=\"#sea\">The sea</a></li>"
                            "</ol></li></ol>" +
                            prose() + "<h2 id=\"silt\">Where the silt settles</h2>" + prose());
    EXPECT_FALSE(has(c.text, "Contents"));
    EXPECT_FALSE(has(c.text, "What dams change"));
    EXPECT_TRUE(has(c.text, "Where the silt settles")) << "the heading the contents pointed at stays";
    ASSERT_EQ(c.removed.size(), 2U);
    EXPECT_EQ(c.removed[0].kind, "contents");
    EXPECT_EQ(c.removed[1].kind, "label");
    // Two links to the page's own sections are not a table of contents; nor
    // is a list whose words are mostly not those links.
    const Cleaned short_list = clean(prose() + "<ul><li><a href=\"#a\">Silt</a></li><li><a href=\"#b\">Sea</a>"
                                               "</li></ul>");
    EXPECT_TRUE(std::none_of(short_list.removed.begin(), short_list.removed.end(),
                             [](const RemovedBlock& b) { return b.kind == "contents"; }));
    const Cleaned notes = clean(prose() + "<ol><li>The survey of 1921, drawn by hand from the boats and corrected "
                                          "each spring. <a href=\"#r1\">back</a></li><li>The gauges at the mouth, "
                                          "read twice a day by the keepers. <a href=\"#r2\">back</a></li><li>The "
                                          "harbour office's tide tables for every year since. <a href=\"#r3\">"
                                          "back</a></li></ol>");
    EXPECT_TRUE(has(notes.text, "drawn by hand")) << "footnotes link back, but are text";
}

// A box of jumps is one too, and its label goes with it past a <br>, or as
// the <summary> of the <details> that folds it away; so does one named
// "toc", which is no less a table of contents for its name.
TEST(Boilerplate, ATableOfContentsInABoxGoesWithItsLabel) {
    const std::string jumps = "<a href=\"#silt\">Where the silt settles</a><a href=\"#dams\">What dams change</a>"
                              "<a href=\"#sea\">The sea</a>";
    const Cleaned box = clean(prose() + "<div class=\"jump-links\"><h2>In this guide</h2>" + jumps + "</div>" +
                              prose());
    EXPECT_FALSE(has(box.text, "In this guide"));
    EXPECT_FALSE(has(box.text, "What dams change"));
    ASSERT_EQ(box.removed.size(), 1U);
    EXPECT_EQ(box.removed[0].kind, "contents");

    const Cleaned after_break = clean(prose() + "<p><strong>In this guide</strong></p><br><ul><li>" +
                                      "<a href=\"#silt\">Where the silt settles</a></li><li><a href=\"#dams\">What "
                                      "dams change</a></li><li><a href=\"#sea\">The sea</a></li></ul>" + prose());
    EXPECT_FALSE(has(after_break.text, "In this guide"));
    ASSERT_EQ(after_break.removed.size(), 2U);
    EXPECT_EQ(after_break.removed[1].kind, "label");

    const Cleaned folded = clean(prose() + "<details><summary>In this guide</summary><div id=\"toc\"><nav>" + jumps +
                                 "</nav></div></details>" + prose());
    EXPECT_FALSE(has(folded.text, "In this guide"));
    ASSERT_EQ(folded.removed.size(), 2U);
    EXPECT_EQ(folded.removed[0].kind, "contents");
    EXPECT_EQ(folded.removed[1].kind, "label");
}

// Cookie and consent banners, and tables of contents named in full, go by
// their names; the same word in a section's own heading id is the author's.
TEST(Boilerplate, ConsentBannersGoByTheirNames) {
    const Cleaned c = clean(prose() +
                            "<div id=\"cookie-law-info-bar\"><span>We store small files on your device to count "
                            "visits.</span></div><section class=\"gdpr-modal\"><p>Choose what we may keep.</p>"
                            "</section><div class=\"TableOfContentsDropDown\"><h3>On this page</h3><ul><li>Silt</li>"
                            "<li>Dams</li></ul></div>");
    EXPECT_FALSE(has(c.text, "small files"));
    EXPECT_FALSE(has(c.text, "Choose what we may keep"));
    EXPECT_FALSE(has(c.text, "On this page"));
    EXPECT_TRUE(has(c.text, "a delta grows there"));
    const Cleaned policy = clean("<section id=\"cookies\"><h2>Cookies</h2><p>The survey's site keeps no record of "
                                 "who reads its maps.</p></section>" + prose());
    EXPECT_TRUE(has(policy.text, "keeps no record")) << "a section whose id is its heading's words";
}

// A form's labels and messages are no part of the article, but a page that
// wraps the whole article in one form keeps it.
TEST(Boilerplate, FormsGoUnlessTheyHoldTheArticle) {
    const Cleaned c = clean(prose() + "<form><label>First name*</label><label>Email*</label><p>This field is "
                                      "hidden when viewing the form</p></form>");
    EXPECT_FALSE(has(c.text, "First name"));
    EXPECT_FALSE(has(c.text, "This field is hidden"));
    ASSERT_EQ(c.removed.size(), 1U);
    EXPECT_EQ(c.removed[0].kind, "form");
    const Cleaned wrapped = clean("<form id=\"page\">" + prose() + "</form>");
    EXPECT_TRUE(has(wrapped.text, "a delta grows there"));
    EXPECT_TRUE(wrapped.removed.empty());
}

TEST(Boilerplate, AJumpWithinThePageThatStandsAloneGoes) {
    const Cleaned c = clean("<a class=\"skip\" href=\"#main\">Skip to main content</a>" + prose() +
                            "<p><a href=\"#top\">Back to top</a></p>" +
                            "<p>The survey's count<sup><a href=\"#n1\">1</a></sup> of the channels grew each year, "
                            "as <a href=\"#maps\">the maps</a> show.</p>" +
                            "<h2><a href=\"#gauges\">Gauges</a></h2>" + prose());
    EXPECT_FALSE(has(c.text, "Skip to main content"));
    EXPECT_FALSE(has(c.text, "Back to top"));
    EXPECT_TRUE(has(c.text, "count1 of the channels")) << "a footnote's mark sits in its sentence";
    EXPECT_TRUE(has(c.text, "as the maps show")) << "so does a link to a section";
    EXPECT_TRUE(has(c.text, "Gauges")) << "a heading's own anchor is the heading";
}

TEST(Boilerplate, ASectionsIdThatIsItsHeadingNamesNoFurniture) {
    const Cleaned c = clean(prose() + "<div class=\"section\" id=\"sharing-with-a-team\"><h2>Sharing with a "
                                      "team</h2><p>Each crew keeps its own log of the channels.</p></div>" +
                            prose() + "<div id=\"share-bar\"><h2>Sharing with a team</h2><p>Post this page.</p></div>");
    EXPECT_TRUE(has(c.text, "Each crew keeps its own log")) << "the id is the heading's words";
    EXPECT_FALSE(has(c.text, "Post this page")) << "an id that is not its heading still names a share bar";
}

TEST(Boilerplate, AHeadingsIdThatIsItsOwnWordsNamesNoFurniture) {
    const Cleaned c = clean(prose() + "<h3 id=\"what-are-shared-services\">What are shared services?</h3>" +
                            prose() + "<h3 id=\"whats-related-to-the-tides\">What's related to the tides</h3>" +
                            prose() + "<h3 id=\"share-links\">Where the crews share their logs</h3>" + prose());
    EXPECT_TRUE(has(c.text, "What are shared services?")) << "its id is its words, run together as a slug";
    EXPECT_TRUE(has(c.text, "What's related to the tides")) << "the slug drops the apostrophe";
    EXPECT_FALSE(has(c.text, "Where the crews share their logs")) << "an id that is not its words still names it";
}

TEST(Boilerplate, ASentenceThatLinksMostOfItsWordsIsStillProse) {
    const Cleaned c = clean(prose() +
                            "<p><a href=\"/ada\">Ada Lindqvist</a> took over from <a href=\"/ben\">Ben "
                            "Okafor</a>, who led the <a href=\"/survey\">delta survey</a> for eight years.</p>" +
                            "<p><a href=\"/signup\">Every week our editors send out the best of the survey's "
                            "findings. Sign up for the newsletter here.</a></p>" +
                            "<p>More: <a href=\"/x\">Where the river meets the sea, and what the survey found "
                            "there...</a></p>");
    EXPECT_TRUE(has(c.text, "who led the delta survey for eight years."));
    EXPECT_FALSE(has(c.text, "Sign up for the newsletter")) << "one link from end to end is a call to action";
    EXPECT_FALSE(has(c.text, "what the survey found")) << "a cut teaser is not a sentence";
}

TEST(Boilerplate, DateLinesGoOnlyBeforeOrAfterTheProse) {
    const Cleaned c = clean("<p>Published 14.03.2026</p>" + prose() +
                            "<p>Closing date: 03.11.2026</p>" + prose() + "<p><time>16 March 2026</time></p>");
    EXPECT_FALSE(has(c.text, "Published 14.03.2026"));
    EXPECT_FALSE(has(c.text, "16 March 2026"));
    EXPECT_TRUE(has(c.text, "Closing date: 03.11.2026")) << "a date inside the text is the text's";
}

TEST(Boilerplate, VersionNumbersAreNotDates) {
    const Cleaned c = clean("<p>We hope you enjoy 3.6.0!</p>" + prose());
    EXPECT_TRUE(has(c.text, "We hope you enjoy 3.6.0!"));
}

TEST(Boilerplate, LabelLinesLeftAtTheEndGo) {
    const Cleaned c = clean(prose() + "<h2>More on this topic</h2><p><strong>Also interesting:</strong></p>");
    EXPECT_FALSE(has(c.text, "More on this topic"));
    EXPECT_FALSE(has(c.text, "Also interesting"));
    EXPECT_TRUE(has(c.text, "Rivers carry the land"));
}

TEST(Boilerplate, HeadingsFollowedByTextStay) {
    const Cleaned c = clean("<h2>Dams change the balance</h2>" + prose());
    EXPECT_TRUE(has(c.text, "Dams change the balance"));
    EXPECT_TRUE(c.removed.empty());
}

TEST(Boilerplate, RemovedBlocksAreReportedWithPathLengthAndExcerpt) {
    const Cleaned c = clean(prose() + "<div class=\"byline\">By Ada Lindqvist</div>");
    ASSERT_EQ(c.removed.size(), 1U);
    EXPECT_EQ(c.removed[0].kind, "named");
    EXPECT_EQ(c.removed[0].path, "html>body>div#article>div.byline");
    EXPECT_EQ(c.removed[0].text_length, 16U);
    EXPECT_EQ(c.removed[0].excerpt, "By Ada Lindqvist");
}

}  // namespace
