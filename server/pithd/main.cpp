// pithd: the extraction service. Loads the configuration (defaults, TOML,
// environment, flags), then serves until SIGTERM or SIGINT. An invalid setting
// stops start-up with a message naming the key and exit status 2.
#include <malloc.h>

#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include "pithd/address_policy.hpp"
#include "config.hpp"
#include "pithd/request.hpp"
#include "pithd/response.hpp"
#include "pithd/run.hpp"
#include "pithd/logging.hpp"
#include "pithd/metric_names.hpp"

namespace {

// glibc raises its mmap threshold each time a mapped block is freed, up to
// 32 MiB, so after the first large page the buffers of every later one (a
// 16 MiB body, its article and answer strings) come from the heap, where
// freeing them leaves holes that keep resident memory up: the soak with
// hostile pages grew 9.5% in 10 minutes that way. A fixed threshold keeps
// large buffers mapped, and freeing them gives the memory back at once.
constexpr int kMmapThresholdBytes = 1 << 20;

}  // namespace

int main(int argc, char** argv) {
    using namespace pith;
    ::mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes);
    config::Sources sources;
    for (int i = 1; i < argc; ++i) {
        sources.args.emplace_back(argv[i]);
    }
    sources.environment = config::pith_environment();
    Result<config::Loaded> loaded = config::load(sources);
    if (!loaded) {
        std::fprintf(stderr, "pithd: invalid configuration: %s\n", loaded.error().message.c_str());
        return 2;
    }
    const config::ServerConfig& config = loaded->config;
    if (auto policy = server::AddressPolicy::from_allowlist(config.fetch.allow); !policy) {
        std::fprintf(stderr, "pithd: invalid configuration: %s\n", policy.error().message.c_str());
        return 2;
    }
    switch (loaded->action) {
    case config::Action::help: std::fputs(config::help_text().c_str(), stdout); return 0;
    case config::Action::version: std::puts("pithd " PITH_VERSION); return 0;
    case config::Action::print_config: std::fputs(config::to_toml(config).c_str(), stdout); return 0;
    case config::Action::print_config_table: std::fputs(config::markdown_table().c_str(), stdout); return 0;
    case config::Action::check_config: std::puts("configuration ok"); return 0;
    case config::Action::print_error_codes: {
        std::string out = "{";
        for (const ErrorCode code : kAllErrorCodes) {
            out += (out.size() > 1 ? ",\"" : "\"") + std::string(error_code_name(code)) +
                   "\":" + std::to_string(server::http_status(code));
        }
        std::puts((out + "}").c_str());
        return 0;
    }
    case config::Action::print_options: std::puts(server::options_json(config).c_str()); return 0;
    case config::Action::print_metrics_table: {
        std::string out = "| metric | type | labels | meaning |\n|---|---|---|---|\n";
        for (const server::MetricInfo& m : server::kMetrics) {
            std::string labels(m.labels);
            for (std::size_t pos = 0; (pos = labels.find(',', pos)) != std::string::npos; pos += 2) {
                labels.replace(pos, 1, ", ");
            }
            out += "| `" + std::string(m.name) + "` | " + std::string(m.type) + " | " +
                   (labels.empty() ? std::string("-") : labels) + " | " + std::string(m.help) + " |\n";
        }
        std::fputs(out.c_str(), stdout);
        return 0;
    }
    case config::Action::run: break;
    }
    // Writes to a closed socket must fail with EPIPE, not kill the process.
    std::signal(SIGPIPE, SIG_IGN);
    server::log::init(config.log);
    server::log::info("pithd starting", {{"version", PITH_VERSION},
                                         {"listen", config.listen},
                                         {"config_file", loaded->config_file.empty() ? "-" : loaded->config_file}});
    return server::run_pithd(config);
}
