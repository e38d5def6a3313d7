#include "dom/inner_text.hpp"

#include <gtest/gtest.h>

#include <iterator>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "parse_or_fail.hpp"
#include "text/text.hpp"

namespace pith::dom {
namespace {

using pith::test::parse_or_fail;

TEST(InnerText, TrimsAndCollapsesRunsAsReadabilityDoes) {
    Document doc = parse_or_fail("<div id=a>  Hello   <b>big</b>\n\n world\xC2\xA0\xC2\xA0! </div>");
    const Node* div = doc.body()->first_element_child();
    EXPECT_EQ(inner_text(div), "Hello big world !");
    EXPECT_EQ(inner_text(div, false), "Hello   big\n\n world\xC2\xA0\xC2\xA0!");
}

TEST(InnerText, TextLinesBreakWhereElementsTextsWouldRunTogether) {
    Document doc = parse_or_fail(
        "<div><p>Jane Doe</p><p>Staff Writer</p><span>Dec 17, 2025</span><span>Updated</span>"
        "<br>by <a>Ann Lee</a> and <i>Bo Roe</i></div>");
    EXPECT_EQ(text_lines(doc.body()->first_element_child()),
              "Jane Doe\nStaff Writer\nDec 17, 2025\nUpdated\nby Ann Lee and Bo Roe");
    // A space on either side (a no-break space too) or a comment between two
    // texts of one element is no break.
    doc = parse_or_fail("<p>No <!-- note -->break\xC2\xA0<b>here</b><i> or</i> there</p>");
    EXPECT_EQ(text_lines(doc.body()->first_element_child()), "No break\xC2\xA0here or there");
}

// Paragraphs whose text has every kind of white space run, at its edges too.
constexpr const char* kPages[] = {
    "<p>  a  b </p>",
    "<p>caf\xC3\xA9 \xF0\x9F\x98\x80  \xE2\x82\xAC x</p>",
    "<p>one<br>two\n<span> three </span>  \xE3\x80\x80 four</p>",
    "<p>   </p>",
    "<p>a\u00A0b \u00A0 c</p>",
    "<p>\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80 <b>x  y</b>\n\n z</p>",
    "<p>  lead <i>in</i>     and\xC2\xA0\xC2\xA0out   </p>",
};

TEST(InnerText, LengthAgreesWithTheStringsUtf16Length) {
    for (const char* page : kPages) {
        Document doc = parse_or_fail(page);
        const Node* p = doc.body()->first_element_child();
        for (const bool normalize : {true, false}) {
            EXPECT_EQ(inner_text_length(p, normalize), text::utf16_length(inner_text(p, normalize)))
                << page << " normalize=" << normalize;
        }
    }
}

// Each element's span joined from its children's, in document order, as the
// conditional cleaning measures a subtree from the measures of the ones below.
std::map<const Node*, TextSpan> spans_by_element(const Node* root) {
    std::map<const Node*, TextSpan> spans;
    std::vector<const Node*> elements;
    for (const Node* n = root; n != nullptr; n = next_node(n, root)) {
        if (n->is_element()) {
            elements.push_back(n);
        }
    }
    for (auto it = elements.rbegin(); it != elements.rend(); ++it) {  // children before parents
        TextSpan span;
        for (const Node* c = (*it)->first_child; c != nullptr; c = c->next) {
            if (c->is_text()) {
                span = joined(span, span_of(c->data));
            } else if (c->is_element()) {
                span = joined(span, spans.at(c));
            }
        }
        spans[*it] = span;
    }
    return spans;
}

TEST(InnerText, SpansJoinedFromTheChildrensGiveEveryElementsLength) {
    // Elements nested in every way around runs of white space: empty ones,
    // ones of white space only, runs split over several elements.
    const std::string nested =
        "<div> <section>  <p>  a  <b> </b> b </p><div></div><ul><li>one</li> <li>\xE3\x80\x80</li>"
        "<li> two<i>  <u> </u></i>three </li></ul></section><span>\xF0\x9F\x98\x80</span>end   </div>";
    for (std::string page : std::vector<std::string>(std::begin(kPages), std::end(kPages))) {
        for (const std::string& html : {page, nested, "<div>" + page + nested + page + "</div>"}) {
            Document doc = parse_or_fail(html);
            const Node* root = doc.body()->first_element_child();
            const auto spans = spans_by_element(root);
            EXPECT_GT(spans.size(), 0U);
            for (const auto& [element, span] : spans) {
                EXPECT_EQ(span.length, inner_text_length(element)) << html << " at <" << element->name << ">";
                EXPECT_EQ(span.seen, has_text(element)) << html << " at <" << element->name << ">";
            }
        }
    }
}

TEST(InnerText, LongerThanAndPrefixAgreeWithTheWholeString) {
    for (const char* page : kPages) {
        Document doc = parse_or_fail(page);
        const Node* p = doc.body()->first_element_child();
        const std::string whole = inner_text(p);
        const std::size_t length = text::utf16_length(whole);
        for (std::size_t limit = 0; limit <= length + 2; ++limit) {
            EXPECT_EQ(inner_text_longer_than(p, limit), length > limit) << page << " limit=" << limit;
        }
        std::size_t code_points = 0;
        for (std::size_t pos = 0; pos < whole.size(); ++code_points) {
            (void)text::next_code_point(whole, pos);
        }
        for (std::size_t n = 0; n <= code_points + 1; ++n) {
            std::size_t end = 0;
            for (std::size_t i = 0; i < n && end < whole.size(); ++i) {
                (void)text::next_code_point(whole, end);
            }
            EXPECT_EQ(inner_text_prefix(p, n), whole.substr(0, end)) << page << " n=" << n;
        }
    }
}

TEST(InnerText, TextContentLengthStopsOnceOverTheCap) {
    Document doc = parse_or_fail("<div><p>aaaaaaaaaa</p><p>bbbbbbbbbb</p><p>cccccccccc</p></div>");
    const Node* div = doc.body()->first_element_child();
    EXPECT_EQ(text_content_length(div, 100), 30U);
    const std::size_t capped = text_content_length(div, 15);
    EXPECT_GT(capped, 15U);
    EXPECT_LT(capped, 30U);  // the third paragraph was never counted
}

TEST(InnerText, ATemplatesIndentationDoesNotMakeTextLong) {
    Document doc = parse_or_fail("<div>\n        by\n        <span>Jane   Doe</span>\n        \n      </div>");
    const Node* div = doc.body()->first_element_child();
    EXPECT_EQ(inner_text_length(div), std::string_view("by Jane Doe").size());
    EXPECT_GT(text_content_length(div, 100), 30U);  // the indentation, as written
    EXPECT_FALSE(inner_text_longer_than(div, 11));
    EXPECT_TRUE(inner_text_longer_than(div, 5));
}

}  // namespace
}  // namespace pith::dom
