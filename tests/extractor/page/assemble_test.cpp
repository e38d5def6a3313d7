#include "page/prep.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "parse_or_fail.hpp"

namespace pith::extract {
namespace {

TEST(Assemble, KeepsBlockTagsRenamesOthersAndWrapsInThePageDiv) {
    dom::Document doc = pith::test::parse_or_fail(
        "<section><p>one</p></section><span>two</span><ul><li>three</li></ul><td>x</td>");
    std::vector<dom::Node*> blocks;
    for (dom::Node* n = doc.body()->first_element_child(); n != nullptr; n = n->next_element_sibling()) {
        blocks.push_back(n);
    }
    dom::Node* article =
        assemble_article(doc, blocks, ReadabilityOptions{}, PassFlags::none, std::chrono::steady_clock::time_point::max());
    EXPECT_EQ(article->parent, nullptr) << "detached";
    EXPECT_EQ(dom::outer_html(article),
              "<div><div id=\"readability-page-1\" class=\"page\"><section><p>one</p></section><div>two</div>"
              "<ul><li>three</li></ul></div></div>");
}

TEST(Assemble, AppendAsBlockAndTheWrapAreTheStepsItTakes) {
    dom::Document doc = pith::test::parse_or_fail("<h3>head</h3><p>para</p>");
    dom::Node* article = doc.create_element(dom::Tag::div);
    dom::Node* h3 = doc.body()->first_element_child();
    dom::Node* p = h3->next_element_sibling();
    append_as_block(article, h3);
    append_as_block(article, p);
    EXPECT_EQ(dom::inner_html(article), "<div>head</div><p>para</p>");
    wrap_in_page_div(doc, article);
    EXPECT_EQ(dom::inner_html(article), "<div id=\"readability-page-1\" class=\"page\"><div>head</div><p>para</p></div>");
}

}  // namespace
}  // namespace pith::extract
