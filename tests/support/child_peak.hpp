// Runs a program as a child process and reports how it ended and its peak
// resident memory, as wait4() gives it: the whole process as a user runs it.
// Linux counts in that peak the caller's own resident memory at the fork, so a
// caller that measures should hold little when it calls.
#pragma once

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <string>
#include <vector>

namespace pith::test {

struct ChildRun {
    int exit_code = -1;  // -1 when it did not exit normally (or could not start)
    std::size_t peak_rss_bytes = 0;
};

// `argv[0]` is the program's path; its standard output goes to `stdout_path`
// (created or truncated), or to /dev/null when that is empty.
inline ChildRun run_child(const std::vector<std::string>& argv, const std::string& stdout_path = {}) {
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const std::string& arg : argv) {
        args.push_back(const_cast<char*>(arg.c_str()));
    }
    args.push_back(nullptr);
    const char* out = stdout_path.empty() ? "/dev/null" : stdout_path.c_str();
    const pid_t child = ::fork();
    if (child == 0) {
        const int fd = ::open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || ::dup2(fd, STDOUT_FILENO) < 0) {
            std::_Exit(127);
        }
        ::execv(args[0], args.data());
        std::_Exit(127);
    }
    ChildRun run;
    if (child < 0) {
        return run;
    }
    int status = 0;
    rusage usage{};
    if (::wait4(child, &status, 0, &usage) == child && WIFEXITED(status)) {
        run.exit_code = WEXITSTATUS(status);
    }
    run.peak_rss_bytes = static_cast<std::size_t>(usage.ru_maxrss) * 1024U;  // Linux reports KiB
    return run;
}

}  // namespace pith::test
