// The pith CLI's runner: the inputs go to a few worker threads (the only
// threads the CLI has), and the main thread writes each result in input order
// as soon as it and those before it are done.
#include "cli/run.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "cli/help.hpp"
#include "cli/jobs.hpp"
#include "cli/warc_run.hpp"

#ifndef PITH_VERSION
#error "PITH_VERSION is defined by CMake on the pith target"
#endif

namespace pith::cli {

namespace {

// Pending output is flushed once it reaches this size, or whenever the writer
// has to wait for the next result (so NDJSON streams while slow files run).
constexpr std::size_t kFlushBytes = 256U * 1024U;
// Results finished ahead of the one being written, per worker: bounds memory
// when an early input is slow and later ones are fast.
constexpr std::size_t kLookaheadPerWorker = 4;

int run_rules(const CliArgs& cli) {
    rules::LoadReport report;
    const rules::RuleSet set = rules::RuleSet::load_directory(cli.rules_dir, report);
    if (cli.rules_action == "show") {
        const rules::SiteRule* rule = set.find_for_url(cli.rules_url);
        if (rule == nullptr) {
            std::printf("no rule applies to %s\n", cli.rules_url.c_str());
            return kExitNothing;
        }
        const std::string text = rules::describe(*rule);
        std::fwrite(text.data(), 1, text.size(), stdout);
        return kExitOk;
    }
    std::printf("%zu files, %zu rules, %zu expressions loaded; %zu files rejected\n", report.files, report.rules,
                report.expressions, report.rejected.size());
    for (const rules::FileNote& note : report.rejected) {
        std::printf("rejected %s:%zu: %s\n", note.path.c_str(), note.line, note.reason.c_str());
    }
    for (const rules::FileNote& note : report.ignored) {
        std::printf("ignored %s:%zu: %s\n", note.path.c_str(), note.line, note.reason.c_str());
    }
    return report.rejected.empty() ? kExitOk : kExitNothing;
}

// Buffered standard output and error; written only by the main thread.
class Output {
public:
    void add(JobResult result) {
        if (!result.err.empty()) {
            flush();  // keep stderr lines next to the stdout line they belong to
            write(stderr, result.err);
        }
        out_ += result.out;
        exit_code_ = std::max(exit_code_, result.exit_code);
        if (out_.size() >= kFlushBytes) {
            flush();
        }
    }
    void flush() {
        write(stdout, out_);
        out_.clear();
        if (std::fflush(stdout) != 0) {
            failed_ = true;
        }
    }
    [[nodiscard]] bool failed() const noexcept { return failed_; }
    [[nodiscard]] int exit_code() const noexcept { return exit_code_; }

private:
    void write(std::FILE* stream, const std::string& bytes) {
        if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), stream) != bytes.size()) {
            failed_ = true;
        }
    }

    std::string out_;
    int exit_code_ = kExitOk;
    bool failed_ = false;
};

// Runs the jobs on `workers` threads; the main thread writes results in input
// order as soon as each next one is done.
void run_parallel(const CliArgs& cli, std::size_t workers, Output& output) {
    const std::size_t n = cli.inputs.size();
    const bool several = n > 1;
    const std::size_t lookahead = workers * kLookaheadPerWorker;

    std::mutex mutex;
    std::condition_variable changed;                  // slots or next_to_write changed
    std::vector<std::optional<JobResult>> slots(n);   // guarded by mutex
    std::size_t next_to_write = 0;                    // guarded by mutex
    bool abandoned = false;                           // guarded by mutex
    std::atomic<std::size_t> next_index{0};           // next input to claim

    auto worker = [&] {
        for (;;) {
            const std::size_t i = next_index.fetch_add(1);
            if (i >= n) {
                return;
            }
            {
                // Never waits for index next_to_write itself, so no deadlock.
                std::unique_lock lock(mutex);
                changed.wait(lock, [&] { return abandoned || i < next_to_write + lookahead; });
                if (abandoned) {
                    return;
                }
            }
            JobResult result = guarded_job(cli, cli.inputs[i], several);
            {
                const std::lock_guard lock(mutex);
                slots[i] = std::move(result);
            }
            changed.notify_all();
        }
    };

    // If the writer below throws, waiting workers must still end so the
    // jthreads can join. Declared after `threads`, so it is destroyed first.
    struct Abandon {
        std::mutex& mutex;
        std::condition_variable& changed;
        bool& abandoned;
        ~Abandon() {
            {
                const std::lock_guard lock(mutex);
                abandoned = true;
            }
            changed.notify_all();
        }
    };
    std::vector<std::jthread> threads;
    const Abandon abandon{mutex, changed, abandoned};
    try {
        threads.reserve(workers);
        for (std::size_t w = 0; w < workers; ++w) {
            threads.emplace_back(worker);
        }
    } catch (const std::system_error&) {
        // Fewer threads than asked for still finish the work; none means run here.
        if (threads.empty()) {
            for (const std::string& file : cli.inputs) {
                output.add(guarded_job(cli, file, several));
            }
            return;
        }
    }

    for (std::size_t i = 0; i < n; ++i) {
        JobResult result;
        {
            std::unique_lock lock(mutex);
            if (!slots[i]) {
                lock.unlock();
                output.flush();  // stream what is done while waiting
                lock.lock();
                changed.wait(lock, [&] { return slots[i].has_value(); });
            }
            result = std::move(*slots[i]);
            slots[i].reset();
            next_to_write = i + 1;
        }
        changed.notify_all();
        output.add(std::move(result));
    }
}

int run_jobs(const CliArgs& cli) {
    Output output;
    std::size_t jobs = cli.jobs;
    if (jobs == 0) {
        jobs = std::max<std::size_t>(1, std::thread::hardware_concurrency());
    }
    const std::size_t workers = std::min(jobs, cli.inputs.size());
    if (workers <= 1) {
        const bool several = cli.inputs.size() > 1;
        for (const std::string& file : cli.inputs) {
            output.add(guarded_job(cli, file, several));
        }
    } else {
        run_parallel(cli, workers, output);
    }
    output.flush();
    if (output.failed()) {
        std::fputs("pith: cannot write the output\n", stderr);
        return kExitInput;
    }
    return output.exit_code();
}

}  // namespace

int run(const CliArgs& cli) {
    switch (cli.command) {
    case Command::help: {
        const std::string text = help_text(cli.help_topic);
        std::fwrite(text.data(), 1, text.size(), stdout);
        return kExitOk;
    }
    case Command::version: std::fputs("pith " PITH_VERSION "\n", stdout); return kExitOk;
    case Command::rules: return run_rules(cli);
    case Command::extract:
    case Command::readable:
    case Command::warc: break;
    }
    CliArgs loaded = cli;
    if (!cli.rules_dir.empty()) {
        rules::LoadReport report;
        auto set = std::make_shared<rules::RuleSet>(rules::RuleSet::load_directory(cli.rules_dir, report));
        for (const rules::FileNote& note : report.rejected) {
            std::fprintf(stderr, "pith: rule file rejected: %s:%zu: %s\n", note.path.c_str(), note.line,
                         note.reason.c_str());
        }
        loaded.rule_set = set;
        loaded.options.rules = set.get();
    }
    return cli.command == Command::warc ? run_warc(loaded) : run_jobs(loaded);
}

}  // namespace pith::cli
