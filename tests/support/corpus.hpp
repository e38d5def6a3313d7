// Where tests and benchmarks find the shared corpora: $PITH_CORPUS, else
// ../shared/corpus from the working directory, else ../shared/corpus beside
// the source tree. A test that finds nothing fails with the paths it tried.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::test {

struct CorpusLookup {
    std::optional<std::filesystem::path> dir;
    std::vector<std::string> tried;

    [[nodiscard]] std::string tried_text() const;
};

// `subdir` ("readability-test-pages", "trafilatura-dev", "wcxb-dev") under
// `root` when one is given (a bench's --corpus), else under the first corpus
// root that has it.
[[nodiscard]] CorpusLookup find_corpus_subdir(std::string_view subdir,
                                              const std::optional<std::filesystem::path>& root = std::nullopt);

}  // namespace pith::test
