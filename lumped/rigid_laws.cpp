#include "lumped/rigid_laws.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "cases/format.h"

namespace rebound::lumped {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::string format(double x, int precision = 6) {
  return cases::format("%.*g", precision, x);
}

std::string signed_format(double x, int precision = 6) {
  return (x >= 0 ? "+" : "") + format(x, precision);
}

int sign(double x) {
  return (x > 0) - (x < 0);
}

void validate(const Configuration& c) {
  if (!std::isfinite(c.lambda) || c.lambda < 0 || c.lambda >= 1)
    throw std::invalid_argument("rigid-body law: lambda = " + format(c.lambda) +
                                " must be in [0, 1)");
  if (!std::isfinite(c.theta)) throw std::invalid_argument("rigid-body law: theta must be finite");
  if (!std::isfinite(c.friction) || c.friction < 0)
    throw std::invalid_argument("rigid-body law: friction mu = " + format(c.friction) +
                                " must be finite and >= 0");
  if (!std::isfinite(c.incidence_angle) || c.incidence_angle < 0 || c.incidence_angle >= M_PI / 2)
    throw std::invalid_argument("rigid-body law: incidence angle alpha = " +
                                format(c.incidence_angle) + " rad must be in [0, pi/2)");
}

double required_coefficient(const std::optional<double>& value, const std::string& model,
                            const std::string& what) {
  if (!value)
    throw std::invalid_argument(
        "rigid-body law \"" + model + "\" needs " + what + " (Configuration::" +
        (what.find("impulse ratio") != std::string::npos ? "impulse_ratio" : "restitution") +
        "), which is missing");
  if (!std::isfinite(*value) || *value < 0)
    throw std::invalid_argument("rigid-body law \"" + model + "\": " + what + " = " +
                                format(*value) + " must be finite and >= 0");
  return *value;
}

// The impulse-momentum relation of the configuration: w = v0 + N gamma.
struct Kinematics {
  Eigen::Matrix2d N;
  Eigen::Matrix2d M;  // N^-1
  Eigen::Vector2d v0;
  double mu = 0;
  explicit Kinematics(const Configuration& c)
      : N(scaled_inverse_inertia(c.lambda, c.theta)),
        M(N.inverse()),
        v0(incident_velocity(c.incidence_angle)),
        mu(c.friction) {}
  Eigen::Vector2d velocity(const Eigen::Vector2d& gamma) const { return v0 + N * gamma; }
  // The impulse that produces the contact-point velocity w.
  Eigen::Vector2d impulse_for(const Eigen::Vector2d& w) const { return M * (w - v0); }
};

// Routh's impulse process: Coulomb friction followed with the normal impulse p = gamma_n as the
// independent variable. At most three straight pieces (slip; then stick or reversed slip).
struct Segment {
  Mode mode = Mode::slip;
  int slip_direction = 0;                          // sgn(w_t) while slipping; 0 for stick
  double start = 0, end = kInfinity;               // gamma_n
  double slope = 0;                                // d gamma_t / d gamma_n
  double gamma_t0 = 0;                             // gamma_t at start
  Eigen::Vector2d w0 = Eigen::Vector2d::Zero();    // contact-point velocity at start
  Eigen::Vector2d rate = Eigen::Vector2d::Zero();  // d w / d gamma_n = N (slope, 1)

  double gamma_t(double p) const { return gamma_t0 + slope * (p - start); }
  Eigen::Vector2d velocity(double p) const { return w0 + rate * (p - start); }
  // int_a^b w_n d gamma_n for start <= a <= b <= end.
  double normal_work(double a, double b) const {
    const double wa = velocity(a).y(), length = b - a;
    return wa * length + 0.5 * rate.y() * length * length;
  }
};

class ImpulseProcess {
 public:
  explicit ImpulseProcess(const Kinematics& k) {
    const Eigen::Matrix2d& N = k.N;
    double p = 0, gamma_t = 0;
    Eigen::Vector2d w = k.v0;
    for (int piece = 0; piece < 3; ++piece) {
      Segment s;
      s.start = p;
      s.gamma_t0 = gamma_t;
      s.w0 = w;
      if (k.mu == 0) {  // frictionless: the tangential impulse stays zero
        s.mode = Mode::slip;
        s.slip_direction = sign(w.x());
        s.slope = 0;
      } else if (w.x() != 0) {
        s.mode = Mode::slip;
        s.slip_direction = sign(w.x());
        s.slope = -k.mu * s.slip_direction;
      } else if (std::abs(N(0, 1)) <= k.mu * N(0, 0)) {
        s.mode = Mode::stick;
        s.slip_direction = 0;
        s.slope = -N(0, 1) / N(0, 0);
      } else {  // slip starts (or reverses) in the direction the tangential velocity takes
        s.mode = Mode::slip;
        s.slip_direction = sign(N(0, 1));
        s.slope = -k.mu * s.slip_direction;
      }
      s.rate = N * Eigen::Vector2d(s.slope, 1.0);
      if (s.mode == Mode::slip && k.mu > 0 && s.slip_direction * w.x() > 0 &&
          s.slip_direction * s.rate.x() < 0)
        s.end = p + std::abs(w.x() / s.rate.x());  // slip stops
      segments_.push_back(s);
      if (std::isinf(s.end)) break;
      gamma_t = s.gamma_t(s.end);
      p = s.end;
      w = k.velocity(Eigen::Vector2d(gamma_t, p));
      w.x() = 0;  // exactly at the stop
    }
    if (!std::isinf(segments_.back().end))
      throw std::logic_error("impulse process: more than three pieces (cannot happen for N > 0)");
  }

  const std::vector<Segment>& segments() const { return segments_; }

  const Segment& at(double p) const {
    for (const Segment& s : segments_)
      if (p <= s.end) return s;
    return segments_.back();
  }
  Eigen::Vector2d impulse(double p) const { return {at(p).gamma_t(p), p}; }

  // gamma_n at which the normal velocity of P first reaches zero (end of compression).
  double compression_end() const {
    for (const Segment& s : segments_) {
      const double wa = s.w0.y();
      if (wa >= 0) return s.start;
      if (s.rate.y() <= 0) continue;
      const double p = s.start - wa / s.rate.y();
      if (p <= s.end) return p;
    }
    throw std::logic_error("impulse process: compression never ends (cannot happen for N > 0)");
  }

  // int_a^b w_n d gamma_n.
  double normal_work(double a, double b) const {
    double work = 0;
    for (const Segment& s : segments_) {
      const double lo = std::max(a, s.start), hi = std::min(b, s.end);
      if (hi > lo) work += s.normal_work(lo, hi);
    }
    return work;
  }

  // Smallest p >= from with int_from^p w_n d gamma_n = target >= 0 (w_n >= 0 from `from` on).
  double work_end(double from, double target) const {
    double remaining = target;
    for (const Segment& s : segments_) {
      if (s.end <= from) continue;
      const double a = std::max(from, s.start);
      const double wa = s.velocity(a).y(), k = s.rate.y();
      if (k < 0 || wa < -1e-14)
        throw std::logic_error("impulse process: normal velocity decreases during restitution");
      const double available = std::isinf(s.end) ? kInfinity : s.normal_work(a, s.end);
      if (remaining <= available) {
        if (remaining <= 0) return a;
        const double root = std::sqrt(std::max(0.0, wa) * std::max(0.0, wa) + 2 * k * remaining);
        return a + 2 * remaining / (std::max(0.0, wa) + root);  // stable root of k x^2/2 + wa x
      }
      remaining -= available;
    }
    throw std::logic_error("impulse process: restitution work never reached");
  }

 private:
  std::vector<Segment> segments_;
};

// The energy of the result, the classification and the common notes.
void finish(Outcome& o, const Configuration& c, const Kinematics& k, const std::string& law_name) {
  o.separation_velocity = k.velocity(o.impulse);
  const double initial = incident_kinetic_energy(c);
  const double change = kinetic_energy_change(c, o.impulse);
  o.creates_energy = change > 1e-12 * std::max(1.0, initial);
  std::string energy = "Delta K/mv^2 = " + signed_format(change) + " (" +
                       signed_format(100 * change / initial, 4) +
                       " % of the incident kinetic energy " + format(initial) + " m v^2)";
  if (o.creates_energy)
    o.notes.push_back(law_name + " CREATES kinetic energy: " + energy +
                      " - a defect of the law, not physics");
  else
    o.notes.push_back(law_name + " dissipates: " + energy);
  o.notes.push_back(
      "rigid-body law: no time scale, so the contact duration is NaN and the stick and slip "
      "phases are delimited by the normal impulse, not by time (summary.json: "
      "stick_slip_phases in N s); gamma_n in these notes is the normal impulse in units of m v, "
      "m the effective mass and v the approach speed");
}

// Phases, compression impulse and normal works along the straight path gamma(p) = gamma p /
// gamma_n (algebraic laws define no process).
void straight_path(Outcome& o, const Kinematics& k, Mode mode) {
  const double gn = o.impulse.y(), approach = -k.v0.y();  // cos alpha > 0
  const double wn = k.velocity(o.impulse).y();
  o.compression_normal_impulse = gn * approach / (wn + approach);
  o.normal_work_compression = -0.5 * approach * o.compression_normal_impulse;
  o.normal_work_restitution = 0.5 * wn * (gn - o.compression_normal_impulse);
  o.phases = {Phase{mode, 0.0, gn}};
  o.notes.push_back(
      "algebraic law: it defines no impulse process; compression impulse, normal works and the "
      "single phase are evaluated along the straight path gamma(p) = gamma p / gamma_n");
}

// Describes, for an algebraic law, what Coulomb friction followed along the impulse process
// would do before gamma_n reaches the law's final value.
std::string process_remark(const Kinematics& k, double final_normal_impulse) {
  if (k.mu == 0) return "";
  const ImpulseProcess process(k);
  const auto& segments = process.segments();
  for (std::size_t i = 1; i < segments.size(); ++i) {
    const Segment& s = segments[i];
    if (s.start >= final_normal_impulse) break;
    const std::string where = "gamma_n = " + format(s.start) + " m v";
    if (s.mode == Mode::stick)
      return "along Coulomb's impulse process slip stops at " + where + " and the contact sticks";
    return "along Coulomb's impulse process slip stops at " + where + " and reverses";
  }
  return "";
}

Outcome solve_process(RigidLaw law, const Configuration& c) {
  const std::string model = to_string(law);
  const double coefficient =
      law == RigidLaw::poisson
          ? required_coefficient(c.restitution, model, "Poisson's (kinetic) coefficient c")
          : required_coefficient(c.restitution, model, "Stronge's (energetic) coefficient d");
  const Kinematics k(c);
  const ImpulseProcess process(k);
  Outcome o;
  o.model = model;
  const double pc = process.compression_end();
  const double work_c = process.normal_work(0, pc);
  const double pf = law == RigidLaw::poisson
                        ? (1 + coefficient) * pc
                        : process.work_end(pc, coefficient * coefficient * (-work_c));
  o.impulse = process.impulse(pf);
  o.compression_normal_impulse = pc;
  o.normal_work_compression = work_c;
  o.normal_work_restitution = process.normal_work(pc, pf);
  for (const Segment& s : process.segments()) {
    if (s.start >= pf && !o.phases.empty()) break;
    o.phases.push_back(Phase{s.mode, s.start, std::min(s.end, pf)});
    if (s.start > 0) {
      const std::string phase = s.start <= pc ? "compression" : "restitution";
      o.notes.push_back(std::string("slip stops at gamma_n = ") + format(s.start) + " m v (" +
                        phase + ") and the contact " +
                        (s.mode == Mode::stick ? "sticks" : "slips in reverse"));
    }
  }
  if (c.friction == 0) o.notes.push_back("frictionless: tangential impulse zero");
  const std::string name = law == RigidLaw::poisson
                               ? "Poisson/Routh law (c = " + format(coefficient) + ")"
                               : "Stronge's energetic law (d = " + format(coefficient) + ")";
  finish(o, c, k, name);
  return o;
}

// Kane-Levinson / Whittaker (Lai 1999, eqs. 2.1-2.3) with w_n = -e v_n. Returns the impulse and
// whether the contact ends stuck.
std::pair<Eigen::Vector2d, bool> kane_levinson(const Kinematics& k, double e) {
  const Eigen::Matrix2d& N = k.N;
  const double approach = -k.v0.y();
  const double normal_target = (1 + e) * approach;  // N_nt gamma_t + N_nn gamma_n
  if (k.mu == 0) return {Eigen::Vector2d(0, normal_target / N(1, 1)), false};
  const Eigen::Vector2d stick = k.impulse_for(Eigen::Vector2d(0, e * approach));
  if (stick.y() >= 0 && std::abs(stick.x()) <= k.mu * stick.y() * (1 + 1e-12)) return {stick, true};
  const int first = stick.x() > 0 ? -1 : 1;
  for (int s : {first, -first}) {
    const double denominator = N(1, 1) - k.mu * s * N(0, 1);
    if (denominator <= 0) continue;
    const double gn = normal_target / denominator, gt = -k.mu * s * gn;
    const double wt = k.v0.x() + N(0, 0) * gt + N(0, 1) * gn;
    if (s * wt >= 0) return {Eigen::Vector2d(gt, gn), false};
  }
  throw std::logic_error("Kane-Levinson rule: no consistent solution (cannot happen for N > 0)");
}

Outcome solve_newton(const Configuration& c) {
  const double e = required_coefficient(c.restitution, "newton", "Newton's coefficient e");
  const Kinematics k(c);
  Outcome o;
  o.model = "newton";
  const auto [impulse, stuck] = kane_levinson(k, e);
  o.impulse = impulse;
  const Eigen::Vector2d w = k.velocity(impulse);
  if (c.friction == 0)
    o.notes.push_back("frictionless: tangential impulse zero");
  else if (stuck)
    o.notes.push_back(
        "Kane-Levinson: stick, w_t = 0 with |gamma_t| = " + format(std::abs(impulse.x())) +
        " <= mu gamma_n = " + format(c.friction * impulse.y()));
  else
    o.notes.push_back("Kane-Levinson: slip, gamma_t = -mu gamma_n sgn(w_t) with final w_t = " +
                      format(w.x()));
  const bool against = impulse.x() * k.v0.x() > 0;  // friction pushes along the approach slip
  const bool reversed = w.x() * k.v0.x() < 0;
  finish(o, c, k, "Newton's law (e = " + format(e) + ") with Kane-Levinson friction");
  const std::string remark = process_remark(k, impulse.y());
  if (o.creates_energy) {
    std::string why = reversed  ? "the final slip is reversed"
                      : against ? "friction acts along the approach slip"
                                : "the kinematic coefficient ignores the impulse process";
    o.notes.push_back("Newton's law with slip " + std::string(reversed ? "reversal" : "arrest") +
                      " creates kinetic energy (Delta K/mv^2 = " +
                      signed_format(kinetic_energy_change(c, impulse)) + "): " + why +
                      (remark.empty() ? "" : "; " + remark) +
                      " (Kane's double-pendulum defect, Lai 1999, ch. 2)");
  } else if (!remark.empty()) {
    o.notes.push_back(remark);
  }
  straight_path(o, k, stuck ? Mode::stick : Mode::slip);
  return o;
}

// Smith (1991), Lai 1999, eq. 2.4, with w_n = -e v_n.
Outcome solve_smith(const Configuration& c) {
  const double e = required_coefficient(c.restitution, "smith", "Newton's coefficient e");
  const Kinematics k(c);
  Outcome o;
  o.model = "smith";
  const double vt = k.v0.x(), approach = -k.v0.y();
  bool stuck = false;
  if (c.friction == 0 || vt == 0) {
    // Frictionless, or normal incidence where the weight is sgn(w_t): Kane-Levinson's rule.
    const auto [impulse, s] = kane_levinson(k, e);
    o.impulse = impulse;
    stuck = s;
    o.notes.push_back(c.friction == 0
                          ? "frictionless: tangential impulse zero"
                          : "normal incidence: Smith's weight is sgn(w_t), the law reduces to "
                            "Kane-Levinson's rule");
  } else {
    // Unknown: the final w_t. gamma(w) = M ((w, e cos a) - v0) is affine in w.
    const double mu = c.friction;
    const Eigen::Vector2d g0 = k.impulse_for(Eigen::Vector2d(0, e * approach));
    const Eigen::Vector2d g1 = k.M.col(0);  // d gamma / d w_t
    std::vector<double> roots;
    // w_t >= 0 (same direction as v_t > 0): weight 1, residual gamma_t + mu gamma_n is affine.
    const double slope = g1.x() + mu * g1.y();
    if (slope != 0) {
      const double w = -(g0.x() + mu * g0.y()) / slope;
      if (w >= 0) roots.push_back(w);
    } else if (g0.x() + mu * g0.y() == 0) {
      roots.push_back(0);
    }
    // w_t < 0: (gamma_t (v^2 + w^2) + mu gamma_n (v^2 - w^2)) is a cubic P(w) = 0.
    const double v2 = vt * vt;
    const double a0 = g0.x() * v2 + mu * g0.y() * v2;
    const double a1 = g1.x() * v2 + mu * g1.y() * v2;
    const double a2 = g0.x() - mu * g0.y();
    const double a3 = g1.x() - mu * g1.y();
    const auto P = [&](double w) { return ((a3 * w + a2) * w + a1) * w + a0; };
    // Any admissible solution dissipates (Smith 1991), so |w| <= sqrt(2 K0 (1 + lambda)).
    const double bound = 2 * std::sqrt(2 * incident_kinetic_energy(c) * (1 + c.lambda)) + 1;
    std::vector<double> knots = {-bound, 0.0};
    // Critical points of P: 3 a3 w^2 + 2 a2 w + a1 = 0.
    const double qa = 3 * a3, qb = 2 * a2, qc = a1;
    if (qa != 0) {
      const double disc = qb * qb - 4 * qa * qc;
      if (disc >= 0) {
        const double q = -0.5 * (qb + std::copysign(std::sqrt(disc), qb));
        if (q != 0) knots.push_back(qc / q);
        knots.push_back(q / qa);
      }
    } else if (qb != 0) {
      knots.push_back(-qc / qb);
    }
    knots.erase(std::remove_if(knots.begin(), knots.end(),
                               [&](double x) { return !(x >= -bound && x <= 0); }),
                knots.end());
    std::sort(knots.begin(), knots.end());
    for (std::size_t i = 0; i + 1 < knots.size(); ++i) {
      double lo = knots[i], hi = knots[i + 1];
      if (hi <= lo) continue;
      double plo = P(lo), phi = P(hi);
      if (plo == 0 && lo < 0) roots.push_back(lo);
      if (plo * phi >= 0) continue;
      for (int it = 0; it < 200 && hi - lo > 1e-16 * std::max(1.0, std::abs(lo)); ++it) {
        const double mid = 0.5 * (lo + hi), pm = P(mid);
        if ((pm < 0) == (plo < 0)) {
          lo = mid;
          plo = pm;
        } else {
          hi = mid;
        }
      }
      const double w = 0.5 * (lo + hi);
      if (w < 0) roots.push_back(w);
    }
    // Admissible: compressive normal impulse.
    std::vector<double> admissible;
    for (double w : roots)
      if ((g0 + g1 * w).y() >= 0) admissible.push_back(w);
    std::sort(admissible.begin(), admissible.end());
    admissible.erase(std::unique(admissible.begin(), admissible.end(),
                                 [](double x, double y) { return std::abs(x - y) < 1e-12; }),
                     admissible.end());
    if (admissible.empty())
      throw std::domain_error(
          "Smith's law has no solution with a compressive normal impulse for this "
          "configuration (lambda, theta, mu, alpha)");
    const double w = admissible.back();
    if (admissible.size() > 1)
      o.notes.push_back("Smith's law has " + std::to_string(admissible.size()) +
                        " solutions here; reporting the one with the largest final w_t");
    o.impulse = g0 + g1 * w;
    o.notes.push_back("Smith (1991): weighted friction impulse, final w_t = " + format(w));
  }
  finish(o, c, k, "Smith's law (e = " + format(e) + ")");
  straight_path(o, k, stuck ? Mode::stick : Mode::slip);
  return o;
}

// Brach's impulse ratio (Gilardi & Sharf 2002, eq. 14) with Newton's e.
Outcome solve_brach(const Configuration& c) {
  const double e = required_coefficient(c.restitution, "brach", "Newton's coefficient e");
  const double r = required_coefficient(c.impulse_ratio, "brach", "Brach's impulse ratio r");
  const Kinematics k(c);
  const Eigen::Matrix2d& N = k.N;
  Outcome o;
  o.model = "brach";
  const double approach = -k.v0.y();
  const int s = k.v0.x() > 0 ? 1 : sign(N(0, 1));
  const Eigen::Vector2d critical = k.impulse_for(Eigen::Vector2d(0, e * approach));
  bool stuck = false;
  if (s == 0) {  // central normal impact: no tangential velocity is ever produced
    o.impulse = critical;
    stuck = true;
    o.notes.push_back("no tangential velocity at any stage: tangential impulse zero");
  } else {
    const double r0 = critical.y() > 0 ? -s * critical.x() / critical.y() : -1;
    if (critical.y() > 0 && r0 >= 0 && r0 <= r) {
      o.impulse = critical;
      stuck = true;
      o.notes.push_back("Brach: critical impulse ratio r0 = " + format(r0) +
                        " <= r = " + format(r) + " used; the contact ends with w_t = 0");
    } else {
      const double denominator = N(1, 1) - r * s * N(0, 1);
      if (denominator <= 0)
        throw std::domain_error(
            "Brach's impulse-ratio law has no solution: with ratio r = " + format(r) +
            " the normal impulse cannot restore w_n = -e v_n (N_nn - r N_tn <= 0)");
      const double gn = (1 + e) * approach / denominator;
      o.impulse = Eigen::Vector2d(-r * s * gn, gn);
      o.notes.push_back("Brach: gamma_t = -r gamma_n sgn(v_t) with r = " + format(r) +
                        (critical.y() > 0 ? " (critical ratio r0 = " + format(r0) + ")" : ""));
    }
  }
  o.notes.push_back("Brach: Configuration::friction is not used; the impulse ratio replaces it");
  finish(o, c, k, "Brach's impulse-ratio law (e = " + format(e) + ", r = " + format(r) + ")");
  straight_path(o, k, stuck ? Mode::stick : Mode::slip);
  return o;
}

}  // namespace

RigidLaw parse_rigid_law(const std::string& name) {
  if (name == "newton") return RigidLaw::newton;
  if (name == "poisson") return RigidLaw::poisson;
  if (name == "stronge") return RigidLaw::stronge;
  if (name == "smith") return RigidLaw::smith;
  if (name == "brach") return RigidLaw::brach;
  throw std::invalid_argument("unknown rigid-body law \"" + name +
                              "\"; expected newton, poisson, stronge, smith or brach");
}

const char* to_string(RigidLaw law) {
  switch (law) {
    case RigidLaw::newton:
      return "newton";
    case RigidLaw::poisson:
      return "poisson";
    case RigidLaw::stronge:
      return "stronge";
    case RigidLaw::smith:
      return "smith";
    case RigidLaw::brach:
      return "brach";
  }
  return "?";
}

bool is_rigid_law(const std::string& name) {
  return name == "newton" || name == "poisson" || name == "stronge" || name == "smith" ||
         name == "brach";
}

double incident_kinetic_energy(const Configuration& c) {
  const Eigen::Vector2d v0 = incident_velocity(c.incidence_angle);
  return 0.5 * v0.dot(scaled_inverse_inertia(c.lambda, c.theta).inverse() * v0);
}

double kinetic_energy_change(const Configuration& c, const Eigen::Vector2d& impulse) {
  const Eigen::Vector2d v0 = incident_velocity(c.incidence_angle);
  const Eigen::Vector2d w = v0 + scaled_inverse_inertia(c.lambda, c.theta) * impulse;
  return 0.5 * (v0 + w).dot(impulse);
}

Outcome solve_rigid_law(RigidLaw law, const Configuration& configuration) {
  validate(configuration);
  switch (law) {
    case RigidLaw::newton:
      return solve_newton(configuration);
    case RigidLaw::poisson:
    case RigidLaw::stronge:
      return solve_process(law, configuration);
    case RigidLaw::smith:
      return solve_smith(configuration);
    case RigidLaw::brach:
      return solve_brach(configuration);
  }
  throw std::invalid_argument("unknown rigid-body law");
}

Outcome solve_rigid_law(const std::string& model, const Configuration& configuration) {
  return solve_rigid_law(parse_rigid_law(model), configuration);
}

}  // namespace rebound::lumped
