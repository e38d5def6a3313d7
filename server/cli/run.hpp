// Running a parsed pith command line: help, version, `rules`, or the inputs
// of `extract` and `readable` on a few worker threads, printed in input order.
#pragma once

#include "cli/args.hpp"

namespace pith::cli {

// Runs `cli` and returns the process's exit code (cli/jobs.hpp's kExit*).
[[nodiscard]] int run(const CliArgs& cli);

}  // namespace pith::cli
