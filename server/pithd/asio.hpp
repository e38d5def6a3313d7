// The names pithd's Beast and Asio code writes, once. Include it only from
// the files that compile Beast and Asio (listener, session, fetcher): the
// headers behind it cost seconds a translation unit.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace pith::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;

}  // namespace pith::server
