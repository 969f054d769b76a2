// Two solutions of one impact compared quantity by quantity (tests/halfspace/*): each within a
// tolerance, absolute (non-dimensional quantities) or relative (dimensional ones), and the
// largest difference kept for the test's printout. Both NaN (a quantity the model does not
// define) counts as agreement.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace rebound::test {

struct Agreement {
  double tolerance;
  double worst = 0;
  void absolute(double a, double b, const char* what) {
    if (std::isnan(a) && std::isnan(b)) return;
    EXPECT_NEAR(a, b, tolerance) << what;
    worst = std::max(worst, std::abs(a - b));
  }
  void relative(double a, double b, const char* what) {
    if (std::isnan(a) && std::isnan(b)) return;
    EXPECT_NEAR(a / b, 1.0, tolerance) << what << " " << a << " " << b;
    worst = std::max(worst, std::abs(a / b - 1));
  }
};

}  // namespace rebound::test
