#include "strategies/thread.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "article_attempt.hpp"
#include "dom/inner_text.hpp"
#include "dom/walk.hpp"
#include "pith/dom.hpp"
#include "pith/extract.hpp"

namespace pith::extract {
namespace {

using pith::test::article_attempt;

const std::string kFirstPost = "The pump hums loudly at night and I cannot find where the noise comes from.";
const std::string kElsewhere = "Pumps of this age often hum when the impeller wears; a new one costs little.";

// An article holding the thread's posts, `replies` after the first post.
Attempt thread(const std::string& replies) {
    return article_attempt("<div><div class=page><div class=post><p>" + kFirstPost + "</p></div>" + replies +
                           "</div></div>");
}

TEST(Thread, AQuoteOfAPostTheThreadShowsIsLeftOut) {
    Attempt attempt = thread("<div class=post><blockquote><b>ann said:</b><br>" + kFirstPost +
                             "</blockquote><p>Check the impeller first.</p></div>");
    const std::size_t before = attempt.text_length;
    EXPECT_EQ(remove_repeated_quotes(attempt), 1U);
    const std::string text = dom::inner_text(attempt.content);
    EXPECT_EQ(text.find(kFirstPost), text.rfind(kFirstPost));  // once
    EXPECT_NE(text.find("Check the impeller first."), std::string::npos);
    EXPECT_EQ(text.find("ann said:"), std::string::npos);
    EXPECT_LT(attempt.text_length, before);
    EXPECT_EQ(attempt.text_length, dom::inner_text_length(attempt.content));
}

TEST(Thread, QuotesOfWhatTheThreadDoesNotShowStay) {
    // A source outside the thread; the same earlier post (on another page)
    // quoted twice: neither is shown in full, so both quotes stay; a short
    // quote says too little to tell.
    Attempt attempt = thread("<div class=post><blockquote>" + kElsewhere + "</blockquote><p>So says the manual.</p>"
                             "</div><div class=post><blockquote>Old post: the hum started after the storm last "
                             "week.</blockquote></div><div class=post><blockquote>Old post: the hum started after "
                             "the storm last week.</blockquote><blockquote>Thanks!</blockquote><p>Thanks!</p></div>");
    EXPECT_EQ(remove_repeated_quotes(attempt), 0U);
}

TEST(Thread, AutoLeavesRepeatedQuotesOutOfForumThreadsOnly) {
    const std::string page = "<html><body><main><div class=post><p>" + kFirstPost + " " + std::string(60, 'x') +
                             "</p></div><div class=post><blockquote><p>" + kFirstPost + "</p></blockquote>"
                             "<p>Check the impeller first, then the bearings; both wear with age.</p></div>"
                             "</main></body></html>";
    ExtractOptions options;
    options.page_type = PageType::forum;
    Article article = extract(page, options);
    const std::string& text = article.text_content;
    EXPECT_EQ(text.find(kFirstPost), text.rfind(kFirstPost));
    EXPECT_NE(article.decision.find("1 quote of posts the thread shows in full left out"), std::string::npos);
    options.page_type = PageType::article;  // an article's quote repeating its text is the author's choice
    article = extract(page, options);
    EXPECT_NE(article.text_content.find(kFirstPost), article.text_content.rfind(kFirstPost));
}

// A thread of three posts, each with a header above its text: an avatar
// (a letter linking to the profile), the author's name linking to their
// profile, what the forum says of them, and the post's date.
std::string post(const std::string& name, const std::string& date, const std::string& text) {
    return "<div class=post><div class=head><a class=avatar href=\"/members/" + name + ".7/\">" +
           name.substr(0, 1) + "</a><a href=\"/members/" + name + ".7/\">" + name +
           "</a><span>Joined 2019</span><a href=\"/members/" + name + ".7/posts\">5</a><a href=\"#p\"><time "
           "datetime=2025-03-21>" + date + "</time></a></div><div class=body><p>" + text + "</p></div>"
           "<div class=likes><a href=\"/members/zed.9/\">zed</a></div></div>";
}

// Detaches every element of `content` of class `name`, as the region's
// cleaning takes a post's furniture.
void remove_class(dom::Node* content, std::string_view name) {
    std::vector<dom::Node*> found;
    for (dom::Node* n = content; n != nullptr; n = dom::next_element(n, content)) {
        if (n->attr("class") == name) {
            found.push_back(n);
        }
    }
    for (dom::Node* n : found) {
        dom::detach(n);
    }
}

TEST(PostHeaders, EachPostGetsItsAuthorAndDateBackBeforeItsText) {
    Attempt attempt = article_attempt("<div>" + post("ann", "Mar 21, 2025", kFirstPost) +
                                      post("bob", "Mar 22, 2025", kElsewhere) + "</div>");
    const PostHeaders headers(attempt.content);
    remove_class(attempt.content, "head");
    remove_class(attempt.content, "likes");
    EXPECT_EQ(headers.restore(attempt.doc, attempt.content), 4U);
    EXPECT_EQ(dom::inner_text(attempt.content), "annMar 21, 2025" + kFirstPost + "bobMar 22, 2025" + kElsewhere);
    // Each on a line of its own, before the block of its post's text.
    EXPECT_NE(dom::inner_html(attempt.content)
                  .find("<div class=\"body\"><p><a href=\"/members/ann.7/\">ann</a></p><p><time "
                        "datetime=\"2025-03-21\">Mar 21, 2025</time></p><p>The pump"),
              std::string::npos)
        << dom::inner_html(attempt.content);
}

TEST(PostHeaders, NoHeaderComesBackWithoutItsPost) {
    // The second post went whole; its header does not land on the third's
    // text (the third's own name comes first), nor does a liker's name.
    Attempt attempt = article_attempt("<div>" + post("ann", "Mar 21, 2025", kFirstPost) +
                                      post("bob", "Mar 22, 2025", "Gone.") +
                                      post("cat", "Mar 23, 2025", kElsewhere) + "</div>");
    const PostHeaders headers(attempt.content);
    remove_class(attempt.content, "head");
    remove_class(attempt.content, "likes");
    dom::Node* second = attempt.content->first_element_child()->next_element_sibling();
    dom::detach(second);
    EXPECT_EQ(headers.restore(attempt.doc, attempt.content), 4U);
    const std::string text = dom::inner_text(attempt.content);
    EXPECT_EQ(text.find("bob"), std::string::npos);
    EXPECT_EQ(text.find("Mar 22"), std::string::npos);
    EXPECT_EQ(text.find("zed"), std::string::npos);
    EXPECT_EQ(text, "annMar 21, 2025" + kFirstPost + "catMar 23, 2025" + kElsewhere);
}

TEST(PostHeaders, WhatIsNoPostsHeaderStaysOut) {
    // A quoted post's attribution, a menu's "View Profile", a date inside a
    // sentence and links to pages that are no profile are no post's header:
    // cleaned away, they do not come back before the next post's text.
    Attempt attempt = article_attempt(
        "<div><div class=gone><blockquote><a href=\"/members/ann.7/\">ann</a> said: " + kFirstPost +
        "</blockquote><ul><li><a href=\"/members/ann.7/\">View Profile</a></li></ul><p>On <time>May 1</time> "
        "the hum stopped. See <a href=\"/threads/pumps.9/\">pumps</a> and <a href=\"/u/\">users</a>.</p>"
        "</div><div class=post><p>" + kElsewhere + "</p></div></div>");
    const PostHeaders headers(attempt.content);
    EXPECT_EQ(headers.restore(attempt.doc, attempt.content), 0U);  // nothing was cleaned
    remove_class(attempt.content, "gone");
    EXPECT_EQ(headers.restore(attempt.doc, attempt.content), 0U);
    EXPECT_EQ(dom::inner_text(attempt.content), kElsewhere);
}

}  // namespace
}  // namespace pith::extract
