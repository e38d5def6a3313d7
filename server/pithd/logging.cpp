#include "pithd/logging.hpp"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>

namespace pith::server::log {
namespace {

bool g_json = false;         // set by init() before any thread starts
bool g_access_log = true;    // likewise

spdlog::level::level_enum to_spdlog(Level level) noexcept {
    switch (level) {
    case Level::trace: return spdlog::level::trace;
    case Level::debug: return spdlog::level::debug;
    case Level::info: return spdlog::level::info;
    case Level::warn: return spdlog::level::warn;
    case Level::error: return spdlog::level::err;
    case Level::critical: return spdlog::level::critical;
    }
    return spdlog::level::info;
}

void append_json_string(std::string& out, std::string_view text) {
    out.push_back('"');
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (byte < 0x20 || byte == 0x7f) {
                char escaped[8];
                std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
                out += escaped;
            } else {
                out.push_back(c);
            }
        }
    }
    out.push_back('"');
}

// Text values with spaces or quotes are quoted, so key=value pairs stay parseable.
void append_text_value(std::string& out, std::string_view text) {
    if (!text.empty() && text.find_first_of(" \"=\t\n") == std::string_view::npos) {
        for (const char c : text) {
            out.push_back(static_cast<unsigned char>(c) < 0x20 ? '?' : c);
        }
        return;
    }
    append_json_string(out, text);
}

std::string format(std::string_view message, std::initializer_list<Field> fields) {
    std::string out;
    if (g_json) {
        out += "\"msg\":";
        append_json_string(out, message);
    } else {
        out.append(message);
    }
    for (const Field& field : fields) {
        if (g_json) {
            out += ",";
            append_json_string(out, field.key);
            out += ":";
        } else {
            out += " ";
            out.append(field.key);
            out += "=";
        }
        if (const auto* text = std::get_if<std::string_view>(&field.value)) {
            if (g_json) {
                append_json_string(out, *text);
            } else {
                append_text_value(out, *text);
            }
        } else if (const auto* integer = std::get_if<std::int64_t>(&field.value)) {
            out += std::to_string(*integer);
        } else {
            char number[32];
            std::snprintf(number, sizeof number, "%.3f", std::get<double>(field.value));
            out += number;
        }
    }
    return out;
}

}  // namespace

void init(const config::LogConfig& config) {
    g_json = config.format == config::LogFormat::json;
    g_access_log = config.access_log;
    auto logger = spdlog::stderr_logger_mt("pithd");
    if (g_json) {
        logger->set_pattern(R"({"time":"%Y-%m-%dT%H:%M:%S.%eZ","level":"%l",%v})", spdlog::pattern_time_type::utc);
    } else {
        logger->set_pattern("[%Y-%m-%d %H:%M:%S.%e] [%l] %v");
    }
    logger->set_level(spdlog::level::from_str(config.level));
    logger->flush_on(spdlog::level::trace);  // a line is out the moment it is logged
    spdlog::set_default_logger(std::move(logger));
}

bool enabled(Level level) noexcept { return spdlog::default_logger_raw()->should_log(to_spdlog(level)); }

void write(Level level, std::string_view message, std::initializer_list<Field> fields) {
    if (!enabled(level)) {
        return;
    }
    spdlog::default_logger_raw()->log(to_spdlog(level), "{}", format(message, fields));
}

void access(const AccessRecord& r) {
    if (!g_access_log || !enabled(Level::info)) {
        return;
    }
    write(Level::info, "access",
          {{"remote", r.remote},
           {"method", r.method},
           {"path", r.path},
           {"status", std::int64_t{r.status}},
           {"request_bytes", static_cast<std::int64_t>(r.request_bytes)},
           {"response_bytes", static_cast<std::int64_t>(r.response_bytes)},
           {"duration_ms", r.duration_ms},
           {"request_id", r.request_id},
           {"extraction_status", r.extraction_status.empty() ? std::string_view("-") : r.extraction_status}});
}

}  // namespace pith::server::log
