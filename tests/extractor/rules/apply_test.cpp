// What a site rule does to a parsed page: the rule is loaded from a file's
// text (RuleSet::add_file), as pith loads a folder of them.
#include "rules/apply.hpp"

#include <gtest/gtest.h>

#include <string>

#include "dom/inner_text.hpp"
#include "dom/walk.hpp"
#include "parse_or_fail.hpp"
#include "pith/rules.hpp"

namespace {

using pith::dom::Document;
using pith::dom::Node;
using pith::rules::RuleSet;
using pith::rules::SiteRule;

const char* const kPage =
    "<html><head><title>T</title></head><body>"
    "<h1 class='headline'>Spring tides</h1><a rel='author' href='/a'>Ada Lindqvist</a>"
    "<span class='date'>Published: 2024-03-05</span>"
    "<article class='story main'><p>First.</p><div class='social-links'>Share</div>"
    "<div class='wrapper-inner'><p>Second.</p></div><img src='/pixel.gif'><img src='/a.jpg' srcset='a 2x'>"
    "<div class='pullquote'>Quoted.</div><aside>Aside.</aside></article></body></html>";

const char* const kRule =
    "title: //h1[@class='headline']\n"
    "body: //article[contains(concat(' ', normalize-space(@class), ' '), ' story ')]\n"
    "author: //a[@rel='author']\n"
    "date: substring-after(//span[@class='date'], 'Published: ')\n"
    "strip: //aside\n"
    "strip_id_or_class: social\n"
    "strip_image_src: pixel.gif\n"
    "strip_attr: //img/@srcset\n"
    "dissolve: //div[@class='wrapper-inner']\n"
    "wrap_in(blockquote): //div[@class='pullquote']\n"
    "find_string: Spring\n"
    "replace_string: Neap\n";

class ApplyRule : public ::testing::Test {
protected:
    ApplyRule() {
        pith::rules::LoadReport report;
        EXPECT_TRUE(rules_.add_file("example.com.txt", kRule, report)) << report.rejected.size();
        rule_ = rules_.find("example.com");
    }
    RuleSet rules_;
    const SiteRule* rule_ = nullptr;
};

TEST_F(ApplyRule, StripsDissolvesWrapsAndSelects) {
    ASSERT_NE(rule_, nullptr);
    Document doc = pith::test::parse_or_fail(kPage);
    const pith::rules::Applied applied = pith::rules::apply_rule(*rule_, doc);
    EXPECT_TRUE(applied.errors.empty());
    EXPECT_GE(applied.removed, 3U) << "the aside, the social links and the pixel";
    ASSERT_EQ(applied.body.size(), 1U);
    const Node* article = applied.body.front();
    EXPECT_EQ(pith::dom::inner_html(article),
              "<p>First.</p><p>Second.</p><img src=\"/a.jpg\"><blockquote><div class=\"pullquote\">Quoted.</div>"
              "</blockquote>");
    EXPECT_EQ(applied.title, "Spring tides");
    EXPECT_EQ(applied.author, "Ada Lindqvist");
    EXPECT_EQ(applied.date, "2024-03-05");
}

TEST_F(ApplyRule, ReplacementsComeBeforeTheParse) {
    ASSERT_NE(rule_, nullptr);
    const auto replaced = pith::rules::replaced_markup(*rule_, "<h1>Spring tides</h1>");
    ASSERT_TRUE(replaced.has_value());
    EXPECT_EQ(*replaced, "<h1>Neap tides</h1>");
    RuleSet none;
    pith::rules::LoadReport report;
    ASSERT_TRUE(none.add_file("other.com.txt", "body: //article\n", report));
    EXPECT_FALSE(pith::rules::replaced_markup(*none.find("other.com"), "<p>x</p>").has_value());
}

TEST_F(ApplyRule, ASelectionMayBeDetachedLater) {
    Document doc = pith::test::parse_or_fail("<div id=a><p>x</p></div>");
    Node* div = doc.body()->first_element_child();
    Node* p = div->first_element_child();
    EXPECT_TRUE(pith::dom::is_within(p, doc.root()));
    pith::dom::detach(div);
    EXPECT_FALSE(pith::dom::is_within(p, doc.root()));
    EXPECT_TRUE(pith::dom::is_within(p, div));
}

TEST(RuleHost, IsTheLowerCaseHostOfAnHttpUrl) {
    EXPECT_EQ(pith::rules::host_of("https://User@WWW.Example.COM:8443/a?b"), "www.example.com");
    EXPECT_EQ(pith::rules::host_of("http://example.com"), "example.com");
    EXPECT_EQ(pith::rules::host_of("ftp://example.com./"), "example.com");
    EXPECT_EQ(pith::rules::host_of("https://[::1]:8080/x"), "[::1]");
    EXPECT_EQ(pith::rules::host_of("/relative/path"), "");
}

}  // namespace
