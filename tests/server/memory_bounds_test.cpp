// The hostile pages of issue 11, each at most 16 MiB, through `pith extract` as
// a user runs it: each ends with a result or a clear error, at no more than
// 256 MiB of peak resident memory (the default max_memory_bytes). The child's
// peak comes from wait4(); the figures are printed. Runs on uninstrumented
// builds only (label memory): sanitizers multiply resident memory.
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "hostile_pages.hpp"

#ifndef PITH_CLI_PATH
#error "PITH_CLI_PATH must name the pith binary (set by tests/CMakeLists.txt)"
#endif

extern char** environ;  // NOLINT: POSIX

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMiB = 1024U * 1024U;
constexpr std::size_t kPeakLimit = 256U * kMiB;

struct ChildRun {
    int exit_code = -1;
    std::size_t peak_rss_bytes = 0;
    std::string out;
};

ChildRun run_pith(const fs::path& page, const fs::path& out_path) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    std::string program = PITH_CLI_PATH;
    std::string command = "extract";
    std::string file = page.string();
    std::vector<char*> argv = {program.data(), command.data(), file.data(), nullptr};
    pid_t pid = 0;
    ChildRun run;
    if (posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ) != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return run;
    }
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    struct rusage usage {};
    if (wait4(pid, &status, 0, &usage) == pid && WIFEXITED(status)) {
        run.exit_code = WEXITSTATUS(status);
    }
    run.peak_rss_bytes = static_cast<std::size_t>(usage.ru_maxrss) * 1024U;  // Linux reports KiB
    std::ifstream in(out_path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    run.out = text.str();
    return run;
}

TEST(MemoryBounds, HostilePagesEndWithAResultOrAClearErrorWithinTheBudget) {
    const fs::path dir = fs::temp_directory_path() / ("pith-memory-bounds-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    for (const pith::test::HostilePage& hostile : pith::test::hostile_pages()) {
        // Streamed to the file: the child's peak is read with wait4(), and
        // Linux counts in it the parent's resident memory at the spawn, so the
        // test never holds a page, and the pages whose answers are large (the
        // test reads them) come last.
        const fs::path page = dir / "page.html";
        std::size_t page_bytes = 0;
        {
            std::ofstream out(page, std::ios::binary);
            hostile.write([&](std::string_view piece) {
                out << piece;
                page_bytes += piece.size();
            });
        }
        ASSERT_LE(page_bytes, pith::test::kHostilePageLimit) << hostile.name;
        const ChildRun run = run_pith(page, dir / "out.json");
        // 0: an article; 1: nothing extracted (no content or a budget refusal).
        EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << hostile.name << ": exit " << run.exit_code;
        const nlohmann::json answer = nlohmann::json::parse(run.out, nullptr, false);
        ASSERT_FALSE(answer.is_discarded()) << hostile.name << ": not JSON: " << run.out.substr(0, 200);
        const std::string status = answer.value("status", "");
        std::string outcome = status;
        if (status == "budget_exceeded") {
            ASSERT_TRUE(answer.contains("error")) << hostile.name;
            const std::string code = answer["error"].value("code", "");
            EXPECT_NE(code, "internal") << hostile.name << ": " << answer["error"].dump();
            EXPECT_FALSE(answer["error"].value("message", "").empty()) << hostile.name;
            outcome += " (" + code + ": " + answer["error"].value("message", "") + ")";
        } else {
            EXPECT_TRUE(status == "ok" || status == "best_attempt" || status == "no_content")
                << hostile.name << ": status " << status;
        }
        EXPECT_LE(run.peak_rss_bytes, kPeakLimit) << hostile.name;
        std::cout << "[ figure ] " << hostile.name << ": " << page_bytes / kMiB << " MiB page, peak RSS "
                  << run.peak_rss_bytes / kMiB << " MiB, " << outcome << "\n";
    }
    fs::remove_all(dir);
}

}  // namespace
