// The SSRF guard of URL fetching: which resolved addresses pithd may connect
// to. Internal ranges (loopback, RFC 1918, link-local with the cloud metadata
// address, CGNAT, multicast, unspecified, broadcast, reserved, documentation,
// and their IPv6 forms, IPv4 embedded in IPv6 included) are refused unless the
// operator's allowlist names the address's CIDR or the URL's host.
//
// The fetcher checks every address it resolves and connects to the very
// address it checked, on every redirect hop: no DNS-rebinding window.
//
// Thread-safety: an AddressPolicy is immutable once built.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pith/result.hpp"

namespace pith::server {

// An IPv4 or IPv6 address. IPv4 is kept in the IPv4-mapped IPv6 form
// (::ffff:a.b.c.d) with `v4` set, so one comparison covers both spellings.
struct IpAddress {
    std::array<std::uint8_t, 16> bytes{};
    bool v4 = false;

    // Dotted IPv4, or IPv6 with or without brackets ("[::1]"); zone ids refused.
    [[nodiscard]] static std::optional<IpAddress> parse(std::string_view text);
    [[nodiscard]] static IpAddress from_v4(std::uint32_t host_order);
    [[nodiscard]] static IpAddress from_v6(const std::array<std::uint8_t, 16>& bytes);
    [[nodiscard]] std::string to_string() const;
    bool operator==(const IpAddress&) const = default;
};

struct Cidr {
    IpAddress network;
    unsigned prefix = 0;  // bits, counted in the 128-bit form for IPv4 too

    // "10.0.0.0/8", "fd00::/8", or a bare address (a /32 or /128).
    [[nodiscard]] static std::optional<Cidr> parse(std::string_view text);
    [[nodiscard]] bool contains(const IpAddress& address) const noexcept;
};

// Why `address` is internal ("loopback", "private (RFC 1918)", ...), or
// nullopt for a public address.
[[nodiscard]] std::optional<std::string_view> internal_range(const IpAddress& address) noexcept;

class AddressPolicy {
public:
    // From fetch.allow: CIDRs ("10.1.0.0/16", "::1/128", "127.0.0.1") and host
    // names ("wiki.corp.example", or "*.corp.example" for its subdomains).
    // Errors: invalid_argument naming the bad entry.
    [[nodiscard]] static Result<AddressPolicy> from_allowlist(const std::vector<std::string>& allow);

    // Why connecting to `address` for a URL on `host` is refused, or nullopt
    // when it may go ahead.
    [[nodiscard]] std::optional<std::string> refusal(std::string_view host, const IpAddress& address) const;
    [[nodiscard]] bool host_allowed(std::string_view host) const;

private:
    std::vector<Cidr> cidrs_;
    std::vector<std::string> hosts_;     // exact, lower-case
    std::vector<std::string> suffixes_;  // ".corp.example" for "*.corp.example"
};

}  // namespace pith::server
