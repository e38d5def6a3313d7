// pithd's network side: the listener, one session per connection, signal
// handling and the drain. All of Boost.Beast and most of Asio live behind this
// header, in http_server.cpp.
#pragma once

#include "config.hpp"

namespace pith::server {

// Runs pithd with `config` until SIGTERM or SIGINT has drained it, or a second
// signal cut the drain short. Returns the process exit status: 0 after a
// shutdown, 1 when the listener could not be opened. Logs through log::.
[[nodiscard]] int run_pithd(const config::ServerConfig& config);

}  // namespace pith::server
