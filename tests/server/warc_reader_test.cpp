// The WARC reader and the HTTP payload decoding of pith warc, on WARC files
// written here: plain and gzipped per record, and damaged in each way the
// reader names.
#include "cli/warc_reader.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/http_payload.hpp"

namespace {

using pith::cli::WarcReader;
using pith::cli::WarcRecord;

std::string record(const std::string& type, const std::string& uri, const std::string& block,
                   const std::string& length = "") {
    return "WARC/1.1\r\nWARC-Type: " + type + "\r\nWARC-Target-URI: " + uri +
           "\r\nWARC-Record-ID: <urn:uuid:" + type + uri.substr(uri.size() - 1) + ">\r\nContent-Length: " +
           (length.empty() ? std::to_string(block.size()) : length) + "\r\n\r\n" + block + "\r\n\r\n";
}

std::string response(const std::string& uri, const std::string& html) {
    return record("response", uri,
                  "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: " +
                      std::to_string(html.size()) + "\r\n\r\n" + html);
}

std::string gzip(const std::string& data) {
    z_stream z{};
    deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&z, data.size()) + 32, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(out.size() - z.avail_out);
    deflateEnd(&z);
    return out;
}

struct Seen {
    std::vector<std::string> uris;         // of the records read whole
    std::vector<std::string> damage_kinds;  // of the damaged ones, in order
    std::vector<std::string> too_large;
    std::vector<std::string> blocks;
};

Seen read_all(const std::string& bytes, std::size_t max_block = 1U << 20U) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(
        fmemopen(const_cast<char*>(bytes.data()), bytes.size(), "rb"), std::fclose);
    EXPECT_NE(file, nullptr);
    WarcReader reader(file.get(), max_block);
    Seen seen;
    for (int guard = 0; guard < 100; ++guard) {
        switch (reader.next()) {
        case WarcReader::Event::record:
            seen.uris.emplace_back(reader.record().field("warc-target-uri"));
            seen.blocks.push_back(reader.record().block);
            break;
        case WarcReader::Event::too_large: seen.too_large.emplace_back(reader.record().field("WARC-Target-URI")); break;
        case WarcReader::Event::damaged: seen.damage_kinds.emplace_back(reader.damage_kind()); break;
        case WarcReader::Event::end: EXPECT_TRUE(reader.error().empty()) << reader.error(); return seen;
        }
    }
    ADD_FAILURE() << "the reader did not end";
    return seen;
}

const std::string kPage = "<html><body><p>Tides rise twice a day.</p></body></html>";

TEST(WarcReader, ReadsPlainRecordsWithTheirFieldsAndBlocks) {
    const std::string bytes = record("warcinfo", "x:0", "software: test\r\n") + response("http://a.test/1", kPage) +
                              record("request", "http://a.test/1", "GET /1 HTTP/1.1\r\n\r\n");
    const Seen seen = read_all(bytes);
    EXPECT_EQ(seen.uris, (std::vector<std::string>{"x:0", "http://a.test/1", "http://a.test/1"}));
    EXPECT_TRUE(seen.damage_kinds.empty());
    EXPECT_TRUE(seen.blocks[1].ends_with(kPage)) << "the block is exactly Content-Length bytes";
}

TEST(WarcReader, ReadsRecordsGzippedOneByOne) {
    const std::string bytes = gzip(record("warcinfo", "x:0", "software: test\r\n")) +
                              gzip(response("http://a.test/1", kPage)) + gzip(response("http://a.test/2", kPage));
    const Seen seen = read_all(bytes);
    EXPECT_EQ(seen.uris, (std::vector<std::string>{"x:0", "http://a.test/1", "http://a.test/2"}));
    EXPECT_TRUE(seen.damage_kinds.empty());
}

TEST(WarcReader, ReportsEachDamageAndGoesOnAtTheNextRecord) {
    std::string cut = response("http://a.test/9", kPage);
    cut.resize(cut.size() - 30);
    // A length that is no number, some bytes that are no record, a length
    // that is wrong, and a file cut inside its last record.
    const std::string bytes = response("http://a.test/1", kPage) +
                              record("response", "http://a.test/2", "HTTP/1.1 200 OK\r\n\r\nshort", "many") +
                              response("http://a.test/3", kPage) + "some bytes that are no record\r\n\r\n" +
                              response("http://a.test/5", kPage) +
                              record("response", "http://a.test/6", "HTTP/1.1 200 OK\r\n\r\n" + kPage, "12") +
                              response("http://a.test/7", kPage) + cut;
    const Seen seen = read_all(bytes);
    EXPECT_EQ(seen.uris,
              (std::vector<std::string>{"http://a.test/1", "http://a.test/3", "http://a.test/5", "http://a.test/7"}));
    EXPECT_EQ(seen.damage_kinds, (std::vector<std::string>{"bad length", "not WARC", "bad length", "truncated"}));
}

TEST(WarcReader, SkipsACorruptGzipMemberAndReadsTheNext) {
    std::string broken = gzip(response("http://a.test/2", kPage));
    for (std::size_t i = 20; i < 40 && i < broken.size(); ++i) {
        broken[i] = static_cast<char>(broken[i] ^ 0x5A);
    }
    const std::string bytes =
        gzip(response("http://a.test/1", kPage)) + broken + gzip(response("http://a.test/3", kPage));
    const Seen seen = read_all(bytes);
    EXPECT_EQ(seen.uris, (std::vector<std::string>{"http://a.test/1", "http://a.test/3"}));
    EXPECT_EQ(seen.damage_kinds, (std::vector<std::string>{"corrupt gzip"}));
}

TEST(WarcReader, SkipsABlockOverTheLimitWithoutHoldingIt) {
    const std::string big(5000, 'x');
    const std::string bytes = response("http://a.test/1", big) + response("http://a.test/2", kPage);
    const Seen seen = read_all(bytes, 1000);
    EXPECT_EQ(seen.too_large, (std::vector<std::string>{"http://a.test/1"}));
    EXPECT_EQ(seen.uris, (std::vector<std::string>{"http://a.test/2"}));
}

TEST(HttpPayload, UndoesChunkedAndGzipAndReadsTheCharset) {
    const std::string body = gzip("<!DOCTYPE html><p>caf\xe9</p>");
    std::string chunked;
    for (std::size_t at = 0; at < body.size(); at += 7) {
        const std::string piece = body.substr(at, 7);
        char size[16];
        std::snprintf(size, sizeof size, "%zx", piece.size());
        chunked += std::string(size) + "\r\n" + piece + "\r\n";
    }
    chunked += "0\r\n\r\n";
    const std::string message = "HTTP/1.1 200 OK\r\nContent-Type: Text/HTML; charset=\"ISO-8859-1\"\r\n"
                                "Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n" + chunked;
    auto payload = pith::cli::decode_http_response(message, 1U << 20U);
    ASSERT_TRUE(payload.ok()) << payload.error().message;
    EXPECT_EQ(payload->status, 200);
    EXPECT_EQ(payload->content_type, "text/html");
    EXPECT_EQ(payload->charset, "iso-8859-1");
    EXPECT_EQ(payload->body, "<!DOCTYPE html><p>caf\xe9</p>");
    EXPECT_TRUE(payload->html);
}

TEST(HttpPayload, SniffsHtmlOnlyWithoutAContentType) {
    auto sniffed = pith::cli::decode_http_response("HTTP/1.0 200 OK\r\n\r\n\n <!-- c --><HTML><p>x</p>", 1000);
    ASSERT_TRUE(sniffed.ok());
    EXPECT_TRUE(sniffed->html);
    auto plain = pith::cli::decode_http_response("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n<html>", 1000);
    ASSERT_TRUE(plain.ok());
    EXPECT_FALSE(plain->html) << "a declared type is believed";
    auto image = pith::cli::decode_http_response("HTTP/1.1 200 OK\r\n\r\n\x89PNG", 1000);
    ASSERT_TRUE(image.ok());
    EXPECT_FALSE(image->html);
}

TEST(HttpPayload, RefusesWhatIsNotAnHttpResponseOrTooLarge) {
    EXPECT_FALSE(pith::cli::decode_http_response("GET / HTTP/1.1\r\n\r\n", 1000).ok());
    EXPECT_FALSE(pith::cli::decode_http_response("HTTP/1.1 2x0 OK\r\n\r\n", 1000).ok());
    auto broken =
        pith::cli::decode_http_response("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nab", 1000);
    ASSERT_FALSE(broken.ok());
    EXPECT_EQ(broken.error().code, pith::ErrorCode::invalid_argument);
    auto large = pith::cli::decode_http_response("HTTP/1.1 200 OK\r\n\r\n" + std::string(2000, 'a'), 1000);
    ASSERT_FALSE(large.ok());
    EXPECT_EQ(large.error().code, pith::ErrorCode::too_large);
}

}  // namespace

namespace {

// Random damage, plain and gzipped: every run ends, without a crash (the
// sanitizer builds check memory), and never yields more records than there were.
TEST(WarcReader, RandomDamageEndsEveryRead) {
    std::string plain;
    std::string zipped;
    for (int i = 0; i < 5; ++i) {
        const std::string one = response("http://a.test/" + std::to_string(i), kPage);
        plain += one;
        zipped += gzip(one);
    }
    std::uint64_t state = 88172645463325252ULL;
    const auto next = [&] {
        state ^= state << 13U;
        state ^= state >> 7U;
        state ^= state << 17U;
        return state;
    };
    for (int round = 0; round < 300; ++round) {
        std::string bytes = round % 2 == 0 ? plain : zipped;
        for (int edits = 1 + static_cast<int>(next() % 4); edits > 0; --edits) {
            const std::size_t at = next() % bytes.size();
            switch (next() % 3) {
            case 0: bytes[at] = static_cast<char>(next()); break;
            case 1: bytes.resize(at + 1); break;
            default: bytes.insert(at, std::string(1 + next() % 40, static_cast<char>(next()))); break;
            }
        }
        const Seen seen = read_all(bytes);
        EXPECT_LE(seen.uris.size(), 5U);
    }
}

}  // namespace
