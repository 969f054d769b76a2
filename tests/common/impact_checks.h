// What the tests of the lumped-level models read off an Outcome (lumped/outcome.h), in Lai's
// non-dimensional variables: Maw's Psi2, Newton's e and the kinetic energy lost, by their
// definitions (Lai 1999, eqs. 5.63-5.64, 5.69, 5.70). One copy for tests/lumped and
// tests/halfspace.
#pragma once

#include <gtest/gtest.h>

#include <cmath>

#include "cases/case.h"
#include "lumped/outcome.h"

namespace rebound::test {

// Psi2 = 2(1 - nu)/(mu (2 - nu)) delta_t'/delta_n' at separation.
inline double psi2_of(const lumped::Configuration& c, const lumped::Outcome& o) {
  return cases::psi_scale(c.poisson_ratio, c.friction) * o.separation_velocity.x() /
         o.separation_velocity.y();
}

// e = delta_n'(end) / cos(alpha): the approach speed of P is v, its normal part v cos(alpha).
inline double e_of(const lumped::Configuration& c, const lumped::Outcome& o) {
  return o.separation_velocity.y() / std::cos(c.incidence_angle);
}

// Kinetic energy lost over m v^2: -gamma . (delta'(0) + delta'(end)) / 2.
inline double kinetic_energy_loss(const lumped::Configuration& c, const lumped::Outcome& o) {
  return -0.5 *
         (lumped::incident_velocity(c.incidence_angle) + o.separation_velocity).dot(o.impulse);
}

// The bookkeeping every compliant model's Outcome must satisfy: phases tile [0, tau_end] and
// alternate, the normal work is <= 0 in compression and >= 0 in restitution, history in order.
inline void expect_consistent_outcome(const lumped::Outcome& o) {
  ASSERT_FALSE(o.phases.empty());
  EXPECT_EQ(o.phases.front().start, 0.0);
  EXPECT_EQ(o.phases.back().end, o.duration);
  for (std::size_t i = 1; i < o.phases.size(); ++i) {
    EXPECT_EQ(o.phases[i].start, o.phases[i - 1].end);
    EXPECT_NE(o.phases[i].mode, o.phases[i - 1].mode);
  }
  EXPECT_LE(o.normal_work_compression, 0.0);
  EXPECT_GE(o.normal_work_restitution, 0.0);
  for (std::size_t i = 1; i < o.history.size(); ++i)
    EXPECT_GE(o.history[i].tau, o.history[i - 1].tau);
}

}  // namespace rebound::test
