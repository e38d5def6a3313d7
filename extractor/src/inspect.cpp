#include "pith/inspect.hpp"

#include <array>
#include <unordered_map>

#include "text/text.hpp"

namespace pith::extract {

namespace {

// Scripts written without spaces between words: each character is a word.
bool is_unspaced_script(char32_t c) noexcept {
    return (c >= 0x0E00 && c <= 0x0E7F)      // Thai
           || (c >= 0x2E80 && c <= 0x9FFF)   // CJK radicals, kana, ideographs
           || (c >= 0xF900 && c <= 0xFAFF)   // CJK compatibility ideographs
           || (c >= 0x20000 && c <= 0x3FFFF);
}

// Calls `each` with every word of `s`, as views into it.
template <typename Each>
void for_each_word(std::string_view s, Each&& each) {
    std::size_t pos = 0;
    std::size_t word_start = std::string_view::npos;
    const auto close = [&](std::size_t end) {
        if (word_start != std::string_view::npos) {
            each(s.substr(word_start, end - word_start));
            word_start = std::string_view::npos;
        }
    };
    while (pos < s.size()) {
        const std::size_t start = pos;
        const char32_t c = text::next_code_point(s, pos);
        if (text::is_js_space(c)) {
            close(start);
        } else if (is_unspaced_script(c)) {
            close(start);
            each(s.substr(start, pos - start));
        } else if (word_start == std::string_view::npos) {
            word_start = start;
        }
    }
    close(s.size());
}

constexpr std::array<Strategy, 4> kAllStrategies{Strategy::readability, Strategy::lectito, Strategy::fitness,
                                                 Strategy::automatic};

StrategySummary summary_of(Strategy strategy, const Article& article) {
    StrategySummary summary;
    summary.strategy = strategy;
    summary.status = article.status;
    summary.confidence = article.confidence;
    summary.length = article.length;
    summary.text = article.text.value_or(std::string());
    // The pass whose root the article came from: auto's kept strategy's, or
    // the last accepted (or best) pass.
    for (const StrategyOutcome& outcome : article.strategies) {
        if (outcome.kept) {
            summary.chosen_root = outcome.chosen_root;
            summary.chosen_root_index = outcome.chosen_root_index;
            return summary;
        }
    }
    for (auto pass = article.passes.rbegin(); pass != article.passes.rend(); ++pass) {
        if (pass->outcome == "accepted" || pass->outcome == "best_attempt") {
            summary.chosen_root = pass->chosen_root;
            summary.chosen_root_index = pass->chosen_root_index;
            break;
        }
    }
    return summary;
}

}  // namespace

double words_held(std::string_view a, std::string_view b) {
    std::unordered_map<std::string_view, std::size_t> in_b;
    for_each_word(b, [&in_b](std::string_view word) { ++in_b[word]; });
    std::size_t words = 0;
    std::size_t held = 0;
    for_each_word(a, [&](std::string_view word) {
        ++words;
        if (const auto found = in_b.find(word); found != in_b.end() && found->second > 0) {
            --found->second;
            ++held;
        }
    });
    return words == 0 || in_b.empty() ? 0.0 : static_cast<double>(held) / static_cast<double>(words);
}

Inspection inspect(std::string_view html_bytes, const ExtractOptions& options) {
    Inspection inspection;
    ExtractOptions asked = options;
    asked.annotate_source = true;
    asked.markdown = true;
    asked.clean_text = true;
    inspection.article = extract(html_bytes, asked);

    std::vector<std::string> texts;
    for (const Strategy strategy : kAllStrategies) {
        if (strategy == options.strategy) {
            inspection.strategies.push_back(summary_of(strategy, inspection.article));
            texts.push_back(inspection.article.text_content);
            continue;
        }
        ExtractOptions other = options;
        other.strategy = strategy;
        other.annotate_source = false;
        other.markdown = false;
        other.clean_text = true;
        Article article = extract(html_bytes, other);
        inspection.strategies.push_back(summary_of(strategy, article));
        texts.push_back(std::move(article.text_content));
    }
    for (std::size_t i = 0; i < texts.size(); ++i) {
        for (std::size_t j = 0; j < texts.size(); ++j) {
            inspection.strategies[i].agreement.push_back(words_held(texts[i], texts[j]));
        }
    }
    return inspection;
}

}  // namespace pith::extract
