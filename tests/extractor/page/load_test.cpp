#include "page/page.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace pith::extract {
namespace {

TEST(LoadPage, DecodesParsesAndRecordsTheCharsetAndCost) {
    const std::string page = "<html><head><meta charset=windows-1252></head><body><p>caf\xE9</p></body></html>";
    Article article;
    const auto loaded = load_page(page, ExtractOptions{}, article);
    ASSERT_TRUE(loaded.has_value());
    EXPECT_EQ(article.charset, "windows-1252");
    ASSERT_TRUE(article.cost.has_value());
    EXPECT_EQ(article.cost->input_bytes, page.size());
    EXPECT_GE(article.cost->elements, 4U);
    EXPECT_EQ(dom::text_content(loaded->doc.body()), "caf\xC3\xA9");
    EXPECT_EQ(loaded->source_copy, nullptr);
    EXPECT_EQ(loaded->rule, nullptr);
}

TEST(LoadPage, RestoresTextDecodedTwiceWhenAsked) {
    // "It’s, café, été" read as windows-1252 and stored as UTF-8.
    const std::string page =
        "<meta charset=utf-8><p>It\xC3\xA2\xE2\x82\xAC\xE2\x84\xA2s caf\xC3\x83\xC2\xA9, "
        "\xC3\x83\xC2\xA9t\xC3\x83\xC2\xA9</p>";
    ExtractOptions repairing;
    repairing.repair_double_encoding = true;
    Article article;
    const auto loaded = load_page(page, repairing, article);
    ASSERT_TRUE(loaded.has_value());
    EXPECT_EQ(article.double_encoded, 4U);
    EXPECT_EQ(dom::text_content(loaded->doc.body()), "It\xE2\x80\x99s caf\xC3\xA9, \xC3\xA9t\xC3\xA9");

    Article kept;  // by default, as sent
    const auto unrepaired = load_page(page, ExtractOptions{}, kept);
    ASSERT_TRUE(unrepaired.has_value());
    EXPECT_EQ(kept.double_encoded, 0U);
    EXPECT_EQ(dom::text_content(unrepaired->doc.body()),
              "It\xC3\xA2\xE2\x82\xAC\xE2\x84\xA2s caf\xC3\x83\xC2\xA9, \xC3\x83\xC2\xA9t\xC3\x83\xC2\xA9");
}

TEST(LoadPage, CutsScriptTextBeforeTheParse) {
    Article article;
    const auto loaded = load_page("<p>x</p><script>var a = '" + std::string(1000, 'y') + "';</script>",
                                  ExtractOptions{}, article);
    ASSERT_TRUE(loaded.has_value());
    ASSERT_TRUE(article.cost.has_value());
    EXPECT_LT(article.cost->markup_bytes, 200U) << "the script's text is not what gumbo parses";
}

TEST(LoadPage, EachBudgetRefusesBeforeThePageIsParsed) {
    ExtractOptions options;
    options.budgets.max_input_bytes = 10;
    Article too_large;
    EXPECT_FALSE(load_page("<p>more than ten bytes</p>", options, too_large).has_value());
    EXPECT_EQ(too_large.status, Status::budget_exceeded);
    EXPECT_EQ(too_large.error->code, ErrorCode::input_too_large);
    EXPECT_FALSE(too_large.cost.has_value()) << "refused before anything read the page";

    options = ExtractOptions{};
    options.budgets.max_elements = 5;
    Article too_many;
    EXPECT_FALSE(load_page("<p>1</p><p>2</p><p>3</p><p>4</p><p>5</p><p>6</p>", options, too_many).has_value());
    EXPECT_EQ(too_many.error->code, ErrorCode::too_many_elements);
    EXPECT_TRUE(too_many.cost.has_value()) << "the estimate says why";

    options = ExtractOptions{};
    options.runtime.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    Article late;
    EXPECT_FALSE(load_page("<p>x</p>", options, late).has_value());
    EXPECT_EQ(late.error->code, ErrorCode::deadline_exceeded);
}

TEST(LoadPage, AdmissionSeesTheEstimateAndCanRefuse) {
    ExtractOptions options;
    std::size_t seen = 0;
    options.runtime.admit = [&seen](const CostEstimate& cost) -> std::optional<Error> {
        seen = cost.memory_bytes;
        return Error{ErrorCode::overloaded, "full"};
    };
    Article article;
    EXPECT_FALSE(load_page("<p>x</p>", options, article).has_value());
    EXPECT_GT(seen, 0U);
    EXPECT_EQ(article.error->code, ErrorCode::overloaded);
}

TEST(LoadPage, TheInspectorsCopyIsTakenAndCounted) {
    ExtractOptions plain;
    ExtractOptions annotated;
    annotated.render.annotate_source = true;
    Article a;
    Article b;
    const auto without = load_page("<p>x</p>", plain, a);
    const auto with = load_page("<p>x</p>", annotated, b);
    ASSERT_TRUE(without.has_value() && with.has_value());
    EXPECT_EQ(without->source_copy, nullptr);
    ASSERT_NE(with->source_copy, nullptr);
    EXPECT_GT(b.cost->memory_bytes, a.cost->memory_bytes);
}

}  // namespace
}  // namespace pith::extract
