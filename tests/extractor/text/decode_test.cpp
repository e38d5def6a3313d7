#include "pith/decode.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "files.hpp"

namespace {

namespace decode = pith::decode;
using decode::CharsetSource;

const std::string k_fffd = "\xEF\xBF\xBD";

// Valid UTF-8 without NUL: exactly the strings the sanitiser leaves alone.
bool is_clean_utf8(const std::string& s) {
    return decode::sanitize_utf8(s) == s && s.find('\0') == std::string::npos;
}

std::string repeat(const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
}

// ---------------------------------------------------------------- decoded twice

// `text` (UTF-8) as a crawler that read its bytes as windows-1252 stores it.
// Byte by byte: whole, valid UTF-8 would be kept as UTF-8 whatever the label.
std::string read_as_windows1252(std::string_view text) {
    std::string stored;
    for (const char byte : text) {
        stored += decode::to_utf8(std::string(1, byte), "windows-1252").utf8;
    }
    return stored;
}

TEST(DoubleEncoding, RestoresTextReadAsWindows1252) {
    const std::string original =
        "It\xE2\x80\x99s a caf\xC3\xA9 \xE2\x80\x94 open all \xC3\xA9t\xC3\xA9, \xE2\x84\xA2 and \xF0\x9F\x98\x80.";
    const std::string stored = read_as_windows1252(original);
    ASSERT_NE(stored, original);
    std::string repaired;
    EXPECT_EQ(decode::repair_double_encoding(stored, repaired), 7U);
    EXPECT_EQ(repaired, original);
}

TEST(DoubleEncoding, RestoresTextReadAsLatin1WithItsControlCharacters) {
    // Latin-1 keeps bytes 0x80-0x9F as C1 controls: "\xE2\x80\x94" becomes U+00E2 U+0080 U+0094.
    const std::string stored = repeat("debt\xC3\xA2\xC2\x80\xC2\x94nearly ", 3);
    std::string repaired;
    EXPECT_EQ(decode::repair_double_encoding(stored, repaired), 3U);
    EXPECT_EQ(repaired, repeat("debt\xE2\x80\x94nearly ", 3));
}

TEST(DoubleEncoding, LeavesAPageThatDoesNotReadAsDecodedTwice) {
    std::string repaired = "untouched";
    // Two sequences are too few to tell.
    EXPECT_EQ(decode::repair_double_encoding(read_as_windows1252("caf\xC3\xA9 and th\xC3\xA9"), repaired), 0U);
    // A German quotation: "\xC3\x9F\xE2\x80\x9C" (ß“) reads as a sequence, the page's other letters as none.
    const std::string german = "\xE2\x80\x9EGru\xC3\x9F\xE2\x80\x9C, \xE2\x80\x9E" "Fu\xC3\x9F\xE2\x80\x9C und "
                               "\xE2\x80\x9E" "Fl\xC3\xBC\xC3\x9F\xE2\x80\x9C: sch\xC3\xB6n, gr\xC3\xBC\xC3\x9F" "e, "
                               "\xC3\xA4hnlich, \xC3\xBC" "ber, H\xC3\xB6he.";
    EXPECT_EQ(decode::repair_double_encoding(german, repaired), 0U);
    // Sequences that are no UTF-8: an overlong, a surrogate, a lead without its continuations.
    const std::string invalid = repeat("\xC3\xA0\xC2\x80\xC2\x80 \xC3\xAD\xC2\xA0\xC2\x80 \xC3\xA9t\xC3\xA9 ", 3);
    EXPECT_EQ(decode::repair_double_encoding(invalid, repaired), 0U);
    EXPECT_EQ(repaired, "untouched");
}

// ---------------------------------------------------------------- UTF-8

TEST(Decode, KeepsValidUtf8Unchanged) {
    const std::string text = "plain ASCII, caf\xC3\xA9, \xE2\x82\xAC, \xF0\x9F\x98\x80, \xEF\xBF\xBF end";
    EXPECT_EQ(decode::sanitize_utf8(text), text);
    const auto result = decode::to_utf8(text, "utf-8");
    EXPECT_EQ(result.utf8, text);
    EXPECT_EQ(result.charset, "utf-8");
    EXPECT_EQ(result.source, CharsetSource::caller);
}

TEST(Decode, PrefersValidUtf8OverALegacyLabel) {
    // Mozilla's "qq" page: UTF-8 bytes under <meta charset=gb2312>.
    const std::string page =
        "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=gb2312\"><p>\xE4\xBA\xBA\xE5\xB7\xA5\xE6\x99\xBA\xE8\x83\xBD</p>";
    const auto from_meta = decode::to_utf8(page);
    EXPECT_EQ(from_meta.charset, "utf-8");
    EXPECT_EQ(from_meta.utf8, page);
    const auto from_caller = decode::to_utf8(page, "windows-1252");
    EXPECT_EQ(from_caller.charset, "utf-8");
}

TEST(Decode, ReplacesInvalidSequencesWithReplacementCharacter) {
    struct Case {
        std::string in;
        std::string out;
    };
    // One U+FFFD per maximal subpart (WHATWG UTF-8 decoder, Unicode "best practice").
    const std::vector<Case> cases = {
        {"\x80", k_fffd},                                           // lone continuation
        {"a\xC3", "a" + k_fffd},                                    // truncated at end
        {std::string("\xE2\x82") + "a", k_fffd + "a"},              // truncated 3-byte sequence
        {"\xF0\x9F\x98", k_fffd},                                   // truncated 4-byte sequence
        {"\xC0\xAF", k_fffd + k_fffd},                              // overlong, invalid lead
        {"\xE0\x80\xAF", k_fffd + k_fffd + k_fffd},                 // overlong 3-byte
        {"\xF0\x80\x80\xAF", repeat(k_fffd, 4)},                    // overlong 4-byte
        {"\xED\xA0\x80", repeat(k_fffd, 3)},                        // UTF-16 surrogate
        {"\xF4\x90\x80\x80", repeat(k_fffd, 4)},                    // above U+10FFFF
        {"\xF5\xFF\xFE", repeat(k_fffd, 3)},                        // never-valid bytes
        {"x\xE2\x82\xE2\x82\xACy", "x" + k_fffd + "\xE2\x82\xAC" "y"},  // resumes at the new lead
        {"\xC3\xA9\x80\xC3\xA9", "\xC3\xA9" + k_fffd + "\xC3\xA9"},
    };
    for (const auto& c : cases) {
        EXPECT_EQ(decode::sanitize_utf8(c.in), c.out) << "input bytes: " << testing::PrintToString(c.in);
        EXPECT_EQ(decode::to_utf8(c.in, "utf-8").utf8, c.out);
    }
}

TEST(Decode, ReplacesNulWithReplacementCharacter) {
    const std::string with_nul("a\0b", 3);
    EXPECT_EQ(decode::sanitize_utf8(with_nul), "a" + k_fffd + "b");
    EXPECT_EQ(decode::to_utf8(with_nul).utf8, "a" + k_fffd + "b");
    EXPECT_EQ(decode::to_utf8(with_nul, "windows-1252").utf8, "a" + k_fffd + "b");
    EXPECT_EQ(decode::to_utf8(with_nul, "koi8-r").utf8, "a" + k_fffd + "b");
    EXPECT_EQ(decode::to_utf8(std::string("\xFF\xFE" "a\0\0\0", 6)).utf8, "a" + k_fffd);
    // A long clean run with a NUL in the middle of an 8-byte word.
    const std::string long_text = repeat("abcdefgh", 20) + std::string("ab\0cd", 5) + repeat("xyz", 9);
    const std::string expected = repeat("abcdefgh", 20) + "ab" + k_fffd + "cd" + repeat("xyz", 9);
    EXPECT_EQ(decode::sanitize_utf8(long_text), expected);
}

TEST(Decode, ValidatesNonAsciiInsideLongAsciiRuns) {
    // The scanner skips ASCII eight bytes at a time; problems at every offset
    // of a word must still be found.
    for (int offset = 0; offset < 16; ++offset) {
        // Built by concatenation: GCC 12 warns (-Wrestrict, falsely) on std::string::insert here.
        const std::string before = repeat("a", offset);
        const std::string after = repeat("a", 32 - offset);
        const std::string in = before + "\xFF" + after;
        const std::string expected = before + std::string(k_fffd) + after;
        EXPECT_EQ(decode::sanitize_utf8(in), expected) << "offset " << offset;
    }
}

// ---------------------------------------------------------------- BOM

TEST(Decode, StripsUtf8ByteOrderMark) {
    const auto result = decode::to_utf8("\xEF\xBB\xBF<p>caf\xC3\xA9</p>");
    EXPECT_EQ(result.utf8, "<p>caf\xC3\xA9</p>");
    EXPECT_EQ(result.charset, "utf-8");
    EXPECT_EQ(result.source, CharsetSource::bom);
}

TEST(Decode, ByteOrderMarkWinsOverDeclaredAndMetaCharsets) {
    const auto result = decode::to_utf8("\xEF\xBB\xBF<meta charset=koi8-r>\xD0\x9F", "windows-1251");
    EXPECT_EQ(result.charset, "utf-8");
    EXPECT_EQ(result.source, CharsetSource::bom);
    EXPECT_EQ(result.utf8, "<meta charset=koi8-r>\xD0\x9F");
}

TEST(Decode, DecodesUtf16WithByteOrderMark) {
    const auto le = decode::to_utf8(std::string("\xFF\xFEh\0i\0", 6));
    EXPECT_EQ(le.utf8, "hi");
    EXPECT_EQ(le.charset, "utf-16le");
    EXPECT_EQ(le.source, CharsetSource::bom);

    const auto be = decode::to_utf8(std::string("\xFE\xFF\0h\0i", 6), "utf-8");
    EXPECT_EQ(be.utf8, "hi");
    EXPECT_EQ(be.charset, "utf-16be");

    // Surrogate pair, then an unpaired lead surrogate, then a lone trail, then an odd byte.
    const std::string bytes("\xFF\xFE\x3D\xD8\x00\xDE\x3D\xD8" "a\0" "\x00\xDC" "b", 13);
    EXPECT_EQ(decode::to_utf8(bytes).utf8,
              "\xF0\x9F\x98\x80" + k_fffd + "a" + k_fffd + k_fffd);
}

// ---------------------------------------------------------------- labels

TEST(Decode, CanonicalisesWhatwgLabels) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"utf-8", "utf-8"},          {"UTF8", "utf-8"},
        {"unicode-1-1-utf-8", "utf-8"}, {" \tlatin1\n", "windows-1252"},
        {"ISO-8859-1", "windows-1252"}, {"ascii", "windows-1252"},
        {"US-ASCII", "windows-1252"}, {"cp1252", "windows-1252"},
        {"windows-1251", "windows-1251"}, {"x-cp1250", "windows-1250"},
        {"iso-8859-9", "windows-1254"}, {"latin5", "windows-1254"},
        {"iso-8859-2", "iso-8859-2"}, {"latin2", "iso-8859-2"},
        {"iso8859-15", "iso-8859-15"}, {"iso-8859-16", "iso-8859-16"},
        {"koi8-r", "koi8-r"},        {"KOI8-RU", "koi8-u"},
        {"gb2312", "gbk"},           {"x-gbk", "gbk"},
        {"GBK", "gbk"},              {"gb18030", "gb18030"},
        {"big5-hkscs", "big5"},      {"euc-jp", "euc-jp"},
        {"Shift_JIS", "shift_jis"},  {"sjis", "shift_jis"},
        {"x-sjis", "shift_jis"},     {"windows-31j", "shift_jis"},
        {"iso-2022-jp", "iso-2022-jp"}, {"ks_c_5601-1987", "euc-kr"},
        {"utf-16", "utf-16le"},      {"utf-16be", "utf-16be"},
        {"x-mac-cyrillic", "x-mac-cyrillic"}, {"mac", "macintosh"},
        {"tis-620", "windows-874"},  {"iso-8859-11", "windows-874"},
        {"iso-2022-kr", "replacement"},
        {"", ""},                    {"bogus", ""},
        {"utf-8;", ""},              {"text/html; charset=utf-8", ""},
    };
    for (const auto& [label, name] : cases) {
        EXPECT_EQ(decode::canonical_charset(label), name) << "label '" << label << "'";
    }
}

TEST(Decode, NamesEveryCharsetSource) {
    EXPECT_EQ(decode::charset_source_name(CharsetSource::bom), "bom");
    EXPECT_EQ(decode::charset_source_name(CharsetSource::caller), "caller");
    EXPECT_EQ(decode::charset_source_name(CharsetSource::meta), "meta");
    EXPECT_EQ(decode::charset_source_name(CharsetSource::detected), "detected");
    EXPECT_EQ(decode::charset_source_name(CharsetSource::fallback), "fallback");
}

// ---------------------------------------------------------------- caller's charset

TEST(Decode, UsesDeclaredCharset) {
    const std::string privet_1251 = "\xCF\xF0\xE8\xE2\xE5\xF2";
    const auto result = decode::to_utf8(privet_1251, "Windows-1251");
    EXPECT_EQ(result.utf8, "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82");  // Привет
    EXPECT_EQ(result.charset, "windows-1251");
    EXPECT_EQ(result.source, CharsetSource::caller);
}

TEST(Decode, AcceptsWholeContentTypeAsDeclaredCharset) {
    const auto result = decode::to_utf8("\xCF\xF0\xE8\xE2\xE5\xF2", "text/html; charset=\"windows-1251\"");
    EXPECT_EQ(result.charset, "windows-1251");
    EXPECT_EQ(result.utf8, "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82");
}

TEST(Decode, DeclaredCharsetWinsOverMeta) {
    const auto result = decode::to_utf8("<meta charset=koi8-r>\xCF\xF0", "windows-1251");
    EXPECT_EQ(result.charset, "windows-1251");
    EXPECT_EQ(result.source, CharsetSource::caller);
}

TEST(Decode, IgnoresUnknownDeclaredCharset) {
    const auto result = decode::to_utf8("<meta charset=koi8-r>\xF0\xD2", "no-such-charset");
    EXPECT_EQ(result.charset, "koi8-r");
    EXPECT_EQ(result.source, CharsetSource::meta);
    EXPECT_EQ(result.utf8, "<meta charset=koi8-r>\xD0\x9F\xD1\x80");
}

TEST(Decode, SkipsReplacementLabels) {
    // Browsers would decode to a single U+FFFD; an extractor would lose the page.
    const auto result = decode::to_utf8("<p>hello</p>", "iso-2022-kr");
    EXPECT_EQ(result.utf8, "<p>hello</p>");
    EXPECT_NE(result.source, CharsetSource::caller);
}

TEST(Decode, MapsWindows1252ControlRangeAsWhatwg) {
    // 0x80-0x9F per the WHATWG index; the undefined bytes become C1 controls
    // instead of aborting. "iso-8859-1" means the same thing.
    const std::string bytes = "\x80\x82\x93\x94\x9F\x81\x8D\x8F\x90\x9D\xE9\xFF";
    const std::string expected =
        "\xE2\x82\xAC\xE2\x80\x9A\xE2\x80\x9C\xE2\x80\x9D\xC5\xB8"
        "\xC2\x81\xC2\x8D\xC2\x8F\xC2\x90\xC2\x9D\xC3\xA9\xC3\xBF";
    for (const char* label : {"windows-1252", "iso-8859-1", "latin1", "us-ascii"}) {
        const auto result = decode::to_utf8(bytes, label);
        EXPECT_EQ(result.utf8, expected) << label;
        EXPECT_EQ(result.charset, "windows-1252");
    }
}

TEST(Decode, DecodesLegacyEncodings) {
    struct Case {
        const char* label;
        std::string bytes;
        std::string utf8;
    };
    const std::vector<Case> cases = {
        {"gb2312", "\xC4\xE3\xBA\xC3", "\xE4\xBD\xA0\xE5\xA5\xBD"},  // 你好, read as GB18030
        {"gb18030", "\xC4\xE3\xBA\xC3\x95\x32\x82\x36", "\xE4\xBD\xA0\xE5\xA5\xBD\xF0\xA0\x80\x80"},
        {"shift_jis", "\x82\xB1\x82\xF1\x82\xC9\x82\xBF\x82\xCD",
         "\xE3\x81\x93\xE3\x82\x93\xE3\x81\xAB\xE3\x81\xA1\xE3\x81\xAF"},  // こんにちは
        {"euc-jp", "\xA4\xB3\xA4\xF3\xA4\xCB\xA4\xC1\xA4\xCF",
         "\xE3\x81\x93\xE3\x82\x93\xE3\x81\xAB\xE3\x81\xA1\xE3\x81\xAF"},
        {"iso-2022-jp", "\x1B$B$3$s$K$A$O\x1B(B",
         "\xE3\x81\x93\xE3\x82\x93\xE3\x81\xAB\xE3\x81\xA1\xE3\x81\xAF"},
        {"euc-kr", "\xBE\xC8\xB3\xE7", "\xEC\x95\x88\xEB\x85\x95"},  // 안녕
        {"big5", "\xA4\xA4\xA4\xE5", "\xE4\xB8\xAD\xE6\x96\x87"},    // 中文
        {"koi8-r", "\xF0\xD2\xC9\xD7\xC5\xD4", "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82"},
        {"x-mac-cyrillic", "\x8F\xF0\xE8\xE2\xE5\xF2",
         "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82"},
        {"iso-8859-2", "\xA3\xF3" "d\xBC", "\xC5\x81\xC3\xB3" "d\xC5\xBA"},  // Łódź
        {"windows-1253", "\xC5\xEB\xEB\xDC\xE4\xE1",
         "\xCE\x95\xCE\xBB\xCE\xBB\xCE\xAC\xCE\xB4\xCE\xB1"},  // Ελλάδα
        {"windows-1255", "\xF9\xEC\xE5\xED", "\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D"},  // שלום
        {"tis-620", "\xCA\xC7\xD1\xCA\xB4\xD5",
         "\xE0\xB8\xAA\xE0\xB8\xA7\xE0\xB8\xB1\xE0\xB8\xAA\xE0\xB8\x94\xE0\xB8\xB5"},  // สวัสดี
        {"macintosh", "caf\x8E", "caf\xC3\xA9"},
        {"iso-8859-15", "\xA4uro", "\xE2\x82\xAC" "uro"},
    };
    for (const auto& c : cases) {
        const auto result = decode::to_utf8(c.bytes, c.label);
        EXPECT_EQ(result.utf8, c.utf8) << c.label;
        EXPECT_EQ(result.source, CharsetSource::caller) << c.label;
    }
}

TEST(Decode, ContinuesAfterInvalidLegacyBytes) {
    // Shift_JIS "こ", an invalid byte, "ん"; then a lead byte cut off at the end.
    EXPECT_EQ(decode::to_utf8("\x82\xB1\xFF\x82\xF1", "shift_jis").utf8,
              "\xE3\x81\x93" + k_fffd + "\xE3\x82\x93");
    EXPECT_EQ(decode::to_utf8("\x82\xB1\x82", "shift_jis").utf8, "\xE3\x81\x93" + k_fffd);
    // A long input crosses several output chunks and keeps going after errors.
    std::string bytes;
    std::string expected;
    for (int i = 0; i < 20000; ++i) {
        bytes += "\xC4\xE3";  // 你
        expected += "\xE4\xBD\xA0";
        if (i % 997 == 0) {
            bytes += "\xFF";
            expected += k_fffd;
        }
    }
    EXPECT_EQ(decode::to_utf8(bytes, "gbk").utf8, expected);
}

// ---------------------------------------------------------------- <meta> prescan

TEST(Decode, PrescanFindsMetaCharset) {
    struct Case {
        std::string html;
        std::string charset;
    };
    const std::vector<Case> cases = {
        {"<meta charset=\"windows-1251\">", "windows-1251"},
        {"<!doctype html><html><head><META CHARSET='KOI8-R'/>", "koi8-r"},
        {"<meta charset=latin1>", "windows-1252"},
        {"<meta/charset=big5>", "big5"},
        {"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=gb2312\">", "gbk"},
        // Attributes in any order, case and quoting.
        {"<META CONTENT='text/html;CHARSET=ISO-8859-2' HTTP-EQUIV=content-type>", "iso-8859-2"},
        {"<meta content=\"text/html; charset='euc-jp'\" http-equiv='Content-Type'>", "euc-jp"},
        {"<meta content=\"charset = shift_jis ; x\" http-equiv=content-type>", "shift_jis"},
        // content without the http-equiv pragma does not count.
        {"<meta content=\"text/html; charset=koi8-r\"><meta charset=big5>", "big5"},
        {"<meta content=\"text/html; charset=koi8-r\">", ""},
        // Comments and other markup are skipped.
        {"<!-- <meta charset=\"koi8-r\"> --><meta charset=\"iso-8859-5\">", "iso-8859-5"},
        {"<!--><meta charset=euc-kr>", "euc-kr"},
        {"<div title='<meta charset=\"koi8-r\">'><meta charset=big5>", "big5"},
        {"<?xml version=\"1.0\"?><!DOCTYPE html><meta charset=euc-jp>", "euc-jp"},
        {"<metadata charset=koi8-r>", ""},
        // UTF-16 in <meta> cannot be true of a byte stream read as ASCII.
        {"<meta charset=utf-16>", "utf-8"},
        {"<meta charset=utf-16be>", "utf-8"},
        {"<meta charset=x-user-defined>", "windows-1252"},
        // A first unknown label does not end the search; a repeated attribute does not count.
        {"<meta charset=bogus><meta charset=koi8-r>", "koi8-r"},
        {"<meta charset=koi8-r charset=big5>", "koi8-r"},
        // charset= wins over an earlier content attribute, and needs no pragma.
        {"<meta http-equiv=content-type content='charset=big5' charset=koi8-r>", "koi8-r"},
        {"<meta charset=\"utf-8\"", ""},  // ran out of bytes
        {"", ""},
    };
    for (const auto& c : cases) {
        EXPECT_EQ(decode::prescan_meta_charset(c.html), c.charset) << c.html;
    }
}

TEST(Decode, PrescanReadsOnlyTheFirst1024Bytes) {
    const std::string meta = "<meta charset=koi8-r>";
    EXPECT_EQ(decode::prescan_meta_charset(std::string(1024 - meta.size(), ' ') + meta), "koi8-r");
    EXPECT_EQ(decode::prescan_meta_charset(std::string(1025 - meta.size(), ' ') + meta), "");
}

TEST(Decode, MetaCharsetDrivesDecoding) {
    const auto result = decode::to_utf8("<meta charset=windows-1251><p>\xCF\xF0\xE8\xE2\xE5\xF2</p>");
    EXPECT_EQ(result.charset, "windows-1251");
    EXPECT_EQ(result.source, CharsetSource::meta);
    EXPECT_EQ(result.utf8,
              "<meta charset=windows-1251><p>\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82</p>");
}

// ---------------------------------------------------------------- detection

TEST(Decode, TreatsUndeclaredValidUtf8AsUtf8) {
    const std::string text = "<p>Gr\xC3\xBC\xC3\x9F" "e aus K\xC3\xB6ln, \xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82</p>";
    const auto result = decode::to_utf8(text);
    EXPECT_EQ(result.utf8, text);
    EXPECT_EQ(result.charset, "utf-8");
    EXPECT_EQ(result.source, CharsetSource::detected);
    // Pure ASCII is valid UTF-8 too.
    EXPECT_EQ(decode::to_utf8("<p>hello</p>").charset, "utf-8");
    EXPECT_EQ(decode::to_utf8("").charset, "utf-8");
}

TEST(Decode, DetectsUndeclaredLegacyEncoding) {
    std::string text;
    for (int i = 0; i < 20; ++i) {
        text += "\xCF\xF0\xE8\xE2\xE5\xF2, \xEC\xE8\xF0! \xDD\xF2\xEE \xF2\xE5\xF1\xF2\xEE\xE2\xE0\xFF "
                "\xF1\xF2\xF0\xE0\xED\xE8\xF6\xE0 \xED\xE0 \xF0\xF3\xF1\xF1\xEA\xEE\xEC \xFF\xE7\xFB\xEA\xE5. ";
    }
    const auto result = decode::to_utf8(text);
    EXPECT_EQ(result.charset, "windows-1251");
    EXPECT_EQ(result.source, CharsetSource::detected);
    // "Привет, мир!"
    EXPECT_NE(result.utf8.find("\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82, \xD0\xBC\xD0\xB8\xD1\x80!"),
              std::string::npos);
}

TEST(Decode, NeverFailsOnRandomBytes) {
    std::mt19937 rng(12345);
    const std::vector<std::string> labels = {"", "utf-8", "windows-1252", "gbk", "shift_jis", "euc-kr",
                                             "big5", "iso-2022-jp", "utf-16le", "utf-16be", "koi8-u",
                                             "x-user-defined", "bogus", "euc-jp", "x-mac-cyrillic"};
    // Half the buffers use an alphabet that exercises the <meta> prescan.
    const std::string markup = "<meta charset=\"'/>!- \t\nhttp-equivcontent=utf8koi-r";
    for (int i = 0; i < 3000; ++i) {
        const std::size_t len = rng() % 600;
        std::string bytes;
        bytes.reserve(len);
        const bool use_markup = i % 2 == 0;
        for (std::size_t k = 0; k < len; ++k) {
            if (use_markup && rng() % 4 != 0) {
                bytes += markup[rng() % markup.size()];
            } else {
                bytes += static_cast<char>(rng() & 0xFF);
            }
        }
        if (i % 7 == 0) bytes.insert(0, i % 14 == 0 ? "\xFF\xFE" : "\xEF\xBB\xBF");
        const std::string& label = labels[static_cast<std::size_t>(i) % labels.size()];
        const auto result = decode::to_utf8(bytes, label);
        ASSERT_TRUE(is_clean_utf8(result.utf8)) << "iteration " << i << " label " << label;
        ASSERT_FALSE(result.charset.empty());
        const std::string sanitized = decode::sanitize_utf8(bytes);
        ASSERT_TRUE(is_clean_utf8(sanitized)) << "iteration " << i;
        (void)decode::prescan_meta_charset(bytes);
    }
}

// ---------------------------------------------------------------- corpus

#ifndef PITH_SOURCE_DIR
#define PITH_SOURCE_DIR "."
#endif

// The trafilatura-dev corpus: $PITH_CORPUS, else ../shared/corpus from the
// working directory, else next to the source tree. Empty with `looked_in` set
// when none exists.
std::filesystem::path find_trafilatura_dir(std::string& looked_in) {
    std::vector<std::filesystem::path> roots;
    if (const char* env = std::getenv("PITH_CORPUS"); env != nullptr && *env != '\0') {
        roots.emplace_back(env);
    } else {
        roots.emplace_back("../shared/corpus");
        roots.emplace_back(std::filesystem::path(PITH_SOURCE_DIR) / ".." / "shared" / "corpus");
    }
    for (const auto& root : roots) {
        const auto dir = root / "trafilatura-dev";
        std::error_code ec;
        if (std::filesystem::exists(dir / "annotations.json", ec)) return dir;
        looked_in += (looked_in.empty() ? "" : ", ") + std::filesystem::absolute(dir, ec).string();
    }
    return {};
}

// The file's bytes; "" when it cannot be read (the test then fails on them).
std::string read_file(const std::filesystem::path& path) { return pith::test::read_file(path).value_or(""); }

struct CorpusPage {
    const char* file;
    const char* charset;
    CharsetSource source;
    const char* phrase;  // from the page's `with` snippets in annotations.json
};

// Every non-UTF-8 page in the corpus whose annotations contain non-ASCII text.
const CorpusPage k_non_utf8_pages[] = {
    // <meta ... charset=gb2312> sits past byte 1024 (a Wayback banner comes
    // first), so this is uchardet's call.
    {"0219.html", "gb18030", CharsetSource::detected,
     "\xE4\xB8\x80\xE4\xB8\xAA\xE7\xBA\xA6\xE5\xAE\x9A\xEF\xBC\x8C\xE4\xBF\xA1\xE5\xAE\x88" "15"
     "\xE5\xB9\xB4\xEF\xBC\x8C\xE6\x84\x9F\xE4\xBA\xBA\xE8\x87\xB3\xE6\xB7\xB1"},  // 一个约定，信守15年，感人至深
    {"0260.html", "windows-1252", CharsetSource::meta,
     "Gesine aus T\xC3\xBC" "bingen l\xC3\xA4uft die Zeit davon"},
    {"0313.html", "windows-1252", CharsetSource::meta,
     "sondern auch politische Ma\xC3\x9Fnahmen, wie die zur Bek\xC3\xA4mpfung einer Pandemie"},
    {"0430.html", "windows-1252", CharsetSource::meta, "s auf Ger\xC3\xA4t, Telefon oder Ha"},
    // No declaration at all.
    {"0191.html", "windows-1252", CharsetSource::detected,
     "Aus datenschutzrechtlichen Gr\xC3\xBCnden wird"},
};

TEST(DecodeCorpus, DecodesNonUtf8PagesSoAnnotatedPhrasesAppear) {
    std::string looked_in;
    const auto dir = find_trafilatura_dir(looked_in);
    ASSERT_FALSE(dir.empty()) << "trafilatura-dev corpus not found; looked in: " << looked_in
                              << " (set PITH_CORPUS)";
    const std::string annotations = read_file(dir / "annotations.json");
    for (const auto& page : k_non_utf8_pages) {
        SCOPED_TRACE(page.file);
        ASSERT_NE(annotations.find(page.phrase), std::string::npos) << "phrase not in annotations.json";
        const std::string bytes = read_file(dir / "html" / page.file);
        ASSERT_FALSE(bytes.empty());
        ASSERT_FALSE(is_clean_utf8(bytes)) << "page is UTF-8 after all";
        const auto result = decode::to_utf8(bytes);
        EXPECT_EQ(result.charset, page.charset);
        EXPECT_EQ(result.source, page.source) << decode::charset_source_name(result.source);
        EXPECT_TRUE(is_clean_utf8(result.utf8));
        EXPECT_NE(result.utf8.find(page.phrase), std::string::npos) << "phrase: " << page.phrase;
    }
}

TEST(DecodeCorpus, DeclaredGb2312DecodesAsGbk) {
    std::string looked_in;
    const auto dir = find_trafilatura_dir(looked_in);
    ASSERT_FALSE(dir.empty()) << "trafilatura-dev corpus not found; looked in: " << looked_in;
    const auto result = decode::to_utf8(read_file(dir / "html" / "0219.html"), "gb2312");
    EXPECT_EQ(result.charset, "gbk");
    EXPECT_EQ(result.source, CharsetSource::caller);
    EXPECT_NE(result.utf8.find(k_non_utf8_pages[0].phrase), std::string::npos);
}

TEST(DecodeCorpus, KeepsValidPartsOfMislabelledUtf8Page) {
    // 0029.html declares UTF-8 but carries a few stray Latin-1 bytes.
    std::string looked_in;
    const auto dir = find_trafilatura_dir(looked_in);
    ASSERT_FALSE(dir.empty()) << "trafilatura-dev corpus not found; looked in: " << looked_in;
    const std::string bytes = read_file(dir / "html" / "0029.html");
    ASSERT_FALSE(is_clean_utf8(bytes));
    const auto result = decode::to_utf8(bytes);
    EXPECT_EQ(result.charset, "utf-8");
    EXPECT_EQ(result.source, CharsetSource::meta);
    EXPECT_TRUE(is_clean_utf8(result.utf8));
    EXPECT_NE(result.utf8.find("So sch\xC3\xB6n winterlich ist es wie"), std::string::npos);
}

TEST(DecodeCorpus, EveryPageDecodesToCleanUtf8) {
    std::string looked_in;
    const auto dir = find_trafilatura_dir(looked_in);
    ASSERT_FALSE(dir.empty()) << "trafilatura-dev corpus not found; looked in: " << looked_in;
    std::size_t pages = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir / "html")) {
        if (entry.path().extension() != ".html") continue;
        ++pages;
        const auto result = decode::to_utf8(read_file(entry.path()));
        EXPECT_TRUE(is_clean_utf8(result.utf8)) << entry.path().filename();
        EXPECT_FALSE(result.charset.empty()) << entry.path().filename();
    }
    EXPECT_GT(pages, 100u);
}

}  // namespace

namespace pith::decode {
namespace {

TEST(DecodeView, AgreesWithToUtf8AndSkipsTheCopyForValidUtf8) {
    const std::string cases[] = {
        "<p>plain ascii</p>",
        "<meta charset=utf-8><p>caf\xC3\xA9</p>",
        "<meta charset=gb2312><p>\xE4\xBA\xBA</p>",
        "<meta charset=windows-1252><p>caf\xE9</p>",
        "\xEF\xBB\xBF<p>bom</p>",
        std::string("<p>nul\0byte</p>", 15),
    };
    for (const std::string& bytes : cases) {
        for (std::string_view label : {std::string_view(), std::string_view("utf-8"), std::string_view("latin1")}) {
            std::string storage;
            const DecodedView view = to_utf8_view(bytes, label, storage);
            const DecodedText text = to_utf8(bytes, label);
            EXPECT_EQ(view.utf8, text.utf8) << bytes << " / " << label;
            EXPECT_EQ(view.charset, text.charset) << bytes << " / " << label;
            EXPECT_EQ(view.source, text.source) << bytes << " / " << label;
        }
    }
    std::string storage;
    const std::string valid = "<p>caf\xC3\xA9</p>";
    EXPECT_EQ(to_utf8_view(valid, {}, storage).utf8.data(), valid.data());
    EXPECT_TRUE(storage.empty());
}

}  // namespace
}  // namespace pith::decode
