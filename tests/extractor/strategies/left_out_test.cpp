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

}  // namespace
}  // namespace pith::extract
