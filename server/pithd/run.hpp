// Running pithd: the listener, the sessions, the worker pool and the drain,
// from a configuration to an exit status. All of Boost.Beast and most of Asio
// are behind this header.
#pragma once

#include "config.hpp"

namespace pith::server {

// Runs pithd with `config` until SIGTERM or SIGINT has drained it, or a second
// signal cut the drain short. Returns the process exit status: 0 after a
// shutdown, 1 when the listener could not be opened. Logs through log::.
[[nodiscard]] int run_pithd(const config::ServerConfig& config);

}  // namespace pith::server
