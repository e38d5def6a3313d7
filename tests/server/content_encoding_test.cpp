#include "pithd/content_encoding.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "test_origin.hpp"

namespace pith::server {
namespace {

const std::string kText = [] {
    std::string text;
    for (int i = 0; i < 200; ++i) {
        text += "<p>Line " + std::to_string(i) + " of a page that compresses well.</p>\n";
    }
    return text;
}();

TEST(ContentEncoding, UndoesGzipDeflateAndBrotli) {
    EXPECT_EQ(*decode_content("gzip", test::gzip(kText), 1U << 20U), kText);
    EXPECT_EQ(*decode_content("x-gzip", test::gzip(kText), 1U << 20U), kText);
    EXPECT_EQ(*decode_content("deflate", test::zlib_deflate(kText), 1U << 20U), kText);
    EXPECT_EQ(*decode_content("br", test::brotli(kText), 1U << 20U), kText);
    EXPECT_EQ(*decode_content("", kText, 1U << 20U), kText);
    EXPECT_EQ(*decode_content("identity", kText, 1U << 20U), kText);
}

TEST(ContentEncoding, UndoesSeveralCodingsLastFirst) {
    EXPECT_EQ(*decode_content("gzip, br", test::brotli(test::gzip(kText)), 1U << 20U), kText);
}

TEST(ContentEncoding, AsksForMemoryBeforeTheOutputGrowsAndStopsWhenRefused) {
    const std::string text(4U << 20U, 'a');
    for (const auto& [coding, body] : {std::pair{"gzip", test::gzip(text)}, std::pair{"br", test::brotli(text)}}) {
        std::vector<std::size_t> asked;
        const auto decoded = decode_content(coding, body, 16U << 20U, [&](std::size_t bytes) -> std::optional<Error> {
            asked.push_back(bytes);
            return std::nullopt;
        });
        ASSERT_TRUE(decoded.ok()) << coding;
        EXPECT_EQ(*decoded, text) << coding;
        ASSERT_FALSE(asked.empty()) << coding;
        EXPECT_TRUE(std::is_sorted(asked.begin(), asked.end())) << coding;
        // The last ask covers the input and the output's buffer at its largest.
        EXPECT_GE(asked.back(), body.size() + decoded->capacity()) << coding;
        EXPECT_LT(asked.size(), 16U) << coding << ": the buffer grows by doubling, not chunk by chunk";

        std::size_t allowed = 0;
        const auto refused = decode_content(coding, body, 16U << 20U, [&](std::size_t bytes) -> std::optional<Error> {
            if (bytes > (1U << 20U)) {
                return Error{ErrorCode::overloaded, "no room for " + std::to_string(bytes)};
            }
            allowed = std::max(allowed, bytes);
            return std::nullopt;
        });
        ASSERT_FALSE(refused.ok()) << coding;
        EXPECT_EQ(refused.error().code, ErrorCode::overloaded) << coding;
        EXPECT_LE(allowed, std::size_t{1} << 20U) << coding;
    }
}

TEST(ContentEncoding, StopsABombAtTheLimit) {
    const std::string zeros(64U << 20U, '\0');
    for (const auto& [coding, body] : {std::pair{"gzip", test::gzip(zeros)}, std::pair{"br", test::brotli(zeros)}}) {
        ASSERT_LT(body.size(), 1U << 20U) << coding;
        const auto decoded = decode_content(coding, body, 1U << 20U);
        ASSERT_FALSE(decoded.ok()) << coding;
        EXPECT_EQ(decoded.error().code, ErrorCode::too_large) << coding;
        EXPECT_NE(decoded.error().message.find("1048576"), std::string::npos);
    }
}

TEST(ContentEncoding, CorruptOrUnknownIsAnUpstreamError) {
    std::string truncated = test::gzip(kText);
    truncated.resize(truncated.size() / 2);
    for (const auto& [coding, body] : {std::pair{"gzip", truncated}, std::pair{"gzip", std::string("not gzip at all")},
                                       std::pair{"br", std::string("\xff\xff\xff\xff")}, std::pair{"zstd", kText}}) {
        const auto decoded = decode_content(coding, body, 1U << 20U);
        ASSERT_FALSE(decoded.ok()) << coding;
        EXPECT_EQ(decoded.error().code, ErrorCode::upstream_error) << coding << ": " << decoded.error().message;
    }
}

TEST(ContentEncoding, PlainBodyOverTheLimitIsTooLarge) {
    EXPECT_EQ(decode_content("", std::string(2048, 'a'), 1024).error().code, ErrorCode::too_large);
}

}  // namespace
}  // namespace pith::server
