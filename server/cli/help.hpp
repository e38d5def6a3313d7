// The pith CLI's help pages. `pith help extract` lists the CLI's own flags and
// then every extraction option of the option table with its range and default.
#pragma once

#include <string>

#include "cli/args.hpp"

namespace pith::cli {

// The page for `topic`: Command::help is the main page.
[[nodiscard]] std::string help_text(Command topic);

}  // namespace pith::cli
