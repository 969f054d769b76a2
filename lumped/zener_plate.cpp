// Zener's sphere-on-plate impact (lumped/zener_plate.h).
#include "lumped/zener_plate.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "cases/derived.h"
#include "lumped/integrator.h"

namespace rebound::lumped {

ZenerPlateImpact zener_plate_impact(double inelasticity, double relative_tolerance) {
  if (!(inelasticity >= 0 && std::isfinite(inelasticity)))
    throw std::invalid_argument("zener_plate_impact: the inelasticity " +
                                std::to_string(inelasticity) + " must be finite and >= 0");
  const double lambda = inelasticity;
  // State: a (indentation), U (the ball's approach rate), and the quadratures of a^3 (the plate's
  // energy) beside them.
  using Integrator = DormandPrince<3, 1>;
  using State = Integrator::State;
  IntegratorOptions options;
  options.relative_tolerance = relative_tolerance;
  options.absolute_tolerance = relative_tolerance * 1e-3;
  Integrator integrator(options);
  const auto rhs = [lambda](double, const State& y) -> State {
    const double a = std::max(y[0], 0.0), force = a * std::sqrt(a);
    return {y[1] - lambda * force, -1.25 * force, a * a * a};
  };
  ZenerPlateImpact impact;
  impact.inelasticity = lambda;
  const auto observer = [&](const Integrator::DenseStep& step) {
    for (int j = 1; j <= 8; ++j) {
      const double a = std::max(step.at(step.t0 + (step.t1 - step.t0) * j / 8, 0), 0.0);
      impact.peak_force = std::max(impact.peak_force, a * std::sqrt(a));
    }
  };
  // Separation: the indentation returns to 0 (the start, at a = 0, is not an event).
  const Event<3> separation{[](double, const State& y) { return y[0]; }, -1};
  const auto end =
      integrator.integrate(rhs, 0.0, State(0.0, 1.0, 0.0), 1000.0, {separation}, observer);
  if (end.event < 0)
    throw std::runtime_error(
        "zener_plate_impact: no separation within 1000 Hertz-scale times at "
        "Lambda = " +
        std::to_string(lambda));
  impact.restitution = -end.y[1];
  impact.duration = end.t;
  impact.plate_energy = 2.5 * lambda * end.y[2];
  return impact;
}

double zener_inelasticity(const cases::Case& c) {
  if (c.target.type != cases::TargetType::elastic_plate)
    throw std::invalid_argument(std::string("zener_inelasticity: target.type is \"") +
                                cases::to_string(c.target.type) + "\", not \"elastic_plate\"");
  const cases::HertzScales h = cases::derive(c).hertz;
  const double k = 4.0 / 3.0 * h.contact_modulus * std::sqrt(h.radius);
  const double E = c.target.young_modulus, nu = c.target.poisson_ratio, t = c.target.thickness;
  const double D = E * t * t * t / (12 * (1 - nu * nu));
  const double impedance = 8 * std::sqrt(D * *c.target.density * t);  // F / w'
  return k * std::pow(h.max_compression, 1.5) / (impedance * h.normal_speed);
}

}  // namespace rebound::lumped
