// Step 8 of extract(): the chosen article post-processed, serialised and
// rendered.
#include <chrono>
#include <vector>

#include "page/predicates.hpp"
#include "page/prep.hpp"
#include "render/render.hpp"
#include "text/text.hpp"

namespace pith::extract {

void finish_article(dom::Document& doc, dom::Node* content, const std::optional<std::string>& dir,
                    std::string_view base_url, const ExtractOptions& options, Article& article) {
    using Clock = std::chrono::steady_clock;
    const auto micros_since = [](Clock::time_point start) {
        return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
    };
    auto stage_start = Clock::now();
    article.dir = dir;
    // Classes name code blocks' languages; post-processing removes them.
    const CodeLanguages languages = options.render.markdown ? code_languages(content) : CodeLanguages{};
    const WrapperText wrapper_text = options.strategy == Strategy::readability ? WrapperText::ending_in_non_space
                                                                               : WrapperText::not_blank;
    post_process(doc, content, options.render, options.input.url, base_url, wrapper_text);
    if (!article.excerpt || article.excerpt->empty()) {
        if (const std::vector<dom::Node*> ps = elements_by_tag(content, dom::Tag::p); !ps.empty()) {
            article.excerpt = std::string(text::trim(dom::text_content(ps.front())));
        }
    }
    article.content = dom::inner_html(content);
    article.text_content = dom::text_content(content);
    article.length = text::utf16_length(article.text_content);
    article.timings.serialize_us = micros_since(stage_start);
    if (options.render.markdown || options.render.clean_text) {
        stage_start = Clock::now();
        if (options.render.markdown) {
            article.markdown = to_markdown(content, languages);
        }
        if (options.render.clean_text) {
            article.text = to_clean_text(content);
        }
        article.timings.render_us = micros_since(stage_start);
    }
}

}  // namespace pith::extract
