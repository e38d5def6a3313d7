// Sets of short ASCII strings looked up in class names, ids and other
// attribute values: one pass over the value tries at each position only the
// strings that start with its byte (about one), where a search per string
// read the value once per string. Built at compile time. Internal header.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

#include "text/text.hpp"

namespace pith::text {

namespace detail {

[[nodiscard]] constexpr char fold_ascii(char c) noexcept {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// `strings` sorted by first byte, and the range of each first byte.
template <std::size_t N>
struct ByFirstByte {
    std::array<std::string_view, N> sorted;
    std::array<std::uint8_t, 256> begin{};
    std::array<std::uint8_t, 256> end{};  // begin == end: none starts with the byte

    consteval explicit ByFirstByte(const std::array<std::string_view, N>& strings) : sorted(strings) {
        static_assert(N < 256);
        for (std::size_t i = 1; i < N; ++i) {  // insertion sort
            for (std::size_t j = i; j > 0 && first(sorted[j]) < first(sorted[j - 1]); --j) {
                std::swap(sorted[j], sorted[j - 1]);
            }
        }
        for (std::size_t i = N; i-- > 0;) {
            if (sorted[i].empty()) {
                throw "an empty string would match everywhere";
            }
            begin[first(sorted[i])] = static_cast<std::uint8_t>(i);
            end[first(sorted[i])] = std::max(end[first(sorted[i])], static_cast<std::uint8_t>(i + 1));
        }
    }

    static constexpr unsigned char first(std::string_view s) { return s.empty() ? 0 : static_cast<unsigned char>(s[0]); }
};

}  // namespace detail

// Lower-case strings found anywhere in a value, ASCII case folded.
template <std::size_t N>
class NeedleSet {
public:
    consteval explicit NeedleSet(const std::array<std::string_view, N>& needles) : index_(needles) {
        for (const std::string_view needle : needles) {
            for (const char c : needle) {
                if (c >= 'A' && c <= 'Z') {
                    throw "needles are lower case: only the value's case is folded";
                }
            }
        }
    }

    [[nodiscard]] bool found_in(std::string_view s) const noexcept {
        for (std::size_t i = 0; i < s.size(); ++i) {
            const auto c = static_cast<unsigned char>(detail::fold_ascii(s[i]));
            for (std::size_t k = index_.begin[c]; k < index_.end[c]; ++k) {
                const std::string_view needle = index_.sorted[k];
                if (needle.size() <= s.size() - i && matches_at(s, i, needle)) {
                    return true;
                }
            }
        }
        return false;
    }

private:
    // Whether `needle` (lower case, its first byte already matched) is at
    // s[at]. Inline and byte by byte: most candidates differ at the second.
    static bool matches_at(std::string_view s, std::size_t at, std::string_view needle) noexcept {
        for (std::size_t j = 1; j < needle.size(); ++j) {
            if (detail::fold_ascii(s[at + j]) != needle[j]) {
                return false;
            }
        }
        return true;
    }

    detail::ByFirstByte<N> index_;
};

// Whole words, compared byte for byte.
template <std::size_t N>
class WordSet {
public:
    consteval explicit WordSet(const std::array<std::string_view, N>& words) : index_(words) {}

    [[nodiscard]] bool holds(std::string_view word) const noexcept {
        if (word.empty()) {
            return false;
        }
        const auto c = static_cast<unsigned char>(word[0]);
        for (std::size_t k = index_.begin[c]; k < index_.end[c]; ++k) {
            if (index_.sorted[k] == word) {
                return true;
            }
        }
        return false;
    }

private:
    detail::ByFirstByte<N> index_;
};

}  // namespace pith::text
