// pith_bench_speed: single-threaded throughput of the full pipeline against the
// floor it cannot beat, gumbo parsing alone, measured in the same run on the
// same pages.
//
// Pages are loaded into memory and decoded to UTF-8 once (gumbo accepts UTF-8
// only). Before timing, every page is extracted once and checked: at least 90%
// must give status ok/best_attempt with non-empty text, else the run aborts, so
// a fast wrong answer cannot win. Then (a) gumbo_parse_with_options +
// gumbo_destroy_output on the UTF-8 text and (b) pith::extract::extract on the
// raw bytes (decode, parse, extract, serialise) run interleaved a,b,a,b,... so
// that both share the machine's noise; the best of --repeat runs counts.
//
// Usage: pith_bench_speed [--corpus-set mozilla|trafilatura|both] [--repeat N]
//                         [--limit N] [--corpus DIR] [--max-ratio R] [--smoke]
//   --limit N      the first N pages of each set
//   --corpus DIR   the corpus root; default $PITH_CORPUS, else ../shared/corpus,
//                  else PITH_SOURCE_DIR/../shared/corpus
//   --max-ratio R  acceptance for pipeline/gumbo time (default 2.0); exit 1 above
//   --strategy S   the strategy the pipeline runs (default auto, extract()'s default)
//   --rules-dir D  also time the pipeline with the site rules of D loaded (no page
//                  has a rule) against without, the two back to back on each page,
//                  and print the ratio of each page's best time over the rounds,
//                  summed; with --max-rules-ratio R, exit 1 above it
//   --markdown     the pipeline also renders Markdown; with --max-markdown-share F,
//                  exit 1 when that rendering takes more than F of the pipeline's time
//   --max-confidence-share F  exit 1 when the confidence (its signals and
//                  models) takes more than F of the pipeline's time
//   --smoke        3 pages per set, 1 repeat, ratio reported but not enforced (CI)
// Exit status: 0 ok, 1 ratio above --max-ratio, 2 usage or corpus error, 3 sanity
// check failed.
#include <gumbo.h>
#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "corpus.hpp"
#include "files.hpp"
#include "pith/decode.hpp"
#include "pith/extract.hpp"
#include "pith/rules.hpp"

namespace {

using pith::test::read_file;

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// The URL Readability's test harness uses; gives link absolutisation its real cost.
constexpr std::string_view kPageUrl = "http://fakehost/test/page.html";
constexpr double kMinSaneShare = 0.90;
constexpr double kDefaultMaxRatio = 2.0;
constexpr std::size_t kSmokePages = 3;

struct Options {
    bool mozilla = true;
    bool trafilatura = true;
    std::size_t repeat = 3;
    std::optional<std::size_t> limit;
    std::optional<fs::path> corpus;
    double max_ratio = kDefaultMaxRatio;
    bool smoke = false;
    pith::extract::Strategy strategy = pith::extract::Strategy::automatic;
    bool markdown = false;
    std::optional<double> max_markdown_share;
    std::optional<double> max_confidence_share;
    std::optional<std::string> rules_dir;
    std::optional<double> max_rules_ratio;
};

void print_usage(std::FILE* out) {
    std::fprintf(out,
                 "usage: pith_bench_speed [--corpus-set mozilla|trafilatura|both] [--repeat N]\n"
                 "                        [--limit N] [--corpus DIR] [--max-ratio R] [--strategy NAME] [--markdown]\n"
                 "                        [--max-markdown-share F] [--max-confidence-share F] [--rules-dir D]\n"
                 "                        [--max-rules-ratio R] [--smoke]\n");
}

std::optional<std::size_t> parse_count(const char* text, const char* flag) {
    char* end = nullptr;
    const unsigned long long n = std::strtoull(text, &end, 10);
    if (end == text || *end != '\0') {
        std::fprintf(stderr, "%s wants a number, got \"%s\"\n", flag, text);
        return std::nullopt;
    }
    return static_cast<std::size_t>(n);
}

std::optional<double> parse_positive(const char* text, const char* flag) {
    char* end = nullptr;
    const double value = std::strtod(text, &end);
    if (end == text || *end != '\0' || !(value > 0.0)) {
        std::fprintf(stderr, "%s wants a positive number, got \"%s\"\n", flag, text);
        return std::nullopt;
    }
    return value;
}

std::optional<Options> parse_args(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--corpus-set" && has_value) {
            const std::string_view set = argv[++i];
            if (set != "mozilla" && set != "trafilatura" && set != "both") {
                std::fprintf(stderr, "--corpus-set wants mozilla, trafilatura or both\n");
                return std::nullopt;
            }
            options.mozilla = set != "trafilatura";
            options.trafilatura = set != "mozilla";
        } else if ((arg == "--repeat" || arg == "--limit") && has_value) {
            const char* flag = argv[i];
            const auto n = parse_count(argv[++i], flag);
            if (!n) {
                return std::nullopt;
            }
            if (arg == "--repeat") {
                options.repeat = std::max<std::size_t>(*n, 1);
            } else {
                options.limit = *n;
            }
        } else if (arg == "--corpus" && has_value) {
            options.corpus = argv[++i];
        } else if (arg == "--max-ratio" && has_value) {
            const auto ratio = parse_positive(argv[++i], "--max-ratio");
            if (!ratio) {
                return std::nullopt;
            }
            options.max_ratio = *ratio;
        } else if (arg == "--strategy" && has_value) {
            const auto strategy = pith::extract::strategy_from_name(argv[++i]);
            if (!strategy) {
                std::fprintf(stderr, "--strategy wants readability, lectito, fitness or auto, got \"%s\"\n", argv[i]);
                return std::nullopt;
            }
            options.strategy = *strategy;
        } else if (arg == "--markdown") {
            options.markdown = true;
        } else if (arg == "--rules-dir" && has_value) {
            options.rules_dir = argv[++i];
        } else if ((arg == "--max-rules-ratio" || arg == "--max-markdown-share" || arg == "--max-confidence-share") &&
                   has_value) {
            const char* flag = argv[i];
            const auto bound = parse_positive(argv[++i], flag);
            if (!bound) {
                return std::nullopt;
            }
            (arg == "--max-rules-ratio"      ? options.max_rules_ratio
             : arg == "--max-markdown-share" ? options.max_markdown_share
                                             : options.max_confidence_share) = *bound;
        } else if (arg == "--smoke") {
            options.smoke = true;
        } else if (arg == "--help" || arg == "-h") {
            print_usage(stdout);
            std::exit(0);
        } else {
            std::fprintf(stderr, "unknown or incomplete argument \"%s\"\n", argv[i]);
            print_usage(stderr);
            return std::nullopt;
        }
    }
    if (options.smoke) {
        options.repeat = 1;
        options.limit = std::min(options.limit.value_or(kSmokePages), kSmokePages);
    }
    return options;
}

struct Page {
    std::string name;  // "mozilla/001", "trafilatura/0000.html"
    std::string raw;   // bytes as served
    std::string utf8;  // decoded once, for the gumbo baseline
};

// Sorted pages under `dir` (<page>/source.html when per_directory, else *.html),
// the first `limit` of them.
std::vector<fs::path> list_pages(const fs::path& dir, bool per_directory,
                                 std::optional<std::size_t> limit) {
    std::vector<fs::path> paths;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (per_directory && entry.is_directory() && fs::exists(entry.path() / "source.html")) {
            paths.push_back(entry.path() / "source.html");
        } else if (!per_directory && entry.is_regular_file() && entry.path().extension() == ".html") {
            paths.push_back(entry.path());
        }
    }
    std::sort(paths.begin(), paths.end());
    if (limit && paths.size() > *limit) {
        paths.resize(*limit);
    }
    return paths;
}

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) {
                const auto start = line.find_first_not_of(" \t", colon + 1);
                return start == std::string::npos ? std::string{} : line.substr(start);
            }
        }
    }
    return "unknown";
}

// What `nproc` prints: the CPUs this process may run on.
int available_cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        return CPU_COUNT(&set);
    }
    return 0;
}

struct Run {
    double seconds = std::numeric_limits<double>::infinity();
    std::vector<double> page_seconds;
    pith::extract::StageTimings stages;  // summed; pipeline runs only
};

volatile std::size_t g_sink = 0;  // keeps results observable to the optimiser

Run time_gumbo(const std::vector<Page>& pages) {
    Run run;
    run.seconds = 0.0;
    run.page_seconds.reserve(pages.size());
    std::size_t nodes = 0;
    for (const Page& page : pages) {
        const auto t0 = Clock::now();
        GumboOutput* output = gumbo_parse_with_options(&kGumboDefaultOptions, page.utf8.data(),
                                                       page.utf8.size());
        nodes += output->root->v.element.children.length;
        gumbo_destroy_output(&kGumboDefaultOptions, output);
        const double s = std::chrono::duration<double>(Clock::now() - t0).count();
        run.page_seconds.push_back(s);
        run.seconds += s;
    }
    g_sink = g_sink + nodes;
    return run;
}

// The pipeline as a worker of pithd runs it: arena blocks kept from one page
// to the next.
class Worker {
public:
    explicit Worker(const pith::extract::ExtractOptions& options) : options_(options) {
        options_.runtime.block_cache = &blocks_;
    }
    Worker(const Worker&) = delete;  // options_ points at blocks_
    Worker& operator=(const Worker&) = delete;

    pith::extract::Article extract(const std::string& raw) const { return pith::extract::extract(raw, options_); }

private:
    pith::dom::BlockCache blocks_{pith::dom::kDefaultBlockCacheBytes};
    pith::extract::ExtractOptions options_;
};

Run time_pipeline(const std::vector<Page>& pages, const pith::extract::ExtractOptions& options) {
    Run run;
    run.seconds = 0.0;
    run.page_seconds.reserve(pages.size());
    std::size_t length = 0;
    const Worker worker(options);
    for (const Page& page : pages) {
        const auto t0 = Clock::now();
        const pith::extract::Article article = worker.extract(page.raw);
        length += article.length;
        run.stages.decode_us += article.timings.decode_us;
        run.stages.prune_us += article.timings.prune_us;
        run.stages.parse_us += article.timings.parse_us;
        run.stages.dom_build_us += article.timings.dom_build_us;
        run.stages.metadata_us += article.timings.metadata_us;
        run.stages.passes_us += article.timings.passes_us;
        run.stages.serialize_us += article.timings.serialize_us;
        run.stages.confidence_us += article.timings.confidence_us;
        run.stages.render_us += article.timings.render_us;
        const double s = std::chrono::duration<double>(Clock::now() - t0).count();
        run.page_seconds.push_back(s);
        run.seconds += s;
    }
    g_sink = g_sink + length;
    return run;
}

// Each page's best time over `rounds` with options `a` and with `b`, the two
// timed back to back on the same page, which goes first alternating by round:
// a burst of load on the shared machine then lands on both or on neither,
// where timing whole runs one after the other let a burst during one variant's
// run pass for that variant's cost (1.125 for two equal pipelines on CI).
struct PairedBests {
    std::vector<double> a;
    std::vector<double> b;
};

PairedBests time_pipeline_pair(const std::vector<Page>& pages, const pith::extract::ExtractOptions& a,
                               const pith::extract::ExtractOptions& b, std::size_t rounds) {
    constexpr double kUnset = std::numeric_limits<double>::infinity();
    PairedBests bests{std::vector<double>(pages.size(), kUnset), std::vector<double>(pages.size(), kUnset)};
    const Worker worker_a(a);
    const Worker worker_b(b);
    std::size_t length = 0;
    const auto timed = [&](const std::string& raw, const Worker& worker) {
        const auto t0 = Clock::now();
        length += worker.extract(raw).length;
        return std::chrono::duration<double>(Clock::now() - t0).count();
    };
    for (std::size_t r = 0; r < rounds; ++r) {
        for (std::size_t i = 0; i < pages.size(); ++i) {
            const bool a_first = (r + i) % 2 == 0;
            const double first = timed(pages[i].raw, a_first ? worker_a : worker_b);
            const double second = timed(pages[i].raw, a_first ? worker_b : worker_a);
            bests.a[i] = std::min(bests.a[i], a_first ? first : second);
            bests.b[i] = std::min(bests.b[i], a_first ? second : first);
        }
    }
    g_sink = g_sink + length;
    return bests;
}

constexpr double kMB = 1e6;

void print_throughput(const char* label, double seconds, std::size_t docs, std::size_t bytes) {
    std::printf("  %-14s %9.3f s  %9.1f docs/s  %7.2f MB/s\n", label, seconds,
                seconds > 0.0 ? static_cast<double>(docs) / seconds : 0.0,
                seconds > 0.0 ? static_cast<double>(bytes) / kMB / seconds : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
    const auto options = parse_args(argc, argv);
    if (!options) {
        return 2;
    }

    std::string command;
    for (int i = 0; i < argc; ++i) {
        if (i > 0) {
            command += ' ';
        }
        command += argv[i];
    }
#if defined(__clang__)
    const char* compiler = "clang " __clang_version__;
#elif defined(__GNUC__)
    const char* compiler = "g++ " __VERSION__;
#else
    const char* compiler = "unknown compiler";
#endif
#ifdef NDEBUG
    const char* build = "NDEBUG";
#else
    const char* build = "assertions on (not a Release build: figures are not representative)";
#endif
    std::printf("command: %s\n", command.c_str());
    std::printf("machine: nproc %d, %s; %s; %s; single-threaded\n", available_cpus(),
                cpu_model().c_str(), compiler, build);

    // Load every page and decode it once.
    struct Set {
        const char* name;
        const char* subdir;
        bool per_directory;
        bool wanted;
    };
    const std::array<Set, 2> sets{{
        {"mozilla", "readability-test-pages", true, options->mozilla},
        {"trafilatura", "trafilatura-dev/html", false, options->trafilatura},
    }};
    std::vector<Page> pages;
    std::string set_summary;
    for (const Set& set : sets) {
        if (!set.wanted) {
            continue;
        }
        const pith::test::CorpusLookup lookup = pith::test::find_corpus_subdir(set.subdir, options->corpus);
        if (!lookup.dir) {
            std::fprintf(stderr, "%s corpus not found; tried %s\n", set.name, lookup.tried_text().c_str());
            return 2;
        }
        const fs::path* dir = &*lookup.dir;
        const auto paths = list_pages(*dir, set.per_directory, options->limit);
        for (const fs::path& path : paths) {
            auto raw = read_file(path);
            if (!raw) {
                std::fprintf(stderr, "cannot read %s\n", path.string().c_str());
                return 2;
            }
            Page page;
            page.name = std::string(set.name) + "/" +
                        (set.per_directory ? path.parent_path().filename() : path.filename()).string();
            page.utf8 = pith::decode::to_utf8(*raw).utf8;
            page.raw = std::move(*raw);
            pages.push_back(std::move(page));
        }
        if (!set_summary.empty()) {
            set_summary += ", ";
        }
        set_summary += set.name;
        set_summary += ' ' + std::to_string(paths.size()) + " from " + dir->string();
    }
    if (pages.empty()) {
        std::fprintf(stderr, "no pages found (%s)\n", set_summary.c_str());
        return 2;
    }
    std::size_t raw_bytes = 0;
    std::size_t utf8_bytes = 0;
    for (const Page& page : pages) {
        raw_bytes += page.raw.size();
        utf8_bytes += page.utf8.size();
    }
    std::printf("pages: %zu (%s)\n", pages.size(), set_summary.c_str());
    std::printf("strategy: %s\n", std::string(pith::extract::strategy_name(options->strategy)).c_str());
    std::printf("bytes: %.2f MB raw, %.2f MB as UTF-8; repeat %zu (best of), interleaved gumbo/pipeline\n",
                static_cast<double>(raw_bytes) / kMB, static_cast<double>(utf8_bytes) / kMB,
                options->repeat);

    // Sanity: a fast wrong answer cannot win. This pass also warms both sides up.
    for (const Page& page : pages) {
        GumboOutput* output = gumbo_parse_with_options(&kGumboDefaultOptions, page.utf8.data(),
                                                       page.utf8.size());
        if (output == nullptr || output->root == nullptr) {
            std::fprintf(stderr, "aborting: gumbo returned no document for %s\n", page.name.c_str());
            return 3;
        }
        gumbo_destroy_output(&kGumboDefaultOptions, output);
    }
    pith::extract::ExtractOptions extract_options;
    extract_options.input.url = std::string(kPageUrl);
    extract_options.strategy = options->strategy;
    extract_options.render.markdown = options->markdown;
    std::size_t sane = 0;
    std::vector<std::string> insane;
    for (const Page& page : pages) {
        const pith::extract::Article article = pith::extract::extract(page.raw, extract_options);
        const bool ok = (article.status == pith::extract::Status::ok ||
                         article.status == pith::extract::Status::best_attempt) &&
                        !article.text_content.empty();
        if (ok) {
            ++sane;
        } else {
            insane.push_back(page.name + " (" + std::string(pith::extract::status_name(article.status)) +
                             ")");
        }
    }
    const double sane_share = static_cast<double>(sane) / static_cast<double>(pages.size());
    std::printf("sanity: %zu / %zu pages gave an article (%.1f%%, need >= %.0f%%)\n", sane,
                pages.size(), 100.0 * sane_share, 100.0 * kMinSaneShare);
    if (sane_share < kMinSaneShare) {
        std::fprintf(stderr, "aborting: too few pages produced an article; first failures:\n");
        for (std::size_t i = 0; i < insane.size() && i < 10; ++i) {
            std::fprintf(stderr, "  %s\n", insane[i].c_str());
        }
        return 3;
    }

    // With --rules-dir: the same pipeline with a rule set loaded that has no
    // rule for these pages, timed in the same rounds.
    pith::rules::RuleSet rule_set;
    pith::extract::ExtractOptions ruled_options = extract_options;
    if (options->rules_dir) {
        pith::rules::LoadReport report;
        rule_set = pith::rules::RuleSet::load_directory(*options->rules_dir, report);
        ruled_options.rules = &rule_set;
        std::printf("site rules: %zu files, %zu rules loaded from %s\n", report.files, report.rules,
                    options->rules_dir->c_str());
    }
    Run best_gumbo;
    Run best_pipeline;
    for (std::size_t r = 0; r < options->repeat; ++r) {
        Run gumbo = time_gumbo(pages);
        if (gumbo.seconds < best_gumbo.seconds) {
            best_gumbo = std::move(gumbo);
        }
        Run pipeline = time_pipeline(pages, extract_options);
        if (pipeline.seconds < best_pipeline.seconds) {
            best_pipeline = std::move(pipeline);
        }
    }
    bool rules_ok = true;
    if (options->rules_dir) {
        const PairedBests bests = time_pipeline_pair(pages, extract_options, ruled_options, options->repeat);
        const double plain_seconds = std::accumulate(bests.a.begin(), bests.a.end(), 0.0);
        const double ruled_seconds = std::accumulate(bests.b.begin(), bests.b.end(), 0.0);
        const double rules_ratio = ruled_seconds / plain_seconds;
        rules_ok = !options->max_rules_ratio || rules_ratio <= *options->max_rules_ratio;
        std::printf("pipeline with the site rules loaded / without (time, each page's best of %zu, the two "
                    "back to back on each page, summed): %.3f",
                    options->repeat, rules_ratio);
        if (options->max_rules_ratio) {
            std::printf(" (acceptance <= %.2f): %s", *options->max_rules_ratio, rules_ok ? "PASS" : "FAIL");
        }
        std::printf("\n");
    }

    const double ratio = best_pipeline.seconds / best_gumbo.seconds;
    std::printf("\nthroughput (best run; MB/s of raw input bytes for both):\n");
    print_throughput("gumbo parse", best_gumbo.seconds, pages.size(), raw_bytes);
    print_throughput("pith pipeline", best_pipeline.seconds, pages.size(), raw_bytes);
    const bool ratio_ok = ratio <= options->max_ratio;
    std::printf("ratio pipeline/gumbo (time): %.2f (acceptance <= %.2f): %s%s\n", ratio,
                options->max_ratio, ratio_ok ? "PASS" : "FAIL",
                options->smoke ? " (smoke run: not enforced)" : "");

    // By page size: terciles of raw size, from the best runs' per-page times.
    if (pages.size() >= 3) {
        std::vector<std::size_t> order(pages.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return pages[a].raw.size() < pages[b].raw.size();
        });
        std::printf("\nby page size (raw bytes, thirds of the pages):\n");
        const std::array<const char*, 3> labels{"small", "medium", "large"};
        for (std::size_t third = 0; third < 3; ++third) {
            const std::size_t begin = third * pages.size() / 3;
            const std::size_t end = (third + 1) * pages.size() / 3;
            double gumbo_s = 0.0;
            double pipeline_s = 0.0;
            std::size_t bytes = 0;
            for (std::size_t i = begin; i < end; ++i) {
                gumbo_s += best_gumbo.page_seconds[order[i]];
                pipeline_s += best_pipeline.page_seconds[order[i]];
                bytes += pages[order[i]].raw.size();
            }
            std::printf("  %-6s %4zu pages, %7.1f-%7.1f KB: gumbo %6.2f MB/s, pipeline %6.2f MB/s, "
                        "ratio %.2f\n",
                        labels[third], end - begin,
                        static_cast<double>(pages[order[begin]].raw.size()) / 1e3,
                        static_cast<double>(pages[order[end - 1]].raw.size()) / 1e3,
                        static_cast<double>(bytes) / kMB / gumbo_s,
                        static_cast<double>(bytes) / kMB / pipeline_s, pipeline_s / gumbo_s);
        }
    }

    // Pipeline time by stage, as reported in Article::timings.
    const pith::extract::StageTimings& st = best_pipeline.stages;
    const double total_us = best_pipeline.seconds * 1e6;
    const double staged_us = static_cast<double>(st.decode_us + st.prune_us + st.parse_us + st.dom_build_us +
                                                 st.metadata_us + st.passes_us + st.serialize_us + st.confidence_us +
                                                 st.render_us);
    const auto pct = [&](double us) { return total_us > 0.0 ? 100.0 * us / total_us : 0.0; };
    std::printf("\npipeline stages (%% of pipeline time): decode %.1f%%, prune %.1f%%, parse (gumbo) %.1f%%, "
                "DOM build %.1f%%, metadata %.1f%%, passes %.1f%%, serialize %.1f%%, confidence %.1f%%, "
                "render %.1f%%, other %.1f%%\n",
                pct(static_cast<double>(st.decode_us)), pct(static_cast<double>(st.prune_us)),
                pct(static_cast<double>(st.parse_us)), pct(static_cast<double>(st.dom_build_us)),
                pct(static_cast<double>(st.metadata_us)), pct(static_cast<double>(st.passes_us)),
                pct(static_cast<double>(st.serialize_us)), pct(static_cast<double>(st.confidence_us)),
                pct(static_cast<double>(st.render_us)), pct(std::max(0.0, total_us - staged_us)));
    // A stage's share of the same runs' time: a ratio, so the noise cancels.
    const auto share_within = [&](const char* stage, std::int64_t stage_us, std::optional<double> bound) {
        const double share = total_us > 0.0 ? static_cast<double>(stage_us) / total_us : 0.0;
        const bool ok = !bound || share <= *bound;
        std::printf("%s: %.1f%% of pipeline time", stage, 100.0 * share);
        if (bound) {
            std::printf(" (acceptance <= %.1f%%): %s", 100.0 * *bound, ok ? "PASS" : "FAIL");
        }
        std::printf("\n");
        return ok;
    };
    const bool markdown_ok = !options->markdown || share_within("Markdown", st.render_us, options->max_markdown_share);
    const bool confidence_ok = share_within("confidence", st.confidence_us, options->max_confidence_share);

    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("peak RSS: %.1f MB (includes %.1f MB of pages held in memory)\n",
                static_cast<double>(usage.ru_maxrss) / 1024.0,
                static_cast<double>(raw_bytes + utf8_bytes) / (1024.0 * 1024.0));

    return (ratio_ok || options->smoke) && markdown_ok && confidence_ok && rules_ok ? 0 : 1;
}
