// The key table and the layered loader. Each setting is declared once, in
// key_table(), with a typed accessor into ServerConfig; the TOML reader, the
// environment, the flags, validation, help and the Markdown table all walk it.
#include "config.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cctype>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>
#include <thread>
#include <variant>

#include <toml++/toml.h>

#include "pith/option_table.hpp"

extern char** environ;  // POSIX: the process environment

namespace pith::config {

std::size_t ServerConfig::effective_workers() const noexcept {
    if (workers != 0) {
        return workers;
    }
    const unsigned hardware = std::thread::hardware_concurrency();
    return hardware == 0 ? 1 : hardware;
}

namespace {

// A value as a source gave it: text from the environment or a flag, typed from TOML.
using RawValue = std::variant<std::string, std::int64_t, double, bool, std::vector<std::string>>;

struct Origin {
    std::string_view key;
    std::string source;  // "PITH_WORKERS", "--workers", "pith.toml"
    bool typed = false;  // TOML keeps its types; the environment and flags give text
};

Error invalid(const Origin& origin, const std::string& what) {
    return Error{ErrorCode::invalid_argument,
                 std::string(origin.key) + " (" + origin.source + "): " + what};
}

std::string describe(const RawValue& raw) {
    struct Visitor {
        std::string operator()(const std::string& s) const { return "\"" + s + "\""; }
        std::string operator()(std::int64_t i) const { return std::to_string(i); }
        std::string operator()(double d) const {
            std::ostringstream out;
            out << d;
            return out.str();
        }
        std::string operator()(bool b) const { return b ? "true" : "false"; }
        std::string operator()(const std::vector<std::string>&) const { return "a list"; }
    };
    return std::visit(Visitor{}, raw);
}

std::string toml_string(std::string_view s) {
    std::string out = "\"";
    for (const char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                constexpr char kHex[] = "0123456789ABCDEF";
                out += "\\u00";
                out += kHex[(static_cast<unsigned char>(c) >> 4U) & 0xFU];
                out += kHex[static_cast<unsigned char>(c) & 0xFU];
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

Result<std::uint64_t> parse_unsigned(const RawValue& raw, const Origin& origin) {
    if (const auto* i = std::get_if<std::int64_t>(&raw)) {
        if (*i < 0) {
            return invalid(origin, "must not be negative, got " + std::to_string(*i));
        }
        return static_cast<std::uint64_t>(*i);
    }
    if (const auto* s = std::get_if<std::string>(&raw)) {
        std::uint64_t value = 0;
        const char* end = s->data() + s->size();
        const auto [ptr, ec] = std::from_chars(s->data(), end, value);
        if (s->empty() || ec != std::errc{} || ptr != end) {
            return invalid(origin, "expected a non-negative decimal integer, got \"" + *s + "\"");
        }
        return value;
    }
    return invalid(origin, "expected an integer, got " + describe(raw));
}

Result<bool> parse_bool(const RawValue& raw, const Origin& origin) {
    if (const auto* b = std::get_if<bool>(&raw)) {
        return *b;
    }
    if (const auto* s = std::get_if<std::string>(&raw)) {
        if (*s == "true" || *s == "1" || *s == "yes" || *s == "on") {
            return true;
        }
        if (*s == "false" || *s == "0" || *s == "no" || *s == "off") {
            return false;
        }
        return invalid(origin, "expected true or false, got \"" + *s + "\"");
    }
    return invalid(origin, "expected true or false, got " + describe(raw));
}

Result<std::string> parse_string(const RawValue& raw, const Origin& origin) {
    if (const auto* s = std::get_if<std::string>(&raw)) {
        return *s;
    }
    return invalid(origin, "expected a string, got " + describe(raw));
}

Result<std::vector<std::string>> parse_list(const RawValue& raw, const Origin& origin) {
    if (const auto* list = std::get_if<std::vector<std::string>>(&raw)) {
        return *list;
    }
    if (const auto* s = std::get_if<std::string>(&raw)) {
        // Environment and flags give lists comma-separated.
        std::vector<std::string> items;
        std::size_t start = 0;
        while (start <= s->size()) {
            const std::size_t comma = std::min(s->find(',', start), s->size());
            std::string item = s->substr(start, comma - start);
            item.erase(0, item.find_first_not_of(" \t"));
            item.erase(item.find_last_not_of(" \t") + 1);
            if (!item.empty()) {
                items.push_back(std::move(item));
            }
            start = comma + 1;
        }
        return items;
    }
    return invalid(origin, "expected a list of strings, got " + describe(raw));
}

// One row: what KeyInfo says, plus how to read and write the setting.
struct Key {
    KeyInfo info;
    std::function<Result<bool>(ServerConfig&, const RawValue&, const Origin&)> set;
    std::function<std::string(const ServerConfig&)> get;  // a TOML literal
};

using SizeRef = std::size_t& (*)(ServerConfig&);
using MillisRef = milliseconds& (*)(ServerConfig&);
using BoolRef = bool& (*)(ServerConfig&);
using StringRef = std::string& (*)(ServerConfig&);
using ListRef = std::vector<std::string>& (*)(ServerConfig&);

// A const view through a mutable accessor: the table declares each field once.
template <typename Ref>
auto& read(Ref ref, const ServerConfig& config) {
    return ref(const_cast<ServerConfig&>(config));  // NOLINT: read-only use
}

// A key whose raw value `parse`s into a Value, which `store` checks and sets.
template <typename Value, typename Store, typename Show>
Key make_key(KeyInfo info, Result<Value> (*parse)(const RawValue&, const Origin&), Store store, Show show) {
    return Key{info,
               [parse, store](ServerConfig& c, const RawValue& raw, const Origin& origin) -> Result<bool> {
                   Result<Value> value = parse(raw, origin);
                   if (!value) {
                       return std::move(value).error();
                   }
                   return store(c, std::move(value).value(), origin);
               },
               show};
}

Result<bool> within(const Origin& origin, std::uint64_t value, std::uint64_t min, std::uint64_t max,
                    std::string_view unit) {
    if (value < min || value > max) {
        return invalid(origin, "must be " + std::to_string(min) + ".." + std::to_string(max) + std::string(unit) +
                                   ", got " + std::to_string(value));
    }
    return true;
}

Key size_key(KeyInfo info, SizeRef ref, std::uint64_t min, std::uint64_t max) {
    return make_key<std::uint64_t>(
        info, parse_unsigned,
        [ref, min, max](ServerConfig& c, std::uint64_t value, const Origin& origin) -> Result<bool> {
            if (auto ok = within(origin, value, min, max, ""); !ok) {
                return ok;
            }
            ref(c) = static_cast<std::size_t>(value);
            return true;
        },
        [ref](const ServerConfig& c) { return std::to_string(read(ref, c)); });
}

Key millis_key(KeyInfo info, MillisRef ref, std::uint64_t min, std::uint64_t max) {
    return make_key<std::uint64_t>(
        info, parse_unsigned,
        [ref, min, max](ServerConfig& c, std::uint64_t value, const Origin& origin) -> Result<bool> {
            if (auto ok = within(origin, value, min, max, " milliseconds"); !ok) {
                return ok;
            }
            ref(c) = milliseconds(static_cast<milliseconds::rep>(value));
            return true;
        },
        [ref](const ServerConfig& c) { return std::to_string(read(ref, c).count()); });
}

Key bool_key(KeyInfo info, BoolRef ref) {
    return make_key<bool>(
        info, parse_bool,
        [ref](ServerConfig& c, bool value, const Origin&) -> Result<bool> {
            ref(c) = value;
            return true;
        },
        [ref](const ServerConfig& c) { return std::string(read(ref, c) ? "true" : "false"); });
}

// `check` returns "" when the value is acceptable, else what is wrong with it.
Key string_key(KeyInfo info, StringRef ref, std::string (*check)(const std::string&) = nullptr) {
    return make_key<std::string>(
        info, parse_string,
        [ref, check](ServerConfig& c, std::string value, const Origin& origin) -> Result<bool> {
            if (check != nullptr) {
                if (const std::string what = check(value); !what.empty()) {
                    return invalid(origin, what);
                }
            }
            ref(c) = std::move(value);
            return true;
        },
        [ref, secret = info.secret](const ServerConfig& c) {
            const std::string& value = read(ref, c);
            return secret && !value.empty() ? std::string("\"***\"") : toml_string(value);
        });
}

Key list_key(KeyInfo info, ListRef ref) {
    return make_key<std::vector<std::string>>(
        info, parse_list,
        [ref](ServerConfig& c, std::vector<std::string> value, const Origin&) -> Result<bool> {
            ref(c) = std::move(value);
            return true;
        },
        [ref](const ServerConfig& c) {
            std::string out = "[";
            for (const std::string& item : read(ref, c)) {
                out += (out.size() > 1 ? ", " : "") + toml_string(item);
            }
            return out + "]";
        });
}

// An extraction option of the option table (pith/option_table.hpp) as the key
// extract.NAME: the table reads and checks the value, so the key accepts what
// the API and the CLI accept, with the same words.
Key table_key(const extract::OptionRow& row, std::string_view key, std::string_view env, std::string_view flag) {
    return Key{KeyInfo{key, env, flag, row.type, row.help},
               [&row](ServerConfig& c, const RawValue& raw, const Origin& origin) -> Result<bool> {
                   extract::OptionValue value;
                   if (const auto* text = std::get_if<std::string>(&raw)) {
                       value = *text;
                   } else if (const auto* i = std::get_if<std::int64_t>(&raw)) {
                       value = *i;
                   } else if (const auto* d = std::get_if<double>(&raw)) {
                       value = *d;
                   } else if (const auto* b = std::get_if<bool>(&raw)) {
                       value = *b;
                   } else {
                       return invalid(origin, "expected a single value, got " + describe(raw));
                   }
                   const auto form = origin.typed ? extract::ValueForm::typed : extract::ValueForm::text;
                   if (auto set = extract::set_option(c.extract, row, value, form); !set) {
                       return invalid(origin, set.error().message);
                   }
                   return true;
               },
               [&row](const ServerConfig& c) {
                   const std::string value = row.show(c.extract);
                   if (value.empty()) {
                       return value;  // an optional without a value: no literal
                   }
                   switch (row.kind) {
                   case extract::OptionKind::choice: return toml_string(value);
                   case extract::OptionKind::number:
                       // A TOML float, not an integer.
                       return value.find_first_of(".en") == std::string::npos ? value + ".0" : value;
                   case extract::OptionKind::integer:
                   case extract::OptionKind::boolean: break;
                   }
                   return value;
               }};
}

std::string check_listen(const std::string& value) {
    auto parsed = parse_listen(value);
    return parsed ? std::string() : parsed.error().message;
}

std::string check_log_level(const std::string& value) {
    static constexpr std::string_view kLevels[] = {"trace", "debug", "info", "warn", "error", "critical", "off"};
    if (std::find(std::begin(kLevels), std::end(kLevels), value) != std::end(kLevels)) {
        return {};
    }
    return "must be one of trace, debug, info, warn, error, critical, off; got \"" + value + "\"";
}

std::string check_header_value(const std::string& value) {
    for (const char c : value) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            return "must not contain control characters";
        }
    }
    return {};
}

std::string check_readable_file(const std::string& value) {
    if (value.empty()) {
        return {};
    }
    std::ifstream file(value);
    return file ? std::string() : "cannot read file \"" + value + "\"";
}

std::string check_readable_dir(const std::string& value) {
    if (value.empty()) {
        return {};
    }
    std::error_code error;
    return std::filesystem::is_directory(value, error) ? std::string() : "not a folder: \"" + value + "\"";
}

constexpr std::uint64_t kMaxBytes = 1ULL << 40U;
constexpr std::uint64_t kDay = 24ULL * 3600ULL * 1000ULL;

// Flags and environment names follow one rule: server.* and limits.* keys drop
// their section ("server.listen" is PITH_LISTEN and --listen); the others keep
// it ("log.level" is PITH_LOG_LEVEL and --log-level).
const std::vector<Key>& key_table() {
    static const std::vector<Key> table = [] {
        std::vector<Key> t;
        // [server]
        t.push_back(string_key({"server.listen", "PITH_LISTEN", "--listen", "string",
                                "address and port to listen on: ADDR:PORT, [IPv6]:PORT; port 0 picks a free one"},
                               [](ServerConfig& c) -> std::string& { return c.listen; }, check_listen));
        t.push_back(size_key({"server.io_threads", "PITH_IO_THREADS", "--io-threads", "integer",
                              "threads running the network I/O (accept, read, write, fetch)"},
                             [](ServerConfig& c) -> std::size_t& { return c.io_threads; }, 1, 64));
        t.push_back(size_key({"server.workers", "PITH_WORKERS", "--workers", "integer",
                              "extraction threads; 0 = one per hardware thread"},
                             [](ServerConfig& c) -> std::size_t& { return c.workers; }, 0, 1024));
        t.push_back(string_key({"server.auth_token", "PITH_AUTH_TOKEN", "--auth-token", "string",
                                "when set, POST /extract and GET /inspect need it: 'Authorization: Bearer "
                                "<token>', or HTTP Basic with the token as password (what a browser sends); "
                                "health, readiness, metrics and version stay open",
                                true},
                               [](ServerConfig& c) -> std::string& { return c.auth_token; }, check_header_value));
        t.push_back(bool_key({"server.inspector", "PITH_INSPECTOR", "--inspector", "boolean",
                              "serve the inspector (GET /inspect, and \"inspect\" on /extract), a page that "
                              "shows how an article was found; false answers 404"},
                             [](ServerConfig& c) -> bool& { return c.inspector; }));
        t.push_back(millis_key({"server.drain_timeout_ms", "PITH_DRAIN_TIMEOUT_MS", "--drain-timeout-ms",
                                "milliseconds", "after SIGTERM or SIGINT, how long in-flight requests may take"},
                               [](ServerConfig& c) -> milliseconds& { return c.drain_timeout; }, 0, kDay));
        t.push_back(millis_key({"server.shutdown_delay_ms", "PITH_SHUTDOWN_DELAY_MS", "--shutdown-delay-ms",
                                "milliseconds",
                                "after SIGTERM, how long /readyz answers 503 while work is still taken, so "
                                "load balancers stop sending before the listener closes"},
                               [](ServerConfig& c) -> milliseconds& { return c.shutdown_delay; }, 0, kDay));
        // [limits]
        t.push_back(size_key({"limits.max_body_bytes", "PITH_MAX_BODY_BYTES", "--max-body-bytes", "bytes",
                              "largest request body; larger ones get 413 before the body is read"},
                             [](ServerConfig& c) -> std::size_t& { return c.limits.max_body_bytes; }, 1024,
                             kMaxBytes));
        t.push_back(size_key({"limits.max_header_bytes", "PITH_MAX_HEADER_BYTES", "--max-header-bytes", "bytes",
                              "largest request header; larger ones get 431"},
                             [](ServerConfig& c) -> std::size_t& { return c.limits.max_header_bytes; }, 1024,
                             1024U * 1024U));
        t.push_back(size_key({"limits.max_connections", "PITH_MAX_CONNECTIONS", "--max-connections", "integer",
                              "open connections; more are answered 503 and closed"},
                             [](ServerConfig& c) -> std::size_t& { return c.limits.max_connections; }, 1,
                             1'000'000));
        t.push_back(size_key({"limits.queue_capacity", "PITH_QUEUE_CAPACITY", "--queue-capacity", "integer",
                              "extraction jobs waiting for a worker; when full, requests get 503 with "
                              "Retry-After at once"},
                             [](ServerConfig& c) -> std::size_t& { return c.limits.queue_capacity; }, 1, 1'000'000));
        t.push_back(size_key({"limits.max_batch_items", "PITH_MAX_BATCH_ITEMS", "--max-batch-items", "integer",
                              "items (lines) one POST /extract/batch may hold; more get 400 before any is "
                              "extracted"},
                             [](ServerConfig& c) -> std::size_t& { return c.limits.max_batch_items; }, 1, 100'000));
        t.push_back(size_key({"limits.memory_budget_bytes", "PITH_MEMORY_BUDGET_BYTES", "--memory-budget-bytes",
                              "bytes",
                              "memory that request bodies and the pages' estimated working memory may hold at "
                              "once; requests past it get 503 with Retry-After; 0 = 75% of the cgroup's memory "
                              "limit, or 2 GiB without one"},
                             [](ServerConfig& c) -> std::size_t& { return c.limits.memory_budget_bytes; }, 0,
                             kMaxBytes));
        t.push_back(millis_key({"limits.request_timeout_ms", "PITH_REQUEST_TIMEOUT_MS", "--request-timeout-ms",
                                "milliseconds",
                                "deadline from a request's last byte to its answer (fetch included); 504 past it"},
                               [](ServerConfig& c) -> milliseconds& { return c.limits.request_timeout; }, 1, kDay));
        t.push_back(millis_key({"limits.read_timeout_ms", "PITH_READ_TIMEOUT_MS", "--read-timeout-ms",
                                "milliseconds", "from a request's first byte to its last; slower clients are cut off"},
                               [](ServerConfig& c) -> milliseconds& { return c.limits.read_timeout; }, 1, kDay));
        t.push_back(millis_key({"limits.write_timeout_ms", "PITH_WRITE_TIMEOUT_MS", "--write-timeout-ms",
                                "milliseconds", "to write one response; clients that stop reading are cut off"},
                               [](ServerConfig& c) -> milliseconds& { return c.limits.write_timeout; }, 1, kDay));
        t.push_back(millis_key({"limits.idle_timeout_ms", "PITH_IDLE_TIMEOUT_MS", "--idle-timeout-ms",
                                "milliseconds", "how long a keep-alive connection may wait for its next request"},
                               [](ServerConfig& c) -> milliseconds& { return c.limits.idle_timeout; }, 1, kDay));
        // [log]
        t.push_back(string_key({"log.level", "PITH_LOG_LEVEL", "--log-level", "string",
                                "trace, debug, info, warn, error, critical or off"},
                               [](ServerConfig& c) -> std::string& { return c.log.level; }, check_log_level));
        t.push_back(make_key<std::string>(
            {"log.format", "PITH_LOG_FORMAT", "--log-format", "string", "text, or json for one JSON object per line"},
            parse_string,
            [](ServerConfig& c, const std::string& value, const Origin& origin) -> Result<bool> {
                if (value != "text" && value != "json") {
                    return invalid(origin, "must be text or json, got \"" + value + "\"");
                }
                c.log.format = value == "json" ? LogFormat::json : LogFormat::text;
                return true;
            },
            [](const ServerConfig& c) {
                return std::string(c.log.format == LogFormat::json ? "\"json\"" : "\"text\"");
            }));
        t.push_back(bool_key({"log.access_log", "PITH_LOG_ACCESS_LOG", "--log-access-log", "boolean",
                              "one line per request: method, path, status, bytes, duration, request id, "
                              "extraction status"},
                             [](ServerConfig& c) -> bool& { return c.log.access_log; }));
        // [extract]: defaults of every request, one key per row of the option
        // table but its presets (a policy stands for keys of its own).
        static std::deque<std::string> names;  // the generated keys' text, alive as long as the table
        for (const extract::OptionRow& row : extract::option_table()) {
            if (row.preset) {
                continue;
            }
            std::string env = "PITH_EXTRACT_" + std::string(row.name);
            std::transform(env.begin(), env.end(), env.begin(),
                           [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
            const std::string& key = names.emplace_back("extract." + std::string(row.name));
            const std::string& env_name = names.emplace_back(std::move(env));
            const std::string& flag = names.emplace_back("--extract-" + extract::option_flag(row).substr(2));
            t.push_back(table_key(row, key, env_name, flag));
        }
        // [fetch]
        t.push_back(bool_key({"fetch.enabled", "PITH_FETCH_ENABLED", "--fetch-enabled", "boolean",
                              "fetch pages for requests that give a url and no html"},
                             [](ServerConfig& c) -> bool& { return c.fetch.enabled; }));
        t.push_back(size_key({"fetch.max_redirects", "PITH_FETCH_MAX_REDIRECTS", "--fetch-max-redirects", "integer",
                              "redirects followed, each hop checked by the address guard"},
                             [](ServerConfig& c) -> std::size_t& { return c.fetch.max_redirects; }, 0, 50));
        t.push_back(millis_key({"fetch.connect_timeout_ms", "PITH_FETCH_CONNECT_TIMEOUT_MS",
                                "--fetch-connect-timeout-ms", "milliseconds", "to open a connection (TLS included)"},
                               [](ServerConfig& c) -> milliseconds& { return c.fetch.connect_timeout; }, 1, kDay));
        t.push_back(millis_key({"fetch.header_timeout_ms", "PITH_FETCH_HEADER_TIMEOUT_MS", "--fetch-header-timeout-ms",
                                "milliseconds", "from the request sent to the response header received"},
                               [](ServerConfig& c) -> milliseconds& { return c.fetch.header_timeout; }, 1, kDay));
        t.push_back(millis_key({"fetch.total_timeout_ms", "PITH_FETCH_TOTAL_TIMEOUT_MS", "--fetch-total-timeout-ms",
                                "milliseconds", "the whole fetch, redirects included; also bounded by the request deadline"},
                               [](ServerConfig& c) -> milliseconds& { return c.fetch.total_timeout; }, 1, kDay));
        t.push_back(size_key({"fetch.max_response_bytes", "PITH_FETCH_MAX_RESPONSE_BYTES",
                              "--fetch-max-response-bytes", "bytes", "body bytes read from the wire; reading stops past it"},
                             [](ServerConfig& c) -> std::size_t& { return c.fetch.max_response_bytes; }, 1024,
                             kMaxBytes));
        t.push_back(size_key({"fetch.max_decompressed_bytes", "PITH_FETCH_MAX_DECOMPRESSED_BYTES",
                              "--fetch-max-decompressed-bytes", "bytes",
                              "body size after gzip, deflate or br decoding (against compression bombs)"},
                             [](ServerConfig& c) -> std::size_t& { return c.fetch.max_decompressed_bytes; }, 1024,
                             kMaxBytes));
        t.push_back(size_key({"fetch.max_concurrent", "PITH_FETCH_MAX_CONCURRENT", "--fetch-max-concurrent",
                              "integer", "fetches in progress at once; more get 503"},
                             [](ServerConfig& c) -> std::size_t& { return c.fetch.max_concurrent; }, 1, 100'000));
        t.push_back(size_key({"fetch.max_per_host", "PITH_FETCH_MAX_PER_HOST", "--fetch-max-per-host", "integer",
                              "fetches in progress to one host name; more get 503"},
                             [](ServerConfig& c) -> std::size_t& { return c.fetch.max_per_host; }, 1, 100'000));
        t.push_back(size_key({"fetch.max_pages", "PITH_FETCH_MAX_PAGES", "--fetch-max-pages", "integer",
                              "the most pages a request's max_pages may ask for (an article split over pages "
                              "is fetched page by page)"},
                             [](ServerConfig& c) -> std::size_t& { return c.fetch.max_pages; }, 1, 100));
        t.push_back(string_key({"fetch.user_agent", "PITH_FETCH_USER_AGENT", "--fetch-user-agent", "string",
                                "User-Agent header of fetches"},
                               [](ServerConfig& c) -> std::string& { return c.fetch.user_agent; }, check_header_value));
        t.push_back(string_key({"fetch.accept", "PITH_FETCH_ACCEPT", "--fetch-accept", "string",
                                "Accept header of fetches"},
                               [](ServerConfig& c) -> std::string& { return c.fetch.accept; }, check_header_value));
        t.push_back(string_key({"fetch.ca_file", "PITH_FETCH_CA_FILE", "--fetch-ca-file", "string",
                                "PEM file of extra CA certificates trusted besides the system store"},
                               [](ServerConfig& c) -> std::string& { return c.fetch.ca_file; }, check_readable_file));
        t.push_back(list_key({"fetch.allow", "PITH_FETCH_ALLOW", "--fetch-allow", "list",
                              "CIDRs and host names (\"*.corp.example\") the address guard lets through, "
                              "private and loopback ones included; comma-separated in env and flags"},
                             [](ServerConfig& c) -> std::vector<std::string>& { return c.fetch.allow; }));
        // [rules]
        t.push_back(string_key({"rules.dir", "PITH_RULES_DIR", "--rules-dir", "string",
                                "folder of site rules (Full-Text RSS *.txt files, fingerprint *.toml files) loaded "
                                "at start; the rule for a page's host applies; \"\" = none"},
                               [](ServerConfig& c) -> std::string& { return c.rules_dir; }, check_readable_dir));
        return t;
    }();
    return table;
}

const Key* find_key(std::string_view key) {
    for (const Key& k : key_table()) {
        if (k.info.key == key) {
            return &k;
        }
    }
    return nullptr;
}

// A TOML node as a RawValue, or nullopt for types no key takes.
std::optional<RawValue> raw_from_toml(const toml::node& node) {
    if (const auto* s = node.as_string()) {
        return RawValue{s->get()};
    }
    if (const auto* i = node.as_integer()) {
        return RawValue{i->get()};
    }
    if (const auto* d = node.as_floating_point()) {
        return RawValue{d->get()};
    }
    if (const auto* b = node.as_boolean()) {
        return RawValue{b->get()};
    }
    if (const auto* array = node.as_array()) {
        std::vector<std::string> items;
        for (const toml::node& item : *array) {
            const auto* s = item.as_string();
            if (s == nullptr) {
                return std::nullopt;
            }
            items.push_back(s->get());
        }
        return RawValue{std::move(items)};
    }
    return std::nullopt;
}

// Applies TOML from `text`, or from the file at `path` when `text` is null;
// `path` names the source in messages either way.
Result<bool> apply_toml(ServerConfig& config, const std::string& path, const std::string* text) {
    toml::table root;
    try {
        root = text != nullptr ? toml::parse(*text, path) : toml::parse_file(path);
    } catch (const toml::parse_error& e) {
        std::ostringstream what;
        what << "config file " << path << ": " << e.description() << " at line " << e.source().begin.line
             << ", column " << e.source().begin.column;
        return Error{ErrorCode::invalid_argument, what.str()};
    }
    for (const auto& [section_name, section_node] : root) {
        const auto* section = section_node.as_table();
        if (section == nullptr) {
            return Error{ErrorCode::invalid_argument, "config file " + path + ": top-level key \"" +
                                                          std::string(section_name.str()) +
                                                          "\" must be a [section]"};
        }
        for (const auto& [name, node] : *section) {
            const std::string key = std::string(section_name.str()) + "." + std::string(name.str());
            const Key* k = find_key(key);
            if (k == nullptr) {
                return Error{ErrorCode::invalid_argument, key + " (" + path + "): unknown key"};
            }
            const Origin origin{k->info.key, path, true};
            const std::optional<RawValue> raw = raw_from_toml(node);
            if (!raw) {
                return invalid(origin, "unsupported value type");
            }
            if (auto set = k->set(config, *raw, origin); !set) {
                return set;
            }
        }
    }
    return true;
}

}  // namespace

std::span<const KeyInfo> keys() noexcept {
    static const std::vector<KeyInfo> infos = [] {
        std::vector<KeyInfo> out;
        for (const Key& k : key_table()) {
            out.push_back(k.info);
        }
        return out;
    }();
    return infos;
}

std::string value_literal(const ServerConfig& config, std::string_view key) {
    const Key* k = find_key(key);
    return k != nullptr ? k->get(config) : std::string();
}

std::map<std::string, std::string> pith_environment() {
    std::map<std::string, std::string> out;
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
        const std::string_view var(*entry);
        const std::size_t eq = var.find('=');
        if (eq != std::string_view::npos && var.starts_with("PITH_")) {
            out.emplace(std::string(var.substr(0, eq)), std::string(var.substr(eq + 1)));
        }
    }
    return out;
}

Result<ListenAddress> parse_listen(std::string_view listen) {
    const auto bad = [&](const std::string& why) {
        return Error{ErrorCode::invalid_argument, "\"" + std::string(listen) + "\" " + why};
    };
    std::string_view host;
    std::string_view port;
    if (listen.starts_with('[')) {
        const std::size_t close = listen.find(']');
        if (close == std::string_view::npos || close + 1 >= listen.size() || listen[close + 1] != ':') {
            return bad("must be [IPv6]:PORT");
        }
        host = listen.substr(1, close - 1);
        port = listen.substr(close + 2);
    } else {
        const std::size_t colon = listen.rfind(':');
        if (colon == std::string_view::npos) {
            return bad("must be ADDR:PORT");
        }
        host = listen.substr(0, colon);
        port = listen.substr(colon + 1);
        if (host.find(':') != std::string_view::npos) {
            return bad("has an IPv6 address without brackets: use [ADDR]:PORT");
        }
    }
    if (host.empty()) {
        return bad("has no address (use 0.0.0.0 for every interface)");
    }
    unsigned value = 0;
    const auto [ptr, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (port.empty() || ec != std::errc{} || ptr != port.data() + port.size() || value > 65535) {
        return bad("has an invalid port (0..65535)");
    }
    return ListenAddress{std::string(host), static_cast<std::uint16_t>(value)};
}

Result<bool> validate(const ServerConfig& config) {
    if (auto listen = parse_listen(config.listen); !listen) {
        return Error{ErrorCode::invalid_argument, "server.listen: " + listen.error().message};
    }
    if (config.fetch.max_decompressed_bytes < config.fetch.max_response_bytes) {
        return Error{ErrorCode::invalid_argument,
                     "fetch.max_decompressed_bytes: must be at least fetch.max_response_bytes (" +
                         std::to_string(config.fetch.max_response_bytes) + "), got " +
                         std::to_string(config.fetch.max_decompressed_bytes)};
    }
    if (auto extract_ok = extract::validate(config.extract); !extract_ok) {
        return Error{ErrorCode::invalid_argument, "extract: " + extract_ok.error().message};
    }
    if (config.extract.pages.max_pages > config.fetch.max_pages) {
        return Error{ErrorCode::invalid_argument,
                     "extract.max_pages: must be at most fetch.max_pages (" + std::to_string(config.fetch.max_pages) +
                         "), got " + std::to_string(config.extract.pages.max_pages)};
    }
    return true;
}

Result<Loaded> load(const Sources& sources) {
    Loaded loaded;
    // Flags are read twice: first for --config and the actions, then, after the
    // file and the environment, for the settings themselves.
    struct FlagValue {
        const Key* key;
        RawValue value;
        std::string flag;
    };
    std::vector<FlagValue> flag_values;
    const auto& args = sources.args;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string_view arg = args[i];
        std::optional<std::string> inline_value;
        if (const std::size_t eq = arg.find('='); arg.starts_with("--") && eq != std::string_view::npos) {
            inline_value = std::string(arg.substr(eq + 1));
            arg = arg.substr(0, eq);
        }
        const auto usage = [&](const std::string& what) {
            return Error{ErrorCode::invalid_argument, std::string(arg) + ": " + what};
        };
        const auto no_value = [&](Action action) -> Result<bool> {
            if (inline_value) {
                return usage("takes no value");
            }
            loaded.action = action;
            return true;
        };
        Result<bool> step = true;
        if (arg == "-h" || arg == "--help") {
            step = no_value(Action::help);
        } else if (arg == "--version") {
            step = no_value(Action::version);
        } else if (arg == "--print-config") {
            step = no_value(Action::print_config);
        } else if (arg == "--print-config-table") {
            step = no_value(Action::print_config_table);
        } else if (arg == "--check-config") {
            step = no_value(Action::check_config);
        } else if (arg == "--print-error-codes") {
            step = no_value(Action::print_error_codes);
        } else if (arg == "--print-options") {
            step = no_value(Action::print_options);
        } else if (arg == "--print-metrics-table") {
            step = no_value(Action::print_metrics_table);
        } else if (arg == "--config") {
            if (inline_value) {
                loaded.config_file = *inline_value;
            } else if (i + 1 < args.size()) {
                loaded.config_file = args[++i];
            } else {
                return usage("needs a file name");
            }
        } else {
            const Key* key = nullptr;
            for (const Key& k : key_table()) {
                if (k.info.flag == arg) {
                    key = &k;
                }
            }
            if (key == nullptr) {
                return Error{ErrorCode::invalid_argument,
                             "unknown argument \"" + std::string(arg) + "\" (see pithd --help)"};
            }
            if (inline_value) {
                flag_values.push_back({key, *inline_value, std::string(arg)});
            } else if (key->info.type == "boolean") {
                flag_values.push_back({key, std::string("true"), std::string(arg)});
            } else if (i + 1 < args.size()) {
                flag_values.push_back({key, args[++i], std::string(arg)});
            } else {
                return usage("needs a value");
            }
        }
        if (!step) {
            return std::move(step).error();
        }
    }

    if (loaded.config_file.empty()) {
        if (const auto it = sources.environment.find("PITH_CONFIG"); it != sources.environment.end()) {
            loaded.config_file = it->second;
        }
    }
    if (sources.config_text) {
        if (auto applied = apply_toml(loaded.config, "<config text>", &*sources.config_text); !applied) {
            return std::move(applied).error();
        }
    } else if (!loaded.config_file.empty()) {
        if (auto applied = apply_toml(loaded.config, loaded.config_file, nullptr); !applied) {
            return std::move(applied).error();
        }
    }
    for (const Key& k : key_table()) {
        if (const auto it = sources.environment.find(std::string(k.info.env)); it != sources.environment.end()) {
            if (auto set = k.set(loaded.config, it->second, Origin{k.info.key, std::string(k.info.env)}); !set) {
                return std::move(set).error();
            }
        }
    }
    for (const FlagValue& fv : flag_values) {
        if (auto set = fv.key->set(loaded.config, fv.value, Origin{fv.key->info.key, fv.flag}); !set) {
            return std::move(set).error();
        }
    }
    if (auto valid = validate(loaded.config); !valid) {
        return std::move(valid).error();
    }
    return loaded;
}

std::string help_text() {
    const ServerConfig defaults;
    std::string out =
        "pithd - the pith extraction service (HTTP/1.1)\n"
        "\n"
        "Usage: pithd [--config FILE] [--SETTING VALUE]...\n"
        "\n"
        "Endpoints: POST /extract, GET /healthz, GET /readyz, GET /metrics, GET /version\n"
        "(proto-docs/openapi.yaml is the reference).\n"
        "\n"
        "Settings come from built-in defaults, then the TOML file given by --config or\n"
        "PITH_CONFIG, then PITH_* environment variables, then flags; later sources win.\n"
        "An invalid value stops start-up with a message naming the key (exit status 2).\n"
        "\n"
        "Actions:\n"
        "  --config FILE          read settings from a TOML file (env PITH_CONFIG)\n"
        "  --check-config         validate the settings and exit 0, or 2 naming the key\n"
        "  --print-config         print the effective settings as TOML and exit\n"
        "  --print-config-table   print the settings table (Markdown) and exit\n"
        "  --print-error-codes    print every API error code with its HTTP status (JSON) and exit\n"
        "  --print-options        print every /extract option with its kind, range and default (JSON) and exit\n"
        "  --print-metrics-table  print the table of exported metrics (Markdown) and exit\n"
        "  --version              print the version and exit\n"
        "  -h, --help             show this help\n"
        "\n"
        "Settings (flag VALUE, or --flag=VALUE; booleans alone mean true):\n";
    for (const Key& k : key_table()) {
        out += "  " + std::string(k.info.flag) + " <" + std::string(k.info.type) + ">\n";
        out += "      " + std::string(k.info.meaning) + "\n";
        out += "      key " + std::string(k.info.key) + ", env " + std::string(k.info.env) +
               ", default " + (k.get(defaults).empty() ? std::string("(not set)") : k.get(defaults)) + "\n";
    }
    out += "\nSignals: SIGTERM and SIGINT drain in-flight requests, then exit 0; a second\n"
           "signal exits at once.\n";
    return out;
}

std::string markdown_table() {
    const ServerConfig defaults;
    std::string out = "| key | environment | flag | default | meaning |\n|---|---|---|---|---|\n";
    for (const Key& k : key_table()) {
        std::string meaning(k.info.meaning);
        std::string value = k.get(defaults);
        if (value.empty()) {
            value = "(not set)";
        }
        for (std::string* cell : {&meaning, &value}) {
            for (std::size_t pos = 0; (pos = cell->find('|', pos)) != std::string::npos; pos += 2) {
                cell->replace(pos, 1, "\\|");
            }
        }
        out += "| `" + std::string(k.info.key) + "` | `" + std::string(k.info.env) + "` | `" +
               std::string(k.info.flag) + "` | `" + value + "` | " + meaning + " |\n";
    }
    return out;
}

std::string to_toml(const ServerConfig& config) {
    std::string out;
    std::string_view section;
    for (const Key& k : key_table()) {
        const std::string_view key = k.info.key;
        const std::size_t dot = key.find('.');
        if (key.substr(0, dot) != section) {
            section = key.substr(0, dot);
            out += (out.empty() ? "[" : "\n[") + std::string(section) + "]\n";
        }
        const std::string value = k.get(config);
        // A key without a value (an optional option left unset) has no TOML literal.
        out += value.empty() ? "# " + std::string(key.substr(dot + 1)) + " is not set\n"
                             : std::string(key.substr(dot + 1)) + " = " + value + "\n";
    }
    return out;
}

}  // namespace pith::config
