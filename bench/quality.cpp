// pith_bench_quality: extraction quality of every strategy, in one table.
//
// trafilatura-dev is scored the way trafilatura's evaluation (tests/comparison.py)
// scores it. Each page has `with` snippets that must appear in the extracted text
// and `without` snippets that must not: a found `with` is a true positive, a
// missing one a false negative; a found `without` is a false positive, a missing
// one a true negative. Mozilla's pages are scored by token F1 of the article text
// against Readability's expected.html (tests/support/token_f1.hpp), whose mean is
// printed; docs/s is trafilatura-dev pages over that strategy's extraction time,
// single-threaded, in this run.
//
// Usage: pith_bench_quality [--corpus DIR] [--strategy NAME]... [--fitness NAME=VALUE]...
//                           [--limit N] [--floors FILE] [--require-auto-best] [--per-page]
//                           [--no-mozilla] [--json]
//   --corpus DIR         the corpus root (holding trafilatura-dev/ and
//                        readability-test-pages/); default $PITH_CORPUS, else
//                        ../shared/corpus, else PITH_SOURCE_DIR/../shared/corpus
//   --strategy NAME      readability, lectito, fitness or auto; repeatable;
//                        default all four
//   --fitness NAME=VALUE a fitness option for every strategy that runs fitness
//   --limit N            the first N pages of each corpus only
//   --floors FILE        compare with pinned floors (lines `auto f1 0.91`); exit 1 below one
//   --require-auto-best  exit 1 unless auto's trafilatura-dev F1 is above every
//                        other strategy's in this run (all four must run)
//   --per-page           print TP/FN/FP/TN for each trafilatura-dev page
//   --no-mozilla         skip Mozilla's pages
//   --json               one JSON object per strategy instead of the table
// Exit status: 0 ok, 1 below a floor or auto not best, 2 usage, corpus or floors-file error.
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

#include "corpus.hpp"
#include "files.hpp"
#include "pith/decode.hpp"
#include "pith/extract.hpp"
#include "pith/option_table.hpp"
#include "token_f1.hpp"

namespace {

using pith::test::read_file;

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using pith::extract::Strategy;

constexpr Strategy kAllStrategies[] = {Strategy::readability, Strategy::lectito, Strategy::fitness,
                                       Strategy::automatic};

struct Options {
    std::optional<fs::path> corpus;
    std::vector<Strategy> strategies;
    pith::extract::FitnessOptions fitness;
    std::optional<std::size_t> limit;
    std::optional<fs::path> floors;
    bool require_auto_best = false;
    bool per_page = false;
    bool mozilla = true;
    bool json = false;
};

void print_usage(std::FILE* out) {
    std::fprintf(out,
                 "usage: pith_bench_quality [--corpus DIR] [--strategy NAME]... [--fitness NAME=VALUE]...\n"
                 "                          [--limit N] [--floors FILE] [--require-auto-best] [--per-page]\n"
                 "                          [--no-mozilla] [--json]\n");
}

// --fitness NAME=VALUE: the option table's fitness_NAME.
bool set_fitness(pith::extract::FitnessOptions& fitness, std::string_view assignment) {
    const std::size_t eq = assignment.find('=');
    const pith::extract::OptionRow* row =
        eq == std::string_view::npos ? nullptr
                                     : pith::extract::find_option("fitness_" + std::string(assignment.substr(0, eq)));
    if (row == nullptr || row->group != "fitness") {
        return false;
    }
    pith::extract::ExtractOptions options;
    options.fitness = fitness;
    const std::string value(assignment.substr(eq + 1));
    if (!pith::extract::set_option(options, *row, value, pith::extract::ValueForm::text)) {
        return false;
    }
    fitness = options.fitness;
    return true;
}

std::optional<Options> parse_args(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--corpus" && has_value) {
            options.corpus = argv[++i];
        } else if (arg == "--strategy" && has_value) {
            const auto strategy = pith::extract::strategy_from_name(argv[++i]);
            if (!strategy) {
                std::fprintf(stderr, "--strategy wants readability, lectito, fitness or auto, got \"%s\"\n", argv[i]);
                return std::nullopt;
            }
            options.strategies.push_back(*strategy);
        } else if (arg == "--fitness" && has_value) {
            if (!set_fitness(options.fitness, argv[++i])) {
                std::fprintf(stderr, "--fitness wants NAME=VALUE with a fitness option's name, got \"%s\"\n", argv[i]);
                return std::nullopt;
            }
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
        } else if (arg == "--require-auto-best") {
            options.require_auto_best = true;
        } else if (arg == "--per-page") {
            options.per_page = true;
        } else if (arg == "--no-mozilla") {
            options.mozilla = false;
        } else if (arg == "--json") {
            options.json = true;
        } else if (arg == "--help" || arg == "-h") {
            print_usage(stdout);
            std::exit(0);
        } else {
            std::fprintf(stderr, "unknown or incomplete argument \"%s\"\n", argv[i]);
            print_usage(stderr);
            return std::nullopt;
        }
    }
    if (options.strategies.empty()) {
        options.strategies.assign(std::begin(kAllStrategies), std::end(kAllStrategies));
    }
    if (options.require_auto_best && options.strategies.size() != std::size(kAllStrategies)) {
        std::fprintf(stderr, "--require-auto-best needs every strategy to run\n");
        return std::nullopt;
    }
    return options;
}

// A corpus subdirectory: under --corpus when given, else where the tests look.
std::optional<fs::path> find_corpus(const Options& options, std::string_view subdir) {
    const pith::test::CorpusLookup lookup = pith::test::find_corpus_subdir(subdir, options.corpus);
    if (!lookup.dir) {
        std::fprintf(stderr, "%s not found; tried %s\n", std::string(subdir).c_str(), lookup.tried_text().c_str());
    }
    return lookup.dir;
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

double ratio(std::size_t num, std::size_t den) {
    return den == 0 ? 0.0 : static_cast<double>(num) / static_cast<double>(den);
}

// One strategy's figures over both corpora.
struct Figures {
    Strategy strategy = Strategy::readability;
    Counts counts;
    std::size_t pages = 0;
    std::size_t empty_pages = 0;
    double extract_seconds = 0.0;
    std::size_t mozilla_pages = 0;
    double mozilla_f1_sum = 0.0;

    [[nodiscard]] double precision() const { return ratio(counts.tp, counts.tp + counts.fp); }
    [[nodiscard]] double recall() const { return ratio(counts.tp, counts.tp + counts.fn); }
    [[nodiscard]] double f1() const {
        const double p = precision();
        const double r = recall();
        return p + r > 0.0 ? 2.0 * p * r / (p + r) : 0.0;
    }
    [[nodiscard]] double accuracy() const {
        return ratio(counts.tp + counts.tn, counts.tp + counts.tn + counts.fp + counts.fn);
    }
    [[nodiscard]] double mozilla_f1() const {
        return mozilla_pages == 0 ? 0.0 : mozilla_f1_sum / static_cast<double>(mozilla_pages);
    }
    [[nodiscard]] double docs_per_second() const {
        return extract_seconds > 0.0 ? static_cast<double>(pages) / extract_seconds : 0.0;
    }
    [[nodiscard]] double metric(std::string_view name) const {
        if (name == "precision") return precision();
        if (name == "recall") return recall();
        if (name == "f1") return f1();
        if (name == "mozilla_f1") return mozilla_f1();
        return accuracy();
    }
};

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

// A trafilatura-dev page, read once for every strategy.
struct AnnotatedPage {
    std::string file;
    std::string html;
    std::vector<std::string> with;
    std::vector<std::string> without;
};

// A Mozilla page: its source and the tokens of Readability's expected text.
struct MozillaPage {
    std::string source;
    pith::dom::Document expected_doc;  // owns the tokens' text
    std::vector<std::string_view> expected;
};

std::optional<std::vector<AnnotatedPage>> load_trafilatura(const fs::path& dir, const Options& options) {
    nlohmann::json annotations;
    try {
        const auto text = read_file(dir / "annotations.json");
        if (!text) {
            std::fprintf(stderr, "cannot read %s\n", (dir / "annotations.json").string().c_str());
            return std::nullopt;
        }
        annotations = nlohmann::json::parse(*text);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "annotations.json: %s\n", e.what());
        return std::nullopt;
    }
    if (!annotations.is_object()) {
        std::fprintf(stderr, "annotations.json: expected an object of pages\n");
        return std::nullopt;
    }
    std::vector<AnnotatedPage> pages;
    // nlohmann::json objects iterate in key order: 0000.html, 0001.html, ...
    for (const auto& [file, item] : annotations.items()) {
        if (options.limit && pages.size() >= *options.limit) {
            break;
        }
        auto html = read_file(dir / "html" / file);
        if (!html) {
            std::fprintf(stderr, "cannot read %s\n", (dir / "html" / file).string().c_str());
            return std::nullopt;
        }
        pages.push_back(AnnotatedPage{file, std::move(*html), snippets(item, "with"), snippets(item, "without")});
    }
    return pages;
}

std::optional<std::vector<MozillaPage>> load_mozilla(const fs::path& dir, const Options& options) {
    std::vector<fs::path> page_dirs;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.is_directory()) {
            page_dirs.push_back(entry.path());
        }
    }
    std::sort(page_dirs.begin(), page_dirs.end());
    std::vector<MozillaPage> pages;
    for (const fs::path& page_dir : page_dirs) {
        if (options.limit && pages.size() >= *options.limit) {
            break;
        }
        auto source = read_file(page_dir / "source.html");
        auto expected = read_file(page_dir / "expected.html");
        if (!source || !expected) {
            std::fprintf(stderr, "cannot read %s/{source,expected}.html\n", page_dir.string().c_str());
            return std::nullopt;
        }
        MozillaPage page;
        page.source = std::move(*source);
        const auto tokens = pith::test::page_tokens(pith::decode::to_utf8(*expected, "utf-8").utf8, page.expected_doc);
        if (!tokens) {
            std::fprintf(stderr, "cannot parse %s/expected.html\n", page_dir.string().c_str());
            return std::nullopt;
        }
        page.expected = tokens->words;
        pages.push_back(std::move(page));
    }
    return pages;
}

Figures measure(Strategy strategy, const std::vector<AnnotatedPage>& annotated,
                const std::vector<MozillaPage>& mozilla, const Options& options) {
    Figures figures;
    figures.strategy = strategy;
    pith::extract::ExtractOptions extract_options;
    extract_options.strategy = strategy;
    extract_options.fitness = options.fitness;
    pith::dom::BlockCache cache(pith::dom::kDefaultBlockCacheBytes);
    extract_options.runtime.block_cache = &cache;
    if (options.per_page) {
        std::printf("\n%s\n%-10s %4s %4s %4s %4s %8s  %s\n", std::string(strategy_name(strategy)).c_str(), "page",
                    "TP", "FN", "FP", "TN", "chars", "status");
    }
    Clock::duration extract_time{};
    for (const AnnotatedPage& page : annotated) {
        const auto t0 = Clock::now();
        const pith::extract::Article article = pith::extract::extract(page.html, extract_options);
        extract_time += Clock::now() - t0;
        const std::string text = normalize(article.text_content);
        figures.empty_pages += text.empty() ? 1U : 0U;
        Counts counts;
        for (const std::string& snippet : page.with) {
            ++(text.find(snippet) != std::string::npos ? counts.tp : counts.fn);
        }
        for (const std::string& snippet : page.without) {
            ++(text.find(snippet) != std::string::npos ? counts.fp : counts.tn);
        }
        figures.counts += counts;
        ++figures.pages;
        if (options.per_page) {
            std::printf("%-10s %4zu %4zu %4zu %4zu %8zu  %s\n", page.file.c_str(), counts.tp, counts.fn, counts.fp,
                        counts.tn, article.length, std::string(pith::extract::status_name(article.status)).c_str());
        }
    }
    figures.extract_seconds = std::chrono::duration<double>(extract_time).count();
    for (const MozillaPage& page : mozilla) {
        const pith::extract::Article article = pith::extract::extract(page.source, extract_options);
        const std::vector<std::string_view> actual = pith::test::tokenize(article.text_content);
        figures.mozilla_f1_sum += pith::test::compare_tokens(page.expected, actual).f1;
        ++figures.mozilla_pages;
    }
    return figures;
}

struct Floor {
    Strategy strategy = Strategy::automatic;
    std::string metric;
    double value = 0.0;
};

// Floors file: `strategy metric value` per line (metric: precision, recall,
// f1, accuracy, mozilla_f1); # comments.
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
        std::string strategy_name;
        if (!(fields >> strategy_name)) {
            continue;  // blank or comment
        }
        Floor floor;
        const auto strategy = pith::extract::strategy_from_name(strategy_name);
        std::string rest;
        const bool parsed = strategy && (fields >> floor.metric) && (fields >> floor.value) && !(fields >> rest);
        const bool known = floor.metric == "precision" || floor.metric == "recall" || floor.metric == "f1" ||
                           floor.metric == "accuracy" || floor.metric == "mozilla_f1";
        if (!parsed || !known) {
            std::fprintf(stderr, "%s:%zu: expected `<strategy> precision|recall|f1|accuracy|mozilla_f1 <value>`\n",
                         path.string().c_str(), line_number);
            return std::nullopt;
        }
        floor.strategy = *strategy;
        floors.push_back(floor);
    }
    return floors;
}

void print_table(const std::vector<Figures>& all) {
    const Figures& first = all.front();
    std::printf("\ntrafilatura-dev: %zu pages; Mozilla: %zu pages\n", first.pages, first.mozilla_pages);
    std::printf("%-12s %5s %5s %5s %5s  %9s %7s %7s %9s  %10s %7s\n", "strategy", "TP", "FN", "FP", "TN",
                "precision", "recall", "f1", "accuracy", "mozilla_f1", "docs/s");
    for (const Figures& f : all) {
        std::printf("%-12s %5zu %5zu %5zu %5zu  %9.4f %7.4f %7.4f %9.4f  %10.4f %7.1f\n",
                    std::string(strategy_name(f.strategy)).c_str(), f.counts.tp, f.counts.fn, f.counts.fp,
                    f.counts.tn, f.precision(), f.recall(), f.f1(), f.accuracy(), f.mozilla_f1(),
                    f.docs_per_second());
    }
}

void print_json(const std::vector<Figures>& all) {
    for (const Figures& f : all) {
        const nlohmann::json line = {
            {"strategy", std::string(strategy_name(f.strategy))},
            {"tp", f.counts.tp}, {"fn", f.counts.fn}, {"fp", f.counts.fp}, {"tn", f.counts.tn},
            {"precision", f.precision()}, {"recall", f.recall()}, {"f1", f.f1()},
            {"mozilla_f1", f.mozilla_f1()}, {"docs_per_second", f.docs_per_second()},
        };
        std::printf("%s\n", line.dump().c_str());
    }
}

}  // namespace

int main(int argc, char** argv) {
    const auto options = parse_args(argc, argv);
    if (!options) {
        return 2;
    }
    std::optional<std::vector<Floor>> floors;
    if (options->floors) {
        floors = load_floors(*options->floors);
        if (!floors) {
            return 2;
        }
    }
    const auto trafilatura_dir = find_corpus(*options, "trafilatura-dev");
    if (!trafilatura_dir) {
        return 2;
    }
    const auto annotated = load_trafilatura(*trafilatura_dir, *options);
    if (!annotated) {
        return 2;
    }
    std::vector<MozillaPage> mozilla;
    if (options->mozilla) {
        const auto mozilla_dir = find_corpus(*options, "readability-test-pages");
        if (!mozilla_dir) {
            return 2;
        }
        auto loaded = load_mozilla(*mozilla_dir, *options);
        if (!loaded) {
            return 2;
        }
        mozilla = std::move(*loaded);
    }

    if (!options->json) {
        std::string command;
        for (int i = 0; i < argc; ++i) {
            if (i > 0) {
                command += ' ';
            }
            command += argv[i];
        }
        std::printf("command: %s\ncorpus: %s\n", command.c_str(), trafilatura_dir->parent_path().string().c_str());
    }
    std::vector<Figures> all;
    for (const Strategy strategy : options->strategies) {
        all.push_back(measure(strategy, *annotated, mozilla, *options));
    }
    if (options->json) {
        print_json(all);
    } else {
        print_table(all);
    }

    int status = 0;
    if (floors) {
        std::printf("\nfloors (%s):\n", options->floors->string().c_str());
        for (const Floor& floor : *floors) {
            const auto measured = std::find_if(all.begin(), all.end(),
                                               [&](const Figures& f) { return f.strategy == floor.strategy; });
            if (measured == all.end()) {
                continue;  // that strategy did not run
            }
            const double value = measured->metric(floor.metric);
            const bool ok = value >= floor.value && measured->pages > 0;
            std::printf("  %-12s %-10s %.4f %s %.4f  %s\n", std::string(strategy_name(floor.strategy)).c_str(),
                        floor.metric.c_str(), value, ok ? ">=" : "< ", floor.value, ok ? "ok" : "BELOW FLOOR");
            status = ok ? status : 1;
        }
    }
    if (options->require_auto_best) {
        const auto automatic = std::find_if(all.begin(), all.end(),
                                            [](const Figures& f) { return f.strategy == Strategy::automatic; });
        for (const Figures& f : all) {
            if (f.strategy != Strategy::automatic && f.f1() >= automatic->f1()) {
                std::printf("auto's f1 %.4f is not above %s's %.4f\n", automatic->f1(),
                            std::string(strategy_name(f.strategy)).c_str(), f.f1());
                status = 1;
            }
        }
        if (status == 0) {
            std::printf("auto's f1 is above every other strategy's\n");
        }
    }
    return status;
}
