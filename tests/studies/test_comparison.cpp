// The comparison of two solutions in memory (studies/comparison.h): on two lumped solves whose
// answers are known (the same solve twice, and Lai's model against the gross-slip limit).
#include <gtest/gtest.h>

#include <cmath>

#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/solve.h"
#include "lumped/summary.h"
#include "studies/comparison.h"

using namespace rebound;

namespace {

struct Solved {
  observables::Summary summary;
  observables::History history;
};

Solved solve(const cases::Case& c) {
  const cases::Derived d = cases::derive(c);
  const lumped::Outcome o = lumped::solve(c, d);
  return {lumped::summary(c, d, o), lumped::history_table(lumped::history_rows(c, d, o))};
}

cases::Case shipped(const std::string& name) {
  return cases::load_case(std::string(REBOUND_SOURCE_DIR) + "/cases/" + name + ".json");
}

}  // namespace

TEST(Comparison, SameSolutionTwiceHasNoDifference) {
  const Solved a = solve(shipped("sphere-lai-psi2"));
  const nlohmann::json c =
      studies::compare({"one", a.summary, a.history}, {"two", a.summary, a.history});
  for (const auto& key : observables::summary_scalar_keys()) {
    ASSERT_TRUE(c["summary"].contains(key)) << key;
    EXPECT_EQ(c["summary"][key]["difference"].get<double>(), 0.0) << key;
  }
  EXPECT_EQ(c["summary"]["eta"]["difference"].get<double>(), 0.0);  // a shared numeric detail
  for (const auto& column : studies::compared_history_columns()) {
    ASSERT_TRUE(c["histories"].contains(column)) << column;
    EXPECT_EQ(c["histories"][column]["max_difference"].get<double>(), 0.0) << column;
  }
  EXPECT_EQ(c["histories"]["normalized_time"].size(), 201u);
}

TEST(Comparison, DifferencesAreSecondMinusFirstAndHistoriesAreResampled) {
  const cases::Case c = shipped("sphere-lai-psi2");
  cases::Case faster = c;
  faster.impact.normal_speed *= 2;
  faster.impact.tangential_speed *= 2;
  const Solved a = solve(c), b = solve(faster);
  const nlohmann::json cmp =
      studies::compare({"slow", a.summary, a.history}, {"fast", b.summary, b.history});
  // Lai's model is rate independent in Hertz's scaling: the impulse doubles with the speed and
  // e, Psi2 do not change (to the integrator's tolerance, rtol 1e-8 on the state).
  const auto& jn = cmp["summary"]["normal_impulse"];
  EXPECT_NEAR(jn["difference"].get<double>(), a.summary.quantities.normal_impulse,
              1e-6 * jn["slow"].get<double>());
  EXPECT_NEAR(jn["relative_difference"].get<double>(), 1.0, 1e-6);
  EXPECT_NEAR(cmp["summary"]["e_newton"]["difference"].get<double>(), 0.0, 1e-6);
  EXPECT_NEAR(cmp["summary"]["psi2"]["difference"].get<double>(), 0.0, 1e-5);
  // On t / t_c the normal force histories differ by the force scale: F ~ v^(6/5), so the peak of
  // the faster is 2^(6/5) times the slower's, and the max difference is (2^1.2 - 1) peak.
  const auto& fn = cmp["histories"]["normal_force"];
  EXPECT_NEAR(fn["max_difference_relative_to_peak"].get<double>(), std::pow(2.0, 1.2) - 1, 0.02);
}

// report.md's table: each quantity with the unit its summary.json declares ("1" printed empty).
TEST(Comparison, ReportTableCarriesTheSummaryUnits) {
  const Solved a = solve(shipped("sphere-lai-psi2"));
  const nlohmann::json c =
      studies::compare({"one", a.summary, a.history}, {"two", a.summary, a.history});
  const std::string table = studies::report_markdown(c, "t");
  EXPECT_NE(table.find("| normal_impulse | N s |"), std::string::npos) << table;
  EXPECT_NE(table.find("| spin_final | rad/s |"), std::string::npos) << table;
  EXPECT_NE(table.find("| contact_duration | s |"), std::string::npos) << table;
  EXPECT_NE(table.find("| psi2 |  |"), std::string::npos) << table;
}
