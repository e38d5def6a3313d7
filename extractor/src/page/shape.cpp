#include "page/shape.hpp"

#include <cstdint>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "dom/walk.hpp"
#include "page/predicates.hpp"
#include "text/text.hpp"

namespace pith::extract {

namespace {

// A line as content_shape() reads it: the words of one block, hashed as
// their bytes with single spaces between them (FNV-1a).
struct Line {
    std::size_t words = 0;
    bool digit = false;
    bool in_word = false;
    std::uint64_t hash = 14695981039346656037ULL;
    std::uint32_t tail = 0;  // the last three bytes that are not white space

    void add(std::string_view text) noexcept {
        for (const char c : text) {
            if (text::is_html_space(c)) {
                in_word = false;
                continue;
            }
            if (!in_word) {
                if (words > 0) {
                    mix(' ');
                }
                ++words;
                in_word = true;
            }
            digit = digit || (c >= '0' && c <= '9');
            mix(c);
            tail = ((tail << 8U) | static_cast<unsigned char>(c)) & 0xFFFFFFU;
        }
    }
    void mix(char c) noexcept {
        hash ^= static_cast<unsigned char>(c);
        hash *= 1099511628211ULL;
    }
    // Whether it ends as a sentence does: ".", "!", "?" or their CJK forms
    // (U+3002, U+FF01, U+FF1F in UTF-8).
    [[nodiscard]] bool ends_sentence() const noexcept {
        const std::uint32_t last = tail & 0xFFU;
        return last == '.' || last == '!' || last == '?' || tail == 0xE38082U || tail == 0xEFBC81U ||
               tail == 0xEFBC9FU;
    }
};

struct ShapeFrame {
    const dom::Node* node;
    std::size_t owner;  // the frame of the nearest block, this one when it is a block
    Line line;
};

struct ShapeWalker {
    ContentShape shape;
    std::unordered_set<std::uint64_t> seen;

    void text(const dom::Node* node, std::vector<ShapeFrame>& frames) {
        frames[frames.back().owner].line.add(node->data);
    }
    dom::Visit enter(dom::Node*& node, std::vector<ShapeFrame>& frames) {
        const bool block = !is_inline_element(node);
        frames.push_back({node, block ? frames.size() : frames.back().owner, {}});
        return dom::Visit::descend;
    }
    void close(std::vector<ShapeFrame>& frames) {
        ShapeFrame& frame = frames.back();
        if (frame.owner == frames.size() - 1 && frame.line.words > 0) {
            const Line& line = frame.line;
            ++shape.lines;
            shape.words += line.words;
            shape.short_line_words += line.words < 6 ? line.words : 0;
            shape.sentence_lines += line.ends_sentence() ? 1 : 0;
            shape.digit_lines += line.digit ? 1 : 0;
            shape.repeated_lines += seen.insert(line.hash).second ? 0 : 1;
        }
        frames.pop_back();
    }
};

// Whether a text, read in pieces, ends a sentence somewhere: ".", "!" or "?"
// (or their CJK forms, which need no space after them) right after a word and
// before white space or the end. "Loading..." and "example.com" end none.
struct SentenceScan {
    char before = ' ';     // the last byte read
    bool pending = false;  // it ended a word with ".", "!" or "?": a sentence if white space or the end follows
    bool found = false;

    void add(std::string_view piece) noexcept {
        for (const char c : piece) {
            if (pending && text::is_html_space(c)) {
                found = true;
                return;
            }
            const bool mark = c == '.' || c == '!' || c == '?';
            const bool after_word = !text::is_html_space(before) && before != '.' && before != '!' && before != '?';
            pending = mark && after_word;
            before = c;
        }
        for (const std::string_view mark : {"\xE3\x80\x82", "\xEF\xBC\x81", "\xEF\xBC\x9F"}) {  // 。！？
            found = found || piece.find(mark) != std::string_view::npos;
        }
    }
    [[nodiscard]] bool holds_sentence() const noexcept { return found || pending; }
};

}  // namespace

ContentShape content_shape(const dom::Node* content) {
    ShapeWalker walker;
    std::vector<ShapeFrame> frames{{content, 0, {}}};
    dom::walk_post_order(frames, walker);
    return walker.shape;
}

bool reads_as_furniture(const dom::Node* content, std::size_t text_length, std::size_t page_text_length) {
    constexpr std::size_t kFewWords = 40;
    constexpr std::size_t kLongestFurniture = 1000;  // UTF-16 units; longer is never kFewWords words of furniture
    if (text_length >= kLongestFurniture || text_length * 2 >= page_text_length) {
        return false;
    }
    // One walk for the images and the sentences; content_shape() counts the words.
    SentenceScan sentences;
    for (const dom::Node* n = content; n != nullptr && !sentences.found; n = dom::next_node(n, content)) {
        if (n->is(dom::Tag::img) || n->is(dom::Tag::picture) || n->is(dom::Tag::video)) {
            return false;
        }
        if (n->is_text()) {
            sentences.add(n->data);
        }
    }
    if (sentences.holds_sentence()) {
        return false;
    }
    const ContentShape shape = content_shape(content);
    return shape.words < kFewWords && shape.sentence_lines == 0;
}

}  // namespace pith::extract
