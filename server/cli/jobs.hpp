// One input of the pith CLI: read within its byte limit, extracted (or
// checked for readability) and turned into the lines it prints.
#pragma once

#include <string>

#include "cli/args.hpp"

namespace pith::cli {

// Exit codes, ordered so that the numerically largest is the worst; several
// inputs exit with the worst of their codes.
inline constexpr int kExitOk = 0;       // extracted (ok or best_attempt) / readable
inline constexpr int kExitNothing = 1;  // no_content or budget_exceeded / not readable
inline constexpr int kExitUsage = 2;    // bad command line
inline constexpr int kExitInput = 3;    // an input could not be read or processed

struct JobResult {
    std::string out;  // for standard output
    std::string err;  // for standard error
    int exit_code = kExitOk;
};

// The result of `cli`'s command on `file` ("-": standard input); with
// `several`, JSON lines start with a "file" field. Nothing escapes: a failure
// is an "internal" error line.
[[nodiscard]] JobResult guarded_job(const CliArgs& cli, const std::string& file, bool several) noexcept;

}  // namespace pith::cli
