#include "strategies/declared.hpp"

#include <string>
#include <unordered_map>

#include "dom/inner_text.hpp"

namespace pith::extract {

namespace {

// Words as lower-case runs of ASCII letters and digits and of non-ASCII
// bytes, counted.
std::unordered_map<std::string, int> word_counts(std::string_view s) {
    std::unordered_map<std::string, int> counts;
    std::string word;
    const auto flush = [&] {
        if (!word.empty()) {
            ++counts[word];
            word.clear();
        }
    };
    for (const char c : s) {
        const auto b = static_cast<unsigned char>(c);
        if ((b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') || b >= 0x80) {
            word.push_back(c);
        } else if (b >= 'A' && b <= 'Z') {
            word.push_back(static_cast<char>(b - 'A' + 'a'));
        } else {
            flush();
        }
    }
    flush();
    return counts;
}

// Out of fold on wcxb-dev's product pages, appending when under half of the
// description was there gained more than at 0.3 or 0.7.
constexpr double kMissingShare = 0.5;

}  // namespace

bool add_declared_description(Attempt& chosen, std::string_view description) {
    if (description.empty() || chosen.content == nullptr) {
        return false;
    }
    const std::unordered_map<std::string, int> wanted = word_counts(description);
    const std::unordered_map<std::string, int> have = word_counts(dom::inner_text(chosen.content));
    int total = 0;
    int present = 0;
    for (const auto& [word, count] : wanted) {
        total += count;
        if (const auto it = have.find(word); it != have.end()) {
            present += std::min(count, it->second);
        }
    }
    if (total == 0 || static_cast<double>(present) >= kMissingShare * total) {
        return false;
    }
    // The article is a <div> holding the page <div>; the paragraph goes last in it.
    dom::Node* page = chosen.content->first_child != nullptr && chosen.content->first_child->is_element()
                          ? chosen.content->first_child
                          : chosen.content;
    dom::Node* paragraph = chosen.doc.create_element(dom::Tag::p);
    dom::append_child(paragraph, chosen.doc.create_text(description));
    dom::append_child(page, paragraph);
    chosen.text_length = dom::inner_text_length(chosen.content);
    return true;
}

}  // namespace pith::extract
