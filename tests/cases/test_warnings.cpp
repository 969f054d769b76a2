// cases/warnings.h: a case every solver accepts but whose physics may not describe the impact is
// flagged, naming the key to check; the shipped steel cases are not.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "cases/case.h"
#include "cases/derived.h"
#include "cases/warnings.h"

using namespace rebound::cases;

namespace {

Case sphere() {
  return load_case(REBOUND_SOURCE_DIR "/cases/sphere-lai-psi2.json");
}

bool mentions(const std::vector<std::string>& warnings, const std::string& word) {
  for (const auto& w : warnings)
    if (w.find(word) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(Warnings, SteelSphereAtOneMetrePerSecondHasNone) {
  const Case c = sphere();
  EXPECT_TRUE(physical_warnings(c, derive(c)).empty());
}

// E given in GPa (210 instead of 2.1e11 Pa): a_max / R = 0.83 by Hertz, far outside a << R.
TEST(Warnings, ModulusInGigapascalGivesAContactAsLargeAsTheBody) {
  Case c = sphere();
  c.material.young_modulus = 210;
  const Derived d = derive(c);
  EXPECT_GT(d.hertz.contact_radius / d.hertz.radius, kHertzContactRatioLimit);
  const auto warnings = physical_warnings(c, d);
  EXPECT_TRUE(mentions(warnings, "a << R")) << warnings.size();
  EXPECT_TRUE(mentions(warnings, "material.young_modulus"));
}

// 50 m/s on steel: 0.99 % of sqrt(E / rho) = 5.06 km/s (limit 0.5 %); 10 m/s is below.
TEST(Warnings, FiftyMetresPerSecondOnSteelIsBeyondTheElasticQuasiStaticRange) {
  Case c = sphere();
  const double c0 = std::sqrt(c.material.young_modulus / c.material.density);
  c.impact.normal_speed = 50;
  EXPECT_GT(50 / c0, kWaveSpeedRatioLimit);
  EXPECT_TRUE(mentions(physical_warnings(c, derive(c)), "impact.normal_speed"));
  c.impact.normal_speed = 10;
  EXPECT_LT(10 / c0, kWaveSpeedRatioLimit);
  EXPECT_FALSE(mentions(physical_warnings(c, derive(c)), "impact.normal_speed"));
}

// A prescribed restitution with Lai's elastic Hertz contact would be silently ignored.
TEST(Warnings, RestitutionIgnoredByAnElasticModelIsNamed) {
  Case c = sphere();
  c.lumped.restitution = 0.8;
  EXPECT_TRUE(mentions(physical_warnings(c, derive(c)), "lumped.restitution = 0.8 is ignored"));
  c.lumped.normal_law = "hunt-crossley";  // achieves it: no warning
  EXPECT_FALSE(mentions(physical_warnings(c, derive(c)), "lumped.restitution"));
}

// A restitution table (Michalczyk 2008, sec. 3-4): ignored by an elastic contact (named), and held
// at its end node's values when the case's energy-flux density lies beyond its nodes (named).
TEST(Warnings, RestitutionTableIgnoredOrBeyondItsNodesIsNamed) {
  Case c = sphere();
  c.lumped.restitution_table = RestitutionTable{{0, 1e3}, {0.9, 0.8}, {}};
  EXPECT_TRUE(mentions(physical_warnings(c, derive(c)), "lumped.restitution (a table"));
  c.lumped.normal_law = "michalczyk";
  const Derived d = derive(c);
  ASSERT_GT(d.energy_flux_density, 1e3);
  EXPECT_TRUE(mentions(physical_warnings(c, d), "lies outside lumped.restitution.flux_density"));
  c.lumped.restitution_table->flux_density = {0, 10 * d.energy_flux_density};
  EXPECT_TRUE(physical_warnings(c, derive(c)).empty());
}

// A steel sphere at 1 m/s against a given yield stress: Hertz's p0 = 3F/(2 pi a^2) is computed from
// the derived scales; above 1.6 Y the warning names material.yield_stress, below it is silent.
TEST(Warnings, YieldStressWarnsAboveTheOnsetOfYieldOnly) {
  Case c = sphere();
  const Derived d = derive(c);
  const double p0 =
      1.5 * d.hertz.peak_force / (M_PI * d.hertz.contact_radius * d.hertz.contact_radius);
  c.material.yield_stress = 0.9 * p0 / kYieldPressureFactor;
  EXPECT_TRUE(mentions(physical_warnings(c, d), "material.yield_stress"));
  c.material.yield_stress = 1.1 * p0 / kYieldPressureFactor;
  EXPECT_FALSE(mentions(physical_warnings(c, d), "material.yield_stress"));
}
