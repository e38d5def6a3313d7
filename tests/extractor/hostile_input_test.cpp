// Hostile inputs end with a result or a clear error, quickly and without
// crashing. Each test bounds its own time; generous bounds, since these run on
// a shared 2-core machine, but far below the point where a quadratic walk or a
// runaway parse would land.
#include "pith/extract.hpp"

#include "time_scale.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <random>
#include <string>

namespace pith::extract {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string paragraphs(std::size_t count) {
    std::string html = "<html><head><title>Long page</title></head><body><div class=\"content\">";
    for (std::size_t i = 0; i < count; ++i) {
        html += "<p>Paragraph " + std::to_string(i) +
                " carries ordinary prose, with commas, clauses and a full stop, so that it scores like text.</p>";
    }
    html += "</div></body></html>";
    return html;
}

TEST(HostileInput, RefusesHundredThousandDeepNestingBeforeParsing) {
    std::string html = "<html><body>";
    for (int i = 0; i < 100000; ++i) {
        html += "<div>";
    }
    html += "deep text";
    const auto start = Clock::now();
    const Article article = extract(html);
    EXPECT_LT(seconds_since(start), 5.0 * test::kTimeScale);
    EXPECT_EQ(article.status, Status::budget_exceeded);
    ASSERT_TRUE(article.error.has_value());
    EXPECT_EQ(article.error->code, ErrorCode::too_deep);
    EXPECT_NE(article.error->message.find("100000"), std::string::npos) << article.error->message;
}

TEST(HostileInput, ExtractsFromDeepButAllowedNestingWithoutRecursion) {
    // 5000 levels: within the default nesting budget, far deeper than any stack
    // frame per level would survive on a small worker stack.
    std::string html = "<html><body>";
    for (int i = 0; i < 5000; ++i) {
        html += "<div>";
    }
    html += paragraphs(20).substr(std::string("<html><head><title>Long page</title></head><body>").size());
    const auto start = Clock::now();
    const Article article = extract(html);
    EXPECT_LT(seconds_since(start), 5.0 * test::kTimeScale);
    EXPECT_EQ(article.status, Status::ok);
}

TEST(HostileInput, RefusesFiftyMegabytePageByDefaultWithAClearError) {
    const std::string html = paragraphs(50U * 1024U * 1024U / 100U);
    ASSERT_GT(html.size(), 50U * 1000U * 1000U);
    const auto start = Clock::now();
    const Article article = extract(html);
    EXPECT_LT(seconds_since(start), 1.0 * test::kTimeScale);
    EXPECT_EQ(article.status, Status::budget_exceeded);
    ASSERT_TRUE(article.error.has_value());
    EXPECT_EQ(article.error->code, ErrorCode::input_too_large);
    EXPECT_NE(article.error->message.find(std::to_string(html.size())), std::string::npos) << article.error->message;
}

TEST(HostileInput, ExtractsPageAtTheDefaultByteLimitWithinFiveSeconds) {
    // A paragraph is about 113 bytes; 120 leaves room for the wrapper.
    std::string html = paragraphs(16U * 1024U * 1024U / 120U);
    ASSERT_LE(html.size(), ExtractOptions{}.max_input_bytes);
    ASSERT_GT(html.size(), 15U * 1024U * 1024U);
    const auto start = Clock::now();
    const Article article = extract(html);
    const double elapsed = seconds_since(start);
    EXPECT_LT(elapsed, 5.0 * test::kTimeScale) << html.size() << " bytes took " << elapsed << " s";
    EXPECT_EQ(article.status, Status::ok);
    EXPECT_GT(article.length, 12U * 1000U * 1000U);
}

TEST(HostileInput, ExtractsFiftyMegabytePageWhenTheLimitIsRaised) {
    // Linear work stays linear: 50 MB costs about three times 16 MB. The bound
    // is loose (the parse alone takes seconds here) but catches any walk that
    // is quadratic in the page size.
    const std::string html = paragraphs(50U * 1024U * 1024U / 100U);
    ExtractOptions options;
    options.max_input_bytes = 64U * 1024U * 1024U;
    const auto start = Clock::now();
    const Article article = extract(html, options);
    const double elapsed = seconds_since(start);
    EXPECT_LT(elapsed, 20.0 * test::kTimeScale) << "50 MB page took " << elapsed << " s";
    std::cout << "[ info ] 50 MB page extracted in " << elapsed << " s\n";
    EXPECT_EQ(article.status, Status::ok);
    EXPECT_GT(article.length, 40U * 1000U * 1000U);
}

TEST(HostileInput, RefusesInputOverTheByteBudget) {
    ExtractOptions options;
    options.max_input_bytes = 1000;
    const Article article = extract(paragraphs(100), options);
    EXPECT_EQ(article.status, Status::budget_exceeded);
    ASSERT_TRUE(article.error.has_value());
    EXPECT_EQ(article.error->code, ErrorCode::input_too_large);
}

TEST(HostileInput, RefusesElementsOverTheBudget) {
    ExtractOptions options;
    options.max_elements = 50;
    const Article article = extract(paragraphs(100), options);
    EXPECT_EQ(article.status, Status::budget_exceeded);
    ASSERT_TRUE(article.error.has_value());
    EXPECT_EQ(article.error->code, ErrorCode::too_many_elements);
}

TEST(HostileInput, NulBytesBecomeReplacementCharacters) {
    std::string html = paragraphs(10);
    const std::size_t at = html.find("Paragraph 3");
    html.insert(at, std::string("\0\0nul", 5));
    const Article article = extract(html);
    EXPECT_EQ(article.status, Status::ok);
    EXPECT_NE(article.text_content.find("\xEF\xBF\xBD"), std::string::npos);
    EXPECT_NE(article.text_content.find("Paragraph 9"), std::string::npos) << "text after the NUL was lost";
}

TEST(HostileInput, InvalidUtf8IsRepairedNotFatal) {
    std::string html = paragraphs(10);
    html.insert(html.find("Paragraph 2"), "\xC3\x28 \xA0\xA1 \xE2\x82 \xF0\x28\x8C\x28 \xED\xA0\x80 \xFF");
    ExtractOptions options;
    options.charset = "utf-8";
    const Article article = extract(html, options);
    EXPECT_EQ(article.status, Status::ok);
    EXPECT_NE(article.text_content.find("Paragraph 9"), std::string::npos);
}

TEST(HostileInput, RandomBytesNeverCrash) {
    std::mt19937 rng(12345);
    for (int round = 0; round < 200; ++round) {
        std::string bytes(static_cast<std::size_t>(rng() % 4096), '\0');
        for (char& c : bytes) {
            c = static_cast<char>(rng() % 256);
        }
        // Sprinkle markup so the parser sees tags too.
        for (std::size_t i = 0; i + 8 < bytes.size(); i += 97) {
            bytes.replace(i, 5, round % 2 == 0 ? "<div>" : "<p a=");
        }
        const Article article = extract(bytes);
        EXPECT_NE(article.status, Status::budget_exceeded);
    }
}

}  // namespace
}  // namespace pith::extract
