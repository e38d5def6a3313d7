// pith: the command-line front-end. Reads files (or stdin), runs the extractor
// on a few worker threads and prints JSON, NDJSON, HTML, text or Markdown. A
// thin layer: every decision about the article belongs to the extractor, and
// the JSON shape to article_json.hpp. `pith help` is the reference for its
// commands, flags and exit codes.
#include <cstdio>
#include <exception>
#include <string_view>
#include <vector>

#include "cli/args.hpp"
#include "cli/jobs.hpp"
#include "cli/run.hpp"

int main(int argc, char** argv) {
    try {
        const std::vector<std::string_view> args(argv + 1, argv + argc);
        auto cli = pith::cli::parse_args(args);
        if (!cli) {
            std::fprintf(stderr, "pith: %s\nRun 'pith --help' for usage.\n", cli.error().message.c_str());
            return pith::cli::kExitUsage;
        }
        return pith::cli::run(*cli);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "pith: internal error: %s\n", e.what());
        return pith::cli::kExitInput;
    }
}
