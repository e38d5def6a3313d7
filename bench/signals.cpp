// pith_bench_signals: what the fitted models read, page by page, for the
// fitting scripts of bench/fit/. For each page named on standard input (one
// path a line, optionally a tab and the page's URL) it prints one JSON line:
//   {"file", "page_type_features": [...]}
// with the features in page_type_feature_names() order (the first line is
// {"page_type_feature_names": [...]}). The pages run through the same stages
// as `pith extract` (load, prepare), under its default budgets.
//
// usage: pith_bench_signals < manifest
#include <cstdio>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "classify/page_type.hpp"
#include "files.hpp"
#include "page/page.hpp"

int main() {
    using namespace pith::extract;
    nlohmann::json names = nlohmann::json::array();
    for (const std::string_view name : page_type_feature_names()) {
        names.push_back(name);
    }
    std::cout << nlohmann::json{{"page_type_feature_names", names}}.dump() << '\n';
    std::string line;
    while (std::getline(std::cin, line)) {
        const std::size_t tab = line.find('\t');
        const std::string path = line.substr(0, tab);
        ExtractOptions options;
        if (tab != std::string::npos) {
            options.input.url = line.substr(tab + 1);
        }
        nlohmann::json out = {{"file", path}};
        const auto bytes = pith::test::read_file(path);
        Article article;
        std::optional<LoadedPage> loaded = bytes ? load_page(*bytes, options, article) : std::nullopt;
        std::optional<PreparedPage> page = loaded ? prepare_page(std::move(*loaded), options, article) : std::nullopt;
        if (page) {
            const PageTypeFeatures features = page_type_features(page->doc, page->declarations, page_url(*page, options));
            out["page_type_features"] = std::vector<double>(features.begin(), features.end());
        } else {
            out["error"] = article.error ? article.error->message : "unreadable";
        }
        std::cout << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    }
    return 0;
}
