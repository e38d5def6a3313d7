// Loading site rules: Full-Text RSS files line by line, Lectito's TOML
// fingerprints with toml++ (already pith's TOML reader), every expression
// compiled at load so that a page never meets a broken one.
#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>

#include "rules/apply.hpp"
#include "rules/css.hpp"
#include "rules/site_rule.hpp"
#include "text/text.hpp"

namespace pith::rules {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxFileBytes = 1024 * 1024;  // the largest Full-Text RSS file is a few KB

std::string_view trim(std::string_view s) { return text::trim(s); }

// A value as written, its surrounding quotes (if any) removed.
std::string unquote(std::string_view value) {
    value = trim(value);
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front()) {
        value = value.substr(1, value.size() - 2);
    }
    return std::string(value);
}

std::optional<bool> yes_no(std::string_view value) {
    const std::string v = text::to_lower_ascii(trim(value));
    if (v == "yes" || v == "true" || v == "1") {
        return true;
    }
    if (v == "no" || v == "false" || v == "0") {
        return false;
    }
    return std::nullopt;
}

// Directives of Full-Text RSS that pith reads and does not act on: logins,
// tests, request headers, parser choice.
bool is_recorded_only(std::string_view name) {
    static constexpr std::string_view kRecorded[] = {
        "test_url",          "test_contains",      "login_uri",          "login_username_field",
        "login_password_field", "login_extra_fields", "not_logged_in_xpath",
        "http_header",        "native_ad_clue",     "parser",
        "tidy",              "if_page_contains",   "src_lazy_load_attr", "move_into",
        "insert_detected_image", "requires_login",  "find_string_regex",  "replace_string_regex",
    };
    return std::find(std::begin(kRecorded), std::end(kRecorded), name) != std::end(kRecorded);
}

struct Parsed {
    std::unique_ptr<SiteRule> rule;
    std::optional<FileNote> problem;
};

// One Full-Text RSS file.
Parsed parse_ftr(const std::string& path, std::string_view text, LoadReport& report) {
    auto rule = std::make_unique<SiteRule>();
    rule->source = path;
    std::optional<std::string> pending_find;
    std::size_t line_number = 0;
    const auto fail = [&](const std::string& reason) { return Parsed{nullptr, FileNote{path, line_number, reason}}; };
    std::size_t expressions = 0;
    const auto compile = [&](std::string_view value, std::vector<XPathExpression>& into) -> std::optional<std::string> {
        auto compiled = XPathExpression::compile(unquote(value));
        if (!compiled.ok()) {
            return compiled.error().message;
        }
        into.push_back(std::move(compiled).value());
        ++expressions;
        return std::nullopt;
    };
    for (std::size_t start = 0; start <= text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view line = trim(text.substr(start, end - start));
        start = end + 1;
        ++line_number;
        if (line.empty() || line.front() == '#') {
            if (end == text.size()) {
                break;
            }
            continue;
        }
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos) {
            return fail("expected \"directive: value\"");
        }
        std::string_view directive = trim(line.substr(0, colon));
        std::string_view argument;
        const std::string_view value = trim(line.substr(colon + 1));
        if (const std::size_t open = directive.find('('); open != std::string_view::npos) {
            // replace_string(find): replace, http_header(name): value, wrap_in(tag): xpath
            const std::size_t close = line.find(')', open);
            if (close == std::string_view::npos) {
                return fail("unclosed '(' in the directive");
            }
            argument = line.substr(open + 1, close - open - 1);
            directive = trim(directive.substr(0, open));
            const std::size_t real_colon = line.find(':', close);
            if (real_colon == std::string_view::npos) {
                return fail("expected \"directive(argument): value\"");
            }
            const std::string_view real_value = trim(line.substr(real_colon + 1));
            if (directive == "replace_string") {
                rule->replace.emplace_back(std::string(argument), std::string(real_value));
            } else if (directive == "wrap_in") {
                auto compiled = XPathExpression::compile(unquote(real_value));
                if (!compiled.ok()) {
                    return fail(compiled.error().message);
                }
                ++expressions;
                rule->wrap_in.emplace_back(text::to_lower_ascii(trim(argument)), std::move(compiled).value());
            } else {
                rule->ignored.emplace_back(directive);
                report.ignored.push_back(FileNote{path, line_number, std::string(directive) + " is not acted on"});
            }
            if (end == text.size()) {
                break;
            }
            continue;
        }
        std::optional<std::string> error;
        if (directive == "body") {
            error = compile(value, rule->body);
        } else if (directive == "title") {
            error = compile(value, rule->title);
        } else if (directive == "author") {
            error = compile(value, rule->author);
        } else if (directive == "date") {
            error = compile(value, rule->date);
        } else if (directive == "strip") {
            error = compile(value, rule->strip);
        } else if (directive == "next_page_link") {
            error = compile(value, rule->next_page_link);
        } else if (directive == "single_page_link") {
            error = compile(value, rule->single_page_link);
        } else if (directive == "strip_attr") {
            error = compile(value, rule->strip_attr);
        } else if (directive == "dissolve") {
            error = compile(value, rule->dissolve);
        } else if (directive == "strip_id_or_class") {
            rule->strip_id_or_class.push_back(unquote(value));
        } else if (directive == "strip_image_src") {
            rule->strip_image_src.push_back(unquote(value));
        } else if (directive == "find_string") {
            pending_find = std::string(value);
        } else if (directive == "replace_string") {
            if (!pending_find) {
                return fail("replace_string without a find_string before it");
            }
            rule->replace.emplace_back(std::move(*pending_find), std::string(value));
            pending_find.reset();
        } else if (directive == "prune" || directive == "autodetect_on_failure" || directive == "skip_json_ld") {
            const std::optional<bool> flag = yes_no(value);
            if (!flag) {
                return fail(std::string(directive) + " wants yes or no, got \"" + std::string(value) + "\"");
            }
            (directive == "prune" ? rule->prune
             : directive == "autodetect_on_failure" ? rule->autodetect_on_failure
                                                     : rule->skip_json_ld) = *flag;
        } else {
            rule->ignored.emplace_back(directive);
            report.ignored.push_back(FileNote{path, line_number,
                                              std::string(directive) + (is_recorded_only(directive)
                                                                            ? " is not acted on"
                                                                            : " is not a directive pith knows")});
        }
        if (error) {
            return fail(*error);
        }
        if (end == text.size()) {
            break;
        }
    }
    if (pending_find) {
        return fail("find_string without a replace_string after it");
    }
    report.expressions += expressions;
    return Parsed{std::move(rule), std::nullopt};
}

}  // namespace

RuleSet::RuleSet() = default;
RuleSet::RuleSet(RuleSet&&) noexcept = default;
RuleSet& RuleSet::operator=(RuleSet&&) noexcept = default;
RuleSet::~RuleSet() = default;

bool RuleSet::add_file(std::string_view file_name, std::string_view text, LoadReport& report) {
    ++report.files;
    const std::string path(file_name);
    const std::string base = fs::path(path).filename().string();
    if (text.size() > kMaxFileBytes) {
        report.rejected.push_back(FileNote{path, 0, "larger than 1 MiB"});
        return false;
    }
    if (base.ends_with(".txt")) {
        std::string host = text::to_lower_ascii(base.substr(0, base.size() - 4));
        const bool subdomains_only = host.starts_with(".");
        if (subdomains_only) {
            host.erase(0, 1);
        }
        if (host.empty() || host.find('/') != std::string::npos) {
            report.rejected.push_back(FileNote{path, 0, "the file name names no host"});
            return false;
        }
        Parsed parsed = parse_ftr(path, text, report);
        if (!parsed.rule) {
            report.rejected.push_back(*parsed.problem);
            return false;
        }
        const SiteRule* rule = parsed.rule.get();
        rules_.push_back(std::move(parsed.rule));
        ++report.rules;
        if (subdomains_only) {
            subdomains_[host] = rule;
        } else {
            exact_[host] = rule;
            if (!host.starts_with("www.")) {
                exact_.emplace("www." + host, rule);  // its own www file, if any, wins
            }
        }
        return true;
    }
    if (base.ends_with(".toml")) {
        toml::table root;
        try {
            root = toml::parse(text, path);
        } catch (const toml::parse_error& e) {
            report.rejected.push_back(FileNote{path, e.source().begin.line, std::string(e.description())});
            return false;
        }
        const toml::array* fingerprints = root["fingerprints"].as_array();
        if (fingerprints == nullptr) {
            report.rejected.push_back(FileNote{path, 0, "no [[fingerprints]]"});
            return false;
        }
        std::vector<std::pair<std::string, std::unique_ptr<SiteRule>>> loaded;
        std::size_t expressions = 0;
        for (const toml::node& entry : *fingerprints) {
            const toml::table* fingerprint = entry.as_table();
            const auto line = static_cast<std::size_t>(entry.source().begin.line);
            const std::optional<std::string> pattern =
                fingerprint != nullptr ? (*fingerprint)["pattern"].value<std::string>() : std::nullopt;
            if (!pattern || trim(*pattern).empty()) {
                report.rejected.push_back(FileNote{path, line, "a fingerprint without a pattern"});
                return false;
            }
            auto rule = std::make_unique<SiteRule>();
            rule->source = path + ": pattern " + *pattern;
            const toml::array* extracts = (*fingerprint)["extract"].as_array();
            for (std::size_t i = 0; extracts != nullptr && i < extracts->size(); ++i) {
                const toml::table* extract = extracts->get(i)->as_table();
                if (extract == nullptr) {
                    continue;
                }
                for (const auto& [key, value] : *extract) {
                    const std::string name(key.str());
                    std::vector<XPathExpression>* into = name == "content" ? &rule->body
                                                         : name == "title"  ? &rule->title
                                                         : name == "author" ? &rule->author
                                                         : name == "date"   ? &rule->date
                                                         : name == "remove" ? &rule->strip
                                                                            : nullptr;
                    if (into == nullptr) {
                        rule->ignored.push_back(name);
                        report.ignored.push_back(FileNote{path, static_cast<std::size_t>(value.source().begin.line),
                                                          name + " is not a fingerprint field pith knows"});
                        continue;
                    }
                    std::vector<std::string> expressions_given;
                    if (const auto* one = value.as_string()) {
                        expressions_given.push_back(one->get());
                    } else if (const auto* many = value.as_array()) {
                        for (const toml::node& item : *many) {
                            if (const auto* s = item.as_string()) {
                                expressions_given.push_back(s->get());
                            }
                        }
                    }
                    for (const std::string& expression : expressions_given) {
                        auto compiled = XPathExpression::compile(expression);
                        if (!compiled.ok()) {
                            report.rejected.push_back(FileNote{path, static_cast<std::size_t>(value.source().begin.line),
                                                               compiled.error().message});
                            return false;
                        }
                        into->push_back(std::move(compiled).value());
                        ++expressions;
                    }
                }
            }
            loaded.emplace_back(text::to_lower_ascii(trim(*pattern)), std::move(rule));
        }
        for (auto& [pattern, rule] : loaded) {
            const SiteRule* kept = rule.get();
            rules_.push_back(std::move(rule));
            exact_[pattern] = kept;
            subdomains_[pattern] = kept;  // a fingerprint's pattern covers its subdomains too
            ++report.rules;
        }
        report.expressions += expressions;
        return true;
    }
    report.rejected.push_back(FileNote{path, 0, "neither a .txt (Full-Text RSS) nor a .toml (fingerprints) file"});
    return false;
}

RuleSet RuleSet::load_directory(const std::string& dir, LoadReport& report) {
    RuleSet rules;
    std::error_code error;
    std::vector<fs::path> files;
    for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
        const fs::path& path = it->path();
        if (it->is_regular_file(error) && (path.extension() == ".txt" || path.extension() == ".toml")) {
            files.push_back(path);
        }
    }
    if (error) {
        report.rejected.push_back(FileNote{dir, 0, "cannot read the folder: " + error.message()});
    }
    std::sort(files.begin(), files.end());  // the same order, and so the same winner, on every machine
    for (const fs::path& path : files) {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        if (!in) {
            ++report.files;
            report.rejected.push_back(FileNote{path.string(), 0, "cannot be read"});
            continue;
        }
        rules.add_file(path.string(), text.str(), report);
    }
    return rules;
}

const SiteRule* RuleSet::find(std::string_view host) const {
    if (host.empty()) {
        return nullptr;
    }
    const std::string key = text::to_lower_ascii(host);
    if (const auto found = exact_.find(key); found != exact_.end()) {
        return found->second;
    }
    // The nearest parent domain with a subdomain rule: a.b.example.com asks
    // b.example.com, then example.com, then com. At most a few lookups.
    for (std::size_t dot = key.find('.'); dot != std::string::npos; dot = key.find('.', dot + 1)) {
        if (const auto found = subdomains_.find(key.substr(dot + 1)); found != subdomains_.end()) {
            return found->second;
        }
    }
    return nullptr;
}

const SiteRule* RuleSet::find_for_url(std::string_view url) const { return find(host_of(url)); }

Result<std::shared_ptr<const SiteRule>> make_rule(const InlineRule& fields, std::string source) {
    auto rule = std::make_shared<SiteRule>();
    rule->source = std::move(source);
    const auto add = [](std::string_view field, const std::string& expression,
                        std::vector<XPathExpression>& into) -> std::optional<Error> {
        auto compiled = XPathExpression::compile(expression);
        if (!compiled.ok()) {
            return Error{ErrorCode::invalid_argument, std::string(field) + ": " + compiled.error().message};
        }
        into.push_back(std::move(compiled).value());
        return std::nullopt;
    };
    const std::pair<std::string_view, std::pair<const std::vector<std::string>*, std::vector<XPathExpression>*>>
        lists[] = {{"content", {&fields.content, &rule->body}},
                   {"title", {&fields.title, &rule->title}},
                   {"author", {&fields.author, &rule->author}},
                   {"date", {&fields.date, &rule->date}},
                   {"remove", {&fields.remove, &rule->strip}}};
    for (const auto& [field, from_to] : lists) {
        for (const std::string& expression : *from_to.first) {
            if (auto error = add(field, expression, *from_to.second)) {
                return *error;
            }
        }
    }
    for (const auto& [field, css, into] :
         {std::tuple{std::string_view("content_selector"), &fields.content_selector, &rule->body},
          std::tuple{std::string_view("remove_selectors"), &fields.remove_selectors, &rule->strip}}) {
        if (trim(*css).empty()) {
            continue;
        }
        auto xpath = css_to_xpath(*css);
        if (!xpath.ok()) {
            return Error{ErrorCode::invalid_argument, std::string(field) + ": " + xpath.error().message};
        }
        if (auto error = add(field, xpath.value(), *into)) {
            return *error;
        }
    }
    return std::shared_ptr<const SiteRule>(std::move(rule));
}

const std::string& rule_source(const SiteRule& rule) { return rule.source; }

std::string describe(const SiteRule& rule) {
    std::string out = "rule from " + rule.source + "\n";
    const auto list = [&out](std::string_view name, const std::vector<XPathExpression>& expressions) {
        for (const XPathExpression& e : expressions) {
            out.append(name).append(": ").append(e.text()).push_back('\n');
        }
    };
    list("title", rule.title);
    list("body", rule.body);
    list("author", rule.author);
    list("date", rule.date);
    list("next_page_link", rule.next_page_link);
    list("single_page_link", rule.single_page_link);
    list("strip", rule.strip);
    for (const std::string& s : rule.strip_id_or_class) {
        out += "strip_id_or_class: " + s + "\n";
    }
    for (const std::string& s : rule.strip_image_src) {
        out += "strip_image_src: " + s + "\n";
    }
    list("strip_attr", rule.strip_attr);
    list("dissolve", rule.dissolve);
    for (const auto& [tag, e] : rule.wrap_in) {
        out += "wrap_in(" + tag + "): " + e.text() + "\n";
    }
    for (const auto& [find, replace] : rule.replace) {
        out += "replace_string(" + find + "): " + replace + "\n";
    }
    out += std::string("prune: ") + (rule.prune ? "yes" : "no") + "\n";
    out += std::string("autodetect_on_failure: ") + (rule.autodetect_on_failure ? "yes" : "no") + "\n";
    out += std::string("skip_json_ld: ") + (rule.skip_json_ld ? "yes" : "no") + "\n";
    for (const std::string& name : rule.ignored) {
        out += "(read, not acted on: " + name + ")\n";
    }
    return out;
}

}  // namespace pith::rules
