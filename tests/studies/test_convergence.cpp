// Observed order and Richardson extrapolation (studies/convergence.h) on synthetic sequences
// whose order and limit are known exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "studies/convergence.h"

TEST(Convergence, RecoversOrderAndLimitOfSyntheticData) {
  using rebound::studies::observed_convergence;
  // q = 3 + 0.5 h^2 on h = 0.4, 0.2, 0.1 (constant ratio): p = 2, Richardson exact.
  auto c = observed_convergence({0.4, 0.2, 0.1}, {3 + 0.5 * 0.16, 3 + 0.5 * 0.04, 3 + 0.5 * 0.01});
  EXPECT_EQ(c.status, "ok");
  EXPECT_NEAR(c.order, 2, 1e-9);
  EXPECT_NEAR(c.extrapolated, 3, 1e-12);
  EXPECT_NEAR(c.error_estimate, 0.005, 1e-12);
  EXPECT_NEAR(c.ratio, 2, 1e-12);
  // Uneven ratios (1.5 then 2): q = 1 - h^1.3, from coarser runs that are not used.
  std::vector<double> h = {0.9, 0.3, 0.2, 0.1}, q;
  for (double x : h) q.push_back(1 - std::pow(x, 1.3));
  c = observed_convergence(h, q);
  EXPECT_EQ(c.status, "ok");
  EXPECT_NEAR(c.order, 1.3, 1e-8);
  EXPECT_NEAR(c.extrapolated, 1, 1e-8);
  EXPECT_EQ(observed_convergence({0.4, 0.2, 0.1}, {1, 2, 1.5}).status, "oscillating");
  EXPECT_EQ(observed_convergence({0.4, 0.2, 0.1}, {1, 1.1, 1.3}).status, "differences grow");
  EXPECT_EQ(observed_convergence({0.4, 0.2, 0.1}, {0, 0, 0}).status, "unchanged");
  EXPECT_EQ(observed_convergence({0.4, 0.2, 0.2}, {1, 2, 3}).status, "h unchanged");
  EXPECT_EQ(observed_convergence({0.4, 0.2, 0.1}, {1, NAN, 3}).status, "undefined");
  EXPECT_EQ(observed_convergence({0.4, 0.2}, {1, 2}).status, "too few runs");
}
