// React's streamed server rendering: each hidden <div id="S:n"> the page sends
// after its shell is moved where its script would move it, into the boundary
// <template id="B:n"> (the fallback replaced) or the placeholder <template
// id="P:n"> (page/prep.hpp's replay_streamed_segments), for every strategy but
// readability, and only when asked.
#include <gtest/gtest.h>

#include <string>

#include "page/prep.hpp"
#include "pith/extract.hpp"
#include "survey_prose.hpp"

namespace pith::extract {
namespace {

Article run(const std::string& html, Strategy strategy = Strategy::automatic, bool replay = true) {
    ExtractOptions options;
    options.strategy = strategy;
    options.replay_streamed = replay;
    return extract(html, options);
}

// The shell: the site's header and footer, the article's first paragraphs,
// a boundary whose fallback says it is loading, and a last paragraph after
// it. `streamed` comes after the footer, as React sends it.
std::string shell(const std::string& boundary_id, const std::string& streamed) {
    return "<html><head><title>Deltas</title></head><body><header><nav><a href=\"/\">Home</a> <a href=\"/maps\">"
           "Maps</a></nav></header><main><article><h1>Deltas</h1>" + test::survey_paragraphs(3, "delta") +
           "<!--$?--><template id=\"" + boundary_id + "\"></template><p>Loading the chapters, please wait.</p>"
           "<!--/$--><p>The coda survey closed the book, and its last table named every delta the crews had "
           "measured on the way.</p></article></main><footer><p>Footer of the site</p></footer>" + streamed +
           "<script>$RC(\"" + boundary_id + "\",\"S:0\")</script></body></html>";
}

std::string segment(const std::string& id, const std::string& inside) {
    return "<div hidden id=\"" + id + "\">" + inside + "</div>";
}

TEST(StreamedSegments, ABoundarysSegmentTakesThePlaceOfItsFallback) {
    const Article article = run(shell("B:0", segment("S:0", test::survey_paragraphs(4, "river"))));
    EXPECT_EQ(article.status, Status::ok);
    const std::string& text = article.text_content;
    const std::size_t delta = text.find("delta survey");
    const std::size_t river = text.find("river survey");
    const std::size_t coda = text.find("coda survey");
    ASSERT_NE(river, std::string::npos) << text;
    ASSERT_NE(delta, std::string::npos);
    ASSERT_NE(coda, std::string::npos);
    EXPECT_LT(delta, river) << "where the boundary is, not after the footer";
    EXPECT_LT(river, coda);
    EXPECT_EQ(text.find("Loading the chapters"), std::string::npos) << "the fallback goes";
    EXPECT_NE(article.decision.find("1 streamed segment was put in place"), std::string::npos) << article.decision;
}

// A segment may hold a placeholder that a later segment fills; an id may
// carry the application's prefix before its letter.
TEST(StreamedSegments, APlaceholderInsideAStreamedSegmentIsFilledInTurn) {
    const std::string streamed =
        segment("appS:0", "<section>" + test::survey_paragraphs(2, "river") +
                              "<template id=\"appP:1\"></template></section>") +
        "<script>$RC(\"appB:0\",\"appS:0\")</script>" + segment("appS:1", test::survey_paragraphs(2, "marsh")) +
        "<script>$RS(\"appS:1\",\"appP:1\")</script>";
    const Article article = run(shell("appB:0", streamed));
    const std::string& text = article.text_content;
    const std::size_t river = text.find("river survey");
    const std::size_t marsh = text.find("marsh survey");
    ASSERT_NE(river, std::string::npos) << text;
    ASSERT_NE(marsh, std::string::npos) << text;
    EXPECT_LT(river, marsh);
    EXPECT_LT(marsh, text.find("coda survey"));
    EXPECT_NE(article.decision.find("2 streamed segments were put in place"), std::string::npos) << article.decision;
}

TEST(StreamedSegments, ReadabilityAndTheDefaultLeaveThemHidden) {
    EXPECT_FALSE(ExtractOptions{}.replay_streamed) << "off by default";
    const std::string html = shell("B:0", segment("S:0", test::survey_paragraphs(4, "river")));
    const Article readability = run(html, Strategy::readability);
    EXPECT_EQ(readability.text_content.find("river survey"), std::string::npos);
    EXPECT_NE(readability.text_content.find("Loading the chapters"), std::string::npos);
    const Article off = run(html, Strategy::automatic, false);
    EXPECT_EQ(off.text_content.find("river survey"), std::string::npos);
    EXPECT_EQ(off.decision.find("streamed"), std::string::npos);
}

// A segment whose place is missing, or whose place lies inside it (no page
// React wrote), stays where it is, hidden.
TEST(StreamedSegments, ASegmentWithoutAPlaceOutsideItStaysHidden) {
    for (const std::string& streamed :
         {segment("S:7", test::survey_paragraphs(2, "river")),
          segment("S:0", "<template id=\"B:0\"></template>" + test::survey_paragraphs(2, "river"))}) {
        const Article article = run(shell("B:9", streamed));
        EXPECT_FALSE(article.error.has_value());
        EXPECT_EQ(article.text_content.find("river survey"), std::string::npos) << streamed;
        EXPECT_NE(article.text_content.find("delta survey"), std::string::npos);
    }
}

// Thousands of segments, each with its boundary, closed or never closed (each
// boundary's fallback would then run to the end of its siblings): the replay
// stops at its bounds, and the page comes out.
TEST(StreamedSegments, ManySegmentsAreBounded) {
    for (const std::string close : {"<!--/$-->", ""}) {
        std::string places;
        std::string streamed;
        for (int i = 0; i < 6000; ++i) {
            places += "<!--$?--><template id=\"B:" + std::to_string(i) + "\"></template><i>wait</i>" + close;
            streamed += segment("S:" + std::to_string(i), "<span>piece</span>");
        }
        const std::string html = "<html><body><article>" + test::survey_paragraphs(4, "delta") + places +
                                 "</article>" + streamed + "</body></html>";
        const Article article = run(html);
        EXPECT_FALSE(article.error.has_value());
        EXPECT_NE(article.text_content.find("delta survey"), std::string::npos);
        EXPECT_NE(article.decision.find(std::to_string(kMaxStreamedSegments) + " streamed segments"), std::string::npos)
            << article.decision;
    }
}

}  // namespace
}  // namespace pith::extract
