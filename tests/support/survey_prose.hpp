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

}  // namespace pith::test
