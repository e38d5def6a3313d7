// Paragraphs of prose for extraction fixtures: enough text, with commas and
// full stops, that every strategy takes them for an article.
#pragma once

#include <string>

namespace pith::test {

inline std::string survey_paragraphs(int count, const std::string& topic) {
    std::string out;
    for (int i = 0; i < count; ++i) {
        out += "<p>The " + topic + " survey went on for years, and its notes, maps and measurements fill a shelf "
               "of volumes, each one adding to what the last had shown.</p>";
    }
    return out;
}

// `inside` wrapped in `depth` copies of the element `open` starts ("<div
// hidden>"), each closed with `close` ("</div>").
inline std::string nested_in(const std::string& open, const std::string& close, int depth, const std::string& inside) {
    std::string out;
    for (int i = 0; i < depth; ++i) {
        out += open;
    }
    out += inside;
    for (int i = 0; i < depth; ++i) {
        out += close;
    }
    return out;
}

}  // namespace pith::test
