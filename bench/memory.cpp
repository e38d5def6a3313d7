// Peak memory for one large page (issue 6: below 10x the page's size).
//
// Builds a page of real markup, the <body> contents of trafilatura-dev's
// largest valid-UTF-8 pages one after another until it reaches --mb MiB, writes
// it to a temporary file, and runs `pith extract` on it as a child process,
// reading the child's peak resident set size from wait4(). The figure is the
// whole process as a user runs it: the page read into memory, the parse, the
// passes and the output.
//
// Usage: pith_bench_memory [--mb N] [--max-ratio R] [--pith PATH] [--corpus DIR]
// Exit status: 0 within the ratio, 1 over it, 2 setup errors.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "child_peak.hpp"
#include "corpus.hpp"
#include "pith/decode.hpp"

namespace fs = std::filesystem;

namespace {

std::string read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// The markup between <body ...> and </body>, or "" when the page has none.
std::string body_of(const std::string& page) {
    const std::string folded = lower(page);
    const std::size_t open = folded.find("<body");
    const std::size_t close = folded.rfind("</body>");
    if (open == std::string::npos || close == std::string::npos) {
        return {};
    }
    const std::size_t start = folded.find('>', open);
    return start == std::string::npos || start >= close ? std::string() : page.substr(start + 1, close - start - 1);
}

}  // namespace

int main(int argc, char** argv) {
    double megabytes = 10.0;
    double max_ratio = 10.0;
    std::string pith = PITH_BINARY;
    std::string corpus_override;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--mb" && i + 1 < argc) {
            megabytes = std::atof(argv[++i]);
        } else if (arg == "--max-ratio" && i + 1 < argc) {
            max_ratio = std::atof(argv[++i]);
        } else if (arg == "--pith" && i + 1 < argc) {
            pith = argv[++i];
        } else if (arg == "--corpus" && i + 1 < argc) {
            corpus_override = argv[++i];
        } else {
            std::fprintf(stderr, "usage: pith_bench_memory [--mb N] [--max-ratio R] [--pith PATH] [--corpus DIR]\n");
            return 2;
        }
    }
    fs::path html_dir;
    if (!corpus_override.empty()) {
        html_dir = fs::path(corpus_override) / "html";
    } else {
        const pith::test::CorpusLookup lookup = pith::test::find_corpus_subdir("trafilatura-dev");
        if (!lookup.dir) {
            std::fprintf(stderr, "corpus not found; looked in: %s\n", lookup.tried_text().c_str());
            return 2;
        }
        html_dir = *lookup.dir / "html";
    }
    std::vector<fs::path> pages;
    for (const auto& entry : fs::directory_iterator(html_dir)) {
        pages.push_back(entry.path());
    }
    std::sort(pages.begin(), pages.end(), [](const fs::path& a, const fs::path& b) {
        return fs::file_size(a) != fs::file_size(b) ? fs::file_size(a) > fs::file_size(b) : a < b;
    });

    const auto target = static_cast<std::size_t>(megabytes * 1024 * 1024);
    std::string page = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>A large page</title></head><body>";
    std::size_t used = 0;
    for (const fs::path& path : pages) {
        const std::string bytes = read_bytes(path);
        if (pith::decode::sanitize_utf8(bytes) != bytes) {  // not valid UTF-8
            continue;
        }
        page += body_of(bytes);
        ++used;
        if (page.size() >= target) {
            break;
        }
    }
    if (page.size() < target) {
        std::fprintf(stderr, "the corpus holds less than %.1f MiB of body markup\n", megabytes);
        return 2;
    }
    page.resize(target);  // may cut a tag: the parser copes, as with a truncated download
    page += "</body></html>";

    char path_template[] = "/tmp/pith_bench_memory_XXXXXX";
    const int fd = ::mkstemp(path_template);
    if (fd < 0 || ::write(fd, page.data(), page.size()) != static_cast<ssize_t>(page.size())) {
        std::perror("temporary page");
        return 2;
    }
    ::close(fd);

    const pith::test::ChildRun run =
        pith::test::run_child({pith, "extract", "--max-input-bytes", "0", path_template});
    ::unlink(path_template);
    if (run.exit_code < 0 || run.exit_code > 1) {
        std::fprintf(stderr, "%s exited with status %d\n", pith.c_str(), run.exit_code);
        return 2;
    }
    const double peak_mb = static_cast<double>(run.peak_rss_bytes) / (1024.0 * 1024.0);
    const double page_mb = static_cast<double>(page.size()) / (1024.0 * 1024.0);
    const double ratio = peak_mb / page_mb;
    std::printf("command: pith_bench_memory --mb %.1f (pith extract on one page, as a child process)\n", megabytes);
    std::printf("page: %.2f MiB of <body> markup from the %zu largest valid-UTF-8 pages of %s\n", page_mb, used,
                html_dir.c_str());
    std::printf("peak RSS: %.1f MiB, %.2fx the page (acceptance < %.1fx): %s\n", peak_mb, ratio, max_ratio,
                ratio < max_ratio ? "PASS" : "FAIL");
    return ratio < max_ratio ? 0 : 1;
}
