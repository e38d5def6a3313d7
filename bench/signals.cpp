// pith_bench_signals: what the fitted models read, page by page, for the
// fitting scripts of bench/fit/. For each page named on standard input (one
// path a line, optionally a tab and the page's URL) it prints one JSON line:
//   {"file", "page_type_features": [...], "page_words": {word: count},
//    "page_word_total": n}
// with the features in page_type_feature_names() order (the first line is
// {"page_type_feature_names": [...]}) and every word of the body's text as
// the page-word features read it (page_word_counts). The pages run through
// the same stages as `pith extract` (load, prepare), under its default
// budgets.
//
// With --blocks it prints instead, per page, the blocks of the main region
// that auto's pruned-region candidate reads (strategies/blocks.hpp), on the
// page as auto's passes see it (hidden content revealed, unshown text gone):
//   {"file", "blocks": [[features...]...], "texts": [...]}
// after a first line {"block_feature_names": [...]}; a manifest line's third
// field, a fold, picks the page-type model fitted without that fold.
//
// usage: pith_bench_signals [--blocks] < manifest
#include <cstdio>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "strategies/blocks.hpp"
#include "classify/page_type.hpp"
#include "strategies/run.hpp"
#include "files.hpp"
#include "page/page.hpp"
#include "pipeline.hpp"

namespace {

using namespace pith::extract;

// The page's main region as auto's region pass finds it, and its blocks.
nlohmann::json region_blocks_of(PreparedPage& page, const ExtractOptions& options) {
    PassInput input;
    input.flags = PassFlags::none;
    input.page_type = page.page_type->layout_type;
    input.page_type_probabilities = page.page_type->layout_probabilities;
    input.model_fold = options.runtime.model_fold;
    PassState state;
    std::vector<PassDiagnostics> passes;
    StrategyRun run = run_staged(Strategy::region, page.doc, options, input, state, passes);
    nlohmann::json features = nlohmann::json::array();
    nlohmann::json texts = nlohmann::json::array();
    if (run.chosen) {
        for (const RegionBlock& block : region_blocks(run.chosen->content, input.page_type_probabilities)) {
            features.push_back(std::vector<double>(block.features.begin(), block.features.end()));
            texts.push_back(block_text(block));
        }
    }
    return {{"blocks", features}, {"texts", texts}};
}

}  // namespace

int main(int argc, char** argv) {
    const bool blocks = argc > 1 && std::string_view(argv[1]) == "--blocks";
    nlohmann::json names = nlohmann::json::array();
    if (blocks) {
        for (const std::string_view name : block_feature_names()) {
            names.push_back(name);
        }
        std::cout << nlohmann::json{{"block_feature_names", names}}.dump() << '\n';
    } else {
        for (const std::string_view name : page_type_feature_names()) {
            names.push_back(name);
        }
        std::cout << nlohmann::json{{"page_type_feature_names", names}}.dump() << '\n';
    }
    std::string line;
    while (std::getline(std::cin, line)) {
        std::vector<std::string> fields;
        for (std::size_t start = 0;;) {
            const std::size_t tab = line.find('\t', start);
            fields.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
            if (tab == std::string::npos) {
                break;
            }
            start = tab + 1;
        }
        const std::string& path = fields[0];
        ExtractOptions options;
        if (fields.size() > 1) {
            options.input.url = fields[1];
        }
        if (fields.size() > 2 && !fields[2].empty()) {
            options.runtime.model_fold = std::stoi(fields[2]);
        }
        nlohmann::json out = {{"file", path}};
        const auto bytes = pith::test::read_file(path);
        Article article;
        std::optional<LoadedPage> loaded = bytes ? load_page(*bytes, options, article) : std::nullopt;
        std::optional<PreparedPage> page = loaded ? prepare_page(std::move(*loaded), options, article) : std::nullopt;
        if (!page) {
            out["error"] = article.error ? article.error->message : "unreadable";
        } else if (blocks) {
            classify(*page, options);
            prepare_for_strategy(*page, options);  // the page auto's passes see
            out.update(region_blocks_of(*page, options));
        } else {
            const PageTypeFeatures features = page_type_features(page->doc, page->declarations, page_url(*page, options));
            out["page_type_features"] = std::vector<double>(features.begin(), features.end());
            const PageWordCounts words = page_word_counts(page->doc);  // fit_page_model.py chooses kPageWords
            out["page_words"] = words.words;
            out["page_word_total"] = words.total;
        }
        std::cout << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    }
    return 0;
}
