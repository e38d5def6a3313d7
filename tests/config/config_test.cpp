// The layered loader: defaults, TOML, environment, flags; errors that name the
// key and its source; and the documents that must list every key.
#include "config.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "files.hpp"

namespace pith::config {
namespace {

namespace fs = std::filesystem;

// The file's bytes; "" when it cannot be read (the test then fails on them).
std::string read_file(const fs::path& path) { return pith::test::read_file(path).value_or(""); }

class TempToml {
public:
    explicit TempToml(const std::string& text) {
        static int counter = 0;
        path_ = fs::temp_directory_path() / ("pith_config_test_" + std::to_string(::getpid()) + "_" +
                                             std::to_string(counter++) + ".toml");
        std::ofstream(path_) << text;
    }
    ~TempToml() { fs::remove(path_); }
    [[nodiscard]] std::string path() const { return path_.string(); }

private:
    fs::path path_;
};

Result<Loaded> load_with(std::vector<std::string> args, std::map<std::string, std::string> env = {}) {
    return load(Sources{std::move(args), std::move(env), std::nullopt});
}

TEST(ConfigLoad, BuiltInDefaultsNeedNothing) {
    const auto loaded = load_with({});
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_EQ(loaded->action, Action::run);
    EXPECT_EQ(loaded->config.listen, "0.0.0.0:8080");
    EXPECT_EQ(loaded->config.io_threads, 1U);
    EXPECT_EQ(loaded->config.limits.max_body_bytes, 16U * 1024U * 1024U);
    EXPECT_EQ(loaded->config.limits.request_timeout.count(), 10'000);
    EXPECT_GE(loaded->config.effective_workers(), 1U);
}

TEST(ConfigLoad, LaterSourcesWin) {
    const TempToml toml("[server]\nlisten = \"127.0.0.1:1111\"\nworkers = 3\nio_threads = 2\n"
                        "[log]\nlevel = \"debug\"\n[fetch]\nallow = [\"10.0.0.0/8\", \"intranet.example\"]\n");
    const auto loaded = load_with({"--config", toml.path(), "--workers=5"},
                                  {{"PITH_LISTEN", "127.0.0.1:2222"}, {"PITH_WORKERS", "4"}});
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_EQ(loaded->config.io_threads, 2U);            // TOML only
    EXPECT_EQ(loaded->config.log.level, "debug");        // TOML only
    EXPECT_EQ(loaded->config.listen, "127.0.0.1:2222");  // env over TOML
    EXPECT_EQ(loaded->config.workers, 5U);               // flag over env over TOML
    EXPECT_EQ(loaded->config.fetch.allow, (std::vector<std::string>{"10.0.0.0/8", "intranet.example"}));
    EXPECT_EQ(loaded->config_file, toml.path());
}

TEST(ConfigLoad, TomlTextInPlaceOfAFile) {
    const auto loaded = load(Sources{{"--workers", "2"}, {{"PITH_CONFIG", "/nonexistent.toml"}},
                                     std::string("[server]\nworkers = 9\nio_threads = 3\n")});
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_EQ(loaded->config.io_threads, 3U);
    EXPECT_EQ(loaded->config.workers, 2U) << "flags still win";
    const auto broken = load(Sources{{}, {}, std::string("[server\n")});
    ASSERT_FALSE(broken.ok());
    EXPECT_NE(broken.error().message.find("<config text>"), std::string::npos) << broken.error().message;
}

TEST(ConfigLoad, ConfigFileFromTheEnvironment) {
    const TempToml toml("[limits]\nqueue_capacity = 7\n");
    const auto loaded = load_with({}, {{"PITH_CONFIG", toml.path()}});
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_EQ(loaded->config.limits.queue_capacity, 7U);
}

TEST(ConfigLoad, ListsAndBooleansFromFlagsAndEnvironment) {
    const auto loaded = load_with({"--extract-retry=false", "--extract-keep-classes"},
                                  {{"PITH_FETCH_ALLOW", "10.1.0.0/16, *.corp.example"},
                                   {"PITH_EXTRACT_STRIP_UNLIKELYS", "off"}});
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_FALSE(loaded->config.extract.passes.retry);
    EXPECT_TRUE(loaded->config.extract.render.keep_classes);
    EXPECT_FALSE(extract::has(loaded->config.extract.passes.flags, extract::PassFlags::strip_unlikelys));
    EXPECT_EQ(loaded->config.fetch.allow, (std::vector<std::string>{"10.1.0.0/16", "*.corp.example"}));
}

TEST(ConfigLoad, ErrorsNameTheKeyTheSourceAndTheValue) {
    const TempToml typed("[server]\nworkers = \"four\"\n");
    const TempToml unknown("[server]\nwrkers = 4\n");
    const TempToml broken("[server\nworkers = 4\n");
    const struct {
        std::vector<std::string> args;
        std::map<std::string, std::string> env;
        std::vector<std::string> named;
    } cases[] = {
        {{"--workers", "5000"}, {}, {"server.workers", "--workers", "5000"}},
        {{}, {{"PITH_MAX_BODY_BYTES", "12"}}, {"limits.max_body_bytes", "PITH_MAX_BODY_BYTES", "12"}},
        {{}, {{"PITH_IO_THREADS", "-1"}}, {"server.io_threads", "PITH_IO_THREADS"}},
        {{"--config", typed.path()}, {}, {"server.workers", typed.path(), "\"four\""}},
        {{"--config", unknown.path()}, {}, {"server.wrkers", "unknown key"}},
        {{"--config", broken.path()}, {}, {broken.path(), "line"}},
        {{"--config", "/nonexistent/pith.toml"}, {}, {"/nonexistent/pith.toml"}},
        {{"--log-format", "xml"}, {}, {"log.format", "xml"}},
        {{"--listen", "[::1]8080"}, {}, {"server.listen"}},
        {{"--extract-link-density-modifier", "3"}, {}, {"extract.link_density_modifier"}},
        {{"--fetch-max-decompressed-bytes", "2048"}, {}, {"fetch.max_decompressed_bytes"}},
        {{"--fetch-ca-file", "/nonexistent/ca.pem"}, {}, {"fetch.ca_file", "/nonexistent/ca.pem"}},
        {{"--workers"}, {}, {"--workers", "needs a value"}},
        {{"positional"}, {}, {"positional"}},
    };
    for (const auto& c : cases) {
        const auto loaded = load_with(c.args, c.env);
        ASSERT_FALSE(loaded.ok()) << c.named.front();
        EXPECT_EQ(loaded.error().code, ErrorCode::invalid_argument);
        for (const std::string& part : c.named) {
            EXPECT_NE(loaded.error().message.find(part), std::string::npos)
                << "'" << loaded.error().message << "' should name " << part;
        }
    }
}

TEST(ConfigLoad, ActionsAreRecognised) {
    EXPECT_EQ(load_with({"--help"})->action, Action::help);
    EXPECT_EQ(load_with({"--version"})->action, Action::version);
    EXPECT_EQ(load_with({"--print-config"})->action, Action::print_config);
    EXPECT_EQ(load_with({"--check-config"})->action, Action::check_config);
}

TEST(ConfigListen, ParsesV4V6AndRefusesTheRest) {
    EXPECT_EQ(parse_listen("0.0.0.0:8080")->port, 8080);
    EXPECT_EQ(parse_listen("[::1]:0")->host, "::1");
    EXPECT_EQ(parse_listen("localhost:80")->host, "localhost");
    for (const char* bad : {"8080", ":8080", "1.2.3.4:", "1.2.3.4:70000", "::1:80", "[::1]", "[::1]:x"}) {
        EXPECT_FALSE(parse_listen(bad).ok()) << bad;
    }
}

TEST(ConfigSecrets, AreNeverPrinted) {
    const auto loaded = load_with({"--auth-token", "hunter2"});
    ASSERT_TRUE(loaded.ok());
    EXPECT_EQ(to_toml(loaded->config).find("hunter2"), std::string::npos);
    EXPECT_NE(to_toml(loaded->config).find("auth_token = \"***\""), std::string::npos);
}

TEST(ConfigDocuments, PrintedConfigLoadsBackToTheSameValues) {
    const auto custom = load_with({"--workers", "3", "--fetch-allow", "10.0.0.0/8", "--log-format", "json",
                                   "--extract-link-density-modifier", "0.25"});
    ASSERT_TRUE(custom.ok());
    const TempToml toml(to_toml(custom->config));
    const auto reloaded = load_with({"--config", toml.path()});
    ASSERT_TRUE(reloaded.ok()) << reloaded.error().message;
    for (const KeyInfo& key : keys()) {
        EXPECT_EQ(value_literal(reloaded->config, key.key), value_literal(custom->config, key.key)) << key.key;
    }
}

TEST(ConfigDocuments, ExampleFileDocumentsEveryKeyWithItsDefault) {
    const fs::path example = fs::path(PITH_SOURCE_DIR) / "config" / "pith.example.toml";
    const std::string text = read_file(example);
    ASSERT_FALSE(text.empty()) << example;
    const auto loaded = load_with({"--config", example.string()});
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    const ServerConfig defaults;
    for (const KeyInfo& key : keys()) {
        const std::string name(key.key.substr(key.key.find('.') + 1));
        // A key without a default value (an optional option) is shown commented out.
        const std::string line = (value_literal(defaults, key.key).empty() ? "\n# " : "\n") + name + " = ";
        EXPECT_NE(text.find(line), std::string::npos) << key.key << " is not in " << example;
        if (key.key == "server.workers") {
            continue;  // the example may pin it; 0 means auto either way
        }
        EXPECT_EQ(value_literal(loaded->config, key.key), value_literal(defaults, key.key))
            << key.key << ": the example shows a value other than the default";
    }
}

TEST(ConfigDocuments, ReadmeTableIsTheGeneratedOne) {
    const std::string readme = read_file(fs::path(PITH_SOURCE_DIR) / "README.md");
    const std::string begin = "<!-- config-table:begin (pithd --print-config-table) -->\n";
    const std::string end = "<!-- config-table:end -->";
    const std::size_t from = readme.find(begin);
    const std::size_t to = readme.find(end);
    ASSERT_NE(from, std::string::npos) << "README.md has no config-table markers";
    ASSERT_NE(to, std::string::npos);
    EXPECT_EQ(readme.substr(from + begin.size(), to - from - begin.size()), markdown_table())
        << "regenerate the README table with: build/pithd --print-config-table";
}

TEST(ConfigDocuments, HelpNamesEveryFlagAndVariable) {
    const std::string help = help_text();
    std::set<std::string_view> flags;
    for (const KeyInfo& key : keys()) {
        EXPECT_NE(help.find(std::string(key.flag) + " "), std::string::npos) << key.flag;
        EXPECT_NE(help.find(key.env), std::string::npos) << key.env;
        EXPECT_TRUE(flags.insert(key.flag).second) << "flag used twice: " << key.flag;
        EXPECT_TRUE(key.env.starts_with("PITH_"));
    }
}

}  // namespace
}  // namespace pith::config
