// Two independent partial-slip models of the same physics: the MDR spring bed (lumped/mdr.h) is
// exact for Mindlin-Deresiewicz load histories without normal-tangential coupling, and the
// half-space model (lumped/halfspace.h) with the coupling off (beta = 0) solves the same contact
// in 3-D on a grid. Over Psi1 in [0, 8] (nu = 0.3, mu = 0.1, sphere) their Psi2 must agree within
// 0.01 (the acceptance of the partial-slip issue). Measured at the defaults (24 cells, 100 steps;
// 200 springs): at most ~7e-3 at Psi1 = 0.5, below 1e-3 from Psi1 = 2 on (docs/HALFSPACE.md).
#include <gtest/gtest.h>

#include <cmath>

#include "cases/case.h"
#include "lumped/halfspace.h"
#include "lumped/lai.h"
#include "lumped/mdr.h"
#include "tests/common/maw_sphere.h"

using namespace rebound;

namespace {

lumped::Configuration sphere(double psi1) {
  return test::maw_sphere(psi1, 0.1);
}

double psi2(const lumped::Configuration& c, const lumped::Outcome& o) {
  return cases::psi_scale(c.poisson_ratio, c.friction) * o.separation_velocity.x() /
         o.separation_velocity.y();
}

}  // namespace

TEST(PartialSlipModels, MdrAndUncoupledHalfSpaceAgreeOnPsi2) {
  lumped::HalfspaceOptions uncoupled;
  uncoupled.dundurs_coupling = false;
  uncoupled.record_history = false;
  lumped::MdrOptions mdr;
  mdr.record_history = false;
  double largest = 0;
  for (const double psi1 : {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0}) {
    const lumped::Configuration c = sphere(psi1);
    const double a = psi2(c, lumped::solve_mdr(c, mdr));
    const double b = psi2(c, lumped::solve_halfspace(c, uncoupled));
    EXPECT_NEAR(a, b, 0.01) << "Psi1 = " << psi1 << ": MDR " << a << ", half-space " << b;
    largest = std::max(largest, std::abs(a - b));
    // Both differ from Lai's one-spring model where partial slip matters (Psi1 = 1 to 3: by
    // 0.3-0.5, docs/THEORY.md §9-10), which is what makes the agreement a test of the partial slip.
    if (psi1 == 1 || psi1 == 2 || psi1 == 3) {
      lumped::LaiOptions lai;
      lai.record_history = false;
      EXPECT_GT(std::abs(psi2(c, lumped::solve_lai(c, lai)) - a), 0.2) << "Psi1 = " << psi1;
    }
  }
  RecordProperty("largest_psi2_difference", std::to_string(largest));
}

// Full stick (mu = 1000, the tangential speed of Psi1 = 2 at mu = 0.1): the MDR bed and the
// uncoupled half-space model are still the same physics, so w_t/v_t at P must agree. The
// half-space model's tangential solver once stopped at a traction change relative to mu max p,
// 1e-2 of the pressure at mu = 1000, and returned w_t/v_t = -0.28 against the MDR bed's 0.232;
// it now measures 0.246 at the defaults (docs/HALFSPACE.md: 0.241-0.260 over 100-1600 steps at
// 24 cells, no clean order). Tolerance 0.03: that wander plus the grid's.
TEST(PartialSlipModels, MdrAndUncoupledHalfSpaceAgreeInFullStick) {
  lumped::Configuration c = sphere(0);
  c.friction = 1000;
  c.incidence_angle = std::atan(2.0 / cases::psi_scale(c.poisson_ratio, 0.1));
  const double v_t = std::sin(c.incidence_angle);  // |v_P| = 1 at first touch
  lumped::HalfspaceOptions uncoupled;
  uncoupled.dundurs_coupling = false;
  uncoupled.record_history = false;
  lumped::MdrOptions mdr;
  mdr.record_history = false;
  const double a = lumped::solve_mdr(c, mdr).separation_velocity.x() / v_t;
  const double b = lumped::solve_halfspace(c, uncoupled).separation_velocity.x() / v_t;
  EXPECT_NEAR(a, 0.2316, 1e-3) << "MDR";
  EXPECT_NEAR(b, a, 0.03) << "MDR " << a << ", half-space " << b;
  // The answer is a property of the converged contact problem, not of where the iteration
  // stopped: a relative change of 1e-12 in the incidence moves it by round-off only.
  lumped::Configuration nudged = c;
  nudged.incidence_angle *= 1 + 1e-12;
  const double b2 = lumped::solve_halfspace(nudged, uncoupled).separation_velocity.x() /
                    std::sin(nudged.incidence_angle);
  EXPECT_NEAR(b2, b, 1e-6);
}
