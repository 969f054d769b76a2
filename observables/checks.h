// Every solver checks its own result before anyone uses it: a rebound quantity that is not a
// finite number, a kinetic energy that would have to be negative after the impact, energy created
// by a model that cannot create it, or a contact that did not happen, make the result a failure
// with a reason instead of a row of numbers (docs/USAGE.md, "Failure behaviour").
#pragma once

#include <string>
#include <vector>

#include "observables/quantities.h"

namespace rebound::observables {

// What a solver's result must satisfy besides being finite.
struct ResultExpectations {
  // The model or scheme can create kinetic energy (rigid-body laws with friction, Kane's
  // paradox; an explicit Euler integration). Otherwise the kinetic energy may grow at most by
  // energy_growth_tolerance times its initial value (the integration's own error).
  bool energy_may_grow = false;
  double energy_growth_tolerance = 1e-6;
  // The model has a contact in time (compliant models, FEM): duration and peak force > 0.
  bool has_duration = true;
};

// The reasons the quantities cannot be trusted; empty when they can. Checked: psi2 (when psi1 is
// defined), e_newton, the impulses, the final velocities and spin, the kinetic energy loss
// fraction in [-tolerance or below, 1] (a loss above 1 means a negative kinetic energy), a normal
// impulse > 0, and with has_duration a finite contact duration and peak force > 0.
std::vector<std::string> result_problems(const ReboundQuantities& q,
                                         const ResultExpectations& expectations);

// The reasons joined into one sentence ("a; b; c").
std::string join_problems(const std::vector<std::string>& problems);

}  // namespace rebound::observables
