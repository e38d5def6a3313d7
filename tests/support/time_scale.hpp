// Time bounds in tests are set for an optimised build. Sanitizer builds run
// the same code several times slower, so bounds are multiplied by kTimeScale
// there: a bound still catches a hang or a quadratic walk, not instrumentation.
#pragma once

namespace pith::test {

#ifdef PITH_SANITIZED
inline constexpr double kTimeScale = 8.0;
#else
inline constexpr double kTimeScale = 1.0;
#endif

}  // namespace pith::test
