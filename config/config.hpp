// pithd's settings as plain structs, their built-in defaults, and the loader
// that layers the sources: built-in defaults, then a TOML file, then PITH_*
// environment variables, then command-line flags; later sources win.
//
// Every setting is one row of the key table (config.cpp): its TOML key, its
// environment variable, its flag, its default and its meaning. The loader, the
// validation, `pithd --help`, the README's configuration table and
// pith.example.toml are all checked against that one table.
//
// Thread-safety: a ServerConfig is built once before any thread starts and is
// read-only afterwards.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pith/options.hpp"
#include "pith/result.hpp"

#ifndef PITH_VERSION
#error "PITH_VERSION is defined by CMake on the pith_config target"
#endif

namespace pith::config {

using std::chrono::milliseconds;

enum class LogFormat { text, json };

struct LogConfig {
    std::string level = "info";  // trace, debug, info, warn, error, critical, off
    LogFormat format = LogFormat::text;
    bool access_log = true;  // one line per request at info level
};

// Per-request and per-connection limits of the HTTP service.
struct Limits {
    std::size_t max_body_bytes = 16U * 1024U * 1024U;  // 413 before the body is read
    std::size_t max_header_bytes = 16U * 1024U;        // 431 past it
    std::size_t max_connections = 1024;                // more are answered 503 and closed
    std::size_t queue_capacity = 64;                   // extraction jobs waiting for a worker
    std::size_t max_batch_items = 1000;                // lines of one POST /extract/batch
    // What request bodies and the pages' estimated working memory may hold at
    // once; 0 = 75% of the cgroup's memory limit, or 2 GiB without one.
    std::size_t memory_budget_bytes = 0;
    milliseconds request_timeout{10'000};  // deadline from request read to answer: 504 past it
    milliseconds read_timeout{30'000};     // from a request's first byte to its last
    milliseconds write_timeout{30'000};    // to write one response
    milliseconds idle_timeout{60'000};     // a keep-alive connection waiting for its next request
};

// Fetching URLs for {"url": ...} requests without "html" (SSRF-guarded).
struct FetchConfig {
    bool enabled = true;
    std::size_t max_redirects = 5;
    milliseconds connect_timeout{5'000};
    milliseconds header_timeout{10'000};  // from connected to the response header
    milliseconds total_timeout{20'000};   // the whole fetch, redirects included
    std::size_t max_response_bytes = 16U * 1024U * 1024U;      // bytes on the wire
    std::size_t max_decompressed_bytes = 32U * 1024U * 1024U;  // after Content-Encoding
    std::size_t max_concurrent = 64;      // fetches in progress, all hosts
    std::size_t max_per_host = 4;         // fetches in progress to one host name
    // The most pages a request's max_pages may ask for (articles split over
    // pages are fetched page by page, each a fetch of its own).
    std::size_t max_pages = 10;
    std::string user_agent = "pith/" PITH_VERSION;
    std::string accept = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1";
    std::string ca_file;                  // extra PEM CA bundle, besides the system store
    // Operator allowlist: CIDRs ("10.1.0.0/16", "::1/128") and host names
    // ("intranet.example", "*.corp.example") that the address guard lets through.
    std::vector<std::string> allow;
};

struct ServerConfig {
    std::string listen = "0.0.0.0:8080";  // ADDR:PORT; [v6]:PORT for IPv6
    std::size_t io_threads = 1;
    std::size_t workers = 0;  // extraction threads; 0 = one per hardware thread
    std::string auth_token;   // when set, POST /extract and GET /inspect need it (Bearer or Basic)
    bool inspector = true;    // GET /inspect and /extract's "inspect"; false: 404
    milliseconds drain_timeout{25'000};  // after SIGTERM, how long in-flight requests get
    milliseconds shutdown_delay{0};      // after SIGTERM, /readyz says 503 this long before draining
    Limits limits;
    LogConfig log;
    FetchConfig fetch;
    // Folder of site rules (Full-Text RSS *.txt, fingerprint *.toml) loaded at
    // start; "" = none.
    std::string rules_dir;
    // Defaults for every request; requests may tighten them (see proto-docs).
    extract::ExtractOptions extract;

    // workers with 0 resolved to the hardware's thread count.
    [[nodiscard]] std::size_t effective_workers() const noexcept;
};

// One row of the key table.
struct KeyInfo {
    std::string_view key;      // TOML "section.name", e.g. "server.listen"
    std::string_view env;      // "PITH_LISTEN"
    std::string_view flag;     // "--listen"
    std::string_view type;     // "string", "integer", "boolean", "milliseconds", "bytes", "list"
    std::string_view meaning;  // one line
    bool secret = false;       // never printed
};

// Every setting, in the order of pith.example.toml.
[[nodiscard]] std::span<const KeyInfo> keys() noexcept;

// The value of `key` in `config` as a TOML literal ("8080", "\"info\"",
// "[\"10.0.0.0/8\"]"); secrets print as "\"***\"" when set.
[[nodiscard]] std::string value_literal(const ServerConfig& config, std::string_view key);

// Where a configuration comes from, besides the built-in defaults.
struct Sources {
    std::vector<std::string> args;                  // command-line arguments after the program name
    std::map<std::string, std::string> environment;  // PITH_* variables (others are ignored)
    // TOML text read in place of a config file (embedders, tests, the fuzzer);
    // --config and PITH_CONFIG are not read when it is set.
    std::optional<std::string> config_text;
};

// The environment of this process, PITH_* variables only.
[[nodiscard]] std::map<std::string, std::string> pith_environment();

// What the command line asked for besides settings.
enum class Action { run, help, version, print_config, print_config_table, check_config, print_error_codes, print_options, print_metrics_table };

struct Loaded {
    ServerConfig config;
    Action action = Action::run;
    std::string config_file;  // "" when none was given
};

// Builds the configuration: defaults, then the TOML file named by --config or
// PITH_CONFIG, then the environment, then the flags. Errors (invalid_argument)
// name the key, the source and the value: "server.workers (PITH_WORKERS):
// must be 0..1024, got 5000". Not thread-safe (reads files); call it once.
[[nodiscard]] Result<Loaded> load(const Sources& sources);

// Checks the whole configuration; load() calls it last.
[[nodiscard]] Result<bool> validate(const ServerConfig& config);

// `pithd --help`: every flag with its environment variable and default.
[[nodiscard]] std::string help_text();
// The README's configuration table in Markdown: key, environment variable,
// flag, default, meaning.
[[nodiscard]] std::string markdown_table();
// The effective configuration as TOML (secrets masked).
[[nodiscard]] std::string to_toml(const ServerConfig& config);

// The host and port of a listen address: "0.0.0.0:8080", "[::1]:0".
struct ListenAddress {
    std::string host;
    std::uint16_t port = 0;
};
[[nodiscard]] Result<ListenAddress> parse_listen(std::string_view listen);

}  // namespace pith::config
