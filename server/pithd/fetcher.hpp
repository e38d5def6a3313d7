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

// One fetch run to its end on the calling thread, on an I/O context of its
// own, for a caller without I/O threads (the pith CLI following an article's
// pages). The same guard, limits and TLS checks; the body is held up to the
// fetch limits. Errors are in the result, as a Fetcher's.
[[nodiscard]] FetchResult fetch_now(const config::FetchConfig& config, std::string url, Clock::time_point deadline);

}  // namespace pith::server
