// The inspector's entry point: every strategy on one page, beside extract().
#include "pith/inspect.hpp"

#include <algorithm>
#include <array>
#include <exception>
#include <optional>
#include <unordered_map>

#include "classify/page_type.hpp"
#include "pipeline.hpp"
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
    if (article.article_pass) {
        const PassDiagnostics& pass = article.passes[*article.article_pass];
        summary.chosen_root = pass.chosen_root;
        summary.chosen_root_index = pass.chosen_root_index;
    }
    return summary;
}

// A text's words with how often each occurs, as views into the text.
struct WordCounts {
    std::unordered_map<std::string_view, std::size_t> counts;
    std::size_t total = 0;
};

WordCounts count_words(std::string_view text) {
    WordCounts words;
    for_each_word(text, [&words](std::string_view word) {
        ++words.counts[word];
        ++words.total;
    });
    return words;
}

// The share of `a`'s words that `b` holds, each as often as it occurs in both.
double share_held(const WordCounts& a, const WordCounts& b) {
    if (a.total == 0 || b.total == 0) {
        return 0.0;
    }
    std::size_t held = 0;
    for (const auto& [word, count] : a.counts) {
        if (const auto found = b.counts.find(word); found != b.counts.end()) {
            held += std::min(count, found->second);
        }
    }
    return static_cast<double>(held) / static_cast<double>(a.total);
}

}  // namespace

double words_held(std::string_view a, std::string_view b) { return share_held(count_words(a), count_words(b)); }

Inspection inspect(std::string_view html_bytes, const ExtractOptions& options) {
    Inspection inspection;
    ExtractOptions asked = options;
    asked.render.annotate_source = true;
    asked.render.markdown = true;
    asked.render.clean_text = true;
    // The page is loaded and prepared once; each strategy then runs on it as
    // extract() would (they copy it and never change it). With reveal_hidden,
    // hidden content the other strategies take as shown stays hidden for
    // readability: when the page has some, readability runs on a page
    // prepared again.
    Article prepared;
    std::optional<PreparedPage> page;
    const auto prepare = [&](const ExtractOptions& for_options, Article& into) {
        std::optional<PreparedPage> out;
        if (std::optional<LoadedPage> loaded = load_page(html_bytes, for_options, into)) {
            out = prepare_page(std::move(*loaded), for_options, into);
        }
        if (out) {
            classify(*out, for_options);
        }
        return out;
    };
    try {
        page = prepare(asked, prepared);
        if (page) {
            prepare_for_strategy(*page, asked);
        }
        inspection.article = page ? article_from_page(*page, asked, prepared) : prepared;
        if (page && options.strategy == Strategy::readability) {  // the strategies that follow reveal
            ExtractOptions revealing = options;
            revealing.strategy = Strategy::automatic;
            prepare_for_strategy(*page, revealing);
        }
    } catch (const std::exception& e) {
        inspection.article = Article{};
        inspection.article.error = Error{ErrorCode::internal, e.what()};
        page.reset();
    }
    if (page) {
        page->source_copy = nullptr;  // annotated once, for the strategy asked for
    }

    // Each article's words are counted once; they view the texts kept here.
    std::vector<std::string> texts;
    texts.reserve(kAllStrategies.size());
    for (const Strategy strategy : kAllStrategies) {
        if (strategy == options.strategy) {
            inspection.strategies.push_back(summary_of(strategy, inspection.article));
            texts.push_back(inspection.article.text_content);
            continue;
        }
        ExtractOptions other = options;
        other.strategy = strategy;
        other.render.annotate_source = false;
        other.render.markdown = false;
        other.render.clean_text = true;
        Article article;
        try {
            if (page && (page->revealed > 0 || page->revealed_panels > 0) && strategy == Strategy::readability) {
                Article own_prepared;
                std::optional<PreparedPage> own = prepare(other, own_prepared);
                article = own ? article_from_page(*own, other, own_prepared) : own_prepared;
            } else {
                article = page ? article_from_page(*page, other, prepared) : inspection.article;
            }
        } catch (const std::exception& e) {
            article.error = Error{ErrorCode::internal, e.what()};
        }
        inspection.strategies.push_back(summary_of(strategy, article));
        texts.push_back(std::move(article.text_content));
    }
    std::vector<WordCounts> words;
    for (const std::string& text : texts) {
        words.push_back(count_words(text));
    }
    for (std::size_t i = 0; i < words.size(); ++i) {
        for (const WordCounts& other : words) {
            inspection.strategies[i].agreement.push_back(share_held(words[i], other));
        }
    }
    return inspection;
}

}  // namespace pith::extract
