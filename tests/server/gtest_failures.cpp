// Compiled into every suite that runs pithd: a sanitizer report in pithd's
// log fails the test that started it.
#include <gtest/gtest.h>

#include "pithd.hpp"

namespace {

[[maybe_unused]] const bool kReporting = [] {
    pith::test::set_failure_reporter([](const std::string& what) { ADD_FAILURE() << what; });
    return true;
}();

}  // namespace
