#include "lumped/solve.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "cases/lumped_models.h"
#include "cases/normal_law_table.h"
#include "cases/warnings.h"
#include "lumped/models.h"
#include "lumped/random_restitution.h"
#include "lumped/summary.h"
#include "observables/checks.h"

namespace rebound::lumped {

Configuration configuration_of(const cases::Case& c, const cases::Derived& d) {
  Configuration configuration;
  configuration.lambda = d.lambda;
  configuration.theta = d.theta;
  configuration.friction = c.contact.friction;
  configuration.poisson_ratio = d.pair.poisson_ratio;
  configuration.dundurs_beta = d.pair.dundurs_beta;
  configuration.incidence_angle = d.incidence_angle;
  configuration.normal_law = c.lumped.normal_law;
  // A number, or the table's value at the case's Phi (impact 0 of lumped.seed when random).
  configuration.restitution = restitution_of(c, d);
  configuration.restitution_calibration = c.lumped.restitution_calibration;
  if (c.target.socket())
    configuration.socket = cases::scaled(cases::socket_geometry(c), d.length_scale);
  configuration.polynomial_index = c.lumped.polynomial_index;
  // The laws with a material constant, in Lai's units (eta = d.length_scale, eta / v =
  // d.time_scale): Thornton's (1997) yield compression delta_y = (pi p_y / (2 E*))^2 R, p_y =
  // 1.6 Y, with the pair's E* and R as Hertz's law (cases::ThorntonScales); A over eta / v.
  if (c.material.yield_stress)
    configuration.yield_compression = d.thornton.yield_approach / d.length_scale;
  if (c.lumped.dissipative_constant)
    configuration.dissipative_constant = *c.lumped.dissipative_constant / d.time_scale;
  configuration.impulse_ratio = c.lumped.impulse_ratio;
  configuration.relative_tolerance = c.lumped.relative_tolerance;
  configuration.euler_step = c.lumped.euler_step;
  configuration.springs = c.lumped.springs;
  configuration.cells = c.lumped.cells;
  configuration.time_steps = c.lumped.time_steps;
  configuration.dundurs_coupling = c.lumped.dundurs_coupling;
  return configuration;
}

namespace {

// The inputs that decide a lumped solve, for the messages of a failed one.
std::string inputs_of(const cases::Case& c, const Configuration& k) {
  char text[320];
  std::snprintf(text, sizeof text,
                "model \"%s\" (normal law %s) at lambda = %.10g, theta = %.6g rad, friction = "
                "%.6g, incidence angle = %.6g rad, nu = %.6g",
                c.lumped.model.c_str(), c.lumped.normal_law.c_str(), k.lambda, k.theta, k.friction,
                k.incidence_angle, k.poisson_ratio);
  std::string inputs = text;
  if (k.lambda > 0.99)
    inputs +=
        "; lambda close to 1 (" + std::string(c.lumped.lambda ? "lumped.lambda" : "the body") +
        ") makes the problem stiff: P's normal and tangential motions are almost rigidly tied";
  return inputs;
}

observables::ResultExpectations expectations_of(const cases::Case& c) {
  observables::ResultExpectations e;
  e.has_duration = cases::compliant(cases::lumped_model(c.lumped.model));
  switch (lumped_solver(c.lumped.model).energy_balance) {
    case EnergyBalance::adaptive_tolerance:
      e.energy_growth_tolerance = std::max(1e-6, 10 * c.lumped.relative_tolerance);
      break;
    case EnergyBalance::fixed_step_error:
      e.energy_growth_tolerance = 1e-4;
      break;
    case EnergyBalance::may_create:
      e.energy_may_grow = true;
      break;
  }
  return e;
}

}  // namespace

bool checks_solve_control(const cases::Case& c) {
  return lumped_solver(c.lumped.model).checks_solve_control;
}

Outcome solve(const cases::Case& c, const cases::Derived& d, bool record_history,
              const SolveControl& control) {
  cases::require_lumped_target(c);  // not a plate: no lumped model has its flexure
  const Configuration configuration = configuration_of(c, d);
  Outcome outcome;
  try {
    outcome = lumped_solver(c.lumped.model).solve(configuration, {record_history, control});
  } catch (const Interrupted&) {
    throw;  // not a failure of the model
  } catch (const std::exception& error) {
    throw SolveError(c.source + ": " + error.what() + " (" + inputs_of(c, configuration) + ")");
  }
  const auto problems =
      observables::result_problems(rebound_quantities(c, d, outcome), expectations_of(c));
  if (!problems.empty())
    throw SolveError(
        c.source + ": the lumped result is not physical: " + observables::join_problems(problems) +
        " (" + inputs_of(c, configuration) + ")");
  return outcome;
}

bool elastic_normal_contact(const cases::Case& c) {
  return !cases::dissipative_normal_law(c.lumped) &&
         cases::compliant(cases::lumped_model(c.lumped.model));
}

}  // namespace rebound::lumped
