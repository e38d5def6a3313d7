#include "classify/page_type.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "dom/inner_text.hpp"
#include "page/declarations.hpp"
#include "feature_named.hpp"
#include "parse_or_fail.hpp"
#include "pith/extract.hpp"

namespace pith::extract {
namespace {

double feature(const PageTypeFeatures& f, std::string_view name) {
    return test::feature_named(f, page_type_feature_names(), name);
}

PageTypeFeatures features_of(std::string_view html, std::string_view url) {
    const dom::Document doc = test::parse_or_fail(html);
    return page_type_features(doc, read_declarations(doc), url);
}

TEST(PageTypeFeatures, TheWalkMeasuresTheBodysTextAsInnerTextLength) {
    const char* const kPieces[] = {"word ", "Two words", "  ", "\n\t", "12.5 ", "$3", "a-b/c", "end. ", "Q? ", "!",
                                   "\xC2\xA0", "caf\xC3\xA9 ", "\xF0\x9F\x98\x80", "<b>bold</b>", "<p>para</p>",
                                   "2024-03-05 ", "\xE2\x82\xAC\x39 "};  // "€9 "
    std::mt19937 random(2611);
    for (int round = 0; round < 300; ++round) {
        std::string body;
        for (std::size_t i = random() % 40; i > 0; --i) {
            body += kPieces[random() % std::size(kPieces)];
        }
        const dom::Document doc = test::parse_or_fail("<html><body>" + body + "</body></html>");
        std::size_t measured = 0;
        (void)page_type_features(doc, read_declarations(doc), "", &measured);
        ASSERT_EQ(measured, dom::inner_text_length(doc.body())) << body;
    }
}

// A thread of eleven replies, each ending with `signature`; the sixth is
// `short_reply` where one is given.
std::string forum_thread(const std::string& signature = "", const std::string& short_reply = "") {
    std::string posts;
    for (int i = 1; i <= 11; ++i) {
        const std::string message =
            i == 6 && !short_reply.empty()
                ? short_reply
                : "Reply number " + std::to_string(i) +
                      ": I tried the setting you mentioned and it worked for me on the second attempt, thanks.";
        posts += "<div class=\"post\"><div class=\"author\"><img class=\"avatar\" src=\"a.png\"><a href=\"/u/" +
                 std::to_string(i) + "\">user" + std::to_string(i) + "</a></div><div class=\"message\"><p>" + message +
                 "</p></div>" + signature + "<a class=\"reply\" href=\"#\">Reply</a></div>";
    }
    return "<html><head><title>Thread</title><link rel=\"canonical\" "
           "href=\"https://example.org/forum/thread/123-settings-question\"></head><body><nav><a "
           "href=\"/forum\">Forums</a></nav><main><h1>Settings question</h1>" +
           posts + "</main><footer>Forum software</footer></body></html>";
}

std::string listing() {
    std::string cards;
    for (int i = 1; i <= 24; ++i) {
        cards += "<article class=\"card\"><h3><a href=\"/posts/" + std::to_string(i) + "\">Item number " +
                 std::to_string(i) + "</a></h3><p>A short description of item " + std::to_string(i) +
                 ", long enough to read as a sentence of its own.</p></article>";
    }
    return "<html><head><title>All items</title></head><body><header><a href=\"/\">Site</a><nav><a "
           "href=\"/a\">About</a></nav></header><main><h1>Latest posts</h1>" +
           cards + "</main><footer>Copyright line</footer></body></html>";
}

TEST(PageTypeFeatures, TheUrlsPathAndHostWordsAreRead) {
    const PageTypeFeatures f = features_of("<p>x</p>", "https://forum.example.org/forum/thread/123");
    EXPECT_EQ(feature(f, "url_known"), 1.0);
    EXPECT_EQ(feature(f, "url_forum"), 1.0);
    EXPECT_EQ(feature(f, "host_forum"), 1.0);
    EXPECT_EQ(feature(f, "url_product"), 0.0);
    EXPECT_EQ(feature(f, "url_depth"), 3.0);
    const PageTypeFeatures root = features_of("<p>x</p>", "https://example.org/");
    EXPECT_EQ(feature(root, "url_root"), 1.0);
    const PageTypeFeatures none = features_of("<p>x</p>", "");
    EXPECT_EQ(feature(none, "url_known"), 0.0);
}

TEST(PageTypeFeatures, DeclaredTypesAreRead) {
    const PageTypeFeatures f = features_of(
        "<html><head><meta property=\"og:type\" content=\"product\"><script type=\"application/ld+json\">"
        "{\"@context\": \"https://schema.org\", \"@type\": \"Product\", \"offers\": {\"@type\": \"Offer\"}}"
        "</script></head><body><p>x</p></body></html>",
        "");
    EXPECT_GT(feature(f, "ld_product"), 0.0);
    EXPECT_EQ(feature(f, "ld_article"), 0.0);
    EXPECT_EQ(feature(f, "og_product"), 1.0);
}

TEST(PageTypeFeatures, RepeatedSiblingsAndClassWordsAreCounted) {
    const PageTypeFeatures f = features_of(listing(), "");
    EXPECT_NEAR(feature(f, "repeated_count"), std::log1p(24.0), 1e-9);
    EXPECT_GT(feature(f, "repeated_share"), 0.8);
    EXPECT_GT(feature(f, "class_card"), 0.0);
    EXPECT_EQ(feature(f, "class_price"), 0.0);
}

TEST(PageTypeFeatures, KindPhrasesAreCountedWholeInHeadingsAndInLinksAndButtonsApart) {
    const PageTypeFeatures f = features_of(
        "<html><head><title>Plans and pricing</title></head><body>"
        "<h1>Pricing</h1><h2>Get <em>started</em> today</h2><h3>Get going, started</h3><h4>Sign up</h4>"
        "<p>Questions? Read on. Who signs up? Anyone.</p>"
        "<a href=/a>Add to <span>cart</span></a> <button>Add to cart</button> <a href=/b>Add to carts</a>"
        "<a href='  TEL:+1555'>Call</a> <a href=mailto:a@b.c>Write</a> <form><input type=Email></form>"
        "<p>Add to cart in a paragraph, sign up</p></body></html>",
        "");
    EXPECT_NEAR(feature(f, "heading:pricing"), std::log1p(2.0), 1e-12);  // the <title> and the <h1>
    EXPECT_NEAR(feature(f, "heading:get started"), std::log1p(1.0), 1e-12);  // across elements, not with a word between
    EXPECT_EQ(feature(f, "heading:sign up"), 0.0);                        // h4 is not read
    EXPECT_NEAR(feature(f, "action:add to cart"), std::log1p(2.0), 1e-12);  // not "carts", not the paragraph
    EXPECT_EQ(feature(f, "heading:add to cart"), 0.0);
    EXPECT_EQ(feature(f, "action:sign up"), 0.0);
    EXPECT_NEAR(feature(f, "phone_links"), std::log1p(1.0), 1e-12);
    EXPECT_NEAR(feature(f, "mail_links"), std::log1p(1.0), 1e-12);
    EXPECT_NEAR(feature(f, "email_fields"), std::log1p(1.0), 1e-12);
    EXPECT_GT(feature(f, "question_marks"), 0.0);
}

TEST(PageTypeFeatures, TheLayoutFeaturesComeFirst) {
    const auto names = page_type_feature_names();
    EXPECT_EQ(names[kLayoutFeatureCount - 1], "class_container");
    EXPECT_EQ(names[kLayoutFeatureCount], "heading:add to bag");
    const std::size_t words_begin = kPageTypeFeatureCount - kPageTypeCount - kFeatureWordCount;
    EXPECT_EQ(names[words_begin - 1], "email_fields");
    for (std::size_t i = 0; i < kFeatureWordCount; ++i) {
        EXPECT_EQ(names[words_begin + i], "word:" + std::string(kPageWords[kFeatureWordSlots[i]]));
    }
    EXPECT_EQ(names[kPageTypeFeatureCount - kPageTypeCount], "text:article");
    EXPECT_EQ(names[kPageTypeFeatureCount - 1], "text:service");
    EXPECT_EQ(std::count(names.begin(), names.end(), ""), 0);
}

TEST(PageWords, WordsAreRunsOfLettersLowercasedOthersCountOnlyInTheTotal) {
    const dom::Document doc = test::parse_or_fail(
        "<html><head><title>Title words</title></head><body><p>Hello\xC2\xA0world, the caf\xC3\xA9\xE2\x80\x99s "
        "3rd news\xE2\x80\x94Shop_now WORLD a</p>"
        "<p>abcdefghijklmnopqrstuvwxyz</p></body></html>");
    const PageWordCounts counts = page_word_counts(doc);
    // Hello, world, the, café, s, 3rd, news, Shop_now, WORLD, a, the alphabet: U+00A0 and U+2019 and
    // U+2014 end words; non-ASCII letters, digits and '_' do not, but keep the word out of the counts, as do
    // one letter and more than kMaxPageWordLength; the <title> is not the body's.
    const std::map<std::string, std::size_t, std::less<>> expected{
        {"hello", 1}, {"news", 1}, {"the", 1}, {"world", 2}};
    EXPECT_EQ(counts.words, expected);
    EXPECT_EQ(counts.total, 11U);
}

TEST(PageWords, EachPageWordIsItsUsesPerThousandWordsOfTheBody) {
    ASSERT_GT(kFeatureWordCount, 2U);
    const std::string first(kPageWords[kFeatureWordSlots[0]]);
    const std::string last(kPageWords[kFeatureWordSlots[kFeatureWordCount - 1]]);
    std::string body = "<p>" + first + " " + first + ", " + last + "</p><p>";
    for (int i = 0; i < 37; ++i) {
        body.append(1, 'x').append(std::to_string(i)).append(1, ' ');
    }
    const PageTypeFeatures f = features_of("<html><body>" + body + "</p></body></html>", "");
    EXPECT_NEAR(feature(f, "word:" + first), 1000.0 * 2 / 40, 1e-12);
    EXPECT_NEAR(feature(f, "word:" + last), 1000.0 * 1 / 40, 1e-12);
    EXPECT_EQ(feature(f, "word:" + std::string(kPageWords[kFeatureWordSlots[1]])), 0.0);
    const PageTypeFeatures empty = features_of("<html><body></body></html>", "");
    EXPECT_EQ(feature(empty, "word:" + first), 0.0);
}

namespace text_model {
#include "classify/text_model.inc"
}  // namespace text_model
using text_model::kTextScale;
using text_model::kTextWeights;
using text_model::kTextWordModels;

// The text model's scores, computed here from text_model.inc's table the
// way fit_page_model.py's text_scores does.
std::array<double, kPageTypeCount> expected_text_scores(const std::vector<std::pair<std::size_t, int>>& counts,
                                                        int total, std::size_t model) {
    std::array<double, kPageTypeCount> scores{};
    double weight = 0.0;
    for (const auto& [slot, count] : counts) {
        if (((kTextWordModels[slot] >> model) & 1U) == 0) {
            continue;
        }
        const double x = std::log1p(1000.0 * count / total);
        weight += x;
        for (std::size_t type = 0; type < kPageTypeCount; ++type) {
            scores[type] += x * kTextWeights[(model * kPageWordCount + slot) * kPageTypeCount + type] / kTextScale;
        }
    }
    const double best = *std::max_element(scores.begin(), scores.end()) / weight;
    for (double& score : scores) {
        score = score / weight - best;
    }
    return scores;
}

TEST(PageWords, TheTextScoresAreEachModelsMeanWeightLessTheBestTypes) {
    // Two words model 0 reads, one of which the model without fold 0 does not.
    std::size_t shared = kPageWordCount;
    std::size_t own = kPageWordCount;
    for (std::size_t slot = 0; slot < kPageWordCount; ++slot) {
        const unsigned mask = kTextWordModels[slot];
        shared = shared == kPageWordCount && (mask & 3U) == 3U ? slot : shared;
        own = own == kPageWordCount && (mask & 3U) == 1U ? slot : own;
    }
    ASSERT_LT(shared, kPageWordCount);
    ASSERT_LT(own, kPageWordCount);
    const std::string a(kPageWords[shared]);
    const std::string b(kPageWords[own]);
    const std::string html = "<html><body><p>" + a + " " + a + " " + b + " x1 x2</p></body></html>";
    const dom::Document doc = test::parse_or_fail(html);
    const std::vector<std::pair<std::size_t, int>> counts{{shared, 2}, {own, 1}};
    for (const auto& [fold, model] : {std::pair{-1, std::size_t{0}}, std::pair{0, std::size_t{1}}}) {
        const PageTypeFeatures f = page_type_features(doc, read_declarations(doc), "", nullptr, fold);
        const auto expected = expected_text_scores(counts, 5, model);
        for (std::size_t type = 0; type < kPageTypeCount; ++type) {
            const std::string name = "text:" + std::string(page_type_name(static_cast<PageType>(type)));
            EXPECT_NEAR(feature(f, name), expected[type], 1e-12) << name << " fold " << fold;
        }
        EXPECT_EQ(*std::max_element(expected.begin(), expected.end()), 0.0);
    }
    // A page without a word the model knows scores every type 0.
    const PageTypeFeatures none = features_of("<html><body><p>x1 x2</p></body></html>", "");
    for (std::size_t type = 0; type < kPageTypeCount; ++type) {
        EXPECT_EQ(none[kPageTypeFeatureCount - kPageTypeCount + type], 0.0);
    }
}

TEST(PageType, ProbabilitiesSumToOneAndAForcedTypeIsKept) {
    const PageTypeFeatures f = features_of(forum_thread(), "");
    const PageTypeDiagnostics found = classify_page(f, std::nullopt);
    EXPECT_NEAR(std::accumulate(found.probabilities.begin(), found.probabilities.end(), 0.0), 1.0, 1e-9);
    EXPECT_NEAR(std::accumulate(found.layout_probabilities.begin(), found.layout_probabilities.end(), 0.0), 1.0,
                1e-9);
    EXPECT_EQ(found.probabilities, page_type_probabilities(f));
    EXPECT_EQ(found.layout_probabilities, layout_type_probabilities(f));
    EXPECT_FALSE(found.forced);
    const PageTypeDiagnostics forced = classify_page(f, PageType::product);
    EXPECT_EQ(forced.type, PageType::product);
    EXPECT_EQ(forced.layout_type, PageType::product);
    EXPECT_TRUE(forced.forced);
    EXPECT_EQ(forced.probabilities, found.probabilities);
    EXPECT_EQ(forced.layout_probabilities, found.layout_probabilities);
}

TEST(PageType, TheLayoutModelReadsNoWord) {
    PageTypeFeatures f = features_of(forum_thread(), "");
    const auto layout = layout_type_probabilities(f);
    std::fill(f.begin() + static_cast<std::ptrdiff_t>(kLayoutFeatureCount), f.end(), 7.0);
    EXPECT_EQ(layout_type_probabilities(f), layout);
}

TEST(PageType, AThreadIsAForumAndAutoKeepsEveryPost) {
    const Article article = extract(forum_thread(), ExtractOptions{});
    ASSERT_EQ(article.status, Status::ok);
    ASSERT_TRUE(article.page_type.has_value());
    EXPECT_EQ(*article.page_type, PageType::forum);
    for (int i = 1; i <= 11; ++i) {
        EXPECT_NE(article.text_content.find("Reply number " + std::to_string(i) + ":"), std::string::npos) << i;
    }
    EXPECT_EQ(article.text_content.find("Forum software"), std::string::npos);
}

TEST(PageType, AForumThreadKeepsAShortReplyAmongItsPosts) {
    // Alone, a reply of a few words reads as furniture to the block model;
    // among the thread's posts it is one of them.
    ExtractOptions options;
    options.page_type = PageType::forum;
    const Article article = extract(forum_thread("", "No. Why would it?"), options);
    ASSERT_EQ(article.status, Status::ok);
    EXPECT_NE(article.text_content.find("No. Why would it?"), std::string::npos) << article.text_content;
    for (int i = 1; i <= 11; ++i) {
        EXPECT_EQ(article.text_content.find("Reply number " + std::to_string(i) + ":") != std::string::npos, i != 6)
            << i;
    }
    EXPECT_EQ(article.text_content.find("Forum software"), std::string::npos);
}

TEST(PageType, AForumThreadLeavesItsPostersSignaturesOut) {
    ExtractOptions options;
    options.page_type = PageType::forum;
    const Article article = extract(
        forum_thread("<div class=\"signature\">Running the beta build on three machines since spring</div>"), options);
    ASSERT_EQ(article.status, Status::ok);
    EXPECT_EQ(article.text_content.find("Running the beta build"), std::string::npos) << article.text_content;
    for (int i = 1; i <= 11; ++i) {
        EXPECT_NE(article.text_content.find("Reply number " + std::to_string(i) + ":"), std::string::npos) << i;
    }
    // The step names what it removed; the block model's cut may have taken
    // some first, so not every one is its own.
    EXPECT_NE(article.decision.find(" signatures left out"), std::string::npos) << article.decision;
}

TEST(PageType, AListingForcedAsSuchKeepsEveryCardWithItsTitle) {
    ExtractOptions options;
    options.page_type = PageType::listing;
    const Article article = extract(listing(), options);
    ASSERT_EQ(article.status, Status::ok);
    EXPECT_EQ(article.page_type, PageType::listing);
    ASSERT_TRUE(article.page_type_diagnostics.has_value());
    EXPECT_TRUE(article.page_type_diagnostics->forced);
    EXPECT_EQ(article.decision.rfind("region kept", 0), 0U) << article.decision;
    for (int i = 1; i <= 24; ++i) {
        EXPECT_NE(article.text_content.find("Item number " + std::to_string(i) + "A short description"),
                  std::string::npos)
            << i;
    }
    EXPECT_EQ(article.text_content.find("Copyright line"), std::string::npos);
    EXPECT_EQ(article.text_content.find("About"), std::string::npos);
}

// A software company's page: a hero, its features, plans with prices, a
// customer's words and questions with their answers, each section short
// beside one long paragraph of prose.
std::string service_page() {
    std::string features;
    for (const char* name : {"Live dashboards", "Scheduled reports", "Shared workspaces"}) {
        features += "<div class=\"feature\"><h3>" + std::string(name) + "</h3><p>Feature " + name +
                    " works on every plan, with no setup beyond connecting your data.</p></div>";
    }
    std::string plans;
    for (const char* plan : {"Starter", "Team", "Business"}) {
        plans += "<div class=\"plan\"><h3>" + std::string(plan) + "</h3><p class=\"price\">$29 per month</p>"
                 "<ul><li>Plan " + plan + " includes unlimited viewers</li><li>Email support</li></ul>"
                 "<a class=\"btn\" href=\"/signup\">Start free trial</a></div>";
    }
    std::string questions;
    for (int i = 1; i <= 4; ++i) {
        questions += "<h3>Question number " + std::to_string(i) + "?</h3><p>Answer number " + std::to_string(i) +
                     ": yes, and you can change your mind at any time from the account page.</p>";
    }
    return "<html><head><title>Dashboards for small teams | Acme Analytics</title><link rel=\"canonical\" "
           "href=\"https://example.org/services/analytics\"></head><body><header><a href=\"/\">Acme</a><nav>"
           "<a href=\"/pricing\">Pricing</a><a href=\"/login\">Log in</a></nav></header><main>"
           "<section class=\"hero\"><h1>Dashboards for small teams</h1><p>Connect your data and share what it "
           "says in minutes.</p><a class=\"btn cta\" href=\"/signup\">Get started</a></section>"
           "<section class=\"about\"><h2>Why we built it</h2><p>We spent years building reports by hand for "
           "clients who needed answers faster than spreadsheets could give them, copying numbers between tools "
           "every Monday morning and checking them twice, and we built the product we wished we had: one place "
           "where the numbers of every tool a small team uses arrive on their own, stay current through the "
           "day, and can be read by anyone on the team without asking an analyst to explain what they mean or "
           "where they came from.</p></section>"
           "<section class=\"features\"><h2>Features</h2>" + features + "</section>"
           "<section class=\"pricing\"><h2>Pricing</h2>" + plans + "</section>"
           "<section class=\"testimonial\"><blockquote>Customer words: we stopped building reports by hand."
           "</blockquote></section>"
           "<section class=\"faq\"><h2>Frequently asked questions</h2>" + questions + "</section>"
           "</main><footer>Copyright line</footer></body></html>";
}

TEST(PageType, AServicePageKeepsEverySectionWhateverTheJudgePredicts) {
    // Where the page-type model finds a service (or collection) page
    // likeliest, auto keeps the region, not the article the judge might
    // prefer: here the long paragraph alone.
    const Article article = extract(service_page(), ExtractOptions{});
    ASSERT_EQ(article.status, Status::ok);
    ASSERT_TRUE(article.page_type_diagnostics.has_value());
    EXPECT_FALSE(article.page_type_diagnostics->forced);
    EXPECT_EQ(article.page_type, PageType::service);
    EXPECT_EQ(article.decision.rfind("region kept: a service page's content is its main region (the judge predicts ",
                                     0),
              0U)
        << article.decision;
    for (const std::string shown : {"Connect your data", "We spent years building reports", "Feature Live dashboards",
                                    "Plan Business includes", "Customer words", "Answer number 4"}) {
        EXPECT_NE(article.text_content.find(shown), std::string::npos) << shown << "\n" << article.text_content;
    }
    EXPECT_EQ(article.text_content.find("Copyright line"), std::string::npos);
    EXPECT_EQ(article.text_content.find("Log in"), std::string::npos);
}

std::string product_page(std::string_view shown_description) {
    return "<html><head><title>Trail shoe</title><script type=\"application/ld+json\">"
           "{\"@context\":\"https://schema.org\",\"@graph\":[{\"@type\":\"BreadcrumbList\"},"
           "{\"@type\":[\"https://schema.org/Product\"],\"name\":\"Trail shoe\",\"description\":"
           "\"<p>Featherweight racer: knitted upper, cushioned heel pod &amp; studded outsole, built "
           "for mountain marathons.</p>\"}]}</script></head><body><nav><a href=\"/\">Shop</a></nav><main><h1>Trail shoe</h1>"
           "<p class=\"price\">$120.00</p><button class=\"tab\">Description</button><div class=\"panel\">" +
           std::string(shown_description) +
           "</div><p>Free returns within thirty days of delivery, on every order placed in the shop.</p>"
           "<table><tr><th>Weight</th><td>280 grams for a men's size nine, measured without the insole</td></tr>"
           "<tr><th>Drop</th><td>Six millimetres from heel to toe, for a natural stride on the flat</td></tr>"
           "<tr><th>Upper</th><td>Recycled mesh with a welded toe cap that sheds mud and water</td></tr>"
           "<tr><th>Sole</th><td>Sticky rubber with five millimetre lugs for wet rock and loose gravel</td></tr>"
           "<tr><th>Care</th><td>Rinse in cold water and dry away from direct heat after every run</td></tr>"
           "</table><h2>Fit</h2><p>The last is roomy at the toe and snug at the heel, so most runners take their "
           "usual size; if you are between sizes, take the larger one for long descents.</p><p>The laces are "
           "flat and stay tied in the wet, and a small pocket on the tongue holds their ends out of the way.</p>"
           "</main>"
           "<footer>Copyright line</footer></body></html>";
}

TEST(PageType, TheJsonLdProductDescriptionIsReadAsPlainText) {
    const dom::Document doc = test::parse_or_fail(product_page(""));
    EXPECT_EQ(read_declarations(doc).product_description,
              "Featherweight racer: knitted upper, cushioned heel pod & studded outsole, built for mountain marathons.");
    const dom::Document article = test::parse_or_fail(
        "<script type=\"application/ld+json\">{\"@type\":\"NewsArticle\",\"description\":\"Not a product\"}"
        "</script><p>x</p>");
    EXPECT_EQ(read_declarations(article).product_description, "");
}

TEST(PageType, AProductPageGetsTheDescriptionItsDomHidesOnce) {
    ExtractOptions options;
    options.page_type = PageType::product;
    const Article hidden = extract(product_page(""), options);
    ASSERT_EQ(hidden.status, Status::ok);
    EXPECT_NE(hidden.text_content.find("Featherweight racer: knitted upper, cushioned heel pod & studded outsole"), std::string::npos)
        << hidden.text_content;
    EXPECT_NE(hidden.decision.find("JSON-LD"), std::string::npos) << hidden.decision;
    // Shown in the DOM already: not written twice.
    const Article shown =
        extract(product_page("<p>Featherweight racer with a knitted upper, a cushioned heel pod and a studded "
                             "outsole, built for mountain marathons.</p>"),
                options);
    ASSERT_EQ(shown.status, Status::ok);
    EXPECT_EQ(shown.text_content.find("heel pod &"), std::string::npos) << shown.text_content;
    EXPECT_EQ(shown.decision.find("JSON-LD"), std::string::npos) << shown.decision;
    // Only auto adds it.
    options.strategy = Strategy::readability;
    const Article readability = extract(product_page(""), options);
    EXPECT_EQ(readability.text_content.find("Featherweight"), std::string::npos);
}

TEST(PageType, AProductPageLeavesItsCustomersReviewsOut) {
    const std::string review = "Wore them for a fifty kilometre race over wet rock and they gripped the whole way.";
    const std::string page = product_page(
        "<section id=\"reviews\"><h2>Customer reviews</h2><div class=\"review\"><p>" + review + "</p></div>"
        "<div class=\"review\"><p>Narrow for wide feet, but light and quick on the climbs.</p></div></section>");
    ExtractOptions options;
    options.page_type = PageType::product;
    const Article product = extract(page, options);
    ASSERT_EQ(product.status, Status::ok);
    EXPECT_EQ(product.text_content.find(review), std::string::npos) << product.text_content;
    EXPECT_NE(product.text_content.find("280 grams"), std::string::npos) << product.text_content;
    EXPECT_NE(product.decision.find("1 customer review left out"), std::string::npos) << product.decision;
    // Another kind of page keeps them: a review article's text is named so too.
    options.page_type = PageType::article;
    EXPECT_NE(extract(page, options).text_content.find(review), std::string::npos);
}

TEST(PageType, ARefusedPageHasNoType) {
    ExtractOptions options;
    options.budgets.max_input_bytes = 10;
    const Article article = extract("<html><body><p>more than ten bytes</p></body></html>", options);
    EXPECT_FALSE(article.page_type.has_value());
}

}  // namespace
}  // namespace pith::extract
