#include "strategies/thread.hpp"

#include <string>

#include <gtest/gtest.h>

#include "article_attempt.hpp"
#include "dom/inner_text.hpp"
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

}  // namespace
}  // namespace pith::extract
