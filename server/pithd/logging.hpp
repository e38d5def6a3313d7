// pithd's logging: spdlog to standard error, as text or as JSON lines. Callers
// pass a message and structured fields; the format decides how they print, so
// JSON output stays valid whatever a field holds. spdlog itself stays inside
// logging.cpp.
//
// Never log page bodies, query strings (they may carry secrets in URLs) or
// credential headers.
//
// Thread-safety: init() once before any thread starts; the rest from anywhere.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <variant>

#include "config.hpp"

namespace pith::server::log {

enum class Level { trace, debug, info, warn, error, critical };

struct Field {
    std::string_view key;
    std::variant<std::string_view, std::int64_t, double> value;
};

void init(const config::LogConfig& config);
[[nodiscard]] bool enabled(Level level) noexcept;
void write(Level level, std::string_view message, std::initializer_list<Field> fields = {});

inline void info(std::string_view message, std::initializer_list<Field> fields = {}) {
    write(Level::info, message, fields);
}
inline void warn(std::string_view message, std::initializer_list<Field> fields = {}) {
    write(Level::warn, message, fields);
}
inline void error(std::string_view message, std::initializer_list<Field> fields = {}) {
    write(Level::error, message, fields);
}
inline void debug(std::string_view message, std::initializer_list<Field> fields = {}) {
    write(Level::debug, message, fields);
}

// One request, for the access log.
struct AccessRecord {
    std::string_view remote;
    std::string_view method;
    std::string_view path;  // without the query
    unsigned status = 0;
    std::uint64_t request_bytes = 0;
    std::uint64_t response_bytes = 0;
    double duration_ms = 0;
    std::string_view request_id;
    std::string_view extraction_status;  // "" when nothing was extracted
};
void access(const AccessRecord& record);

}  // namespace pith::server::log
