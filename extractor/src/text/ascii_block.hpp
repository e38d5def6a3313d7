// Eight bytes of ASCII text classified at once, for the loops that measure
// every text node of a page many times over (dom::inner_text_length, the
// strategies' collapsed lengths): a byte at a time, each word boundary cost
// a mispredicted branch. Internal header.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace pith::text {

// One byte's high bit (0x80) per byte of the block that has the property,
// byte i of the text at bits 8i..8i+7.
struct AsciiBlock {
    std::uint64_t space = 0;    // JavaScript white space: ' ' and U+0009..U+000D
    std::uint64_t content = 0;  // everything else
    std::uint64_t punctuation = 0;  // ',' and '.'
};

// Whether the 8 bytes at `s[pos]` are all ASCII, and if so their classes.
// Little-endian machines only (the shifts read byte order from bit order);
// elsewhere it always answers false and callers read byte by byte.
[[nodiscard]] inline bool ascii_block(std::string_view s, std::size_t pos, AsciiBlock& block) noexcept {
    if constexpr (std::endian::native != std::endian::little) {
        return false;
    }
    constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
    constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
    if (pos + 8 > s.size()) {
        return false;
    }
    std::uint64_t w = 0;
    std::memcpy(&w, s.data() + pos, 8);
    if ((w & kHigh) != 0) {
        return false;
    }
    // With every byte under 0x80, adding up to 0x7F to each never carries
    // into the next: the high bit of (b + 0x80 - k) says b >= k.
    const auto at_least = [w](std::uint64_t k) { return w + (0x80 - k) * kOnes; };
    const std::uint64_t controls = at_least(0x09) & ~at_least(0x0E);  // U+0009..U+000D
    const std::uint64_t blanks = at_least(0x20) & ~at_least(0x21);
    block.space = (controls | blanks) & kHigh;
    block.content = ~block.space & kHigh;
    block.punctuation = ((at_least(',') & ~at_least(',' + 1)) | (at_least('.') & ~at_least('.' + 1))) & kHigh;
    return true;
}

// How many bytes of the block have the property.
[[nodiscard]] inline int count_of(std::uint64_t mask) noexcept { return std::popcount(mask); }

}  // namespace pith::text
