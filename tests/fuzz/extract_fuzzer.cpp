// libFuzzer harness: arbitrary bytes through decode, prune, parse, the passes,
// metadata, serialisation, the Markdown and clean-text renderings, the
// inspector's annotated page and the Article JSON. The first byte picks options, so budgets, flags and the
// declared charset are explored too.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "pith/article_json.hpp"
#include "pith/extract.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    using pith::extract::PassFlags;
    const std::uint8_t knobs = data[0];
    const std::string_view html(reinterpret_cast<const char*>(data + 1), size - 1);

    pith::extract::ExtractOptions options;
    options.input.url = (knobs & 0x01U) != 0 ? "https://example.com/dir/page.html" : "";
    static constexpr const char* kCharsets[] = {"", "utf-8", "windows-1252", "shift_jis", "utf-16le", "gbk", "bogus", "iso-8859-5"};
    options.input.charset = kCharsets[(knobs >> 1U) & 0x7U];
    options.passes.flags = static_cast<PassFlags>((knobs >> 4U) & 0x7U);
    options.passes.char_threshold = (knobs & 0x80U) != 0 ? 20 : 500;
    options.budgets.max_elements = (knobs & 0x80U) != 0 ? 2000 : 0;
    options.budgets.max_nesting_depth = 512;
    options.render.keep_classes = (knobs & 0x10U) != 0;
    options.render.markdown = true;  // both renderings walk every article the fuzzer finds
    options.render.clean_text = true;
    options.render.annotate_source = (knobs & 0x01U) != 0;  // the inspector's copy, marks and serialisation

    const pith::extract::Article article = pith::extract::extract(html, options);
    pith::extract::JsonOptions json_options;
    json_options.diagnostics = true;
    json_options.include_markdown = true;
    json_options.include_clean_text = true;
    const std::string out =
        pith::extract::to_json(article, json_options).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (out.empty()) {
        __builtin_trap();  // to_json always yields an object
    }
    // The memory estimate's share for the annotated page holds it (the marks'
    // titles and style are a few kilobytes whatever the page).
    if (article.annotated_source && article.cost &&
        article.annotated_source->size() > pith::extract::annotated_source_bytes(*article.cost) + 65536) {
        __builtin_trap();
    }
    (void)pith::extract::is_probably_readable(html, options.input.charset);
    return 0;
}
