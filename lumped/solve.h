// lumped::solve, every lumped model's entry point: the case's lumped.model solved by its solver
// (lumped/models.h) and the result checked before use.
#pragma once

#include <stdexcept>

#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/outcome.h"

namespace rebound::lumped {

// The configuration a case gives a lumped model (lambda/theta overrides applied; a restitution
// table's value at the case's energy-flux density: lumped/random_restitution.h, impact 0).
Configuration configuration_of(const cases::Case& c, const cases::Derived& d);

// A lumped solve that failed (the integrator gave up, or the result is not physical: see
// observables/checks.h); what() names the case file, the reason and the inputs that decide it.
class SolveError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Solves the case with the model its "lumped" section selects and checks the result
// (observables::result_problems); throws SolveError when it fails, Interrupted when `control`
// stops it (lumped/outcome.h: the models with LumpedSolver::checks_solve_control check it).
// record_history = false skips the dense history (sweeps).
Outcome solve(const cases::Case& c, const cases::Derived& d, bool record_history = true,
              const SolveControl& control = {});

// True when the case's lumped model checks a SolveControl (halfspace, mdr, uncoupled-euler:
// their cost is set by the case); the others take milliseconds at most.
bool checks_solve_control(const cases::Case& c);

// True when the case's lumped model restitutes the normal motion elastically (Newton's e_N = 1 in
// any sliding impact: the compliant models, cases::compliant, with the Hertz normal law), so that
// gross slip follows cases::Derived::gross_slip_offset's line; false for a dissipative normal law
// and the rigid-body laws (their line depends on the e_N achieved).
bool elastic_normal_contact(const cases::Case& c);

}  // namespace rebound::lumped
