// lumped::run_sweep at given values (the Python module's sweep) against the range form (the
// command line's): the same point, bit for bit, whatever the order, spacing and thread count.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cases/case.h"
#include "lumped/sweep.h"

using namespace rebound;

namespace {

cases::Case sphere() {
  return cases::load_case(std::string(REBOUND_SOURCE_DIR) + "/cases/sphere-lai-psi2.json");
}

void expect_same_point(const lumped::SweepPoint& a, const lumped::SweepPoint& b) {
  EXPECT_EQ(a.value, b.value);
  EXPECT_EQ(a.phases, b.phases);
  EXPECT_EQ(a.error, b.error);
  EXPECT_EQ(a.gamma_t, b.gamma_t);
  EXPECT_EQ(a.gamma_n, b.gamma_n);
  ASSERT_EQ(a.scalars.size(), b.scalars.size());
  for (std::size_t k = 0; k < a.scalars.size(); ++k) {
    if (std::isnan(a.scalars[k])) {
      EXPECT_TRUE(std::isnan(b.scalars[k])) << "scalar " << k;
    } else {
      EXPECT_EQ(a.scalars[k], b.scalars[k]) << "scalar " << k;
    }
  }
}

}  // namespace

TEST(Sweep, ValuesEqualTheRangeBitForBitInAnyOrderAndThreadCount) {
  const cases::Case base = sphere();
  lumped::SweepRange range;
  range.variable = lumped::SweepVariable::psi1;
  range.start = 0.1;
  range.stop = 8;
  range.count = 41;
  const auto by_range = lumped::run_sweep(base, range, 1);
  ASSERT_EQ(by_range.size(), 41u);

  // Reversed values on 3 threads: row i is values[i].
  std::vector<double> values;
  for (int i = range.count - 1; i >= 0; --i) values.push_back(range.value(i));
  const auto by_values = lumped::run_sweep(base, range.variable, values, 3);
  ASSERT_EQ(by_values.size(), values.size());
  for (int i = 0; i < range.count; ++i) {
    SCOPED_TRACE(i);
    expect_same_point(by_range[i], by_values[range.count - 1 - i]);
  }
  // Not all points alike (the test would pass on a constant function otherwise).
  EXPECT_NE(by_range.front().scalars[1], by_range.back().scalars[1]);
  EXPECT_TRUE(by_range.front().error.empty());
}

TEST(Sweep, ValuesOutsideTheRangeAreRowErrorsAndEmptyValuesNoRows) {
  const cases::Case base = sphere();
  const auto rows = lumped::run_sweep(base, lumped::SweepVariable::friction, {0.2, -1.0, NAN}, 2);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_TRUE(rows[0].error.empty());
  EXPECT_FALSE(rows[0].scalars.empty());
  EXPECT_NE(rows[1].error.find("< 0"), std::string::npos) << rows[1].error;
  EXPECT_NE(rows[2].error.find("not finite"), std::string::npos) << rows[2].error;
  EXPECT_TRUE(lumped::run_sweep(base, lumped::SweepVariable::psi1, {}, 4).empty());
}
