// The hostile pages of issue 11, each at most 16 MiB, through `pith extract` as
// a user runs it: each ends with a result or a clear error, at no more than
// 256 MiB of peak resident memory (the default max_memory_bytes). The child's
// peak comes from wait4(); the figures are printed. Runs on uninstrumented
// builds only (label memory): sanitizers multiply resident memory.
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

#include "child_peak.hpp"
#include "hostile_pages.hpp"

#ifndef PITH_CLI_PATH
#error "PITH_CLI_PATH must name the pith binary (set by tests/CMakeLists.txt)"
#endif

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMiB = 1024U * 1024U;
constexpr std::size_t kPeakLimit = 256U * kMiB;

// `pith extract PAGE` as a child: how it ended, its peak, and its answer.
struct PithRun {
    pith::test::ChildRun child;
    std::string out;
};

PithRun run_pith(const fs::path& page, const fs::path& out_path) {
    PithRun run{pith::test::run_child({PITH_CLI_PATH, "extract", page.string()}, out_path.string()), {}};
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
        const PithRun run = run_pith(page, dir / "out.json");
        // 0: an article; 1: nothing extracted (no content or a budget refusal).
        EXPECT_TRUE(run.child.exit_code == 0 || run.child.exit_code == 1)
            << hostile.name << ": exit " << run.child.exit_code;
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
        EXPECT_LE(run.child.peak_rss_bytes, kPeakLimit) << hostile.name;
        std::cout << "[ figure ] " << hostile.name << ": " << page_bytes / kMiB << " MiB page, peak RSS "
                  << run.child.peak_rss_bytes / kMiB << " MiB, " << outcome << "\n";
    }
    fs::remove_all(dir);
}

}  // namespace
