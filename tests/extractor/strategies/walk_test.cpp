#include "strategies/walk.hpp"

#include <gtest/gtest.h>

#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "dom/inner_text.hpp"
#include "parse_or_fail.hpp"
#include "text/text.hpp"

namespace pith::extract {
namespace {

using dom::Node;

TEST(Walk, CollapsedTextMeasuresAsInnerTextLength) {
    for (const char* page : {"<p>  a  b </p>", "<p>one<b> two </b>three</p>", "<p>caf\xC3\xA9 \xF0\x9F\x98\x80  x</p>",
                             "<p> </p>", "<p>a<i></i>b <i> </i> c</p>"}) {
        dom::Document doc = pith::test::parse_or_fail(page);
        const Node* p = doc.body()->first_element_child();
        CollapsedText text;
        std::size_t punctuation = 0;
        for (const Node* n = p; n != nullptr; n = dom::next_node(n, p)) {
            if (n->is_text()) {
                measure_text(n->data, text, punctuation);
            }
        }
        EXPECT_EQ(text.length(), dom::inner_text_length(p)) << page;
    }
}

// Text pieces that exercise the eight-byte ASCII blocks and every way out of
// them: runs of each white space, punctuation, control bytes, multi-byte
// spaces and letters, astral characters.
std::string random_text(std::mt19937& random, std::size_t pieces) {
    static const char* const kPieces[] = {"a", "word", "longer-words.", ",", ".", " ", "  ", "\t", "\n\n", "\r",
                                          "\x0B", "\x0C", "\x01", "\x7F", "\xC2\xA0", "\xE3\x80\x80",
                                          "\xE2\x80\xA8", "\xC3\xA9", "\xF0\x9F\x98\x80", "\xEF\xBC\x8C", "12345678"};
    std::string out;
    for (std::size_t i = 0; i < pieces; ++i) {
        out += kPieces[random() % std::size(kPieces)];
    }
    return out;
}

TEST(Walk, MeasureTextReadsBlocksAsItReadsCharacters) {
    std::mt19937 random(20261126);
    for (int round = 0; round < 2000; ++round) {
        const std::string s = random_text(random, random() % 40);
        const std::string before = random_text(random, random() % 3);  // the state the text starts in
        CollapsedText whole;
        CollapsedText by_character;
        std::size_t whole_punctuation = 0;
        std::size_t by_character_punctuation = 0;
        measure_text(before, whole, whole_punctuation);
        measure_text(before, by_character, by_character_punctuation);
        measure_text(s, whole, whole_punctuation);
        for (std::size_t pos = 0; pos < s.size();) {  // pieces shorter than a block
            std::size_t end = pos;
            (void)text::next_code_point(s, end);
            measure_text(std::string_view(s).substr(pos, end - pos), by_character, by_character_punctuation);
            pos = end;
        }
        ASSERT_EQ(whole.length(), by_character.length()) << before << "|" << s;
        ASSERT_EQ(whole.trail_space, by_character.trail_space) << before << "|" << s;
        ASSERT_EQ(whole_punctuation, by_character_punctuation) << before << "|" << s;
    }
}

TEST(Walk, InnerTextLengthReadsBlocksAsTheTextItBuilds) {
    std::mt19937 random(1126);
    for (int round = 0; round < 500; ++round) {
        std::string page = "<p>";
        for (int node = 0; node < 3; ++node) {
            page += random_text(random, random() % 30) + (node % 2 == 0 ? "<b>" : "</b>");
        }
        dom::Document doc = pith::test::parse_or_fail(page + "</p>");
        const Node* p = doc.body()->first_element_child();
        for (const bool normalize : {true, false}) {
            ASSERT_EQ(dom::inner_text_length(p, normalize), text::utf16_length(dom::inner_text(p, normalize)))
                << page << " normalize=" << normalize;
        }
    }
}

TEST(Walk, MeasureTextCountsCommasAndFullStopsOfSeveralScripts) {
    CollapsedText text;
    std::size_t punctuation = 0;
    measure_text("a, b. c\xE3\x80\x82 d\xD8\x8C e!", text, punctuation);  // ideographic full stop, Arabic comma
    EXPECT_EQ(punctuation, 4U);
}

TEST(Walk, PreprocessingDropsHiddenFramesAndUnlikelyCandidates) {
    dom::Document doc = pith::test::parse_or_fail(
        "<div id=a style='display:none'>x</div><iframe id=b></iframe><div id=c class='comment'>x</div>"
        "<div id=d class='comment article'>x</div><a id=e class='comment'>x</a>"
        "<table><tr><td><div id=f class='comment'>x</div></td></tr></table>");
    auto by_id = [&doc](std::string_view id) {
        for (Node* n = doc.root(); n != nullptr; n = dom::next_node(n, doc.root())) {
            if (n->is_element() && n->attr("id") == id) {
                return n;
            }
        }
        return static_cast<Node*>(nullptr);
    };
    EXPECT_TRUE(preprocessing_removes(by_id("a"), PassFlags::none));
    EXPECT_TRUE(preprocessing_removes(by_id("b"), PassFlags::none));
    EXPECT_TRUE(preprocessing_removes(by_id("c"), PassFlags::all));
    EXPECT_FALSE(preprocessing_removes(by_id("c"), PassFlags::weight_classes)) << "only under strip_unlikelys";
    EXPECT_FALSE(preprocessing_removes(by_id("d"), PassFlags::all)) << "a maybe-candidate";
    EXPECT_FALSE(preprocessing_removes(by_id("e"), PassFlags::all)) << "never a link";
    EXPECT_FALSE(preprocessing_removes(by_id("f"), PassFlags::all)) << "never inside a table";
    EXPECT_FALSE(preprocessing_removes(doc.body(), PassFlags::all));
}

// A walker that records the order of events and the text each element holds.
struct Frame {
    const Node* node;
    std::string text;
};
struct Recorder {
    std::vector<std::string> closed;  // element names, in the order they closed
    std::string skip_id;
    std::string stop_id;
    void text(const Node* node, std::vector<Frame>& frames) { frames.back().text += node->data; }
    Visit enter(Node*& element, std::vector<Frame>& frames) {
        const std::string_view id = element->attr("id");
        if (!id.empty() && id == stop_id) {
            return Visit::stop;
        }
        if (!id.empty() && id == skip_id) {
            element = element->next;
            return Visit::skip;
        }
        frames.push_back(Frame{element, {}});
        return Visit::descend;
    }
    void close(std::vector<Frame>& frames) {
        const Frame done = frames.back();
        frames.pop_back();
        std::string entry(done.node->name);
        entry += '(';
        entry += done.text;
        entry += ')';
        closed.push_back(std::move(entry));
        if (!frames.empty()) {
            frames.back().text += done.text;
        }
    }
};

TEST(Walk, ChildrenCloseBeforeTheirParentAndFoldIntoIt) {
    dom::Document doc = pith::test::parse_or_fail("<div><p>a<b>b</b></p><!--c--><i>i</i></div>");
    std::vector<Frame> frames{Frame{doc.body(), {}}};
    Recorder recorder;
    walk_post_order(frames, recorder);
    EXPECT_EQ(recorder.closed, (std::vector<std::string>{"b(b)", "p(ab)", "i(i)", "div(abi)", "body(abi)"}));
    EXPECT_TRUE(frames.empty());
}

TEST(Walk, ASkippedElementIsPassedOverAndAStopEndsTheWalk) {
    dom::Document doc = pith::test::parse_or_fail("<p id=x>x</p><p>y</p><p id=z>z</p><p>w</p>");
    std::vector<Frame> frames{Frame{doc.body(), {}}};
    Recorder recorder{{}, std::string("x"), std::string("z")};
    walk_post_order(frames, recorder);
    EXPECT_EQ(recorder.closed, (std::vector<std::string>{"p(y)"}));
    ASSERT_EQ(frames.size(), 1U) << "stopped with the body still open";
}

}  // namespace
}  // namespace pith::extract
