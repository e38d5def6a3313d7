// Reading a whole file, for tests and benchmarks.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace pith::test {

// The file's bytes; nullopt when it cannot be opened or read.
[[nodiscard]] std::optional<std::string> read_file(const std::filesystem::path& path);

}  // namespace pith::test
