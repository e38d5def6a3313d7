#include "content_encoding.hpp"

#include <gtest/gtest.h>

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
