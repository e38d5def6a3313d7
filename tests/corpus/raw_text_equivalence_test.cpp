// Cutting script, style and comment text before the parse must leave every
// corpus page parsing to the same tree as the whole page does. Both trees are
// compared as serialised HTML with the text of script (but JSON-LD) and style
// elements and of comments dropped; a failure names the page and shows where the two first differ.
// Scripts the scanner left whole (it skips what it cannot be sure of) cost
// speed, not correctness: they are counted and printed, not failed.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "corpus.hpp"
#include "pith/decode.hpp"
#include "pith/dom.hpp"
#include "dom/raw_text.hpp"
#include "text/text.hpp"

namespace pith::dom {
namespace {

namespace fs = std::filesystem;

std::string read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

bool is_json_ld(const Node* script) {
    for (std::uint32_t i = 0; i < script->attr_count; ++i) {
        std::string value(script->attrs[i].value);
        value.erase(0, value.find_first_not_of(" \t\n\r\f"));
        value.erase(value.find_last_not_of(" \t\n\r\f") + 1);
        std::transform(value.begin(), value.end(), value.begin(), [](unsigned char c) { return std::tolower(c); });
        if (script->attrs[i].name == "type" && value == "application/ld+json") {
            return true;
        }
    }
    return false;
}

struct Emptied {
    std::string html;        // serialised, script and style text dropped
    std::size_t emptied = 0;  // elements that still had text to drop
};

Emptied parse_emptied(std::string_view utf8) {
    auto parsed = parse_html(utf8);
    if (!parsed) {
        return {"parse failed: " + parsed.error().message, 0};
    }
    Emptied out;
    Node* root = parsed->root();
    for (Node* n = root; n != nullptr; n = next_node(n, root)) {
        if (n->kind == NodeKind::comment) {
            n->data = {};
            continue;
        }
        const bool raw = n->kind == NodeKind::element && ((n->name == "script" && !is_json_ld(n)) || n->name == "style");
        if (raw && n->first_child != nullptr) {
            const bool marker = n->first_child == n->last_child && n->first_child->kind == NodeKind::text &&
                                read_cut_marker(n->first_child->data).has_value();
            out.emptied += marker ? 0 : 1;
            while (n->first_child != nullptr) {
                detach(n->first_child);
            }
        }
    }
    out.html = inner_html(root);
    return out;
}

std::string first_difference(const std::string& a, const std::string& b) {
    const auto mismatch = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
    const auto at = static_cast<std::size_t>(mismatch.first - a.begin());
    const std::size_t from = at > 120 ? at - 120 : 0;
    return "at byte " + std::to_string(at) + "\n  whole page: ..." + a.substr(from, 240) + "\n  pruned:     ..." +
           b.substr(from, 240);
}

// Readability's readerable preflight measures textContent.trim().length of
// p, pre, article and div elements, script text included: measured through
// the cut markers, every such length must be what the whole page gives.
std::size_t count_length_mismatches(std::string_view whole_utf8, std::string_view pruned_utf8, std::string& first) {
    auto whole = parse_html(whole_utf8);
    auto pruned = parse_html(pruned_utf8);
    if (!whole || !pruned) {
        first = "parse failed";
        return 1;
    }
    std::size_t mismatches = 0;
    const Node* a = whole->root();
    const Node* b = pruned->root();
    while (a != nullptr && b != nullptr) {
        if (a->is(Tag::p) || a->is(Tag::pre) || a->is(Tag::article) || a->is(Tag::div)) {
            const std::size_t expected = text::utf16_length(text::trim(text_content(a)));
            const std::size_t measured = trimmed_text_length(b);
            if (expected != measured && mismatches++ == 0) {
                first = "<" + std::string(a->name) + "> whole " + std::to_string(expected) + ", measured " +
                        std::to_string(measured);
            }
        }
        a = next_node(a, whole->root());
        b = next_node(b, pruned->root());
    }
    return mismatches;
}

void check_pages(const std::vector<fs::path>& pages) {
    std::size_t same = 0;
    std::size_t with_text = 0;
    std::size_t left_whole = 0;
    for (const fs::path& page : pages) {
        const std::string bytes = read_bytes(page);
        const std::string utf8 = decode::to_utf8(bytes, {}).utf8;
        const Emptied whole = parse_emptied(utf8);
        std::string storage;
        const Emptied pruned = parse_emptied(without_discardable_raw_text(utf8, storage));
        with_text += whole.emptied;
        left_whole += pruned.emptied;
        if (whole.html == pruned.html) {
            ++same;
            std::string first;
            if (const std::size_t bad = count_length_mismatches(utf8, without_discardable_raw_text(utf8, storage), first)) {
                ADD_FAILURE() << page << ": " << bad << " text lengths differ through the cut markers; first: " << first;
            }
        } else {
            ADD_FAILURE() << page << ": the pruned page parses to another tree, " << first_difference(whole.html, pruned.html);
        }
    }
    std::printf("[ info ] %zu / %zu pages parse to the same tree with script and style text cut; "
                "%zu of %zu script and style elements with text were cut, %zu left whole\n",
                same, pages.size(), with_text - left_whole, with_text, left_whole);
}

TEST(RawTextEquivalence, MozillaPagesParseToTheSameTree) {
    const test::CorpusLookup lookup = test::find_corpus_subdir("readability-test-pages");
    ASSERT_TRUE(lookup.dir) << "corpus not found; looked in: " << lookup.tried_text();
    std::vector<fs::path> pages;
    for (const auto& entry : fs::directory_iterator(*lookup.dir)) {
        if (fs::exists(entry.path() / "source.html")) {
            pages.push_back(entry.path() / "source.html");
        }
    }
    std::sort(pages.begin(), pages.end());
    ASSERT_GE(pages.size(), 100U);
    check_pages(pages);
}

TEST(RawTextEquivalence, TrafilaturaPagesParseToTheSameTree) {
    const test::CorpusLookup lookup = test::find_corpus_subdir("trafilatura-dev");
    ASSERT_TRUE(lookup.dir) << "corpus not found; looked in: " << lookup.tried_text();
    std::vector<fs::path> pages;
    for (const auto& entry : fs::directory_iterator(*lookup.dir / "html")) {
        pages.push_back(entry.path());
    }
    std::sort(pages.begin(), pages.end());
    ASSERT_GE(pages.size(), 500U);
    check_pages(pages);
}

}  // namespace
}  // namespace pith::dom
