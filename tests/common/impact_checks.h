// What the tests of the lumped-level models read off an Outcome (lumped/outcome.h), in Lai's
// non-dimensional variables: Maw's Psi2, Newton's e and the kinetic energy lost, by their
// definitions (seed 000 eqs. 5.63-5.64, 5.69, 5.70). One copy for tests/lumped and
// tests/halfspace.
#pragma once

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

}  // namespace rebound::test
