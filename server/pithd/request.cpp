#include "pithd/request.hpp"
#include "pithd/response.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <type_traits>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "pith/article_json.hpp"
#include "pith/option_table.hpp"

namespace pith::server {

using nlohmann::json;

namespace {

// An option's value as the request gave it: typed from JSON (monostate is a
// JSON null: the default), text from a query.
using OptionValue = std::variant<std::monostate, bool, std::int64_t, std::uint64_t, double, std::string>;

// The options of the request itself, besides the extraction options of the
// option table (pith/option_table.hpp), which /extract takes by their names.
constexpr std::string_view kRequestOptions[] = {"format",     "diagnostics",      "inspect", "timeout_ms",
                                                "content_selector", "remove_selectors", "rules"};

// Query values are text and parse into any type; JSON values must have the
// option's own type ("retry": "true" is refused).
enum class Source { json, query };

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c); });
    return out;
}

Error bad_option(std::string_view name, const std::string& what) {
    return Error{ErrorCode::invalid_argument, "option " + std::string(name) + ": " + what};
}

Result<bool> as_bool(std::string_view name, const OptionValue& value, Source source) {
    if (const auto* b = std::get_if<bool>(&value)) {
        return *b;
    }
    if (const auto* s = std::get_if<std::string>(&value); s != nullptr && source == Source::query) {
        if (*s == "true" || *s == "1" || s->empty()) {  // "?diagnostics" alone means true
            return true;
        }
        if (*s == "false" || *s == "0") {
            return false;
        }
    }
    return bad_option(name, "must be true or false");
}

Result<std::uint64_t> as_unsigned(std::string_view name, const OptionValue& value, Source source,
                                  std::uint64_t min, std::uint64_t max) {
    std::optional<std::uint64_t> number;
    if (const auto* u = std::get_if<std::uint64_t>(&value)) {
        number = *u;
    } else if (const auto* i = std::get_if<std::int64_t>(&value); i != nullptr && *i >= 0) {
        number = static_cast<std::uint64_t>(*i);
    } else if (const auto* s = std::get_if<std::string>(&value); s != nullptr && source == Source::query) {
        std::uint64_t parsed = 0;
        const auto [ptr, ec] = std::from_chars(s->data(), s->data() + s->size(), parsed);
        if (!s->empty() && ec == std::errc{} && ptr == s->data() + s->size()) {
            number = parsed;
        }
    }
    if (!number || *number < min || *number > max) {
        return bad_option(name, "must be an integer in " + std::to_string(min) + ".." + std::to_string(max));
    }
    return *number;
}

Result<std::string> as_string(std::string_view name, const OptionValue& value) {
    if (const auto* s = std::get_if<std::string>(&value)) {
        return *s;
    }
    return bad_option(name, "must be a string");
}

// The value as the option table reads it: JSON keeps its type, a query is text.
extract::OptionValue table_value(const OptionValue& value) {
    return std::visit(
        [](const auto& v) -> extract::OptionValue {
            if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::monostate>) {
                return false;  // never asked: null is the default before any value is read
            } else {
                return v;
            }
        },
        value);
}

// An extraction option of the table. A budget the server caps may be lowered,
// never raised or lifted; "?strip_unlikelys" alone in a query means true.
Result<bool> apply_table_option(extract::ExtractOptions& options, const extract::OptionRow& row,
                                const OptionValue& value, Source source) {
    extract::OptionValue given = table_value(value);
    if (const auto* text = std::get_if<std::string>(&given);
        text != nullptr && text->empty() && source == Source::query && row.kind == extract::OptionKind::boolean) {
        given = std::string("true");
    }
    const extract::ValueForm form = source == Source::query ? extract::ValueForm::text : extract::ValueForm::typed;
    Result<extract::OptionValue> checked = extract::check_option_value(row, given, form);
    if (!checked) {
        return bad_option(row.name, checked.error().message);
    }
    if (row.server_cap) {
        const std::string cap_text = row.show(options);  // the server's value; 0 = unlimited
        const std::uint64_t cap = std::stoull(cap_text);
        const std::uint64_t asked = std::get<std::uint64_t>(checked.value());
        if (cap != 0 && (asked == 0 || asked > cap)) {
            return bad_option(row.name, "must be an integer in 1.." + cap_text + " (the server's limit), got " +
                                            std::to_string(asked));
        }
    }
    row.store(options, checked.value());
    return true;
}

// The options /extract takes, by name, in JSON "options" and in the query
// string alike (proto-docs/openapi.yaml lists them with their defaults).
Result<bool> apply_option(ExtractRequest& request, std::string_view name, const OptionValue& value, Source source,
                          const config::ServerConfig& config) {
    const extract::OptionRow* row = extract::find_option(name);
    if (row == nullptr && std::find(std::begin(kRequestOptions), std::end(kRequestOptions), name) ==
                              std::end(kRequestOptions)) {
        return Error{ErrorCode::invalid_argument, "unknown option \"" + std::string(name) + "\""};
    }
    if (std::holds_alternative<std::monostate>(value)) {
        return true;  // null: the default
    }
    extract::ExtractOptions& options = request.options;
    if (row != nullptr) {
        request.given.emplace_back(name);
        Result<bool> applied = apply_table_option(options, *row, value, source);
        // Each page is another fetch: the server bounds how many one request makes.
        if (applied && name == "max_pages" && options.pages.max_pages > config.fetch.max_pages) {
            return bad_option(name, "must be an integer in 1.." + std::to_string(config.fetch.max_pages) +
                                        " (the server's limit, fetch.max_pages), got " +
                                        std::to_string(options.pages.max_pages));
        }
        return applied;
    }
    if (name == "format") {
        auto format = as_string(name, value);
        if (!format) {
            return std::move(format).error();
        }
        if (*format == "json") {
            request.format = OutputFormat::json;
        } else if (*format == "html") {
            request.format = OutputFormat::html;
        } else if (*format == "text") {
            request.format = OutputFormat::text;
        } else if (*format == "markdown") {
            request.format = OutputFormat::markdown;
        } else {
            return bad_option(name, "must be json, html, text or markdown");
        }
        options.render.markdown = request.format == OutputFormat::markdown;
        options.render.clean_text = request.format == OutputFormat::text;
        return true;
    }
    if (name == "diagnostics") {
        auto on = as_bool(name, value, source);
        if (!on) {
            return std::move(on).error();
        }
        request.diagnostics = *on;
        return true;
    }
    if (name == "inspect") {
        auto on = as_bool(name, value, source);
        if (!on) {
            return std::move(on).error();
        }
        if (*on && !config.inspector) {
            return bad_option(name, "the inspector is off on this server (server.inspector)");
        }
        request.inspect = *on;
        return true;
    }
    if (name == "timeout_ms") {
        const auto server_ms = static_cast<std::uint64_t>(config.limits.request_timeout.count());
        auto number = as_unsigned(name, value, source, 1, server_ms);
        if (!number) {
            return Error{ErrorCode::invalid_argument, std::move(number).error().message + " (the server's limit)"};
        }
        request.timeout = std::chrono::milliseconds(static_cast<std::chrono::milliseconds::rep>(*number));
        return true;
    }
    if (name == "rules") {  // an object: read by RequestReader, never a scalar
        return bad_option(name, "must be an object of XPath expressions, in a JSON body");
    }
    if (name == "content_selector" || name == "remove_selectors") {
        auto text = as_string(name, value);
        if (!text) {
            return std::move(text).error();
        }
        (name == "content_selector" ? request.inline_rule.content_selector : request.inline_rule.remove_selectors) =
            *text;
        return true;
    }
    return Error{ErrorCode::invalid_argument, "unknown option \"" + std::string(name) + "\""};
}

ExtractRequest request_with_defaults(const config::ServerConfig& config) {
    ExtractRequest request;
    request.options = config.extract;
    return request;
}

// A SAX reader for exactly the request shape: a flat object of "html", "url"
// and "options", the latter a flat object of scalars. It never builds a DOM
// (the page is copied once, into ExtractRequest::html) and refuses deeper
// nesting at once, so no input can make it recurse or allocate per level.
class RequestReader final : public nlohmann::json_sax<json> {
public:
    enum class Field { none, html, url, option };

    bool null() override { return value(std::nullopt); }
    bool boolean(bool v) override { return value(OptionValue{v}); }
    bool number_integer(number_integer_t v) override { return value(OptionValue{std::int64_t{v}}); }
    bool number_unsigned(number_unsigned_t v) override { return value(OptionValue{std::uint64_t{v}}); }
    bool number_float(number_float_t v, const string_t&) override { return value(OptionValue{double{v}}); }
    bool string(string_t& v) override {
        if (depth_ == 1 && field_ == Field::html) {
            html = std::move(v);
            has_html = true;
            field_ = Field::none;
            return true;
        }
        return value(OptionValue{std::move(v)});
    }
    bool binary(binary_t&) override { return fail(ErrorCode::invalid_json, "binary values are not JSON"); }

    bool start_object(std::size_t) override {
        if (depth_ == 0) {
            depth_ = 1;
            return true;
        }
        if (depth_ == 1 && field_ == Field::option && key_ == "options") {
            depth_ = 2;
            field_ = Field::none;
            return true;
        }
        if (depth_ == 2 && key_ == "rules" && !rules_given_) {
            depth_ = 3;  // {"title": ..., "content": ..., "author": ..., "date": ..., "remove": ...}
            rules_given_ = true;
            return true;
        }
        return fail(ErrorCode::invalid_argument, where() + " must not be an object");
    }
    bool end_object() override {
        --depth_;
        return true;
    }
    bool start_array(std::size_t) override {
        if (depth_ == 0) {
            return fail(ErrorCode::invalid_json, "the body must be a JSON object");
        }
        if (depth_ == 3 && !in_rule_array_) {
            in_rule_array_ = true;  // a field's alternatives
            return true;
        }
        return fail(ErrorCode::invalid_argument, where() + " must not be an array");
    }
    bool end_array() override {
        in_rule_array_ = false;
        return true;
    }

    bool key(string_t& k) override {
        if (depth_ == 3) {
            rule_field_ = rule_field(k);
            if (rule_field_ == nullptr) {
                return fail(ErrorCode::invalid_argument,
                            "option rules: unknown field \"" + k + "\" (title, content, author, date, remove)");
            }
            return true;
        }
        key_ = std::move(k);
        if (depth_ == 1) {
            if (key_ == "html") {
                field_ = Field::html;
            } else if (key_ == "url") {
                field_ = Field::url;
            } else if (key_ == "options") {
                field_ = Field::option;
            } else {
                return fail(ErrorCode::invalid_argument, "unknown field \"" + key_ + "\"");
            }
        } else {
            field_ = Field::option;
            if (std::any_of(options.begin(), options.end(), [&](const auto& o) { return o.first == key_; })) {
                return fail(ErrorCode::invalid_argument, "option " + key_ + " is given twice");
            }
        }
        return true;
    }

    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
        std::string what = e.what();
        // nlohmann prefixes "[json.exception.parse_error.101] parse error at line 1, column 2: ".
        if (const std::size_t bracket = what.find("] "); bracket != std::string::npos) {
            what = what.substr(bracket + 2);
        }
        if (!error) {
            error = Error{ErrorCode::invalid_json, "malformed JSON at byte " + std::to_string(position) + ": " + what};
        }
        return false;
    }

    std::string html;
    bool has_html = false;
    std::optional<std::string> url;
    std::vector<std::pair<std::string, OptionValue>> options;
    rules::InlineRule rule;  // options.rules
    std::optional<Error> error;

private:
    std::vector<std::string>* rule_field(std::string_view name) {
        return name == "title" ? &rule.title
               : name == "content" ? &rule.content
               : name == "author" ? &rule.author
               : name == "date" ? &rule.date
               : name == "remove" ? &rule.remove
                                  : nullptr;
    }

    bool value(std::optional<OptionValue> v) {
        if (depth_ == 3) {
            const auto* s = v ? std::get_if<std::string>(&*v) : nullptr;
            constexpr std::size_t kMaxAlternatives = 32;
            if (s == nullptr || rule_field_ == nullptr) {
                return fail(ErrorCode::invalid_argument, "option rules: values are XPath strings or lists of them");
            }
            if (rule_field_->size() >= kMaxAlternatives) {
                return fail(ErrorCode::invalid_argument, "option rules: at most 32 expressions a field");
            }
            rule_field_->push_back(*s);
            return true;
        }
        if (depth_ == 0) {
            return fail(ErrorCode::invalid_json, "the body must be a JSON object");
        }
        if (depth_ == 1) {
            if (!v) {
                return true;  // "url": null and the like mean absent
            }
            const auto* s = std::get_if<std::string>(&*v);
            if (field_ == Field::url && s != nullptr) {
                url = *s;
                return true;
            }
            return fail(ErrorCode::invalid_argument, where() + " must be " + (field_ == Field::option ? "an object" : "a string"));
        }
        options.emplace_back(key_, v ? std::move(*v) : OptionValue{});
        return true;
    }
    bool fail(ErrorCode code, std::string message) {
        if (!error) {
            error = Error{code, std::move(message)};
        }
        return false;
    }
    std::string where() const { return (depth_ >= 2 ? "option " : "field ") + key_; }

    int depth_ = 0;
    Field field_ = Field::none;
    bool rules_given_ = false;
    bool in_rule_array_ = false;
    std::vector<std::string>* rule_field_ = nullptr;
    std::string key_;
};

}  // namespace

namespace {

// What every request form checks once its options are read: policy against
// flags, the options' ranges, and the request's own rule.
Result<ExtractRequest> finish_request(ExtractRequest request) {
    request.options.input.url = request.url;
    if (std::optional<Error> conflict = extract::conflicting_options(request.given)) {
        return std::move(*conflict);
    }
    if (auto valid = extract::validate(request.options); !valid) {
        return std::move(valid).error();
    }
    const rules::InlineRule& fields = request.inline_rule;
    if (!fields.content_selector.empty() || !fields.remove_selectors.empty() || !fields.content.empty() ||
        !fields.title.empty() || !fields.author.empty() || !fields.date.empty() || !fields.remove.empty()) {
        auto rule = rules::make_rule(fields, "the request's rules, content_selector and remove_selectors");
        if (!rule) {
            return bad_option("rules", rule.error().message);
        }
        request.rule = std::move(rule).value();
        request.options.rule = request.rule.get();
    }
    return request;
}

}  // namespace

Result<ExtractRequest> parse_json_request(std::string_view body, std::string_view query,
                                          const config::ServerConfig& config) {
    if (!query.empty()) {
        // Options in two places would leave one of them silently unused.
        return Error{ErrorCode::invalid_argument,
                     "a JSON body takes its options in \"options\", not in the query string"};
    }
    RequestReader reader;
    const bool parsed = json::sax_parse(body.begin(), body.end(), &reader, json::input_format_t::json, true);
    if (!parsed || reader.error) {
        return reader.error.value_or(Error{ErrorCode::invalid_json, "malformed JSON"});
    }
    ExtractRequest request = request_with_defaults(config);
    request.html = std::move(reader.html);
    // The lexer grew the string by doubling; the page is held through the
    // extraction, whose estimate counts its size once, not its slack.
    request.html.shrink_to_fit();
    request.has_html = reader.has_html;
    request.url = reader.url.value_or("");
    // JSON strings are Unicode: the page is UTF-8 now, whatever its <meta> says.
    request.options.input.charset = "utf-8";
    request.inline_rule = std::move(reader.rule);
    for (const auto& [name, value] : reader.options) {
        if (auto applied = apply_option(request, name, value, Source::json, config); !applied) {
            return std::move(applied).error();
        }
    }
    if (!request.has_html && request.url.empty()) {
        return Error{ErrorCode::invalid_argument, "give \"html\", or \"url\" to fetch the page"};
    }
    return finish_request(std::move(request));
}

Result<ExtractRequest> parse_raw_request(std::string body, std::string_view query, std::string_view charset,
                                         const config::ServerConfig& config) {
    ExtractRequest request = request_with_defaults(config);
    request.html = std::move(body);
    request.has_html = true;
    request.options.input.charset = std::string(charset);
    const std::optional<Error> refused =
        for_each_query_parameter(query, [&](const std::string& name, const std::string& value) -> std::optional<Error> {
            if (name == "url") {
                request.url = value;
                return std::nullopt;
            }
            if (auto applied = apply_option(request, name, OptionValue{value}, Source::query, config); !applied) {
                return std::move(applied).error();
            }
            return std::nullopt;
        });
    if (refused) {
        return *refused;
    }
    return finish_request(std::move(request));
}

std::optional<Error> for_each_query_parameter(
    std::string_view query, const std::function<std::optional<Error>(const std::string&, const std::string&)>& visit) {
    std::vector<std::string> seen;
    while (!query.empty()) {
        const std::size_t amp = std::min(query.find('&'), query.size());
        const std::string_view pair = query.substr(0, amp);
        query.remove_prefix(std::min(amp + 1, query.size()));
        if (pair.empty()) {
            continue;
        }
        const std::size_t eq = std::min(pair.find('='), pair.size());
        const std::optional<std::string> name = percent_decode(pair.substr(0, eq));
        const std::optional<std::string> value =
            percent_decode(eq < pair.size() ? pair.substr(eq + 1) : std::string_view{});
        if (!name || !value) {
            return Error{ErrorCode::invalid_argument, "query: bad percent-encoding in \"" + std::string(pair) + "\""};
        }
        if (std::find(seen.begin(), seen.end(), *name) != seen.end()) {
            return Error{ErrorCode::invalid_argument, "query parameter " + *name + " is given twice"};
        }
        seen.push_back(*name);
        if (std::optional<Error> refused = visit(*name, *value)) {
            return refused;
        }
    }
    return std::nullopt;
}

Result<BatchOrder> parse_batch_query(std::string_view query) {
    BatchOrder order = BatchOrder::items;
    const std::optional<Error> refused =
        for_each_query_parameter(query, [&](const std::string& name, const std::string& value) -> std::optional<Error> {
            if (name != "order") {
                return Error{ErrorCode::invalid_argument,
                             "POST /extract/batch takes only order in its query (each line carries its own "
                             "options), got " + name};
            }
            if (value != "items" && value != "completion") {
                return Error{ErrorCode::invalid_argument,
                             "order is items (the default) or completion, got \"" + value + "\""};
            }
            order = value == "completion" ? BatchOrder::completion : BatchOrder::items;
            return std::nullopt;
        });
    if (refused) {
        return *refused;
    }
    return order;
}

MediaType parse_media_type(std::string_view content_type) {
    MediaType media;
    const std::size_t semicolon = std::min(content_type.find(';'), content_type.size());
    std::string_view type = content_type.substr(0, semicolon);
    while (!type.empty() && (type.front() == ' ' || type.front() == '\t')) {
        type.remove_prefix(1);
    }
    while (!type.empty() && (type.back() == ' ' || type.back() == '\t')) {
        type.remove_suffix(1);
    }
    media.type = lower(type);
    std::string_view params = content_type.substr(std::min(semicolon + 1, content_type.size()));
    while (!params.empty()) {
        const std::size_t next = std::min(params.find(';'), params.size());
        std::string_view param = params.substr(0, next);
        params.remove_prefix(std::min(next + 1, params.size()));
        const std::size_t eq = param.find('=');
        if (eq == std::string_view::npos) {
            continue;
        }
        std::string name = lower(param.substr(0, eq));
        name.erase(0, name.find_first_not_of(" \t"));
        name.erase(name.find_last_not_of(" \t") + 1);
        std::string_view value = param.substr(eq + 1);
        while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) {
            value.remove_prefix(1);
        }
        while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) {
            value.remove_suffix(1);
        }
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
            value = value.substr(1, value.size() - 2);
        }
        if (name == "charset") {
            media.charset = lower(value);
        }
    }
    return media;
}

bool is_html_media_type(std::string_view type) noexcept {
    return type == "text/html" || type == "application/xhtml+xml";
}

bool is_ndjson_media_type(std::string_view type) noexcept {
    return type == "application/x-ndjson" || type == "application/ndjson" || type == "application/jsonl" ||
           type == "application/x-jsonlines";
}

std::string options_json(const config::ServerConfig& config) {
    json out = json::array();
    for (const extract::OptionRow& row : extract::option_table()) {
        json option = {{"name", row.name}, {"type", row.type}, {"group", row.group}, {"help", row.help},
                       {"server_cap", row.server_cap}, {"preset", row.preset}};
        switch (row.kind) {
        case extract::OptionKind::integer: option["kind"] = "integer"; break;
        case extract::OptionKind::number: option["kind"] = "number"; break;
        case extract::OptionKind::boolean: option["kind"] = "boolean"; break;
        case extract::OptionKind::choice: option["kind"] = "choice"; break;
        }
        if (row.kind == extract::OptionKind::integer || row.kind == extract::OptionKind::number) {
            // JSON has no infinity: an open end is null.
            const auto bound = [&row](double b) {
                return !std::isfinite(b) ? json(nullptr)
                       : row.kind == extract::OptionKind::integer ? json(static_cast<std::uint64_t>(b))
                                                                  : json(b);
            };
            option["minimum"] = bound(row.min);
            option["maximum"] = bound(row.max);
        }
        if (row.kind == extract::OptionKind::choice) {
            option["choices"] = json::array();
            for (const std::string_view choice : row.choices) {
                option["choices"].push_back(choice);
            }
        }
        // The default as the JSON value a request would send.
        const std::string value = row.show(config.extract);
        json fallback = value.empty() ? json(nullptr) : json::parse(value, nullptr, false);
        option["default"] = row.kind == extract::OptionKind::choice && !value.empty() ? json(value) : std::move(fallback);
        out.push_back(std::move(option));
    }
    for (const std::string_view name : kRequestOptions) {
        out.push_back({{"name", name}, {"group", "request"}});
    }
    return out.dump(2);
}

std::optional<std::string> percent_decode(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    const auto hex = [](char c) -> int {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '+') {
            out.push_back(' ');
        } else if (text[i] == '%') {
            const int high = i + 1 < text.size() ? hex(text[i + 1]) : -1;
            const int low = i + 2 < text.size() ? hex(text[i + 2]) : -1;
            if (high < 0 || low < 0) {
                return std::nullopt;
            }
            out.push_back(static_cast<char>(high * 16 + low));
            i += 2;
        } else {
            out.push_back(text[i]);
        }
    }
    return out;
}

}  // namespace pith::server
