// Hostile inputs end with a result or a clear error, quickly and without
// crashing. Each test bounds its own time; generous bounds, since these run on
// a shared 2-core machine, but far below the point where a quadratic walk or a
// runaway parse would land.
#include "pith/extract.hpp"

#include "hostile_pages.hpp"
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

// Readability's conditional cleaning measures the text, links and tags below
// each element it judges: read again for each of 3,000 nested <div>s, that cost
// the text times the nesting.
Article readability_of(const std::string& html, double& seconds) {
    ExtractOptions options;
    options.strategy = pith::extract::Strategy::readability;
    const auto start = Clock::now();
    Article article = extract(html, options);
    seconds = seconds_since(start);
    return article;
}

TEST(HostileInput, ReadabilitysCleaningOfManyNestedDivsStaysFast) {
    // 3,000 nested <div>s around 20,000 short paragraphs: 7.7 s when each
    // <div> read its subtree again, 0.3 s taking what the <div> below it read.
    double seconds = 0.0;
    const Article article = readability_of(test::nested_divs_around_paragraphs(3000, 20000), seconds);
    EXPECT_LT(seconds, 5.0 * test::kTimeScale);
    EXPECT_EQ(article.status, Status::ok);
    EXPECT_NE(article.text_content.find("Line 19999 of text."), std::string::npos);
}

TEST(HostileInput, ReadabilitysCleaningOfShortTextInMegabytesOfWhiteSpaceStaysFast) {
    // Each of 2,000 nested <div>s holds four characters and 4 MB of spaces:
    // 31 s when each one's text was built whole to compare with the ad labels.
    double seconds = 0.0;
    const Article article = readability_of(test::nested_divs_around_white_space(2000, 4'000'000), seconds);
    EXPECT_LT(seconds, 5.0 * test::kTimeScale);
    EXPECT_EQ(article.status, Status::best_attempt);  // four characters: every pass is tried
    EXPECT_NE(article.text_content.find('x'), std::string::npos);
}

TEST(HostileInput, ArticleBodiesDeclaredByTheThousandAreReadOnce) {
    // 1,000 JSON-LD scripts declaring one article's 4 KB body, then one of
    // 2 MiB that is not parsed for it: one body is kept, and auto takes it
    // from a page that shows none of it.
    std::string body;
    while (body.size() < 4000) {
        body += "A sentence of the declared report, long enough to read as prose. ";
    }
    const std::string script = "<script type=\"application/ld+json\">{\"@type\":\"NewsArticle\",\"articleBody\":\"" +
                               body + "\"}</script>";
    std::string html = "<html><head>";
    for (int i = 0; i < 1000; ++i) {
        html += script;
    }
    html += "<script type=\"application/ld+json\">{\"@type\":\"NewsArticle\",\"articleBody\":\"" +
            std::string(2U * 1024U * 1024U, 'x') + "\"}</script></head><body><div id=\"root\"></div></body></html>";
    const auto start = Clock::now();
    const Article article = extract(html);
    EXPECT_LT(seconds_since(start), 5.0 * test::kTimeScale);
    ASSERT_EQ(article.status, Status::ok);
    body.pop_back();  // its last space, which the paragraph does not keep
    EXPECT_EQ(article.text_content, body);
}

TEST(HostileInput, ReadabilitysScoringOfNestedSectionsStaysFast) {
    // Readability scores each <section> by the length and commas of its whole
    // text: 6,000 nested ones took 6.5 s measured one by one, 0.5 s joined
    // from the ones below.
    double seconds = 0.0;
    const Article article = readability_of(test::nested_sections(6000), seconds);
    EXPECT_LT(seconds, 5.0 * test::kTimeScale);
    EXPECT_EQ(article.status, Status::ok);
    EXPECT_EQ(article.length, 6000U * 224U);
}

TEST(HostileInput, PageLinksByTheThousandWhenPagesAreFollowed) {
    // With max_pages above 1, every link is weighed as a next page and every
    // block around one as pagination: twenty thousand of them in one block,
    // and three thousand at the bottom of 4000 nested <div>s.
    std::string html = paragraphs(20);
    std::string links = "<div>";
    for (int i = 0; i < 20000; ++i) {
        links += "<a href=\"/story?page=" + std::to_string(i % 50 + 2) + "\">" + std::to_string(i % 50 + 2) + "</a> ";
    }
    links += "</div>";
    for (int i = 0; i < 4000; ++i) {
        links += "<div>";
    }
    for (int i = 0; i < 3000; ++i) {
        links += "<a href=\"/story/" + std::to_string(i % 9 + 2) + "\">Next</a>";
    }
    html.insert(html.find("</div></body>"), links);
    ExtractOptions options;
    options.input.url = "https://news.example/story";
    options.pages.max_pages = 3;
    const auto start = Clock::now();
    const Article article = extract(html, options);
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

// Options with the memory budget lifted: the tests that time the pipeline on
// pages larger than the default budget admits.
ExtractOptions unlimited_memory() {
    ExtractOptions options;
    options.budgets.max_memory_bytes = 0;
    return options;
}

TEST(HostileInput, ExtractsPageAtTheDefaultByteLimitWithinFiveSeconds) {
    // A paragraph is about 113 bytes; 120 leaves room for the wrapper.
    std::string html = paragraphs(16U * 1024U * 1024U / 120U);
    ASSERT_LE(html.size(), ExtractOptions{}.budgets.max_input_bytes);
    ASSERT_GT(html.size(), 15U * 1024U * 1024U);
    const auto start = Clock::now();
    const Article article = extract(html, unlimited_memory());
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
    ExtractOptions options = unlimited_memory();
    options.budgets.max_input_bytes = 64U * 1024U * 1024U;
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
    options.budgets.max_input_bytes = 1000;
    const Article article = extract(paragraphs(100), options);
    EXPECT_EQ(article.status, Status::budget_exceeded);
    ASSERT_TRUE(article.error.has_value());
    EXPECT_EQ(article.error->code, ErrorCode::input_too_large);
}

TEST(HostileInput, RefusesElementsOverTheBudget) {
    ExtractOptions options;
    options.budgets.max_elements = 50;
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
    options.input.charset = "utf-8";
    const Article article = extract(html, options);
    EXPECT_EQ(article.status, Status::ok);
    EXPECT_NE(article.text_content.find("Paragraph 9"), std::string::npos);
}

TEST(HostileInput, RefusesAMillionAttributesBeforeParsing) {
    // gumbo checks each attribute against every earlier one of its element:
    // a million would take it most of an hour.
    std::string html = "<html><body><div";
    for (int i = 0; i < 1000000; ++i) {
        html += " a" + std::to_string(i) + "=1";
    }
    html += ">text</div></body></html>";
    const auto start = Clock::now();
    const Article article = extract(html);
    EXPECT_LT(seconds_since(start), 2.0 * test::kTimeScale);
    EXPECT_EQ(article.status, Status::budget_exceeded);
    ASSERT_TRUE(article.error.has_value());
    EXPECT_EQ(article.error->code, ErrorCode::too_many_attributes);
    EXPECT_NE(article.error->message.find("1000000 attributes"), std::string::npos) << article.error->message;
}

TEST(HostileInput, ManyAttributesWithinTheBudgetStayFast) {
    // The budget's worst case: element after element at the limit, filling the page.
    std::string element = "<span";
    for (std::size_t i = 0; i < ExtractOptions{}.budgets.max_attributes_per_element; ++i) {
        element += " a" + std::to_string(i) + "=1";
    }
    element += ">x</span>";
    std::string html = "<html><body><p>";
    while (html.size() < 8U * 1024U * 1024U) {
        html += element;
    }
    html += "</p></body></html>";
    const auto start = Clock::now();
    const Article article = extract(html, unlimited_memory());
    const double elapsed = seconds_since(start);
    EXPECT_LT(elapsed, 10.0 * test::kTimeScale) << elapsed << " s";
    EXPECT_NE(article.status, Status::budget_exceeded);
}

TEST(HostileInput, AMillionTinyElementsEndWithAResult) {
    std::string html = "<html><body>";
    for (int i = 0; i < 1000000; ++i) {
        html += "<b></b>";
    }
    html += "</body></html>";
    const auto start = Clock::now();
    const Article article = extract(html, unlimited_memory());
    const double elapsed = seconds_since(start);
    EXPECT_LT(elapsed, 10.0 * test::kTimeScale) << elapsed << " s";
    EXPECT_EQ(article.status, Status::no_content);
    EXPECT_FALSE(article.error.has_value());

    // By default the page is refused before the parse: it would need far more
    // than the 256 MiB budget.
    const auto refused_start = Clock::now();
    const Article refused = extract(html);
    EXPECT_LT(seconds_since(refused_start), 0.5 * test::kTimeScale);
    EXPECT_EQ(refused.status, Status::budget_exceeded);
    ASSERT_TRUE(refused.error.has_value());
    EXPECT_EQ(refused.error->code, ErrorCode::too_much_memory);
    EXPECT_NE(refused.error->message.find("1000002 elements"), std::string::npos) << refused.error->message;
    EXPECT_NE(refused.error->message.find("limit 256 MiB"), std::string::npos) << refused.error->message;
}

TEST(HostileInput, ATableOfTenThousandRowsAndAHundredColumns) {
    std::string html = "<html><body><table>";
    for (int row = 0; row < 10000; ++row) {
        html += "<tr>";
        for (int column = 0; column < 100; ++column) {
            html += "<td>x</td>";
        }
        html += "</tr>";
    }
    html += "</table></body></html>";
    const auto start = Clock::now();
    const Article article = extract(html, unlimited_memory());
    const double elapsed = seconds_since(start);
    EXPECT_LT(elapsed, 10.0 * test::kTimeScale) << elapsed << " s";
    EXPECT_EQ(article.status, Status::ok);
    EXPECT_GE(article.length, 1000000U);
}

std::string reconstruction_page() {
    return test::hostile_page_text(test::kReconstructionPageName);
}

TEST(HostileInput, TheParsersOwnElementsAreStoppedAtTheParseShareOfTheBudget) {
    const std::string html = reconstruction_page();
    const auto start = Clock::now();
    const Article article = extract(html);
    EXPECT_LT(seconds_since(start), 3.0 * test::kTimeScale);
    EXPECT_EQ(article.status, Status::budget_exceeded);
    ASSERT_TRUE(article.error.has_value());
    EXPECT_EQ(article.error->code, ErrorCode::too_much_memory);
    EXPECT_NE(article.error->message.find("the parse needed more than"), std::string::npos) << article.error->message;
    ASSERT_TRUE(article.cost.has_value());
    EXPECT_LT(article.cost->memory_bytes, ExtractOptions{}.budgets.max_memory_bytes) << "the estimate let it through";
}

// Extracts `html` with `allowed` to do it in: it must end soon after, with
// deadline_exceeded. Returns the error's message ("" for none).
std::string stopped_at_deadline(const std::string& html, ExtractOptions options, std::chrono::milliseconds allowed) {
    options.runtime.deadline = Clock::now() + allowed;
    const auto start = Clock::now();
    const Article article = extract(html, options);
    const double elapsed = seconds_since(start);
    EXPECT_LT(elapsed, std::chrono::duration<double>(allowed).count() + 0.5 * test::kTimeScale) << elapsed << " s";
    EXPECT_EQ(article.status, Status::budget_exceeded);
    if (!article.error) {
        ADD_FAILURE() << "no error";
        return {};
    }
    EXPECT_EQ(article.error->code, ErrorCode::deadline_exceeded);
    return article.error->message;
}

TEST(HostileInput, AParseRunningAtTheDeadlineIsStopped) {
    // The deadline must leave the cost model's time estimate (about 0.4 s)
    // after the pre-parse scan, or the page is refused before the parse
    // starts; under sanitizers that scan alone takes over 0.1 s.
    const std::chrono::milliseconds allowed{test::kTimeScale > 1.0 ? 1000 : 500};
    EXPECT_EQ(stopped_at_deadline(reconstruction_page(), unlimited_memory(), allowed), "deadline passed while parsing");
}

TEST(HostileInput, WorkThatCannotFinishBeforeTheDeadlineIsRefusedBeforeItStarts) {
    std::string html = "<html><body>";
    for (int i = 0; i < 300000; ++i) {
        html += "<i>x</i>";
    }
    ExtractOptions options;
    options.budgets.max_memory_bytes = 0;  // the time budget alone is under test (300,000 elements pass 256 MiB)
    options.runtime.deadline = Clock::now() + std::chrono::milliseconds(20);
    const auto start = Clock::now();
    const Article article = extract(html, options);
    EXPECT_LT(seconds_since(start), 0.2 * test::kTimeScale);
    ASSERT_TRUE(article.error.has_value());
    EXPECT_EQ(article.error->code, ErrorCode::deadline_exceeded);
    EXPECT_NE(article.error->message.find("the page would take about"), std::string::npos) << article.error->message;
}

TEST(HostileInput, AHundredMegabyteTextNodeIsRefusedAtOnceByDefault) {
    const std::string html = "<html><body><p>" + std::string(100U << 20U, 'a') + "</p></body></html>";
    const auto start = Clock::now();
    const Article article = extract(html);
    EXPECT_LT(seconds_since(start), 0.5 * test::kTimeScale);
    ASSERT_TRUE(article.error.has_value());
    EXPECT_EQ(article.error->code, ErrorCode::input_too_large);
}

TEST(HostileInput, LoneSurrogatesBecomeReplacementCharacters) {
    // UTF-16 with unpaired high and low surrogates, then UTF-8 carrying
    // encoded surrogates (CESU-style), which is not valid UTF-8.
    std::string utf16 = "\xFF\xFE";  // little-endian BOM
    const std::u16string text = u"<html><body><p>Before \xD800 middle \xDC00 after, with enough words to be a paragraph of text here.</p></body></html>";
    for (const char16_t unit : text) {
        utf16.push_back(static_cast<char>(unit & 0xFF));
        utf16.push_back(static_cast<char>(unit >> 8));
    }
    ExtractOptions options;
    options.passes.char_threshold = 10;
    const Article from_utf16 = extract(utf16, options);
    EXPECT_EQ(from_utf16.status, Status::ok);
    EXPECT_NE(from_utf16.text_content.find("Before \uFFFD middle \uFFFD after"), std::string::npos)
        << from_utf16.text_content;
    // Declared UTF-8 (undeclared, invalid UTF-8 goes to charset detection).
    options.input.charset = "utf-8";
    const Article from_cesu = extract(
        "<html><body><p>One \xED\xA0\x80 two \xED\xB0\x80 three, and more words to make a paragraph.</p></body></html>",
        options);
    EXPECT_EQ(from_cesu.status, Status::ok);
    EXPECT_EQ(from_cesu.text_content.find("\xED\xA0\x80"), std::string::npos) << "an encoded surrogate got through";
    EXPECT_NE(from_cesu.text_content.find("\uFFFD"), std::string::npos);
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
