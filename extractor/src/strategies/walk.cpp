// The measuring walk's pieces: reading a text node's characters into a
// collapsed length and a punctuation count, and the shared preprocessing.
#include "strategies/walk.hpp"

#include <cstdint>

#include "page/patterns.hpp"
#include "page/predicates.hpp"
#include "text/ascii_block.hpp"
#include "text/text.hpp"

namespace pith::extract {

using dom::Node;
using dom::Tag;

namespace {

// Seed 000 counts commas and periods. Besides ASCII ',' and '.', the commas
// Readability's REGEXPS.commas knows and the CJK, Arabic and Devanagari full
// stops count, so that pages in those scripts are not scored as unpunctuated.
bool is_comma_or_period(char32_t c) noexcept {
    switch (c) {
    case U',': case U'.':
    case 0x060C: case 0xFE50: case 0xFE10: case 0xFE11: case 0x2E41: case 0x2E34: case 0x2E32: case 0xFF0C:
    case 0x3002: case 0xFF0E: case 0xFF61: case 0x06D4: case 0x0964:
        return true;
    default:
        return false;
    }
}

}  // namespace

void measure_text(std::string_view s, CollapsedText& text, std::size_t& punctuation) noexcept {
    std::size_t pos = 0;
    while (pos < s.size()) {
        text::AsciiBlock block;
        if (text.content && text::ascii_block(s, pos, block)) {
            // add_character and add_space for eight ASCII bytes at once: a
            // character after white space closes a run, which counts one.
            const std::uint64_t after = (block.space << 8U) | (text.trail_space ? 0x80U : 0U);
            text.units += static_cast<std::size_t>(text::count_of(block.content) + text::count_of(block.content & after));
            text.trail_space = (block.space >> 63U) != 0;
            punctuation += static_cast<std::size_t>(text::count_of(block.punctuation));
            pos += 8;
            continue;
        }
        const auto b = static_cast<unsigned char>(s[pos]);
        if (b < 0x80) {
            ++pos;
            if (b == ' ' || (b >= 0x09 && b <= 0x0D)) {
                text.add_space();
            } else {
                text.add_character(1);
                punctuation += static_cast<std::size_t>(b == ',' || b == '.');
            }
            continue;
        }
        const char32_t c = text::next_code_point(s, pos);
        if (text::is_js_space(c)) {
            text.add_space();
        } else {
            text.add_character(c >= 0x10000 ? 2 : 1);
            punctuation += static_cast<std::size_t>(is_comma_or_period(c));
        }
    }
}

bool preprocessing_removes(const Node* element, PassFlags flags) {
    if (element->is(Tag::html) || element->is(Tag::body)) {
        return false;
    }
    if (element->is(Tag::iframe) || !is_probably_visible(element)) {
        return true;
    }
    if (!has(flags, PassFlags::strip_unlikelys) || element->is(Tag::a)) {
        return false;
    }
    if (class_name(element).empty() && element->attr("id").empty()) {
        return false;  // nothing to match: spares building the string on most elements
    }
    const std::string match = match_string(element);
    return patterns::unlikely_candidate(match) && !patterns::maybe_candidate(match) &&
           !has_ancestor_tag(element, Tag::table) && !has_ancestor_tag(element, Tag::code);
}

WalkStep preprocess_step(Node*& cur, PassFlags flags, std::size_t& elements_seen,
                         std::chrono::steady_clock::time_point deadline) {
    constexpr std::size_t kElementsPerClockRead = 4096;
    ++elements_seen;
    if (elements_seen % kElementsPerClockRead == 0 && std::chrono::steady_clock::now() >= deadline) {
        return WalkStep::deadline;
    }
    if (!preprocessing_removes(cur, flags)) {
        return WalkStep::enter;
    }
    Node* next = cur->next;
    dom::detach(cur);
    cur = next;
    return WalkStep::removed;
}

}  // namespace pith::extract
