// Strategies as extract() runs them: names, dom_smoothie's options for the
// readability strategy, and what auto shows of its choice.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <limits>
#include <optional>
#include <string>

#include "pith/extract.hpp"
#include "survey_prose.hpp"
#include "feature_named.hpp"
#include "strategies/judge.hpp"
#include "strategies/strategy.hpp"
#include "parse_or_fail.hpp"

namespace {

using pith::extract::Article;
using pith::extract::ExtractOptions;
using pith::extract::PageType;
using pith::extract::PassFlags;
using pith::extract::Policy;
using pith::extract::SelectMode;
using pith::extract::Status;
using pith::extract::Strategy;

std::string paragraphs(int count, const std::string& topic) { return pith::test::survey_paragraphs(count, topic); }

Article run(const std::string& html, Strategy strategy, ExtractOptions options = {}) {
    options.strategy = strategy;
    return pith::extract::extract(html, options);
}

TEST(Strategies, NamesRoundTrip) {
    for (Strategy s : {Strategy::readability, Strategy::lectito, Strategy::fitness, Strategy::automatic}) {
        EXPECT_EQ(pith::extract::strategy_from_name(pith::extract::strategy_name(s)), s);
    }
    EXPECT_EQ(pith::extract::strategy_name(Strategy::automatic), "auto");
    EXPECT_FALSE(pith::extract::strategy_from_name("Auto").has_value());
    EXPECT_EQ(pith::extract::select_mode_from_name("dom_smoothie"), SelectMode::dom_smoothie);
    EXPECT_EQ(pith::extract::policy_from_name("moderate"), Policy::moderate);
    EXPECT_FALSE(pith::extract::policy_from_name("lenient").has_value());
}

TEST(Strategies, PoliciesAreDomSmoothiesFlagSets) {
    EXPECT_EQ(pith::extract::policy_flags(Policy::strict), PassFlags::all);
    EXPECT_EQ(pith::extract::policy_flags(Policy::moderate), PassFlags::weight_classes | PassFlags::clean_conditionally);
    EXPECT_EQ(pith::extract::policy_flags(Policy::clean), PassFlags::clean_conditionally);
    EXPECT_EQ(pith::extract::policy_flags(Policy::raw), PassFlags::none);
}

TEST(Strategies, TheDefaultIsAuto) {
    EXPECT_EQ(ExtractOptions{}.strategy, Strategy::automatic);
}

TEST(Strategies, EveryPassNamesItsStrategy) {
    const std::string page = "<html><body><article>" + paragraphs(6, "river") + "</article></body></html>";
    for (Strategy s : {Strategy::readability, Strategy::lectito, Strategy::fitness}) {
        const Article article = run(page, s);
        ASSERT_FALSE(article.passes.empty());
        for (const auto& pass : article.passes) {
            EXPECT_EQ(pass.strategy, s);
        }
        EXPECT_EQ(article.strategy, s);
        EXPECT_TRUE(article.strategies.empty()) << "only auto reports a choice";
    }
}

TEST(Strategies, DomSmoothieSelectionTakesTheAncestorCloseRunnersUpShare) {
    const std::string page = "<html><body><div id=\"wrap\"><div id=\"a\">" + paragraphs(4, "river") +
                             "</div><div id=\"b\">" + paragraphs(4, "coast") + "</div></div></body></html>";
    ExtractOptions options;
    options.passes.retry = false;
    const Article readability = run(page, Strategy::readability, options);
    options.readability.select_mode = SelectMode::dom_smoothie;
    const Article dom_smoothie = run(page, Strategy::readability, options);
    ASSERT_EQ(readability.passes.size(), 1U);
    ASSERT_EQ(dom_smoothie.passes.size(), 1U);
    // One runner-up is not enough for Readability (it wants three); dom_smoothie intersects what there is.
    EXPECT_EQ(readability.passes[0].chosen_root, "html>body>div#wrap>div#a");
    EXPECT_EQ(dom_smoothie.passes[0].chosen_root, "html>body>div#wrap");
}

TEST(Strategies, MinScoreToAdjustSparesWeakCandidatesTheLinkPenalty) {
    const std::string page = "<html><body><div id=\"links\"><p>See <a href=\"/a\">the first report on the river "
                             "survey</a>, then <a href=\"/b\">the second one on the coast survey</a>, "
                             "and more.</p></div></body></html>";
    ExtractOptions options;
    options.passes.retry = false;
    const Article scaled = run(page, Strategy::readability, options);
    options.readability.min_score_to_adjust = 1e9;  // no candidate scores above it
    const Article unscaled = run(page, Strategy::readability, options);
    ASSERT_FALSE(scaled.passes[0].top_candidates.empty());
    ASSERT_FALSE(unscaled.passes[0].top_candidates.empty());
    EXPECT_GT(scaled.passes[0].top_candidates[0].link_density, 0.5);
    EXPECT_LT(scaled.passes[0].top_candidates[0].score, unscaled.passes[0].top_candidates[0].score);
}

TEST(Strategies, LectitoUnderMinScoreIsNoContentWithItsReason) {
    const std::string page = "<html><body><span>Short text, nothing to score here at all.</span></body></html>";
    const Article article = run(page, Strategy::lectito);
    EXPECT_EQ(article.status, Status::no_content);
    ASSERT_FALSE(article.passes.empty());
    EXPECT_EQ(article.passes.front().outcome, "no_content");
    EXPECT_FALSE(article.passes.front().reason.empty());
}

TEST(Strategies, AutoShowsEachStrategyAndWhyItKeptOne) {
    const std::string page = "<html><body><nav><a href=\"/\">Home</a> <a href=\"/news\">News</a></nav><article>" +
                             paragraphs(6, "river") + "</article></body></html>";
    const Article article = run(page, Strategy::automatic);
    ASSERT_EQ(article.status, Status::ok);
    EXPECT_EQ(article.strategy, Strategy::automatic);
    // The page's main region, whole and cleaned, then readability's and fitness's articles.
    ASSERT_EQ(article.strategies.size(), 4U);
    EXPECT_EQ(article.strategies[0].strategy, Strategy::region);
    EXPECT_EQ(article.strategies[1].strategy, Strategy::region);
    EXPECT_EQ(article.strategies[2].strategy, Strategy::readability);
    EXPECT_EQ(article.strategies[3].strategy, Strategy::fitness);
    int kept = 0;
    for (const auto& outcome : article.strategies) {
        kept += outcome.kept ? 1 : 0;
    }
    EXPECT_EQ(kept, 1);
    EXPECT_EQ(article.judge_features.size(), pith::extract::kJudgeFeatureCount);
    // The region is the article and the nav: the block model expects as much
    // of the article as of either region, and most of what it expects.
    const auto judge_read = [&](std::string_view name) {
        return pith::test::feature_named(article.judge_features, pith::extract::judge_feature_names(), name);
    };
    EXPECT_NEAR(judge_read("region_block_gain"), 0.0, 0.05);
    EXPECT_NEAR(judge_read("cleaned_block_gain"), 0.0, 0.05);
    ASSERT_TRUE(article.answer_block_f1.has_value());
    EXPECT_GT(*article.answer_block_f1, 0.8);
    EXPECT_LE(*article.answer_block_f1, 1.0);
    EXPECT_TRUE(article.region_gain.has_value());  // the judge ran: no page type was forced
    EXPECT_TRUE(article.cleaned_region_gain.has_value());
    for (const auto& outcome : article.strategies) {
        EXPECT_FALSE(outcome.chosen_root.empty());
        EXPECT_GT(outcome.text_length, 500U);
    }
    // Both find the same article: fitness's is kept, readability's only when it holds more.
    EXPECT_EQ(article.decision.rfind("fitness kept (100% of readability's text is in fitness's", 0), 0U)
        << article.decision;
    EXPECT_TRUE(article.strategies[3].kept);
    bool saw_fitness_pass = false;
    for (const auto& pass : article.passes) {
        saw_fitness_pass = saw_fitness_pass || pass.strategy == Strategy::fitness;
    }
    EXPECT_TRUE(saw_fitness_pass) << "auto's passes include fitness's";
}

TEST(Strategies, AnArticleWithNoTextLeftIsNoContentButForReadability) {
    // A page of links only: as an article, auto's cleaning takes every link
    // list out, and what is left, an empty list, is no article.
    std::string items;
    for (int i = 0; i < 40; ++i) {
        items += "<li><a href=\"/p/" + std::to_string(i) + "\">Story number " + std::to_string(i) +
                 " about the river delta and its sediment</a></li>";
    }
    const std::string page = "<html><head><title>Links</title></head><body><main><ul>" + items +
                             "</ul></main></body></html>";
    ExtractOptions options;
    options.page_type = PageType::article;
    const Article article = pith::extract::extract(page, options);
    EXPECT_EQ(article.status, Status::no_content);
    EXPECT_TRUE(article.content.empty());
    EXPECT_EQ(article.confidence, 0.0);
    EXPECT_NE(article.decision.find("the article kept holds no text"), std::string::npos) << article.decision;
    options.strategy = Strategy::readability;  // Readability.js's answer, whatever it holds
    EXPECT_EQ(pith::extract::extract(page, options).status, Status::ok);
}

// A store's page whose products a script draws: the HTML holds its menus and
// a grid of "Sold out" badges, and the page's words are in the menus.
std::string page_drawn_by_script(const std::string& badge) {
    std::string menu;
    for (const char* name : {"Smartwatches", "Running", "Cycling", "Swimming", "Golf", "Hiking", "Diving", "Marine",
                             "Aviation", "Automotive", "Fitness", "Outdoor", "Wellness", "Accessories", "Deals"}) {
        menu += std::string("<li><a href=\"/c/") + name + "\">Category " + name + "</a></li>";
    }
    std::string footer;
    for (const char* name : {"About us", "Careers", "Investors", "Press room", "Privacy policy", "Terms of use",
                             "Cookie settings", "Accessibility", "Store locator", "Gift cards", "Order status",
                             "Returns and exchanges", "Shipping information", "Warranty registration"}) {
        footer += std::string("<li><a href=\"/f\">") + name + "</a></li>";
    }
    std::string grid;
    for (int i = 0; i < 10; ++i) {
        grid += "<div class=\"card\"><span class=\"badge\">" + badge + "</span></div>";
    }
    return "<html><head><title>Watches</title></head><body><header><nav><ul>" + menu +
           "</ul></nav></header><main id=\"app\"><h1>Watches</h1><div class=\"grid\">" + grid +
           "</div></main><footer><ul>" + footer + "</ul></footer></body></html>";
}

TEST(Strategies, AFewWordsOfFurnitureAreNoContentButForReadability) {
    const Article shell = pith::extract::extract(page_drawn_by_script("Sold out"), ExtractOptions{});
    EXPECT_EQ(shell.status, Status::no_content);
    EXPECT_TRUE(shell.text_content.empty());
    EXPECT_NE(shell.decision.find("reads as page furniture"), std::string::npos) << shell.decision;
    EXPECT_NE(run(page_drawn_by_script("Sold out"), Strategy::readability).status, Status::no_content);
    ExtractOptions as_found;
    as_found.keep_furniture = true;
    const Article kept = pith::extract::extract(page_drawn_by_script("Sold out"), as_found);
    EXPECT_NE(kept.status, Status::no_content);
    EXPECT_NE(kept.text_content.find("Sold out"), std::string::npos);

    // A sentence is content, however short; so are a page's few words when
    // the page holds nothing more.
    EXPECT_NE(pith::extract::extract(page_drawn_by_script("Back in stock soon."), ExtractOptions{}).status,
              Status::no_content);
    const Article alone = pith::extract::extract("<html><body><p>Test</p></body></html>", ExtractOptions{});
    EXPECT_NE(alone.status, Status::no_content);
    EXPECT_EQ(alone.text_content, "Test");
}

TEST(Strategies, CandidatesStandInForAPickThatReadsAsFurnitureInTheOrderOfTheJudgesGains) {
    using pith::extract::Candidate;
    using pith::extract::candidate_order;
    using pith::extract::JudgeVerdict;
    using Order = std::array<Candidate, 3>;
    // The cleaned region predicted 4 points over the article and the region
    // 6 under it: after the cleaned region, the article, then the region.
    EXPECT_EQ(candidate_order(Candidate::cleaned, JudgeVerdict{-0.06, 0.04}),
              (Order{Candidate::cleaned, Candidate::article, Candidate::region}));
    EXPECT_EQ(candidate_order(Candidate::region, JudgeVerdict{0.30, 0.10}),
              (Order{Candidate::region, Candidate::cleaned, Candidate::article}));
    // The article kept under the margin a likely article asks of a region:
    // the regions follow it, the one predicted better first.
    EXPECT_EQ(candidate_order(Candidate::article, JudgeVerdict{-0.02, 0.05}),
              (Order{Candidate::article, Candidate::cleaned, Candidate::region}));
    // No verdict (no judge fitted): the article comes next.
    EXPECT_EQ(candidate_order(Candidate::region, std::nullopt),
              (Order{Candidate::region, Candidate::article, Candidate::cleaned}));
}

TEST(Strategies, AShortMainRegionIsStillACandidate) {
    // A grid of six products is the whole of a small page's <main>, well
    // under the 500 characters an article needs; the region is still what a
    // collection page's reader wants, not the prose of its footer.
    std::string grid;
    for (int i = 1; i <= 6; ++i) {
        grid += "<div class=\"tile\"><a href=\"/p/" + std::to_string(i) + "\">Helmet light model " +
                std::to_string(i) + "</a><span>$" + std::to_string(20 + i) + ".95</span></div>";
    }
    const std::string page =
        "<html><head><title>Lights</title></head><body><header><nav><a href=\"/\">Shop</a> <a href=\"/help\">Help"
        "</a></nav></header><main><h1>Lights</h1>" + grid + "</main><footer><p>We ride what we sell, and every light "
        "in this shop was tested on night rides by our staff before it was listed here.</p></footer></body></html>";
    ExtractOptions options;
    options.page_type = PageType::collection;
    const Article article = pith::extract::extract(page, options);
    EXPECT_EQ(article.status, Status::best_attempt) << "the region is under the char threshold";
    EXPECT_EQ(article.decision.rfind("region kept: a collection page's content is its main region", 0), 0U)
        << article.decision;
    for (int i = 1; i <= 6; ++i) {
        EXPECT_NE(article.text_content.find("Helmet light model " + std::to_string(i)), std::string::npos) << i;
        EXPECT_NE(article.text_content.find(std::to_string(20 + i) + ".95"), std::string::npos) << i;
    }
    EXPECT_EQ(article.text_content.find("night rides"), std::string::npos) << article.text_content;
    EXPECT_EQ(article.text_content.find("Help"), std::string::npos) << article.text_content;
}

TEST(Strategies, AutoRemovesBoilerplateThatReadabilityKeeps) {
    const std::string page = "<html><body><article>" + paragraphs(6, "river") +
                             "<p>Read more: <a href=\"/next\">Why deltas sink when rivers are dammed</a></p>"
                             "<figure><img src=\"d.jpg\"><figcaption>A delta from above</figcaption></figure>"
                             "</article></body></html>";
    const Article readability = run(page, Strategy::readability);
    const Article automatic = run(page, Strategy::automatic);
    EXPECT_NE(readability.text_content.find("Why deltas sink"), std::string::npos);
    EXPECT_NE(readability.text_content.find("A delta from above"), std::string::npos);
    EXPECT_EQ(automatic.text_content.find("Why deltas sink"), std::string::npos);
    EXPECT_EQ(automatic.text_content.find("A delta from above"), std::string::npos);
    EXPECT_NE(automatic.content.find("d.jpg"), std::string::npos) << "the image stays";
    EXPECT_EQ(automatic.removed.size(), 2U);
}

TEST(Strategies, AutoTakesOutTheCharactersThatOnlyGuideLineBreaks) {
    // "del\u00ADta" with a soft hyphen, "sedi\u200Bment" with a zero-width space.
    const std::string page = "<html><head><title>How a Del\u00ADta Grows</title></head><body><article>"
                             "<h1>How a Del\u00ADta Grows</h1>" + paragraphs(6, "river") +
                             "<p>The del\u00ADta grows as the sedi\u200Bment settles out of the slow water, layer "
                             "on layer, year on year, as every survey of the river has shown.</p>"
                             "</article></body></html>";
    const Article readability = run(page, Strategy::readability);
    const Article automatic = run(page, Strategy::automatic);
    EXPECT_NE(readability.text_content.find("del\u00ADta"), std::string::npos) << "readability stays Readability";
    EXPECT_NE(automatic.text_content.find("The delta grows as the sediment settles"), std::string::npos);
    EXPECT_EQ(automatic.content.find("\u00AD"), std::string::npos);
    EXPECT_EQ(automatic.title, "How a Delta Grows");
    EXPECT_EQ(readability.title, "How a Del\u00ADta Grows");
}

// Parsed with scripting off, "<noscript><div></noscript>" leaves the noscript
// open (its end tag cannot close the <div>), and the page after it inside.
TEST(Strategies, APageTrappedInsideANoscriptIsStillRead) {
    const std::string page = "<html><body><noscript><div class=\"warning\">Turn on JavaScript</noscript>"
                             "<div class=\"main\"><article>" +
                             paragraphs(6, "river") + "</article></div></body></html>";
    for (Strategy strategy : {Strategy::readability, Strategy::automatic}) {
        const Article article = run(page, strategy);
        EXPECT_EQ(article.status, Status::ok) << pith::extract::strategy_name(strategy);
        EXPECT_NE(article.text_content.find("The river survey went on"), std::string::npos);
    }
    // A noscript that holds a small part of the page still goes.
    const Article small = run("<html><body><noscript><p>Turn on JavaScript to comment.</p></noscript><article>" +
                                  paragraphs(6, "river") + "</article></body></html>",
                              Strategy::automatic);
    EXPECT_EQ(small.text_content.find("Turn on JavaScript"), std::string::npos);
}

// Each strategy's pass on its own: a document without <body>, and a deadline already past.
TEST(Strategies, EveryPassSaysNoBodyAndStopsAtTheDeadline) {
    using Pass = pith::extract::StrategyResult (*)(pith::dom::Document&, const ExtractOptions&,
                                                  const pith::extract::PassInput&);
    for (const Pass pass : {Pass{&pith::extract::run_lectito}, Pass{&pith::extract::run_fitness}}) {
        pith::dom::Document empty;
        const auto no_body = pass(empty, ExtractOptions{}, pith::extract::PassInput{});
        EXPECT_EQ(no_body.content, nullptr);
        EXPECT_EQ(no_body.diagnostics.outcome, "no_body");

        std::string page;
        for (int i = 0; i < 5000; ++i) {
            page += "<span>x</span>";
        }
        pith::dom::Document doc = pith::test::parse_or_fail(page);
        ExtractOptions options;
        options.runtime.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
        const auto late = pass(doc, options, pith::extract::PassInput{});
        EXPECT_EQ(late.content, nullptr);
        EXPECT_EQ(late.diagnostics.outcome, "deadline");
    }
}

TEST(Strategies, FitnessOptionsAreValidated) {
    ExtractOptions options;
    options.fitness.min_child_fitness_ratio = 1.5;
    EXPECT_FALSE(pith::extract::validate(options).ok());
    options.fitness.min_child_fitness_ratio = 0.5;
    options.fitness.depth_weight = -1.0;
    EXPECT_FALSE(pith::extract::validate(options).ok());
    options.fitness.depth_weight = 0.0;
    EXPECT_TRUE(pith::extract::validate(options).ok());
    options.fitness.punctuation_norm = std::numeric_limits<double>::quiet_NaN();
    const auto nan = pith::extract::validate(options);
    ASSERT_FALSE(nan.ok());
    EXPECT_EQ(nan.error().message, "fitness_punctuation_norm must be a number >= 0, got nan");
}

}  // namespace
