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
            // add_character and add_space for eight ASCII bytes at once.
            text.units += text::collapsed_units(block, text.trail_space);
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

Measures::Measures(Node* root) {
    std::vector<Node*> elements;
    for (Node* n = root; n != nullptr; n = dom::next_element(n, root)) {
        elements.push_back(n);
        n->score.index = static_cast<std::uint32_t>(elements.size());
    }
    measures_.resize(elements.size() + 1);
    std::vector<CollapsedText> texts(elements.size() + 1);
    std::size_t punctuation = 0;  // not wanted here
    for (auto it = elements.rbegin(); it != elements.rend(); ++it) {  // children before parents
        const Node* element = *it;
        CollapsedText text;
        double links = 0.0;
        for (const Node* child = element->first_child; child != nullptr; child = child->next) {
            if (child->is_text()) {
                measure_text(child->data, text, punctuation);
            } else if (child->is_element()) {
                const Measure& below = measures_[child->score.index];
                text.append(texts[child->score.index]);
                links += below.links_below + own_link_text(child, below.text);
            }
        }
        texts[element->score.index] = text;
        measures_[element->score.index] = Measure{text.length(), links};
    }
}

std::size_t Measures::text(const Node* element) const { return find(element).text; }

double Measures::link_density(const Node* element) const {
    const Measure& m = find(element);
    return m.text == 0 ? 0.0 : m.links_below / static_cast<double>(m.text);
}

double Measures::link_density_with_self(const Node* element) const {
    const Measure& m = find(element);
    return m.text == 0 ? 0.0 : (m.links_below + own_link_text(element, m.text)) / static_cast<double>(m.text);
}

const Measures::Measure& Measures::find(const Node* element) const {
    const std::uint32_t index = element->score.index;
    return index < measures_.size() ? measures_[index] : measures_.front();
}

double Measures::own_link_text(const Node* element, std::size_t text) {
    if (!element->is(Tag::a)) {
        return 0.0;
    }
    // Source: Readability.js: in-page (#) links weigh 0.3.
    return static_cast<double>(text) * (patterns::hash_url(element->attr("href")) ? 0.3 : 1.0);
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
