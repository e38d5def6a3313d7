// How the option enums are spelled, in one table per enum: the option table's
// choices and the *_name / *_from_name functions of pith/options.hpp both read
// these. Internal header.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

#include "pith/options.hpp"

namespace pith::extract {

template <typename Enum, std::size_t N>
struct NameTable {
    std::array<Enum, N> values;
    std::array<std::string_view, N> names;

    [[nodiscard]] constexpr std::string_view name(Enum value) const noexcept {
        for (std::size_t i = 0; i < N; ++i) {
            if (values[i] == value) {
                return names[i];
            }
        }
        return names[0];
    }
    [[nodiscard]] constexpr std::optional<Enum> find(std::string_view name) const noexcept {
        for (std::size_t i = 0; i < N; ++i) {
            if (names[i] == name) {
                return values[i];
            }
        }
        return std::nullopt;
    }
    [[nodiscard]] constexpr std::span<const std::string_view> all() const noexcept { return names; }
};

inline constexpr NameTable<Strategy, 5> kStrategyNames{
    {Strategy::readability, Strategy::lectito, Strategy::fitness, Strategy::automatic, Strategy::region},
    {"readability", "lectito", "fitness", "auto", "region"}};
// The strategy option's choices: every strategy but auto's region pass.
inline constexpr std::array<std::string_view, 4> kStrategyChoices{"readability", "lectito", "fitness", "auto"};
inline constexpr NameTable<SelectMode, 2> kSelectModeNames{{SelectMode::readability, SelectMode::dom_smoothie},
                                                            {"readability", "dom_smoothie"}};
inline constexpr NameTable<PageType, 7> kPageTypeNames{
    {PageType::article, PageType::forum, PageType::product, PageType::collection, PageType::listing,
     PageType::documentation, PageType::service},
    {"article", "forum", "product", "collection", "listing", "documentation", "service"}};
// The page_type option's choices: "auto" (the classifier decides), then the types.
inline constexpr std::array<std::string_view, 8> kPageTypeChoices{
    "auto", "article", "forum", "product", "collection", "listing", "documentation", "service"};
inline constexpr NameTable<Policy, 4> kPolicyNames{{Policy::strict, Policy::moderate, Policy::clean, Policy::raw},
                                                    {"strict", "moderate", "clean", "raw"}};

}  // namespace pith::extract
