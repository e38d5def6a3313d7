#include "corpus.hpp"

#include <cstdlib>

#ifndef PITH_SOURCE_DIR
#error "PITH_SOURCE_DIR is defined by CMake on pith_support"
#endif

namespace pith::test {

namespace fs = std::filesystem;

std::string CorpusLookup::tried_text() const {
    std::string out;
    for (const std::string& path : tried) {
        out += (out.empty() ? "" : ", ") + path;
    }
    return out;
}

CorpusLookup find_corpus_subdir(std::string_view subdir, const std::optional<fs::path>& root) {
    std::vector<fs::path> roots;
    std::error_code ec;
    if (root) {
        roots.push_back(*root);
    } else {
        if (const char* env = std::getenv("PITH_CORPUS"); env != nullptr && *env != '\0') {
            roots.emplace_back(env);
        }
        if (const fs::path cwd = fs::current_path(ec); !ec) {
            roots.push_back(cwd / ".." / "shared" / "corpus");
        }
        roots.push_back(fs::path(PITH_SOURCE_DIR) / ".." / "shared" / "corpus");
    }
    CorpusLookup lookup;
    for (const fs::path& candidate_root : roots) {
        const fs::path candidate = candidate_root / subdir;
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
