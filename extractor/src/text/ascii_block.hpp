// Eight bytes of ASCII text classified at once, for the loops that measure
// every text node of a page many times over (dom::inner_text_length, the
// strategies' collapsed lengths): a byte at a time, each word boundary cost
// a mispredicted branch. Internal header.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace pith::text {

// One byte's high bit (0x80) per byte of the block that has the property,
// byte i of the text at bits 8i..8i+7.
struct AsciiBlock {
    std::uint64_t bytes = 0;        // the eight bytes
    std::uint64_t space = 0;        // JavaScript white space: ' ' and U+0009..U+000D
    std::uint64_t content = 0;      // everything else
    std::uint64_t punctuation = 0;  // ',' and '.'
};

// The bytes of an ASCII block from `low` to `high` (at most 0x7F).
[[nodiscard]] inline std::uint64_t bytes_between(const AsciiBlock& block, unsigned low, unsigned high) noexcept {
    constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
    constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
    // With every byte under 0x80, adding up to 0x80 to each never carries
    // into the next: the high bit of (b + 0x80 - k) says b >= k.
    const auto at_least = [&block](std::uint64_t k) { return block.bytes + (0x80 - k) * kOnes; };
    return at_least(low) & ~at_least(high + 1U) & kHigh;
}

// Whether the 8 bytes at `s[pos]` are all ASCII, and if so their classes.
// Little-endian machines only (the shifts read byte order from bit order);
// elsewhere it always answers false and callers read byte by byte.
[[nodiscard]] inline bool ascii_block(std::string_view s, std::size_t pos, AsciiBlock& block) noexcept {
    if constexpr (std::endian::native != std::endian::little) {
        return false;
    }
    constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
    if (pos + 8 > s.size()) {
        return false;
    }
    std::uint64_t w = 0;
    std::memcpy(&w, s.data() + pos, 8);
    if ((w & kHigh) != 0) {
        return false;
    }
    block.bytes = w;
    block.space = bytes_between(block, 0x09, 0x0D) | bytes_between(block, ' ', ' ');
    block.content = ~block.space & kHigh;
    block.punctuation = bytes_between(block, ',', ',') | bytes_between(block, '.', '.');
    return true;
}

// How many bytes of the block have the property: `mask` holds only bytes'
// high bits, as every mask above does. Without -mpopcnt (the build targets
// any x86-64) std::popcount is a library call; moving each high bit to its
// byte's low bit and multiplying sums the eight bytes into the top one.
[[nodiscard]] inline int count_of(std::uint64_t mask) noexcept {
    constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
    return static_cast<int>(((mask >> 7U) * kOnes) >> 56U);
}

// The UTF-16 units a block adds to a collapsed text length (as
// dom::inner_text_length: trimmed, each run of white space between two
// characters one) once a character has been counted: its other characters,
// and one for each run a character closes. `after_space`, whether white
// space ended the text before the block, becomes whether the block ends in it.
[[nodiscard]] inline std::size_t collapsed_units(const AsciiBlock& block, bool& after_space) noexcept {
    const std::uint64_t after = (block.space << 8U) | (after_space ? 0x80U : 0U);
    after_space = (block.space >> 63U) != 0;
    return static_cast<std::size_t>(count_of(block.content) + count_of(block.content & after));
}

}  // namespace pith::text
