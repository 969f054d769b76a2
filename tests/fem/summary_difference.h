// The comparison the partitioned-equals-serial tests share (tests/fem/*.cpp).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "fem/fem.h"
#include "observables/quantities.h"

namespace rebound::test {

// The worst relative difference of the summary scalars of two runs, and its key; a scalar null in
// one run and not in the other fails the calling test.
inline std::pair<double, std::string> worst_summary_difference(const fem::RunResult& parallel,
                                                               const fem::RunResult& serial) {
  double worst = 0;
  std::string worst_key;
  for (const auto& key : observables::summary_scalar_keys()) {
    const auto& a = parallel.summary[key];
    const auto& b = serial.summary[key];
    EXPECT_EQ(a.is_null(), b.is_null()) << key;
    if (a.is_null() || b.is_null()) continue;
    const double x = a, y = b;
    const double error = std::abs(x - y) / std::max(std::abs(y), 1e-300);
    if (error > worst) worst = error, worst_key = key;
  }
  return {worst, worst_key};
}

}  // namespace rebound::test
