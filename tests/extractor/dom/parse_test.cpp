#include "pith/dom.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "parse_or_fail.hpp"

namespace pith::dom {
namespace {

using pith::test::parse_or_fail;

TEST(Parse, BuildsTheHtml5TreeWithImpliedElements) {
    // In no-quirks mode (a doctype) a <table> closes an open <p>.
    Document doc = parse_or_fail("<!DOCTYPE html><title>T</title><p>one<p>two<table><td>cell</table>");
    ASSERT_NE(doc.document_element(), nullptr);
    EXPECT_TRUE(doc.document_element()->is(Tag::html));
    ASSERT_NE(doc.head(), nullptr);
    ASSERT_NE(doc.body(), nullptr);
    // The second <p> closes the first; the table gets its tbody and tr.
    EXPECT_EQ(outer_html(doc.body()),
              "<body><p>one</p><p>two</p><table><tbody><tr><td>cell</td></tr></tbody></table></body>");
}

TEST(Parse, NumbersElementsInDocumentOrderFromOne) {
    Document doc = parse_or_fail("<html><head></head><body><div><p>a</p></div><span>b</span></body></html>");
    const Node* html = doc.document_element();
    EXPECT_EQ(html->source_index, 1U);
    EXPECT_EQ(doc.head()->source_index, 2U);
    EXPECT_EQ(doc.body()->source_index, 3U);
    const Node* div = doc.body()->first_element_child();
    EXPECT_EQ(div->source_index, 4U);
    EXPECT_EQ(div->first_element_child()->source_index, 5U);
    EXPECT_EQ(div->next_element_sibling()->source_index, 6U);
    EXPECT_EQ(div->first_element_child()->first_child->source_index, 0U) << "text nodes have none";
}

TEST(Parse, KeepsTemplateContentUnderTheTemplate) {
    Document doc = parse_or_fail("<body><template><p>inside</p></template><p>outside</p></body>");
    const Node* tmpl = doc.body()->first_element_child();
    ASSERT_NE(tmpl, nullptr);
    EXPECT_TRUE(tmpl->is(Tag::template_));
    EXPECT_EQ(text_content(tmpl), "inside");
    EXPECT_EQ(text_content(doc.body()), "insideoutside");
}

TEST(Parse, ForeignElementsAreNoHtmlTags) {
    Document doc = parse_or_fail("<svg><title>icon</title></svg><p>x</p>");
    const Node* svg = doc.body()->first_element_child();
    ASSERT_NE(svg, nullptr);
    EXPECT_EQ(svg->ns, Namespace::svg);
    EXPECT_EQ(svg->first_element_child()->tag, Tag::other) << "an <svg><title> is no <title>";
    EXPECT_EQ(svg->first_element_child()->name, "title");
}

TEST(Parse, EstimateCountsTagsDepthAndAttributes) {
    const MarkupEstimate e = estimate_markup("<div a=1 b=2 c=3><div><p>x</p></div><!-- c --></div><br>");
    EXPECT_EQ(e.elements, 4U);
    EXPECT_EQ(e.max_attributes, 3U);
    EXPECT_EQ(e.attributes, 3U);
    EXPECT_EQ(e.comments, 1U);
    EXPECT_EQ(e.max_depth, 2U) << "only elements whose end tag is required nest (not <p>)";
}

TEST(Parse, BudgetsAreCheckedInOrderAndNameTheirNumbers) {
    MarkupEstimate e;
    e.elements = 50;
    e.max_depth = 40;
    e.max_attributes = 9;
    ParseLimits limits;
    EXPECT_TRUE(check_markup_budgets(e, limits).ok()) << "0 is unlimited";
    limits.max_attributes_per_element = 8;
    limits.max_elements = 10;
    limits.max_nesting_depth = 20;
    auto refused = check_markup_budgets(e, limits);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, ErrorCode::too_many_attributes);
    EXPECT_EQ(refused.error().message, "an element has 9 attributes, limit 8");
    limits.max_attributes_per_element = 0;
    refused = check_markup_budgets(e, limits);
    EXPECT_EQ(refused.error().code, ErrorCode::too_many_elements);
    EXPECT_NE(refused.error().message.find("50"), std::string::npos);
    limits.max_elements = 0;
    refused = check_markup_budgets(e, limits);
    EXPECT_EQ(refused.error().code, ErrorCode::too_deep);
    EXPECT_NE(refused.error().message.find("limit 20"), std::string::npos);
}

TEST(Parse, RefusesBeforeGumboAndCountsExactlyAfter) {
    ParseLimits limits;
    limits.max_elements = 3;
    auto refused = parse_html("<div><p>a</p><p>b</p><p>c</p></div>", limits);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, ErrorCode::too_many_elements);
    // html, head and body are implied: the exact count includes them.
    limits.max_elements = 4;
    refused = parse_html("<p>a</p>", limits);
    EXPECT_TRUE(refused.ok()) << refused.error().message;
    limits.max_elements = 3;
    refused = parse_html("<p>a</p>", limits);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().message, "found 4 elements, limit 3");
}

TEST(Parse, StopsAtAPassedDeadline) {
    ParseLimits limits;
    limits.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    std::string page;
    for (int i = 0; i < 70000; ++i) {
        page += "<i>x</i>";
    }
    const auto late = parse_html(page, limits);
    ASSERT_FALSE(late.ok());
    EXPECT_EQ(late.error().code, ErrorCode::deadline_exceeded);
}

TEST(Parse, ReportsWhereTheTimeWent) {
    ParseTimings timings;
    const auto parsed = parse_html("<p>hello</p>", {}, &timings);
    ASSERT_TRUE(parsed.ok());
    EXPECT_GE(timings.gumbo_us, 0);
    EXPECT_GE(timings.dom_build_us, 0);
}

}  // namespace
}  // namespace pith::dom
