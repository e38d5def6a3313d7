#include "pithd/address_policy.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <charconv>
#include <cstring>

namespace pith::server {

namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c); });
    return out;
}

struct Range {
    const char* cidr;
    std::string_view why;
};

// Internal and special-purpose ranges (IANA's special-purpose registries,
// RFC 6890 and its updates). IPv4 ranges also catch the IPv4-mapped IPv6
// spelling, since addresses are kept mapped.
constexpr Range kInternalRanges[] = {
    {"0.0.0.0/8", "unspecified (this network)"},
    {"10.0.0.0/8", "private (RFC 1918)"},
    {"100.64.0.0/10", "shared address space (CGNAT, RFC 6598)"},
    {"127.0.0.0/8", "loopback"},
    {"169.254.0.0/16", "link-local (cloud metadata lives here)"},
    {"172.16.0.0/12", "private (RFC 1918)"},
    {"192.0.0.0/24", "IETF protocol assignments"},
    {"192.0.2.0/24", "documentation (TEST-NET-1)"},
    {"192.88.99.0/24", "6to4 relay anycast"},
    {"192.168.0.0/16", "private (RFC 1918)"},
    {"198.18.0.0/15", "benchmarking"},
    {"198.51.100.0/24", "documentation (TEST-NET-2)"},
    {"203.0.113.0/24", "documentation (TEST-NET-3)"},
    {"224.0.0.0/4", "multicast"},
    {"240.0.0.0/4", "reserved (broadcast included)"},
    {"::/128", "unspecified"},
    {"::1/128", "loopback"},
    {"::/96", "IPv4-compatible (deprecated)"},
    {"64:ff9b:1::/48", "local-use IPv4/IPv6 translation"},
    {"100::/64", "discard-only"},
    {"2001::/32", "Teredo tunnelling"},
    {"2001:2::/48", "benchmarking"},
    {"2001:10::/28", "ORCHID"},
    {"2001:20::/28", "ORCHIDv2"},
    {"2001:db8::/32", "documentation"},
    {"fc00::/7", "unique local (ULA)"},
    {"fe80::/10", "link-local"},
    {"fec0::/10", "site-local (deprecated)"},
    {"ff00::/8", "multicast"},
};

const std::vector<Cidr>& internal_cidrs() {
    static const std::vector<Cidr> cidrs = [] {
        std::vector<Cidr> out;
        for (const Range& range : kInternalRanges) {
            out.push_back(*Cidr::parse(range.cidr));
        }
        return out;
    }();
    return cidrs;
}

// The IPv4 address a translation form carries: NAT64 (64:ff9b::/96) and 6to4
// (2002::/16) reach IPv4 hosts, so they are judged by the IPv4 inside.
std::optional<IpAddress> embedded_v4(const IpAddress& address) {
    const auto& b = address.bytes;
    static constexpr std::uint8_t kNat64[12] = {0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};
    if (std::equal(std::begin(kNat64), std::end(kNat64), b.begin())) {
        return IpAddress::from_v4((std::uint32_t{b[12]} << 24U) | (std::uint32_t{b[13]} << 16U) |
                                  (std::uint32_t{b[14]} << 8U) | b[15]);
    }
    if (b[0] == 0x20 && b[1] == 0x02) {
        return IpAddress::from_v4((std::uint32_t{b[2]} << 24U) | (std::uint32_t{b[3]} << 16U) |
                                  (std::uint32_t{b[4]} << 8U) | b[5]);
    }
    return std::nullopt;
}

bool is_host_name(std::string_view host) {
    if (host.empty() || host.size() > 253 || host.front() == '.' || host.back() == '.') {
        return false;
    }
    return std::all_of(host.begin(), host.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
    });
}

}  // namespace

std::optional<IpAddress> IpAddress::parse(std::string_view text) {
    if (text.size() >= 2 && text.front() == '[' && text.back() == ']') {
        text = text.substr(1, text.size() - 2);
    }
    if (text.empty() || text.size() > 45 || text.find('%') != std::string_view::npos) {
        return std::nullopt;
    }
    const std::string terminated(text);
    in_addr v4{};
    if (::inet_pton(AF_INET, terminated.c_str(), &v4) == 1) {
        return from_v4(ntohl(v4.s_addr));
    }
    in6_addr v6{};
    if (::inet_pton(AF_INET6, terminated.c_str(), &v6) == 1) {
        std::array<std::uint8_t, 16> bytes{};
        std::memcpy(bytes.data(), v6.s6_addr, 16);
        return from_v6(bytes);
    }
    return std::nullopt;
}

IpAddress IpAddress::from_v4(std::uint32_t host_order) {
    IpAddress address;
    address.v4 = true;
    address.bytes[10] = 0xff;
    address.bytes[11] = 0xff;
    address.bytes[12] = static_cast<std::uint8_t>(host_order >> 24U);
    address.bytes[13] = static_cast<std::uint8_t>(host_order >> 16U);
    address.bytes[14] = static_cast<std::uint8_t>(host_order >> 8U);
    address.bytes[15] = static_cast<std::uint8_t>(host_order);
    return address;
}

IpAddress IpAddress::from_v6(const std::array<std::uint8_t, 16>& bytes) {
    IpAddress address;
    address.bytes = bytes;
    // ::ffff:a.b.c.d is an IPv4 address whatever it was written as.
    static constexpr std::uint8_t kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    address.v4 = std::equal(std::begin(kMapped), std::end(kMapped), bytes.begin());
    return address;
}

std::string IpAddress::to_string() const {
    char text[INET6_ADDRSTRLEN] = {};
    if (v4) {
        ::inet_ntop(AF_INET, bytes.data() + 12, text, sizeof text);
    } else {
        ::inet_ntop(AF_INET6, bytes.data(), text, sizeof text);
    }
    return text;
}

std::optional<Cidr> Cidr::parse(std::string_view text) {
    const std::size_t slash = text.find('/');
    const auto address = IpAddress::parse(text.substr(0, slash));
    if (!address) {
        return std::nullopt;
    }
    const unsigned width = address->v4 ? 32 : 128;
    unsigned prefix = width;
    if (slash != std::string_view::npos) {
        const std::string_view bits = text.substr(slash + 1);
        const auto [ptr, ec] = std::from_chars(bits.data(), bits.data() + bits.size(), prefix);
        if (bits.empty() || ec != std::errc{} || ptr != bits.data() + bits.size() || prefix > width) {
            return std::nullopt;
        }
    }
    return Cidr{*address, address->v4 ? prefix + 96 : prefix};
}

bool Cidr::contains(const IpAddress& address) const noexcept {
    unsigned bits = prefix;
    for (std::size_t i = 0; i < 16 && bits > 0; ++i) {
        const unsigned take = std::min(bits, 8U);
        const auto mask = static_cast<std::uint8_t>(0xFFU << (8U - take));
        if ((address.bytes[i] & mask) != (network.bytes[i] & mask)) {
            return false;
        }
        bits -= take;
    }
    return true;
}

std::optional<std::string_view> internal_range(const IpAddress& address) noexcept {
    const std::vector<Cidr>& cidrs = internal_cidrs();
    for (std::size_t i = 0; i < cidrs.size(); ++i) {
        if (cidrs[i].contains(address)) {
            return kInternalRanges[i].why;
        }
    }
    if (const std::optional<IpAddress> inner = embedded_v4(address)) {
        return internal_range(*inner);
    }
    return std::nullopt;
}

Result<AddressPolicy> AddressPolicy::from_allowlist(const std::vector<std::string>& allow) {
    AddressPolicy policy;
    for (const std::string& entry : allow) {
        if (const auto cidr = Cidr::parse(entry)) {
            policy.cidrs_.push_back(*cidr);
        } else if (entry.starts_with("*.") && is_host_name(entry.substr(2))) {
            policy.suffixes_.push_back(lower(entry.substr(1)));
        } else if (is_host_name(entry)) {
            policy.hosts_.push_back(lower(entry));
        } else {
            return Error{ErrorCode::invalid_argument,
                         "fetch.allow: \"" + entry + "\" is neither a CIDR nor a host name"};
        }
    }
    return policy;
}

bool AddressPolicy::host_allowed(std::string_view host) const {
    const std::string name = lower(host);
    if (std::find(hosts_.begin(), hosts_.end(), name) != hosts_.end()) {
        return true;
    }
    return std::any_of(suffixes_.begin(), suffixes_.end(),
                       [&](const std::string& suffix) { return name.ends_with(suffix); });
}

std::optional<std::string> AddressPolicy::refusal(std::string_view host, const IpAddress& address) const {
    const std::optional<std::string_view> why = internal_range(address);
    if (!why) {
        return std::nullopt;
    }
    if (host_allowed(host) ||
        std::any_of(cidrs_.begin(), cidrs_.end(), [&](const Cidr& cidr) { return cidr.contains(address); })) {
        return std::nullopt;
    }
    return address.to_string() + " is " + std::string(*why);
}

}  // namespace pith::server
