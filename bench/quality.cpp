// pith_bench_quality: extraction quality on trafilatura-dev, scored the way
// trafilatura's evaluation (tests/comparison.py) scores it. Each page has
// `with` snippets that must appear in the extracted text and `without` snippets
// that must not: a found `with` is a true positive, a missing one a false
// negative; a found `without` is a false positive, a missing one a true negative.
//
// Usage: pith_bench_quality [--corpus DIR] [--limit N] [--floors FILE] [--per-page]
//   --corpus DIR   the corpus root (holding trafilatura-dev/) or trafilatura-dev itself;
//                  default $PITH_CORPUS, else ../shared/corpus, else
//                  PITH_SOURCE_DIR/../shared/corpus
//   --limit N      the first N annotated pages only
//   --floors FILE  compare with pinned floors (lines `f1 0.891`); exit 1 below one
//   --per-page     print TP/FN/FP/TN for each page
// Exit status: 0 ok, 1 below a floor, 2 usage, corpus or floors-file error.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "pith/extract.hpp"

#ifndef PITH_SOURCE_DIR
#error "PITH_SOURCE_DIR must name the repository root"
#endif

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr std::string_view kCorpusName = "trafilatura-dev";

struct Options {
    std::optional<fs::path> corpus;
    std::optional<std::size_t> limit;
    std::optional<fs::path> floors;
    bool per_page = false;
};

void print_usage(std::FILE* out) {
    std::fprintf(out,
                 "usage: pith_bench_quality [--corpus DIR] [--limit N] [--floors FILE] [--per-page]\n");
}

std::optional<Options> parse_args(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--corpus" && has_value) {
            options.corpus = argv[++i];
        } else if (arg == "--limit" && has_value) {
            char* end = nullptr;
            const unsigned long long n = std::strtoull(argv[++i], &end, 10);
            if (end == argv[i] || *end != '\0') {
                std::fprintf(stderr, "--limit wants a number, got \"%s\"\n", argv[i]);
                return std::nullopt;
            }
            options.limit = static_cast<std::size_t>(n);
        } else if (arg == "--floors" && has_value) {
            options.floors = argv[++i];
        } else if (arg == "--per-page") {
            options.per_page = true;
        } else if (arg == "--help" || arg == "-h") {
            print_usage(stdout);
            std::exit(0);
        } else {
            std::fprintf(stderr, "unknown or incomplete argument \"%s\"\n", argv[i]);
            print_usage(stderr);
            return std::nullopt;
        }
    }
    return options;
}

// The trafilatura-dev directory: --corpus (a root or the directory itself), else
// the default roots. Every path tried is recorded for the error message.
std::optional<fs::path> find_corpus(const Options& options, std::vector<std::string>& tried) {
    std::vector<fs::path> candidates;
    if (options.corpus) {
        candidates.push_back(*options.corpus);
        candidates.push_back(*options.corpus / kCorpusName);
    } else {
        if (const char* env = std::getenv("PITH_CORPUS"); env != nullptr && *env != '\0') {
            candidates.push_back(fs::path(env) / kCorpusName);
        }
        std::error_code ec;
        const fs::path cwd = fs::current_path(ec);
        if (!ec) {
            candidates.push_back(cwd / ".." / "shared" / "corpus" / kCorpusName);
        }
        candidates.push_back(fs::path(PITH_SOURCE_DIR) / ".." / "shared" / "corpus" / kCorpusName);
    }
    for (const fs::path& candidate : candidates) {
        tried.push_back(candidate.string());
        std::error_code ec;
        if (fs::is_regular_file(candidate / "annotations.json", ec)) {
            const fs::path canonical = fs::weakly_canonical(candidate, ec);
            return ec ? candidate : canonical;
        }
    }
    return std::nullopt;
}

std::optional<std::string> read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return std::nullopt;
    }
    std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (in.bad()) {
        return std::nullopt;
    }
    return bytes;
}

// Python's str.isspace() set, because trafilatura's evaluation normalises the
// extracted text with ' '.join(text.split()). `pos` advances past the code
// point; malformed bytes count as one non-space byte.
bool take_space(std::string_view s, std::size_t& pos) {
    const auto b0 = static_cast<unsigned char>(s[pos]);
    if (b0 < 0x80U) {
        ++pos;
        return (b0 >= 0x09U && b0 <= 0x0DU) || (b0 >= 0x1CU && b0 <= 0x20U);
    }
    std::size_t length = b0 >= 0xF0U ? 4 : b0 >= 0xE0U ? 3 : b0 >= 0xC0U ? 2 : 1;
    if (length == 1 || pos + length > s.size()) {
        ++pos;
        return false;
    }
    char32_t cp = b0 & (0x7FU >> length);
    for (std::size_t i = 1; i < length; ++i) {
        cp = (cp << 6U) | (static_cast<unsigned char>(s[pos + i]) & 0x3FU);
    }
    pos += length;
    switch (cp) {
    case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F:
    case 0x3000:
        return true;
    default:
        return cp >= 0x2000 && cp <= 0x200A;
    }
}

// White space runs collapsed to one space, trimmed; case kept.
std::string normalize(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    bool pending_space = false;
    std::size_t pos = 0;
    while (pos < s.size()) {
        const std::size_t start = pos;
        if (take_space(s, pos)) {
            pending_space = !out.empty();
            continue;
        }
        if (pending_space) {
            out += ' ';
            pending_space = false;
        }
        out.append(s.substr(start, pos - start));
    }
    return out;
}

struct Counts {
    std::size_t tp = 0;
    std::size_t fn = 0;
    std::size_t fp = 0;
    std::size_t tn = 0;

    Counts& operator+=(const Counts& o) {
        tp += o.tp;
        fn += o.fn;
        fp += o.fp;
        tn += o.tn;
        return *this;
    }
};

struct Scores {
    double precision = 0.0;
    double recall = 0.0;
    double f1 = 0.0;
    double accuracy = 0.0;
};

double ratio(std::size_t num, std::size_t den) {
    return den == 0 ? 0.0 : static_cast<double>(num) / static_cast<double>(den);
}

Scores score(const Counts& c) {
    Scores s;
    s.precision = ratio(c.tp, c.tp + c.fp);
    s.recall = ratio(c.tp, c.tp + c.fn);
    s.f1 = s.precision + s.recall > 0.0 ? 2.0 * s.precision * s.recall / (s.precision + s.recall) : 0.0;
    s.accuracy = ratio(c.tp + c.tn, c.tp + c.tn + c.fp + c.fn);
    return s;
}

std::vector<std::string> snippets(const nlohmann::json& item, const char* key) {
    std::vector<std::string> out;
    auto it = item.find(key);
    if (it == item.end() || !it->is_array()) {
        return out;
    }
    for (const auto& snippet : *it) {
        if (snippet.is_string()) {
            out.push_back(normalize(snippet.get<std::string>()));
        }
    }
    return out;
}

struct Floor {
    std::string name;
    double value = 0.0;
};

// Floors file: `name value` per line (precision, recall, f1, accuracy); # comments.
std::optional<std::vector<Floor>> load_floors(const fs::path& path) {
    const auto bytes = read_file(path);
    if (!bytes) {
        std::fprintf(stderr, "cannot read floors file %s\n", path.string().c_str());
        return std::nullopt;
    }
    std::vector<Floor> floors;
    std::istringstream lines(*bytes);
    std::string line;
    std::size_t line_number = 0;
    while (std::getline(lines, line)) {
        ++line_number;
        if (const auto hash = line.find('#'); hash != std::string::npos) {
            line.erase(hash);
        }
        std::istringstream fields(line);
        Floor floor;
        if (!(fields >> floor.name)) {
            continue;  // blank or comment
        }
        std::string rest;
        const bool known = floor.name == "precision" || floor.name == "recall" ||
                           floor.name == "f1" || floor.name == "accuracy";
        if (!known || !(fields >> floor.value) || (fields >> rest)) {
            std::fprintf(stderr, "%s:%zu: expected `precision|recall|f1|accuracy <value>`\n",
                         path.string().c_str(), line_number);
            return std::nullopt;
        }
        floors.push_back(floor);
    }
    return floors;
}

double metric(const Scores& s, std::string_view name) {
    if (name == "precision") return s.precision;
    if (name == "recall") return s.recall;
    if (name == "f1") return s.f1;
    return s.accuracy;
}

}  // namespace

int main(int argc, char** argv) {
    const auto options = parse_args(argc, argv);
    if (!options) {
        return 2;
    }
    std::vector<std::string> tried;
    const auto corpus = find_corpus(*options, tried);
    if (!corpus) {
        std::fprintf(stderr, "trafilatura-dev corpus not found (no annotations.json); tried:\n");
        for (const std::string& path : tried) {
            std::fprintf(stderr, "  %s\n", path.c_str());
        }
        return 2;
    }
    std::optional<std::vector<Floor>> floors;
    if (options->floors) {
        floors = load_floors(*options->floors);
        if (!floors) {
            return 2;
        }
    }

    nlohmann::json annotations;
    try {
        const auto text = read_file(*corpus / "annotations.json");
        if (!text) {
            std::fprintf(stderr, "cannot read %s\n", (*corpus / "annotations.json").string().c_str());
            return 2;
        }
        annotations = nlohmann::json::parse(*text);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "annotations.json: %s\n", e.what());
        return 2;
    }
    if (!annotations.is_object()) {
        std::fprintf(stderr, "annotations.json: expected an object of pages\n");
        return 2;
    }

    std::string command;
    for (int i = 0; i < argc; ++i) {
        if (i > 0) {
            command += ' ';
        }
        command += argv[i];
    }
    std::printf("command: %s\ncorpus: %s\n", command.c_str(), corpus->string().c_str());

    const auto started = Clock::now();
    Clock::duration extract_time{};
    Counts total;
    std::size_t pages = 0;
    std::size_t empty_pages = 0;
    if (options->per_page) {
        std::printf("\n%-10s %4s %4s %4s %4s %8s  %s\n", "page", "TP", "FN", "FP", "TN", "chars",
                    "status");
    }
    // nlohmann::json objects iterate in key order: 0000.html, 0001.html, ...
    for (const auto& [file, item] : annotations.items()) {
        if (options->limit && pages >= *options->limit) {
            break;
        }
        const auto html = read_file(*corpus / "html" / file);
        if (!html) {
            std::fprintf(stderr, "cannot read %s\n", (*corpus / "html" / file).string().c_str());
            return 2;
        }
        const auto with = snippets(item, "with");
        const auto without = snippets(item, "without");

        const auto t0 = Clock::now();
        const pith::extract::Article article = pith::extract::extract(*html);
        extract_time += Clock::now() - t0;

        const std::string text = normalize(article.text_content);
        empty_pages += text.empty() ? 1U : 0U;
        Counts page;
        for (const std::string& snippet : with) {
            ++(text.find(snippet) != std::string::npos ? page.tp : page.fn);
        }
        for (const std::string& snippet : without) {
            ++(text.find(snippet) != std::string::npos ? page.fp : page.tn);
        }
        total += page;
        ++pages;
        if (options->per_page) {
            std::printf("%-10s %4zu %4zu %4zu %4zu %8zu  %s\n", file.c_str(), page.tp, page.fn,
                        page.fp, page.tn, article.length,
                        std::string(pith::extract::status_name(article.status)).c_str());
        }
    }
    const double total_s = std::chrono::duration<double>(Clock::now() - started).count();
    const double extract_s = std::chrono::duration<double>(extract_time).count();

    const Scores s = score(total);
    std::printf("\ntrafilatura-dev: %zu pages (%zu with empty text)\n", pages, empty_pages);
    std::printf("TP %zu  FN %zu  FP %zu  TN %zu\n", total.tp, total.fn, total.fp, total.tn);
    std::printf("precision %.4f  recall %.4f  f1 %.4f  accuracy %.4f\n", s.precision, s.recall,
                s.f1, s.accuracy);
    std::printf("time: extraction %.2f s (%.1f ms/page), total %.2f s\n", extract_s,
                pages == 0 ? 0.0 : 1000.0 * extract_s / static_cast<double>(pages), total_s);

    int status = 0;
    if (floors) {
        std::printf("\nfloors (%s):\n", options->floors->string().c_str());
        for (const Floor& floor : *floors) {
            const double value = metric(s, floor.name);
            const bool ok = value >= floor.value;
            std::printf("  %-9s %.4f %s %.4f  %s\n", floor.name.c_str(), value, ok ? ">=" : "< ",
                        floor.value, ok ? "ok" : "BELOW FLOOR");
            if (!ok) {
                status = 1;
            }
        }
        if (pages == 0) {
            std::printf("  no pages scored\n");
            status = 1;
        }
    }
    return status;
}
