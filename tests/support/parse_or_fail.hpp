// Parses a test fixture, failing the test (not aborting it) when the parser
// refuses it, so that the test's own checks still report.
#pragma once

#include <gtest/gtest.h>

#include <string_view>
#include <utility>

#include "pith/dom.hpp"

namespace pith::test {

inline dom::Document parse_or_fail(std::string_view html) {
    auto result = dom::parse_html(html);
    if (!result.ok()) {
        ADD_FAILURE() << "parse_html failed: " << result.error().message;
        return dom::Document{};
    }
    return std::move(result).value();
}

}  // namespace pith::test
