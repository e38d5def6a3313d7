// A fitted model's feature by its name, for tests that check what a
// signal extractor measured.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string_view>

namespace pith::test {

// The value of feature `name` in `features`, whose names are `names` in the
// same order; -1 (and a failed expectation) when no feature has that name.
template <class Features, class Names>
double feature_named(const Features& features, const Names& names, std::string_view name) {
    const auto it = std::find(names.begin(), names.end(), name);
    EXPECT_NE(it, names.end()) << name;
    return it == names.end() ? -1.0 : features[static_cast<std::size_t>(it - names.begin())];
}

}  // namespace pith::test
