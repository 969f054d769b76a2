// Dimensional results of a lumped solve: the summary keys shared with the FEM (SI units) and
// the history table. Converts Lai's non-dimensional variables through m, eta and v.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/outcome.h"

namespace rebound::lumped {

// The configuration a case gives a lumped model (lambda/theta overrides applied).
Configuration configuration_of(const cases::Case& c, const cases::Derived& d);

// Solves the case with the model its "lumped" section selects. record_history = false skips
// the dense history (sweeps).
Outcome solve(const cases::Case& c, const cases::Derived& d, bool record_history = true);

// One row of the history in SI units (rigid-body velocity and displacement of P).
struct HistoryRow {
  double time, normal_force, tangential_force, normal_impulse, tangential_impulse;
  double normal_velocity, tangential_velocity, normal_displacement, tangential_displacement;
  double kinetic_energy, tangential_spring_extension, dissipation;
  Mode mode;
  double gamma_t, gamma_n, delta_t, delta_n, epsilon, tau;
  // Rigid-body state of the body: centre velocity (t, n), spin.
  double centre_velocity_t, centre_velocity_n, spin;
};

std::vector<HistoryRow> history_rows(const cases::Case& c, const cases::Derived& d,
                                     const Outcome& outcome);

// The common columns first (shared with the FEM history), then the model's own.
std::string history_csv(const std::vector<HistoryRow>& rows);

// The scalar results in SI (keys of summary_scalar_keys(), in that order, plus vectors).
struct SummaryScalars {
  double psi1, psi2, incidence_angle, rebound_angle, e_newton, e_poisson, e_stronge;
  double tangential_cor, spin_final, normal_impulse, tangential_impulse, contact_duration;
  double peak_normal_force, kinetic_energy_loss, kinetic_energy_loss_fraction, lambda, theta;
  double kinetic_energy_initial, spin_initial;
  Eigen::Vector2d center_velocity_initial, center_velocity_final;
  Eigen::Vector2d contact_point_velocity_initial, contact_point_velocity_final;
  std::vector<double> values() const;  // in the order of summary_scalar_keys()
};
SummaryScalars summary_scalars(const cases::Case& c, const cases::Derived& d, const Outcome& o);

// summary.json content: keys documented in docs/OUTPUTS.md, shared with the FEM.
nlohmann::json summary_json(const cases::Case& c, const cases::Derived& d, const Outcome& outcome);

// Scalars of the summary in a fixed order (sweep.csv columns).
std::vector<std::string> summary_scalar_keys();

}  // namespace rebound::lumped
