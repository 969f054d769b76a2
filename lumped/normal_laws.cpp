#include "lumped/normal_laws.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

#include "cases/case.h"
#include "cases/derived.h"
#include "cases/format.h"
#include "lumped/integrator.h"
#include "lumped/outcome.h"

namespace rebound::lumped {

NormalLaw parse_normal_law(const std::string& name) {
  if (name == "hertz") return NormalLaw::hertz;
  if (name == "hunt-crossley") return NormalLaw::hunt_crossley;
  if (name == "lankarani-nikravesh") return NormalLaw::lankarani_nikravesh;
  if (name == "flores") return NormalLaw::flores;
  if (name == "michalczyk") return NormalLaw::michalczyk;
  if (name == "liu") return NormalLaw::liu;
  if (name == "wang-gao") return NormalLaw::wang_gao;
  if (name == "thornton") return NormalLaw::thornton;
  if (name == "viscoelastic") return NormalLaw::viscoelastic;
  throw std::invalid_argument("unknown normal law '" + name +
                              "' (accepted: hertz, hunt-crossley, lankarani-nikravesh, flores, "
                              "michalczyk, liu, wang-gao, thornton, viscoelastic)");
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
    case NormalLaw::liu:
      return "liu";
    case NormalLaw::wang_gao:
      return "wang-gao";
    case NormalLaw::thornton:
      return "thornton";
    case NormalLaw::viscoelastic:
      return "viscoelastic";
  }
  return "?";
}

RestitutionCalibration parse_restitution_calibration(const std::string& name) {
  if (name == "exact") return RestitutionCalibration::exact;
  if (name == "published") return RestitutionCalibration::published;
  throw std::invalid_argument("unknown restitution calibration '" + name +
                              "' (accepted: exact, published)");
}

const char* to_string(RestitutionCalibration calibration) {
  return calibration == RestitutionCalibration::exact ? "exact" : "published";
}

namespace {
double hertz_force(double x) {
  return x > 0 ? 4.0 / 3.0 * x * std::sqrt(x) : 0.0;
}

bool socket_law(NormalLaw law) {
  return law == NormalLaw::liu || law == NormalLaw::wang_gao;
}

cases::SocketLaw socket_law_of(NormalLaw law) {
  return law == NormalLaw::liu ? cases::SocketLaw::liu : cases::SocketLaw::wang_gao;
}

bool viscous(NormalLaw law) {
  return law == NormalLaw::hunt_crossley || law == NormalLaw::lankarani_nikravesh ||
         law == NormalLaw::flores;
}

// Thornton's elastic force on the current branch (no rate dependence).
double thornton_force(const NormalSpring& s, double x) {
  if (s.released || !(x > 0)) return 0.0;
  if (!s.unloading || x > s.max_compression)  // (a reload past x_max continues the loading curve)
    return thornton_loading_force(x, s.yield_compression);
  const double y = x - s.residual_compression;
  return y > 0 ? 4.0 / 3.0 * s.unloading_stiffness * y * std::sqrt(y) : 0.0;
}

}  // namespace

double thornton_loading_force(double x, double xy) {
  if (!(x > 0)) return 0.0;
  // Hertz up to x_y, where the peak pressure 2 E* a / (pi R) (a = sqrt(R delta)) is p_y; then the
  // plastic annulus at pressure p_y adds pi p_y d(a^2) = pi p_y R d(delta): F = F_y + pi p_y R
  // (delta - delta_y). With delta_y = (pi p_y / (2 E*))^2 R, pi p_y R = 2 E* sqrt(R delta_y) is
  // Hertz's slope at delta_y (the force is C^1), i.e. 2 sqrt(x_y) in Lai's units.
  if (x <= xy) return hertz_force(x);
  return hertz_force(xy) + 2.0 * std::sqrt(xy) * (x - xy);
}

ThorntonUnloading thornton_unloading(double x_max, double xy) {
  if (!(x_max > xy)) return {hertz_force(x_max), 1.0, 0.0};  // never yielded: Hertz
  // Thornton 1997: unloading is Hertzian on the radius R_p that fits the contact radius a_p at
  // F_max, R_p = 4 E* a_p^3 / (3 F_max), with pi p_y a_p^2 = F_max + F_y / 2 (the pressure p_y
  // on the annulus, Hertz's 3 F_y / 2 within a_y: pi p_y a_y^2 = 3 F_y / 2). Over R, with
  // F_y = (4/3) E* a_y^3 / R: R_p / R = (F_y / F_max) (a_p / a_y)^3, (a_p / a_y)^2 = (2 F_max +
  // F_y) / (3 F_y). Hertz on R_p then returns to F = 0 at x_f = x_max - (3 F_max / (4
  // sqrt(R_p / R)))^{2/3}.
  const double fy = hertz_force(xy), fmax = thornton_loading_force(x_max, xy);
  const double radius_ratio = fy / fmax * std::pow((2.0 * fmax + fy) / (3.0 * fy), 1.5);
  const double stiffness = std::sqrt(radius_ratio);
  const double span = std::cbrt(std::pow(3.0 * fmax / (4.0 * stiffness), 2.0));
  return {fmax, stiffness, x_max - span};
}

void NormalSpring::start_unloading(double compression) {
  if (law != NormalLaw::thornton) return;
  const ThorntonUnloading u = thornton_unloading(compression, yield_compression);
  unloading = true;
  max_compression = compression;
  max_force = u.max_force;
  unloading_stiffness = u.stiffness;
  residual_compression = std::max(0.0, u.residual);
}

bool NormalSpring::releases() const {
  if (viscous(law)) return damping > 0;
  if (law == NormalLaw::viscoelastic) return dissipative_constant > 0;
  if (law == NormalLaw::thornton) return unloading && residual_compression > 0;
  return false;
}

double NormalSpring::release(double compression, double compression_rate) const {
  if (viscous(law)) return 1.0 + damping * compression_rate / initial_compression_rate;
  if (law == NormalLaw::viscoelastic)
    return compression + 1.5 * dissipative_constant * compression_rate;
  if (law == NormalLaw::thornton) return compression - residual_compression;
  return 1.0;
}

double NormalSpring::elastic_force(double compression) const {
  if (socket_law(law))
    return cases::socket_force(socket_law_of(law), modulus, socket, polynomial_index, compression);
  if (law == NormalLaw::thornton) return thornton_force(*this, compression);
  return hertz_force(compression);
}

NormalSpring::Slopes NormalSpring::force_and_slopes(double x, double rate) const {
  const double f = force(x, rate);
  if (!(f > 0)) return {0.0, 0.0, 0.0};
  const double root = std::sqrt(x), hertz = hertz_force(x), hertz_slope = 2.0 * root;
  switch (law) {
    case NormalLaw::hunt_crossley:
    case NormalLaw::lankarani_nikravesh:
    case NormalLaw::flores: {
      const double factor = 1.0 + damping * rate / initial_compression_rate;
      return {f, hertz_slope * factor, hertz * damping / initial_compression_rate};
    }
    case NormalLaw::michalczyk:
      return {f, hertz_slope * f / hertz, 0.0};
    case NormalLaw::thornton: {
      if (!unloading || x > max_compression)  // Hertz's 2 sqrt(x), then the C^1 plastic line
        return {f, 2.0 * std::sqrt(std::min(x, yield_compression)), 0.0};
      return {f, 2.0 * unloading_stiffness * std::sqrt(x - residual_compression), 0.0};
    }
    case NormalLaw::viscoelastic:  // (4/3) sqrt(x) (x + (3/2) A x')
      return {f, hertz_slope + dissipative_constant * rate / root,
              2.0 * dissipative_constant * root};
    case NormalLaw::hertz:
      return {f, hertz_slope, 0.0};
    default:  // liu, wang_gao: not of the plane
      return {f, std::numeric_limits<double>::quiet_NaN(),
              std::numeric_limits<double>::quiet_NaN()};
  }
}

double NormalSpring::elastic_energy(double compression) const {
  if (socket_law(law))
    return cases::socket_elastic_energy(socket_law_of(law), modulus, socket, polynomial_index,
                                        compression);
  if (law == NormalLaw::thornton && compression > 0) {
    // What unloading would return: (8/15) sqrt(R_p/R) (x - x_f)^{5/2} = (2/5) F_max (x - x_f)
    // on the unloading branch; on loading, that of an unloading started at this x.
    if (released) return 0.0;
    ThorntonUnloading u{max_force, unloading_stiffness, residual_compression};
    if (!unloading || compression > max_compression) {
      u = thornton_unloading(compression, yield_compression);
      u.residual = std::max(0.0, u.residual);
    }
    const double y = compression - u.residual;
    return y > 0 ? 8.0 / 15.0 * u.stiffness * y * y * std::sqrt(y) : 0.0;
  }
  return compression > 0 ? 8.0 / 15.0 * compression * compression * std::sqrt(compression) : 0.0;
}

bool NormalSpring::dissipative() const {
  if (law == NormalLaw::viscoelastic) return dissipative_constant > 0;
  return !(law == NormalLaw::hertz || law == NormalLaw::liu ||
           (law == NormalLaw::wang_gao && !damped));
}

double NormalSpring::elastic_force(double compression, double compression_rate) const {
  if (socket_law(law) || law == NormalLaw::thornton) return elastic_force(compression);
  const double f = hertz_force(compression);
  if (law == NormalLaw::michalczyk) {
    // Michalczyk 2008, eq. 2.17: the factor {1 - (1 - R^2)/2 [1 - sgn(xdot)]} is the whole force.
    const double sign = compression_rate > 0 ? 1.0 : (compression_rate < 0 ? -1.0 : 0.0);
    return f * (1.0 - damping * (1.0 - sign));
  }
  return f;
}

double NormalSpring::force(double compression, double compression_rate) const {
  if (!(compression > 0) || released) return 0.0;
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
    case NormalLaw::liu:
      return elastic_force(compression);
    case NormalLaw::wang_gao:
      // Wang & Gao 2023, eq. 29: K x + chi x^{3/2} x', chi x'(-) = (4/3) D; cut at zero.
      return std::max(
          0.0, elastic_force(compression) +
                   (damped ? damping * f * compression_rate / initial_compression_rate : 0.0));
    case NormalLaw::thornton:
      return thornton_force(*this, compression);
    case NormalLaw::viscoelastic:
      // Brilliantov et al. 1996: F = (4/3) E* sqrt(R) [delta^{3/2} + (3/2) A delta^{1/2}
      // delta'], (4/3) x^{1/2} [x + (3/2) A x'] in Lai's units; cut at zero (no adhesion).
      return std::max(0.0, 4.0 / 3.0 * std::sqrt(compression) *
                               (compression + 1.5 * dissipative_constant * compression_rate));
  }
  return f;
}

namespace {

std::string number(double value) {
  return cases::format_number(value);
}

// e_N of the frictionless normal impact of the viscous form with damping D (x'(-) = 1).
double viscous_restitution(double damping) {
  NormalSpring spring;
  spring.law = NormalLaw::hunt_crossley;  // the form shared by the three viscous laws
  spring.damping = damping;
  return achieved_restitution(spring);
}

// e_N of the frictionless normal impact of `spring` with its damping set to D.
struct SpringRestitution {
  NormalSpring spring;
  double operator()(double damping) const {
    NormalSpring s = spring;
    s.damping = damping;
    return achieved_restitution(s);
  }
};

// Brent's method (Brent 1973, ch. 4: inverse quadratic interpolation, secant, bisection) for
// e_N(D) = e on the bracket [0, 1/e]. The map is decreasing; e_N(0) = 1 exactly (Hertz is
// elastic), e_N(1/e) <= e (the force is cut when x' reaches -1/D). Stops when
// |e_N(D) - e| <= 1e-12 or the bracket is below 1e-13 (1 + D); the integration itself (rtol
// 1e-11) carries ~1e-10 in e_N.
template <class Restitution>
double solve_damping(const Restitution& restitution_of, double e, double upper) {
  double a = 0, fa = 1 - e;  // e_N(0) - e
  double b = upper, fb = restitution_of(b) - e;
  if (fb >= 0) return b;  // the force is cut at D = upper: e_N = upper e / D exactly
  double c = a, fc = fa, d = b - a, step = d;
  for (int iteration = 0; iteration < 200; ++iteration) {
    if ((fb > 0) == (fc > 0)) {  // keep the root between b and c
      c = a, fc = fa;
      d = step = b - a;
    }
    if (std::abs(fc) < std::abs(fb)) {  // b is the best estimate
      a = b, b = c, c = a;
      fa = fb, fb = fc, fc = fa;
    }
    const double tolerance =
        2 * std::numeric_limits<double>::epsilon() * std::abs(b) + 0.5e-13 * (1 + std::abs(b));
    const double half = 0.5 * (c - b);
    if (std::abs(half) <= tolerance || std::abs(fb) <= 1e-12) return b;
    if (std::abs(step) >= tolerance && std::abs(fa) > std::abs(fb)) {
      double p, q, s = fb / fa;
      if (a == c) {  // secant
        p = 2 * half * s;
        q = 1 - s;
      } else {  // inverse quadratic interpolation
        const double r = fb / fc, t = fa / fc;
        p = s * (2 * half * t * (t - r) - (b - a) * (r - 1));
        q = (t - 1) * (r - 1) * (s - 1);
      }
      if (p > 0)
        q = -q;
      else
        p = -p;
      if (2 * p < std::min(3 * half * q - std::abs(tolerance * q), std::abs(step * q))) {
        step = d;
        d = p / q;
      } else {
        d = half;
        step = d;
      }
    } else {
      d = half;
      step = d;
    }
    a = b, fa = fb;
    b += std::abs(d) > tolerance ? d : (half > 0 ? tolerance : -tolerance);
    fb = restitution_of(b) - e;
  }
  return b;  // not reached: bisection alone halves a bracket of <= 1000 below 1e-13 in ~55 steps
}

double solve_viscous_damping(double e) {
  return solve_damping(viscous_restitution, e, 1 / e);
}

// Calibrated damping of the viscous form by e, shared by all threads, with a one-entry memo per
// thread (a sweep at one e takes the lock once per thread). The value for an e is the same
// whichever thread solved it first (the solve is deterministic), so results do not depend on
// the thread count.
double cached_viscous_damping(double e) {
  thread_local double last_e = -1, last_damping = 0;
  if (e == last_e) return last_damping;
  static std::mutex mutex;
  static std::unordered_map<double, double> cache;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    const auto found = cache.find(e);
    if (found != cache.end()) {
      last_e = e, last_damping = found->second;
      return last_damping;
    }
  }
  const double damping = solve_viscous_damping(e);  // outside the lock: ~0.15 ms
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (cache.size() >= 100000) cache.clear();  // bounded (a loop over many e)
    cache.emplace(e, damping);
  }
  last_e = e, last_damping = damping;
  return damping;
}

}  // namespace

namespace {
void refuse_own_constant_law(NormalLaw law) {
  if (law == NormalLaw::thornton || law == NormalLaw::viscoelastic)
    throw std::invalid_argument(
        std::string("normal law ") + to_string(law) + " takes no restitution: its dissipation " +
        (law == NormalLaw::thornton ? "follows from the yield stress (thornton_spring)"
                                    : "follows from the dissipative constant A "
                                      "(viscoelastic_spring)"));
}
}  // namespace

double published_damping(NormalLaw law, double restitution, int polynomial_index) {
  refuse_own_constant_law(law);
  if (law == NormalLaw::hertz || law == NormalLaw::liu)
    throw std::invalid_argument(std::string("normal law ") + to_string(law) +
                                " is elastic: it has no damping");
  const double c = restitution;
  const bool open = law == NormalLaw::flores || law == NormalLaw::wang_gao;  // 1/c_r
  const bool valid = open ? (c > 0 && c <= 1) : (c >= 0 && c <= 1);
  if (!valid)
    throw std::invalid_argument(std::string("normal law ") + to_string(law) +
                                ": restitution must be in " + (open ? "(0, 1]" : "[0, 1]"));
  switch (law) {
    case NormalLaw::hunt_crossley:
      return 1.5 * (1.0 - c);
    case NormalLaw::lankarani_nikravesh:
      return 0.75 * (1.0 - c * c);
    case NormalLaw::flores:
      return 8.0 * (1.0 - c) / (5.0 * c);
    case NormalLaw::michalczyk:
      return 0.5 * (1.0 - c * c);
    case NormalLaw::wang_gao: {
      const double n = polynomial_index;
      return 60.0 * std::sqrt(2.0) * n * (1.0 - c) / (13.0 * (2.0 * n + 1.0) * c);
    }
    case NormalLaw::hertz:
    case NormalLaw::liu:
    case NormalLaw::thornton:
    case NormalLaw::viscoelastic:
      break;
  }
  return 0;
}

double minimum_calibrated_restitution(NormalLaw law) {
  return viscous(law) ? cases::kMinimumCalibratedRestitution : 0.0;
}

double calibrated_damping(NormalLaw law, double restitution) {
  refuse_own_constant_law(law);
  if (law == NormalLaw::hertz || law == NormalLaw::liu || law == NormalLaw::wang_gao)
    throw std::invalid_argument(std::string("normal law ") + to_string(law) +
                                (law == NormalLaw::wang_gao
                                     ? ": its calibration depends on the configuration "
                                       "(lumped::normal_spring)"
                                     : " is elastic: it has no damping to calibrate"));
  const double e = restitution;
  if (!(e > 0 && e <= 1))
    throw std::invalid_argument(std::string("normal law ") + to_string(law) + ": restitution " +
                                number(e) + " must be in (0, 1] (e = 0 needs an infinite damping)");
  if (law == NormalLaw::michalczyk) return 0.5 * (1.0 - e * e);  // exact (see the header)
  if (e < cases::kMinimumCalibratedRestitution)
    throw std::invalid_argument(
        std::string("normal law ") + to_string(law) + ": restitution " + number(e) + " is below " +
        number(cases::kMinimumCalibratedRestitution) +
        ", the smallest e its exact calibration reaches (the damping grows like 1/e and the "
        "contact never ends as e -> 0)");
  if (e == 1) return 0.0;
  return cached_viscous_damping(e);
}

NormalSpring make_normal_spring(NormalLaw law, double restitution, double initial_compression_rate,
                                RestitutionCalibration calibration) {
  if (!(initial_compression_rate > 0) || !std::isfinite(initial_compression_rate))
    throw std::invalid_argument("normal law: the initial compression rate must be positive");
  if (socket_law(law))
    throw std::invalid_argument(std::string("normal law ") + to_string(law) +
                                " needs the socket's geometry: lumped::normal_spring");
  refuse_own_constant_law(law);
  NormalSpring spring;
  spring.law = law;
  spring.initial_compression_rate = initial_compression_rate;
  spring.calibration = calibration;
  if (law == NormalLaw::hertz) {
    spring.restitution = 1.0;  // elastic; a restitution meant for another model is ignored
    spring.damping = 0.0;
    return spring;
  }
  spring.damping = calibration == RestitutionCalibration::exact
                       ? calibrated_damping(law, restitution)
                       : published_damping(law, restitution);
  spring.restitution = restitution;
  return spring;
}

namespace {
void check_rate(double rate) {
  if (!(rate > 0) || !std::isfinite(rate))
    throw std::invalid_argument("normal law: the initial compression rate must be positive");
}
}  // namespace

NormalSpring thornton_spring(double yield_compression, double initial_compression_rate) {
  check_rate(initial_compression_rate);
  if (!(yield_compression > 0) || !std::isfinite(yield_compression))
    throw std::invalid_argument(
        "normal law thornton: the yield compression delta_y / eta must be positive and finite "
        "(material.yield_stress)");
  NormalSpring spring;
  spring.law = NormalLaw::thornton;
  spring.initial_compression_rate = initial_compression_rate;
  spring.yield_compression = yield_compression;
  return spring;
}

NormalSpring viscoelastic_spring(double dissipative_constant, double initial_compression_rate) {
  check_rate(initial_compression_rate);
  if (!(dissipative_constant >= 0) || !std::isfinite(dissipative_constant))
    throw std::invalid_argument(
        "normal law viscoelastic: the dissipative constant A must be finite and >= 0 "
        "(lumped.dissipative_constant)");
  NormalSpring spring;
  spring.law = NormalLaw::viscoelastic;
  spring.initial_compression_rate = initial_compression_rate;
  spring.dissipative_constant = dissipative_constant;
  return spring;
}

NormalSpring normal_spring(const Configuration& configuration) {
  const NormalLaw law = parse_normal_law(configuration.normal_law);
  const double rate = std::cos(configuration.incidence_angle);
  if (law == NormalLaw::thornton) {
    if (!configuration.yield_compression)
      throw std::invalid_argument(
          "normal law thornton needs the yield compression (Configuration::yield_compression, "
          "from material.yield_stress)");
    return thornton_spring(*configuration.yield_compression, rate);
  }
  if (law == NormalLaw::viscoelastic) {
    if (!configuration.dissipative_constant)
      throw std::invalid_argument(
          "normal law viscoelastic needs the dissipative constant "
          "(Configuration::dissipative_constant, from lumped.dissipative_constant)");
    return viscoelastic_spring(*configuration.dissipative_constant, rate);
  }
  const RestitutionCalibration calibration =
      parse_restitution_calibration(configuration.restitution_calibration);
  if (!socket_law(law))
    return make_normal_spring(law, configuration.restitution.value_or(1.0), rate, calibration);
  if (!configuration.socket)
    throw std::invalid_argument(std::string("normal law ") + to_string(law) +
                                " is a law of the ball in a spherical socket: the configuration "
                                "has no socket");
  if (!(rate > 0) || !std::isfinite(rate))
    throw std::invalid_argument("normal law: the initial compression rate must be positive");
  NormalSpring spring;
  spring.law = law;
  spring.initial_compression_rate = rate;
  spring.calibration = calibration;
  spring.socket = *configuration.socket;
  spring.modulus = 1.0 / std::sqrt(cases::effective_radius(spring.socket));
  spring.polynomial_index = configuration.polynomial_index;
  spring.normal_compliance = 1 - configuration.lambda * std::cos(2 * configuration.theta);
  spring.restitution = 1.0;
  if (law == NormalLaw::liu || !configuration.restitution) return spring;  // elastic
  const double e = *configuration.restitution;
  spring.damped = true;
  spring.restitution = e;
  if (calibration == RestitutionCalibration::published) {
    spring.damping = published_damping(law, e, spring.polynomial_index);
    return spring;
  }
  if (!(e > 0 && e <= 1))
    throw std::invalid_argument(std::string("normal law ") + to_string(law) + ": restitution " +
                                number(e) + " must be in (0, 1]");
  if (e == 1) return spring;  // damping 0
  const double ratio =
      cases::light_load_ratio(socket_law_of(law), spring.socket, spring.polynomial_index);
  spring.damping = solve_damping(SpringRestitution{spring}, e, ratio / e);
  return spring;
}

NormalImpact simulate_normal_impact(const NormalSpring& law_spring, double relative_tolerance) {
  using State = Eigen::Vector2d;     // x (compression), x' (compression rate)
  NormalSpring spring = law_spring;  // this impact's memory (thornton's unloading branch)
  spring.unloading = spring.released = false;
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
    return {y[1], -spring.normal_compliance * spring.force(y[0], rate)};
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
  // The law's release (1 + damping x'/x'(-), x + (3/2) A x' or x - x_f reaches 0): the force is
  // zero from then on (x' constant).
  const Event<2> cut{[&](double, const State& y) { return spring.release(y[0], y[1]); }, -1};
  constexpr double kTauLimit = 1e4;

  State y(0.0, v0);
  auto first = integrator.integrate(rhs, 0.0, y, kTauLimit, {compression_end}, observer);
  if (first.event < 0) throw std::runtime_error("normal impact: compression never ended");
  impact.compression_time = first.t;
  impact.max_compression = first.y[0];
  compressing = false;
  spring.start_unloading(first.y[0]);
  std::vector<Event<2>> events = {separation};
  if (spring.releases()) events.push_back(cut);
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

void check_static_approach(const cases::Case& c, double approach) {
  const bool socket = c.target.type == cases::TargetType::spherical_socket;
  const double limit =
      socket ? 2 * cases::socket_geometry(c).ball_radius : 2 * cases::derive(c).hertz.radius;
  if (!std::isfinite(approach) || approach < 0)
    throw std::invalid_argument("approach " + cases::format_number(approach) +
                                " m: expected a finite approach >= 0");
  if (!(approach < limit))
    throw std::invalid_argument(
        "approach " + cases::format_number(approach) + " m is beyond the body: " +
        (socket ? "the ball's diameter 2 R2 = " : "the diameter 2 R = ") +
        cases::format_number(limit) + " m" +
        (socket ? " (the two spheres no longer overlap; the socket's laws are undefined)" : ""));
}

std::vector<double> elastic_normal_forces(const cases::Case& c,
                                          const std::vector<double>& approaches) {
  const NormalLaw law = parse_normal_law(c.lumped.normal_law);
  const cases::Derived d = cases::derive(c);
  const bool socket = c.target.type == cases::TargetType::spherical_socket;
  std::vector<double> forces;
  forces.reserve(approaches.size());
  for (const double approach : approaches) {
    check_static_approach(c, approach);
    if (socket) {
      const cases::SocketLaw of = socket_law(law) ? socket_law_of(law) : cases::SocketLaw::hertz;
      forces.push_back(cases::socket_force(of, d.contact_modulus, cases::socket_geometry(c),
                                           c.lumped.polynomial_index, approach));
    } else {
      if (socket_law(law))
        throw std::invalid_argument(std::string("normal law '") + to_string(law) +
                                    "' is a law of the spherical socket; the case's target is " +
                                    "a plane");
      NormalSpring spring;
      spring.law = law;
      forces.push_back(d.force_scale * spring.elastic_force(approach / d.length_scale));
    }
  }
  return forces;
}

}  // namespace rebound::lumped
