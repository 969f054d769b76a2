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
};

std::vector<HistoryRow> history_rows(const cases::Case& c, const cases::Derived& d,
                                     const Outcome& outcome);

// The history in memory (history.csv's columns): the common columns first (shared with the FEM
// history), then the model's own.
observables::History history_table(const std::vector<HistoryRow>& rows);
std::string history_csv(const std::vector<HistoryRow>& rows);  // to_csv(history_table(rows))

// The rebound quantities of a solve, SI (observables/quantities.h defines each one).
observables::ReboundQuantities rebound_quantities(const cases::Case& c, const cases::Derived& d,
                                                  const Outcome& outcome);

// The typed summary: the rebound quantities plus the model's own details (phases, notes,
// non-dimensional results, prescribed and achieved restitution).
observables::Summary summary(const cases::Case& c, const cases::Derived& d, const Outcome& outcome);

// summary.json content (docs/USAGE.md, "rebound lumped outputs"): to_json(summary(c, d, outcome)).
nlohmann::json summary_json(const cases::Case& c, const cases::Derived& d, const Outcome& outcome);

}  // namespace rebound::lumped
