// libFuzzer harness: configuration loading. The input is TOML text, then
// after a NUL byte command-line arguments separated by NULs, and the result
// goes through validation and back out as TOML.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view rest(reinterpret_cast<const char*>(data), size);
    pith::config::Sources sources;
    const std::size_t nul = rest.find('\0');
    sources.config_text = std::string(rest.substr(0, nul));
    rest = nul == std::string_view::npos ? std::string_view{} : rest.substr(nul + 1);
    while (!rest.empty() && sources.args.size() < 16) {
        const std::size_t next = rest.find('\0');
        std::string arg(rest.substr(0, next));
        // Config files and CA files named by the input must not be read from disk.
        if (arg.starts_with("--config") || arg.starts_with("--fetch-ca-file")) {
            arg = "--help";
        }
        sources.args.push_back(std::move(arg));
        rest = next == std::string_view::npos ? std::string_view{} : rest.substr(next + 1);
    }
    auto loaded = pith::config::load(sources);
    if (loaded) {
        (void)pith::config::to_toml(loaded->config);
        (void)pith::config::validate(loaded->config);
    }
    return 0;
}
