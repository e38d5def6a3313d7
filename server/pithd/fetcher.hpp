// URL fetching for /extract requests that give a URL and no HTML: an
// asynchronous HTTP/1.1 client on pithd's I/O threads (Beast, TLS through
// OpenSSL with certificate and host-name verification against the system CA
// store, SNI), behind the SSRF guard of address_policy.hpp. Beast and OpenSSL
// stay inside fetcher.cpp.
#pragma once

#include <memory>

#include "config.hpp"
#include "pithd/metrics.hpp"
#include "pithd/service.hpp"

namespace boost::asio {
class io_context;
}

namespace pith::server {

// A Fetcher running on `ioc`. `config` and `metrics` must outlive it and every
// fetch it starts. Errors (invalid_argument) when fetch.allow or fetch.ca_file
// cannot be used.
[[nodiscard]] Result<std::unique_ptr<Fetcher>> make_http_fetcher(boost::asio::io_context& ioc,
                                                                 const config::FetchConfig& config,
                                                                 Metrics& metrics);

}  // namespace pith::server
