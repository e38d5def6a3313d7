#include "strategies/left_out.hpp"

#include <string>

#include <gtest/gtest.h>

#include "article_attempt.hpp"
#include "dom/inner_text.hpp"
#include "pith/extract.hpp"

namespace pith::extract {
namespace {

using pith::test::article_attempt;

const std::string kDescription = "A shelf unit of particleboard that stands upright or lies as a sideboard.";
const std::string kReview = "Easy to assemble and sturdy; I bought two more for the children's room.";

// A product page's article: its name, description, then `after`.
Attempt product(const std::string& after) {
    return article_attempt("<div><div class=page><h1>Shelf unit</h1><p>" + kDescription + "</p>" + after +
                           "</div></div>");
}

bool holds(const Attempt& attempt, const std::string& text) {
    return dom::inner_text(attempt.content).find(text) != std::string::npos;
}

TEST(CustomerReviews, ASectionNamedReviewsGoesWithEveryReviewInIt) {
    Attempt attempt = product("<section id=product-reviews><h2>Reviews</h2><div class=review-item><p>" + kReview +
                              "</p></div><div class=review-item><p>Fine.</p></div></section>");
    const std::size_t before = attempt.text_length;
    EXPECT_EQ(remove_customer_reviews(attempt), 1U);
    EXPECT_FALSE(holds(attempt, kReview));
    EXPECT_FALSE(holds(attempt, "Reviews"));
    EXPECT_TRUE(holds(attempt, kDescription));
    EXPECT_LT(attempt.text_length, before);
    EXPECT_EQ(attempt.text_length, dom::inner_text_length(attempt.content));
}

TEST(CustomerReviews, SchemaOrgReviewMicrodataGoes) {
    Attempt attempt = product("<div itemprop=\"review\" itemscope><p>" + kReview + "</p></div>"
                              "<div itemscope itemtype=\"https://schema.org/Review\"><p>Fine.</p></div>");
    EXPECT_EQ(remove_customer_reviews(attempt), 2U);
    EXPECT_FALSE(holds(attempt, kReview));
    EXPECT_FALSE(holds(attempt, "Fine."));
    EXPECT_TRUE(holds(attempt, kDescription));
}

TEST(CustomerReviews, OtherNamesThatHoldTheWordStay) {
    // "preview" and "overview" are other words; "has-reviews" says what the
    // element has, not what it is.
    Attempt attempt = product("<div class=preview><p>Seen from the front.</p></div><div class=product-overview><p>"
                              "Width 42 cm.</p></div><div class=has-reviews><p>Depth 39 cm.</p></div>");
    EXPECT_EQ(remove_customer_reviews(attempt), 0U);
    EXPECT_TRUE(holds(attempt, "Seen from the front."));
    EXPECT_TRUE(holds(attempt, "Width 42 cm."));
    EXPECT_TRUE(holds(attempt, "Depth 39 cm."));
}

TEST(CustomerReviews, AWrapperHoldingTheHeadlineStays) {
    // A page whose whole product sits in an element with a review class: the
    // product stays, the reviews inside it go.
    Attempt attempt = article_attempt("<div><div class=\"page reviews-enabled review-layout\"><h1>Shelf unit</h1><p>" +
                                      kDescription + "</p><ul class=reviews><li>" + kReview + "</li></ul></div></div>");
    EXPECT_EQ(remove_customer_reviews(attempt), 1U);
    EXPECT_TRUE(holds(attempt, kDescription));
    EXPECT_FALSE(holds(attempt, kReview));
}

TEST(CustomerReviews, AWrapperHoldingTheArticlesOpeningStays) {
    // No headline in the article: the element holding its first text wraps
    // the product, whatever its class says.
    Attempt attempt = article_attempt("<div><div class=\"product reviews-enabled\"><p>" + kDescription +
                                      "</p><ul class=reviews><li>" + kReview + "</li></ul></div></div>");
    EXPECT_EQ(remove_customer_reviews(attempt), 1U);
    EXPECT_TRUE(holds(attempt, kDescription));
    EXPECT_FALSE(holds(attempt, kReview));
}

// `depth` elements of class review, each inside the last, around `inside`.
std::string nested_reviews(int depth, const std::string& inside) {
    std::string nested;
    for (int i = 0; i < depth; ++i) {
        nested += "<div class=review>";
    }
    nested += inside;
    for (int i = 0; i < depth; ++i) {
        nested += "</div>";
    }
    return nested;
}

TEST(CustomerReviews, DeeplyNestedReviewsCostOneWalk) {
    constexpr int kDepth = 5000;
    // The outermost goes with all of them.
    Attempt gone = product(nested_reviews(kDepth, kReview));
    EXPECT_EQ(remove_customer_reviews(gone), 1U);
    EXPECT_FALSE(holds(gone, kReview));
    EXPECT_TRUE(holds(gone, kDescription));
    // Every one of them holds a headline, so none goes, and the one review
    // beside that headline does.
    Attempt kept = product(nested_reviews(kDepth, "<h1>Second shelf</h1><p class=review-item>" + kReview + "</p>"));
    EXPECT_EQ(remove_customer_reviews(kept), 1U);
    EXPECT_TRUE(holds(kept, "Second shelf"));
    EXPECT_FALSE(holds(kept, kReview));
}

// A thread's article: two posts, each with `signature` after its text.
Attempt thread_with(const std::string& signature) {
    return article_attempt("<div><div class=page><h1>Pump hums at night</h1><div class=post><p>The pump hums loudly "
                           "at night.</p>" + signature + "</div><div class=post><p>Check the impeller first.</p>" +
                           signature + "</div></div></div>");
}

TEST(Signatures, EveryPostsSignatureGoesAndThePostsStay) {
    Attempt attempt = thread_with("<div class=\"message-signature\"><p>Tools: lathe, mill, patience</p></div>");
    EXPECT_EQ(remove_signatures(attempt), 2U);
    EXPECT_FALSE(holds(attempt, "Tools: lathe"));
    EXPECT_TRUE(holds(attempt, "The pump hums loudly at night."));
    EXPECT_TRUE(holds(attempt, "Check the impeller first."));
    EXPECT_EQ(attempt.text_length, dom::inner_text_length(attempt.content));
}

TEST(Signatures, OtherNamesThatHoldTheWordStay) {
    // "signed" and "design" are other words; a signature-less thread keeps all.
    Attempt attempt = thread_with("<div class=\"signed-in design\"><p>Posted from the shop</p></div>");
    EXPECT_EQ(remove_signatures(attempt), 0U);
    EXPECT_TRUE(holds(attempt, "Posted from the shop"));
}

const std::string kFeature = "Bamboo fibre keeps the wearer cool through a summer's hottest afternoons.";
const std::string kReturns = "Returns are free within thirty days of delivery, unworn and with tags.";

std::size_t count_of(const std::string& text, const std::string& part) {
    std::size_t count = 0;
    for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
        ++count;
    }
    return count;
}

TEST(RepeatedBlocks, APassageShownAgainElsewhereGoes) {
    // A responsive page's narrow-screen copy of two paragraphs, after the wide
    // one: the copy differs in case and white space only.
    Attempt attempt = article_attempt("<div><div class=wide><h2>Why bamboo</h2><p>" + kFeature + "</p><p>" + kReturns +
                                      "</p></div><div class=narrow><p>  BAMBOO fibre keeps the wearer\ncool through "
                                      "a summer's hottest afternoons. </p><p>" + kReturns + "</p></div></div>");
    EXPECT_EQ(remove_repeated_blocks(attempt), 2U);
    EXPECT_TRUE(holds(attempt, kFeature));
    EXPECT_FALSE(holds(attempt, "BAMBOO"));
    EXPECT_EQ(count_of(dom::inner_text(attempt.content), kReturns), 1U);
    EXPECT_EQ(attempt.text_length, dom::inner_text_length(attempt.content));
}

TEST(RepeatedBlocks, ThreeCopiesGoToOneAndFourStay) {
    // Three copies are the page repeating itself; lines in four cards or more
    // are a part of each.
    const auto cards = [](int count) {
        std::string html = "<div><div class=grid>";
        for (int i = 0; i < count; ++i) {
            html += "<div class=card><h3>Plan " + std::to_string(i) + "</h3><p>" + kFeature + "</p><p>" + kReturns +
                    "</p></div>";
        }
        return html + "</div></div>";
    };
    Attempt three = article_attempt(cards(3));
    EXPECT_EQ(remove_repeated_blocks(three), 4U);
    EXPECT_EQ(count_of(dom::inner_text(three.content), kFeature), 1U);
    Attempt four = article_attempt(cards(4));
    EXPECT_EQ(remove_repeated_blocks(four), 0U);
}

TEST(RepeatedBlocks, TheAuthorsOwnRepetitionStays) {
    // One paragraph that ends two sections, and copies beside the first under
    // the same parent, are written so.
    Attempt refrain = article_attempt("<div><div><section><h2>Cotton</h2><p>Cotton breathes.</p><p>" + kReturns +
                                      "</p></section><section><h2>Bamboo</h2><p>" + kFeature + "</p><p>" + kReturns +
                                      "</p></section></div></div>");
    EXPECT_EQ(remove_repeated_blocks(refrain), 0U);
    Attempt beside = article_attempt("<div><div><p>" + kFeature + "</p><p>" + kReturns + "</p><p>" + kFeature +
                                     "</p><p>" + kReturns + "</p></div></div>");
    EXPECT_EQ(remove_repeated_blocks(beside), 0U);
}

TEST(RepeatedBlocks, ShortBlocksCodeAndBlocksAroundOthersStay) {
    // "Read more" repeats without the page repeating itself, and code repeats
    // its lines.
    const std::string code = "for (auto& row : table) { total += row.amount_in_cents; }";
    Attempt attempt = article_attempt("<div><div><div><p>Read more</p><pre>" + code + "\n" + code + "</pre></div>"
                                      "<div><p>Read more</p><pre>" + code + "</pre></div></div></div>");
    EXPECT_EQ(remove_repeated_blocks(attempt), 0U);
    // An element whose own text is a copy but which holds another block would
    // take that block with it: it stays, and the copy inside it goes.
    Attempt around = article_attempt("<div><div><div><p>" + kFeature + "</p><p>" + kReturns + "</p></div><div>" +
                                     kFeature + "<p>" + kReturns + "</p></div></div></div>");
    EXPECT_EQ(remove_repeated_blocks(around), 1U);
    EXPECT_EQ(count_of(dom::inner_text(around.content), kFeature), 2U);
    EXPECT_EQ(count_of(dom::inner_text(around.content), kReturns), 1U);
}

TEST(RepeatedBlocks, DeeplyNestedBlocksCostOneWalk) {
    constexpr int kDepth = 5000;
    const auto nested = [&](const std::string& each, const std::string& deepest) {
        std::string html = "<div><div>";
        for (int i = 0; i < kDepth; ++i) {
            html += "<div>" + each;
        }
        html += deepest;
        for (int i = 0; i < kDepth; ++i) {
            html += "</div>";
        }
        return html + "</div></div>";
    };
    // 5,001 copies: a part of each level, none goes.
    Attempt many = article_attempt(nested("<p>" + kFeature + "</p>", "<p>" + kFeature + "</p>"));
    EXPECT_EQ(remove_repeated_blocks(many), 0U);
    // A passage shown twice at the bottom: its second copy goes.
    const std::string passage = "<p>" + kFeature + "</p><p>" + kReturns + "</p>";
    Attempt deep = article_attempt(nested("", "<div>" + passage + "</div><div>" + passage + "</div>"));
    EXPECT_EQ(remove_repeated_blocks(deep), 2U);
    EXPECT_TRUE(holds(deep, kFeature));
}

TEST(RepeatedBlocks, AutoGivesAPassageOnceUnlessAskedAndReadabilityAsThePageHasIt) {
    std::string page = "<html><head><title>Bamboo shirts</title></head><body><article><h1>Bamboo shirts</h1><div>";
    for (int i = 0; i < 4; ++i) {
        page += "<p>Paragraph " + std::to_string(i) + " of the story: the mill spins the fibre, the weaver sets the "
                "loom, and the shirt is cut, sewn and pressed before it is folded for the shop.</p>";
    }
    page += "<p>" + kFeature + "</p><p>" + kReturns + "</p></div><div><p>" + kFeature + "</p><p>" + kReturns +
            "</p></div></article></body></html>";
    const Article automatic = extract(page, ExtractOptions{});
    ASSERT_EQ(automatic.status, Status::ok);
    EXPECT_EQ(count_of(automatic.text_content, kFeature), 1U) << automatic.text_content;
    EXPECT_NE(automatic.decision.find("2 repeated blocks left out"), std::string::npos) << automatic.decision;
    ExtractOptions options;
    options.keep_repeated = true;
    EXPECT_EQ(count_of(extract(page, options).text_content, kFeature), 2U);
    options.keep_repeated = false;
    options.strategy = Strategy::readability;
    EXPECT_EQ(count_of(extract(page, options).text_content, kFeature), 2U);
}

}  // namespace
}  // namespace pith::extract
