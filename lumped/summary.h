// Dimensional results of a lumped solve: the summary keys shared with the FEM (SI units) and
// the history table. Converts Lai's non-dimensional variables through m, eta and v.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/outcome.h"
#include "observables/history.h"
#include "observables/quantities.h"

namespace rebound::lumped {

// One row of the history in SI units (rigid-body velocity and displacement of P).
struct HistoryRow : observables::ContactPointSample {
  double tangential_spring_extension, dissipation;
  Mode mode;
  double gamma_t, gamma_n, delta_t, delta_n, epsilon, tau;
  // Rigid-body state of the body: centre velocity (t, n), spin.
  double centre_velocity_t, centre_velocity_n, spin;
  // Part of the contact that sticks (MDR springs, half-space area); NaN for one-spring models.
  double stick_fraction;
  // A free target sphere's centre velocity (t, n) and spin (NaN for a fixed target, whose
  // history has no such columns).
  double target_centre_velocity_t, target_centre_velocity_n, target_spin;
};

std::vector<HistoryRow> history_rows(const cases::Case& c, const cases::Derived& d,
                                     const Outcome& outcome);

// The history in memory (history.csv's columns): the common columns first (shared with the FEM
// history), then the model's own.
observables::History history_table(const std::vector<HistoryRow>& rows);
std::string history_csv(const std::vector<HistoryRow>& rows);  // to_csv(history_table(rows))

// The rebound quantities of a solve, SI (observables/quantities.h defines each one). On a free
// target sphere the impulse J on the body at P is -J on the target: the body's centre velocity
// changes by J/m1 and its spin by (r1 x J)_b/I1, the target's (at rest before) become -J/m2 and
// (r2 x -J)_b/I2, r_i from each centre to P; the contact-point quantities are the relative ones
// (the equivalent body's), the kinetic energies those of both bodies.
observables::ReboundQuantities rebound_quantities(const cases::Case& c, const cases::Derived& d,
                                                  const Outcome& outcome);

// The typed summary: the rebound quantities plus the model's own details (phases, notes,
// non-dimensional results, prescribed and achieved restitution).
observables::Summary summary(const cases::Case& c, const cases::Derived& d, const Outcome& outcome);

// summary.json content (docs/USAGE.md, "rebound lumped outputs"): to_json(summary(c, d, outcome)).
nlohmann::json summary_json(const cases::Case& c, const cases::Derived& d, const Outcome& outcome);

}  // namespace rebound::lumped
