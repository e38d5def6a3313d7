// The lines of a batch body, split as its bytes arrive (batch_lines.hpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pithd/batch_lines.hpp"

namespace pith::server {
namespace {

TEST(BatchLines, LinesSplitAcrossChunksAndBlankLinesAreNoItems) {
    BatchLines lines;
    lines.add("{\"html\": \"<p>Deltas");
    lines.add("</p>\"}\n\n  \t\r\n{\"url\": \"https://example.com/a\"}\r");
    lines.add("\n{\"html\": \"last\"}");
    lines.finish();
    lines.finish();  // a second end adds nothing
    EXPECT_FALSE(lines.too_many());
    const std::vector<std::string> got = lines.take();
    ASSERT_EQ(got.size(), 3U);
    EXPECT_EQ(got[0], "{\"html\": \"<p>Deltas</p>\"}");
    EXPECT_EQ(got[1], "{\"url\": \"https://example.com/a\"}\r") << "JSON reads the carriage return as white space";
    EXPECT_EQ(got[2], "{\"html\": \"last\"}");
    EXPECT_EQ(lines.bytes(), got[0].size() + got[1].size() + got[2].size());
}

TEST(BatchLines, PastTheCapNothingIsKept) {
    BatchLines lines(2);
    lines.add("{}\n\n{}\n");
    EXPECT_FALSE(lines.too_many()) << "two items, the cap";
    lines.add("{\"third\": ");
    lines.add("1}\n{}\n");
    lines.finish();
    EXPECT_TRUE(lines.too_many());
    EXPECT_TRUE(lines.take().empty()) << "a refused batch keeps no line";
    EXPECT_EQ(lines.bytes(), 0U);
}

TEST(BatchLines, AnEmptyBodyHasNoLines) {
    BatchLines lines;
    lines.add("");
    lines.add("\n\r\n");
    lines.finish();
    EXPECT_TRUE(lines.take().empty());
    EXPECT_FALSE(lines.too_many());
}

}  // namespace
}  // namespace pith::server
