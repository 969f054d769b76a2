#include "lumped/normal_laws.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "lumped/integrator.h"

namespace rebound::lumped {

NormalLaw parse_normal_law(const std::string& name) {
  if (name == "hertz") return NormalLaw::hertz;
  if (name == "hunt-crossley") return NormalLaw::hunt_crossley;
  if (name == "lankarani-nikravesh") return NormalLaw::lankarani_nikravesh;
  if (name == "flores") return NormalLaw::flores;
  if (name == "michalczyk") return NormalLaw::michalczyk;
  throw std::invalid_argument("unknown normal law '" + name +
                              "' (accepted: hertz, hunt-crossley, lankarani-nikravesh, flores, "
                              "michalczyk)");
}

const char* to_string(NormalLaw law) {
  switch (law) {
    case NormalLaw::hertz:
      return "hertz";
    case NormalLaw::hunt_crossley:
      return "hunt-crossley";
    case NormalLaw::lankarani_nikravesh:
      return "lankarani-nikravesh";
    case NormalLaw::flores:
      return "flores";
    case NormalLaw::michalczyk:
      return "michalczyk";
  }
  return "?";
}

namespace {
double hertz_force(double x) {
  return x > 0 ? 4.0 / 3.0 * x * std::sqrt(x) : 0.0;
}
}  // namespace

double NormalSpring::elastic_force(double compression) const {
  return hertz_force(compression);
}

double NormalSpring::elastic_force(double compression, double compression_rate) const {
  const double f = hertz_force(compression);
  if (law == NormalLaw::michalczyk) {
    // seed 001 eq. 2.17: the factor {1 - (1 - R^2)/2 [1 - sgn(xdot)]} is the whole force.
    const double sign = compression_rate > 0 ? 1.0 : (compression_rate < 0 ? -1.0 : 0.0);
    return f * (1.0 - damping * (1.0 - sign));
  }
  return f;
}

double NormalSpring::force(double compression, double compression_rate) const {
  if (!(compression > 0)) return 0.0;
  const double f = hertz_force(compression);
  switch (law) {
    case NormalLaw::hertz:
      return f;
    case NormalLaw::hunt_crossley:
    case NormalLaw::lankarani_nikravesh:
    case NormalLaw::flores:
      // F = K x^{3/2} [1 + damping xdot / xdot(-)], cut at zero (no adhesion).
      return std::max(0.0, f * (1.0 + damping * compression_rate / initial_compression_rate));
    case NormalLaw::michalczyk:
      return elastic_force(compression, compression_rate);
  }
  return f;
}

NormalSpring make_normal_spring(NormalLaw law, double restitution,
                                double initial_compression_rate) {
  if (!(initial_compression_rate > 0) || !std::isfinite(initial_compression_rate))
    throw std::invalid_argument("normal law: the initial compression rate must be positive");
  NormalSpring spring;
  spring.law = law;
  spring.initial_compression_rate = initial_compression_rate;
  if (law == NormalLaw::hertz) {
    spring.restitution = 1.0;  // elastic; a restitution meant for another model is ignored
    spring.damping = 0.0;
    return spring;
  }
  const double c = restitution;
  const bool valid = law == NormalLaw::flores ? (c > 0 && c <= 1) : (c >= 0 && c <= 1);
  if (!valid)
    throw std::invalid_argument(std::string("normal law ") + to_string(law) +
                                ": restitution must be in " +
                                (law == NormalLaw::flores ? "(0, 1]" : "[0, 1]"));
  spring.restitution = c;
  switch (law) {
    case NormalLaw::hunt_crossley:
      spring.damping = 1.5 * (1.0 - c);
      break;
    case NormalLaw::lankarani_nikravesh:
      spring.damping = 0.75 * (1.0 - c * c);
      break;
    case NormalLaw::flores:
      spring.damping = 8.0 * (1.0 - c) / (5.0 * c);
      break;
    case NormalLaw::michalczyk:
      spring.damping = 0.5 * (1.0 - c * c);
      break;
    case NormalLaw::hertz:
      break;
  }
  return spring;
}

NormalImpact simulate_normal_impact(const NormalSpring& spring, double relative_tolerance) {
  using State = Eigen::Vector2d;  // x (compression), x' (compression rate)
  IntegratorOptions options;
  options.relative_tolerance = relative_tolerance;
  options.absolute_tolerance = relative_tolerance * 1e-3;
  DormandPrince<2> integrator(options);
  const double v0 = spring.initial_compression_rate;
  NormalImpact impact;

  bool compressing = true;
  // Michalczyk's force jumps at x' = 0: each phase integrates its own smooth branch.
  auto rhs = [&](double, const State& y) -> State {
    const double rate =
        spring.discontinuous_at_maximum_compression() ? (compressing ? 1.0 : -1.0) : y[1];
    return {y[1], -spring.force(y[0], rate)};
  };
  auto observer = [&](const DormandPrince<2>::DenseStep& step) {
    constexpr int kPoints = 8;
    for (int j = 1; j <= kPoints; ++j) {
      const double t = step.t0 + (step.t1 - step.t0) * j / kPoints;
      const State y = step.at(t);
      const double rate =
          spring.discontinuous_at_maximum_compression() ? (compressing ? 1.0 : -1.0) : y[1];
      impact.peak_force = std::max(impact.peak_force, spring.force(y[0], rate));
    }
  };
  const Event<2> compression_end{[](double, const State& y) { return y[1]; }, -1};
  const Event<2> separation{[](double, const State& y) { return y[0]; }, -1};
  // 1 + damping x'/x'(-) reaches 0: the force is cut and stays zero (x' constant from then on).
  const Event<2> cut{[&](double, const State& y) { return 1.0 + spring.damping * y[1] / v0; }, -1};
  const bool can_cut = spring.law == NormalLaw::hunt_crossley ||
                       spring.law == NormalLaw::lankarani_nikravesh ||
                       spring.law == NormalLaw::flores;
  constexpr double kTauLimit = 1e4;

  State y(0.0, v0);
  auto first = integrator.integrate(rhs, 0.0, y, kTauLimit, {compression_end}, observer);
  if (first.event < 0) throw std::runtime_error("normal impact: compression never ended");
  impact.compression_time = first.t;
  impact.max_compression = first.y[0];
  compressing = false;
  std::vector<Event<2>> events = {separation};
  if (can_cut && spring.damping > 0) events.push_back(cut);
  auto second = integrator.integrate(rhs, first.t, first.y, kTauLimit, events, observer,
                                     integrator.last_step());
  if (second.event < 0) throw std::runtime_error("normal impact: no separation");
  if (second.event == 0) {
    impact.duration = second.t;
  } else {
    // Force zero from here on: the body leaves at constant speed.
    impact.force_cut = true;
    impact.cut_compression = second.y[0];
    impact.duration = second.t + second.y[0] / -second.y[1];
  }
  impact.restitution = -second.y[1] / v0;
  return impact;
}

double achieved_restitution(const NormalSpring& spring, double relative_tolerance) {
  return simulate_normal_impact(spring, relative_tolerance).restitution;
}

}  // namespace rebound::lumped
