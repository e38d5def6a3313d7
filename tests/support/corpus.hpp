// Where tests and benchmarks find the shared corpora: $PITH_CORPUS, else
// ../shared/corpus from the working directory, else ../shared/corpus beside
// the source tree. A test that finds nothing fails with the paths it tried.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::test {

struct CorpusLookup {
    std::optional<std::filesystem::path> dir;
    std::vector<std::string> tried;

    [[nodiscard]] std::string tried_text() const {
        std::string out;
        for (const std::string& path : tried) {
            out += (out.empty() ? "" : ", ") + path;
        }
        return out;
    }
};

// `subdir` ("readability-test-pages", "trafilatura-dev") under the first
// corpus root that has it.
inline CorpusLookup find_corpus_subdir(std::string_view subdir) {
    namespace fs = std::filesystem;
    std::vector<fs::path> roots;
    if (const char* env = std::getenv("PITH_CORPUS"); env != nullptr && *env != '\0') {
        roots.emplace_back(env);
    }
    std::error_code ec;
    if (const fs::path cwd = fs::current_path(ec); !ec) {
        roots.push_back(cwd / ".." / "shared" / "corpus");
    }
    roots.push_back(fs::path(PITH_SOURCE_DIR) / ".." / "shared" / "corpus");
    CorpusLookup lookup;
    for (const fs::path& root : roots) {
        const fs::path candidate = root / subdir;
        lookup.tried.push_back(candidate.string());
        if (fs::is_directory(candidate, ec)) {
            const fs::path canonical = fs::weakly_canonical(candidate, ec);
            lookup.dir = ec ? candidate : canonical;
            return lookup;
        }
    }
    return lookup;
}

}  // namespace pith::test
