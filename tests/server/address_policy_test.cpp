// The SSRF guard's address policy, on examples of every refused range. Pure
// functions: nothing here connects anywhere.
#include "pithd/address_policy.hpp"

#include <gtest/gtest.h>

namespace pith::server {
namespace {

std::optional<std::string> refused(const AddressPolicy& policy, const std::string& host, const std::string& ip) {
    const auto address = IpAddress::parse(ip);
    EXPECT_TRUE(address.has_value()) << ip;
    return address ? policy.refusal(host, *address) : std::nullopt;
}

TEST(AddressPolicy, RefusesEveryInternalRangeByDefault) {
    const AddressPolicy policy = *AddressPolicy::from_allowlist({});
    const struct {
        const char* ip;
        const char* why;
    } cases[] = {
        {"127.0.0.1", "loopback"},
        {"127.255.255.254", "loopback"},
        {"10.0.0.1", "private"},
        {"10.255.255.255", "private"},
        {"172.16.0.1", "private"},
        {"172.31.255.255", "private"},
        {"192.168.1.1", "private"},
        {"169.254.169.254", "link-local"},
        {"169.254.0.1", "link-local"},
        {"100.64.0.1", "CGNAT"},
        {"100.127.255.255", "CGNAT"},
        {"224.0.0.1", "multicast"},
        {"239.255.255.250", "multicast"},
        {"0.0.0.0", "unspecified"},
        {"0.1.2.3", "unspecified"},
        {"255.255.255.255", "broadcast"},
        {"240.0.0.1", "reserved"},
        {"192.0.2.10", "documentation"},
        {"198.18.0.1", "benchmarking"},
        {"::", "unspecified"},
        {"::1", "loopback"},
        {"fd00::1", "unique local"},
        {"fc00::1", "unique local"},
        {"fe80::1", "link-local"},
        {"febf::1", "link-local"},
        {"fec0::1", "site-local"},
        {"ff02::1", "multicast"},
        {"::ffff:10.0.0.1", "private"},
        {"::ffff:127.0.0.1", "loopback"},
        {"::ffff:169.254.169.254", "link-local"},
        {"::127.0.0.1", "IPv4-compatible"},
        {"64:ff9b::7f00:1", "loopback"},     // NAT64 of 127.0.0.1
        {"64:ff9b::a9fe:a9fe", "link-local"},  // NAT64 of 169.254.169.254
        {"2002:c0a8:0101::1", "private"},    // 6to4 of 192.168.1.1
        {"2001::1", "Teredo"},
        {"2001:db8::1", "documentation"},
    };
    for (const auto& c : cases) {
        const auto why = refused(policy, "example.com", c.ip);
        ASSERT_TRUE(why.has_value()) << c.ip << " must be refused";
        EXPECT_NE(why->find(c.why), std::string::npos) << c.ip << ": " << *why;
    }
}

TEST(AddressPolicy, LetsPublicAddressesThrough) {
    const AddressPolicy policy = *AddressPolicy::from_allowlist({});
    for (const char* ip : {"93.184.216.34", "8.8.8.8", "1.1.1.1", "172.15.255.255", "172.32.0.0", "100.63.255.255",
                           "100.128.0.0", "192.169.0.1", "11.0.0.1", "223.255.255.255", "2606:4700:4700::1111",
                           "2a00:1450:4001:80b::200e", "64:ff9b::808:808", "2002:808:808::1", "::ffff:8.8.8.8"}) {
        EXPECT_FALSE(refused(policy, "example.com", ip).has_value()) << ip;
    }
}

TEST(AddressPolicy, AllowlistOpensChosenCidrsAndHosts) {
    const auto policy = AddressPolicy::from_allowlist({"10.1.0.0/16", "::1/128", "127.0.0.2", "wiki.corp.example",
                                                       "*.intranet.example"});
    ASSERT_TRUE(policy.ok()) << policy.error().message;
    EXPECT_FALSE(refused(*policy, "x", "10.1.2.3").has_value());
    EXPECT_TRUE(refused(*policy, "x", "10.2.0.1").has_value());
    EXPECT_FALSE(refused(*policy, "x", "::1").has_value());
    EXPECT_FALSE(refused(*policy, "x", "127.0.0.2").has_value());
    EXPECT_TRUE(refused(*policy, "x", "127.0.0.1").has_value());
    EXPECT_FALSE(refused(*policy, "WIKI.corp.example", "10.9.9.9").has_value()) << "host names match any case";
    EXPECT_FALSE(refused(*policy, "a.b.intranet.example", "192.168.0.5").has_value());
    EXPECT_TRUE(refused(*policy, "intranet.example", "192.168.0.5").has_value()) << "*.x covers subdomains only";
    EXPECT_TRUE(refused(*policy, "evilwiki.corp.example", "10.9.9.9").has_value());
}

TEST(AddressPolicy, IPv4AllowEntriesCoverTheMappedSpelling) {
    const auto policy = AddressPolicy::from_allowlist({"127.0.0.0/8"});
    ASSERT_TRUE(policy.ok());
    EXPECT_FALSE(refused(*policy, "x", "::ffff:127.0.0.1").has_value());
}

TEST(AddressPolicy, RefusesMalformedAllowEntries) {
    for (const char* entry : {"10.0.0.0/33", "::/129", "not a host", "*.", "10.0.0.0/x", "", "http://x"}) {
        const auto policy = AddressPolicy::from_allowlist({entry});
        ASSERT_FALSE(policy.ok()) << entry;
        EXPECT_NE(policy.error().message.find("fetch.allow"), std::string::npos);
    }
}

TEST(IpAddress, ParsesBothFamiliesAndRefusesTheRest) {
    EXPECT_TRUE(IpAddress::parse("192.168.1.1")->v4);
    EXPECT_TRUE(IpAddress::parse("::ffff:192.168.1.1")->v4);
    EXPECT_EQ(*IpAddress::parse("::ffff:192.168.1.1"), *IpAddress::parse("192.168.1.1"));
    EXPECT_FALSE(IpAddress::parse("[::1]")->v4);
    EXPECT_EQ(IpAddress::parse("[::1]")->to_string(), "::1");
    EXPECT_EQ(IpAddress::parse("::ffff:10.0.0.1")->to_string(), "10.0.0.1");
    for (const char* bad : {"", "localhost", "1.2.3", "256.0.0.1", "fe80::1%eth0", "::g", "1.2.3.4.5"}) {
        EXPECT_FALSE(IpAddress::parse(bad).has_value()) << bad;
    }
}

TEST(Cidr, ContainsByPrefix) {
    const Cidr cidr = *Cidr::parse("172.16.0.0/12");
    EXPECT_TRUE(cidr.contains(*IpAddress::parse("172.20.1.1")));
    EXPECT_FALSE(cidr.contains(*IpAddress::parse("172.32.0.0")));
    EXPECT_TRUE(Cidr::parse("0.0.0.0/0")->contains(*IpAddress::parse("8.8.8.8")));
    EXPECT_FALSE(Cidr::parse("0.0.0.0/0")->contains(*IpAddress::parse("2001:4860::1"))) << "v4 /0 is not all of v6";
    EXPECT_TRUE(Cidr::parse("fe80::/10")->contains(*IpAddress::parse("febf:ffff::1")));
}

}  // namespace
}  // namespace pith::server
