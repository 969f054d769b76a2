#include "lumped/mdr.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "lumped/event_root.h"

namespace rebound::lumped {

// ---------------------------------------------------------------------------------------------
// The spring bed, as a field e(xi) on nodes.
//
// Between nodes the field is interpolated, and integrated exactly, on each interval of the
// contact [0, a], a = sqrt(q) the contact edge, r(xi) = (mu/k)(q - xi^2) the Coulomb limit:
//  - both ends slipping the same way: e = +-r (the interval slides), int r and int r^2 exact;
//  - otherwise e linear between the nodes. Since r is concave, the chord between two admissible
//    values stays admissible, |e| <= r, on the whole interval;
//  - the edge interval [xi_m, a] (xi_m the last node in contact): e = clip(l(xi), -r, r), l the
//    line through the last two nodes (constant for m = 0, e being even in xi), integrated exactly
//    between the points where l meets +-r. A young edge that sticks has e ~ phi r with phi
//    constant and l is then O(dxi^2) from it; an old edge that sticks (unloading, large mu) keeps
//    its history's e up to a slip band at the edge thinner than dxi, which clip() resolves; a
//    slipping edge is exact (r is concave, so l lies above r beyond xi_m and clip() gives r).
// Hence in gross slip F_t = -mu F_n holds exactly at any resolution, e vanishes at the edge (a
// spring leaving contact has slid back to e = 0), F_t is continuous in time when a node enters or
// leaves, and the quadrature error is O(dxi^2) (kinks of e at stick/slip boundaries).
// The normal force is the continuum's (4/3) q^{3/2}, to which sum (q - xi_i^2) dxi converges: the
// normal problem has no coupling to the springs' tangential state in the MDR.

namespace {
// 3-point Gauss-Legendre on [0, 1]: exact for polynomials of degree <= 5.
constexpr std::array<double, 3> kGaussNodes = {0.11270166537925831, 0.5, 0.88729833462074169};
constexpr std::array<double, 3> kGaussWeights = {5.0 / 18, 8.0 / 18, 5.0 / 18};
}  // namespace

double mdr_stiffness_ratio(double poisson_ratio) {
  return 2 * (1 - poisson_ratio) / (2 - poisson_ratio);
}

MdrSpringBed::MdrSpringBed(int springs, double half_width, double friction, double stiffness_ratio)
    : springs_(springs),
      spacing_(half_width / springs),
      k_(stiffness_ratio),
      slip_ratio_(friction / stiffness_ratio) {
  const int n = springs + 3;  // two spare nodes beyond a_max (never reached: see solve)
  xi2_.resize(n);
  e_.assign(n, 0.0);
  trial_.assign(n, 0.0);
  slip_.assign(n, 0);
  moment2_.resize(n);
  moment4_.resize(n);
  for (int j = 0; j < n; ++j) {
    const double x0 = j * spacing_, x1 = (j + 1) * spacing_;
    xi2_[j] = x0 * x0;
    moment2_[j] = (x1 * x1 * x1 - x0 * x0 * x0) / 3;                      // int xi^2 on [x0, x1]
    moment4_[j] = (x1 * x1 * x1 * x1 * x1 - x0 * x0 * x0 * x0 * x0) / 5;  // int xi^4
  }
}

MdrSpringBed::Forces MdrSpringBed::move(double delta_t, double q, bool commit, bool details) {
  Forces forces;
  const int n = int(xi2_.size());
  if (!(q > 0)) {  // no contact: every spring released
    if (commit) {
      for (int j = 0; j < n && xi2_[j] < q_; ++j) e_[j] = 0, slip_[j] = 0;
      delta_t_ = delta_t, q_ = 0;
    }
    return forces;
  }
  if (q >= xi2_[n - 1]) throw std::runtime_error("mdr: the contact outgrew the spring bed");
  const double slide = delta_t - delta_t_, q0 = q_, c = slip_ratio_, h = spacing_;
  const double entry_scale = q > q0 ? slide / (q - q0) : 0.0;
  double sum = 0, sum2 = 0;  // int_0^a e, int_0^a e^2
  int j = 0;
  for (; j < n && xi2_[j] < q; ++j) {
    // Trial: the committed e plus the slide, or, for a node that entered during the move (at the
    // fraction f = (xi^2 - q0)/(q - q0) of the path, q linear along it), (1 - f) slide.
    double e = xi2_[j] < q0 ? e_[j] + slide : entry_scale * (q - xi2_[j]);
    const double r = c * (q - xi2_[j]);  // > 0: Coulomb limit of the node
    signed char slip = 0;
    if (e >= r)
      e = r, slip = 1;  // return mapping onto the limit
    else if (e <= -r)
      e = -r, slip = -1;
    forces.any_stick |= slip == 0;
    trial_[j] = e;
    slip_[j] = slip;
    if (j == 0) continue;
    const double e0 = trial_[j - 1];
    if (slip != 0 && slip_[j - 1] == slip) {  // the interval slides: e = slip r
      sum += slip * c * (q * h - moment2_[j - 1]);
      if (details) sum2 += c * c * (q * q * h - 2 * q * moment2_[j - 1] + moment4_[j - 1]);
    } else {
      sum += 0.5 * h * (e0 + e);
      if (details) sum2 += h * (e0 * e0 + e0 * e + e * e) / 3;
    }
  }
  // Edge interval [b, a]: e = clip(l, -r, r), l(xi) = e_m + slope (xi - b). Break it where
  // l = +-r, i.e. c xi^2 +- slope xi +- (e_m - slope b) - c q = 0, and integrate each piece (a
  // polynomial of degree <= 2, its square <= 4) by 3-point Gauss, exactly.
  const int m = j - 1;  // >= 0: xi_0 = 0 < q
  const double a = std::sqrt(q), b = m * h, e_m = trial_[m];
  const double slope = m > 0 ? (e_m - trial_[m - 1]) / h : 0.0;
  std::array<double, 6> points = {b, a};
  int count = 2;
  for (const double side : {1.0, -1.0}) {
    const double B = side * slope, C = side * (e_m - slope * b) - c * q;
    const double discriminant = B * B - 4 * c * C;
    if (!(discriminant > 0)) continue;
    const double root = std::sqrt(discriminant);
    // Stable roots of c x^2 + B x + C.
    const double t = -0.5 * (B + (B >= 0 ? root : -root));
    for (const double x : {t / c, t != 0 ? C / t : b})
      if (x > b && x < a) points[count++] = x;
  }
  for (int p = 1; p < count; ++p)  // insertion sort of the <= 6 break points
    for (int i = p; i > 0 && points[i] < points[i - 1]; --i) std::swap(points[i], points[i - 1]);
  for (int p = 0; p + 1 < count; ++p) {
    const double x0 = points[p], length = points[p + 1] - x0;
    for (int g = 0; g < 3; ++g) {
      const double x = x0 + kGaussNodes[g] * length, r = c * (q - x * x);
      const double e = std::clamp(e_m + slope * (x - b), -r, r);
      sum += kGaussWeights[g] * length * e;
      if (details) sum2 += kGaussWeights[g] * length * e * e;
    }
  }
  if (details) {
    // Stick fraction by length: node i stands for [xi_i - dxi/2, xi_i + dxi/2] within [0, a].
    double stick_length = 0;
    for (int i = 0; i <= m; ++i) {
      if (slip_[i] != 0) continue;
      const double xi = i * h;
      stick_length += std::min(a, xi + 0.5 * h) - std::max(0.0, xi - 0.5 * h);
    }
    forces.stick_fraction = std::clamp(stick_length / a, 0.0, 1.0);
    forces.energy = k_ * sum2;  // (k/2) int_{-a}^{a} e^2 = k int_0^a e^2
    forces.centre = trial_[0];
  }
  // gamma_t' = -k int_{-a}^{a} e = -2 k int_0^a e.
  forces.tangential = -2 * k_ * sum;
  if (commit) {
    for (int i = 0; i <= m; ++i) e_[i] = trial_[i];
    for (; j < n && xi2_[j] < q0; ++j) e_[j] = 0, slip_[j] = 0;  // left the contact
    delta_t_ = delta_t, q_ = q;
  }
  return forces;
}

// ---------------------------------------------------------------------------------------------
// The impact.
//
// Rigid-body equations (docs/THEORY.md §5) with the bed's force, in the contact variable s of
// lai.cpp, dtau/ds = sigma = sqrt(q) = sqrt(-delta_n), which is also the contact half-width in xi:
//   d gamma_t/ds = sigma gamma_t'(bed),      d gamma_n/ds = (4/3) sigma^4,
//   d delta_t/ds = sigma delta_t',           d sigma/ds = -delta_n'/2,
//   d tau/ds = sigma,                        d W_n/ds = delta_n' (4/3) sigma^4,
//   delta' = (sin alpha, -cos alpha) + (m N) gamma.
// In s the normal part is polynomial and smooth through first touch and separation, and the edge
// a = sigma moves at |delta_n'|/2 <= ~1/2 per unit s, so a step h = step_ratio dxi lets the edge
// pass at most ~step_ratio/2 nodes: the step is tied to the node spacing and `springs` sets both.
//
// Time stepping: classical 4th-order Runge-Kutta with fixed step; each stage evaluates the bed
// from its state committed at the start of the step to the stage's (delta_t, q) (the return
// mapping of MdrSpringBed::move), and the step's end is committed. The force is continuous in s
// but has kinks (a stick zone appearing or vanishing, slip reversal, nodes entering), so the
// observed order is ~2 rather than 4 (docs/LUMPED.md). End of compression (delta_n' = 0) and
// separation (sigma = 0) are located inside their step by re-taking the step with the length
// that puts them at its end (Illinois regula falsi on the step length, to 1e-14 relative).
//
// Bed size: the springs' energy V and the kinetic energy change satisfy V <= -Delta K <=
// max_gamma (-gamma.v0 - gamma.N gamma/2) = v0.N^-1 v0 / 2 (D >= 0), so (8/15) q^{5/2} <= that
// and q <= a_max^2 = ((15/16) v0.N^-1 v0)^{2/5}: the Hertz q_max for theta = 0 plus
// sin^2 alpha / (1 + lambda) inside; the contact never outgrows the bed.

namespace {

constexpr double kDefaultStepRatio = 2.0;  // h = step_ratio * dxi (convergence study)

enum : int { kGammaT = 0, kGammaN, kDeltaT, kSigma, kTau, kWork, kSize };
using State = Eigen::Matrix<double, kSize, 1>;

void check(const Configuration& c, const MdrOptions& o) {
  auto fail = [](const std::string& what) { throw std::invalid_argument("mdr: " + what); };
  if (o.dundurs_beta != 0)
    fail("dundurs_beta must be 0: the MDR spring bed has no normal-tangential coupling");
  if (c.normal_law != "hertz")
    fail("the MDR bed is the Hertz (parabolic) profile; normal_law '" + c.normal_law +
         "' is not supported");
  if (c.socket) fail("the MDR bed is the paraboloid on a plane, not a ball in a socket");
  if (o.springs < 8) fail("springs must be >= 8");
  if (o.record_history && !(o.history_spacing > 0)) fail("history_spacing must be > 0");
  if (!(c.friction >= 0) || !std::isfinite(c.friction)) fail("friction must be finite and >= 0");
  if (!(c.poisson_ratio > -1 && c.poisson_ratio <= 0.5)) fail("poisson_ratio must be in (-1, 0.5]");
  if (!(c.lambda >= 0 && c.lambda < 1)) fail("lambda must be in [0, 1)");
  if (!(std::abs(c.incidence_angle) < 1.5707963267948966)) fail("|incidence_angle| must be < pi/2");
}

class MdrImpact {
 public:
  MdrImpact(const Configuration& c, int springs)
      : k_(mdr_stiffness_ratio(c.poisson_ratio)),
        frictionless_(c.friction == 0),
        N_(scaled_inverse_inertia(c.lambda, c.theta)),
        v0_(incident_velocity(c.incidence_angle)),
        bed_(springs, half_width_bound(N_, v0_), c.friction, k_) {}

  static double half_width_bound(const Eigen::Matrix2d& N, const Eigen::Vector2d& v0) {
    const double q_bound = std::pow(15.0 / 16.0 * v0.dot(N.inverse() * v0), 0.4);
    return std::sqrt(q_bound) * (1 + 1e-9);
  }

  Eigen::Vector2d velocity(const State& y) const {
    return v0_ + N_ * Eigen::Vector2d(y[kGammaT], y[kGammaN]);
  }
  static double approach(const State& y) { return y[kSigma] > 0 ? y[kSigma] * y[kSigma] : 0.0; }

  // gamma_t' of the bed at y (from the committed state; committed if `commit`).
  MdrSpringBed::Forces bed_forces(const State& y, bool commit, bool details = false) {
    if (frictionless_) return {};
    return bed_.move(y[kDeltaT], approach(y), commit, details);
  }

  State rhs(const State& y, double tangential_force) const {
    const Eigen::Vector2d v = velocity(y);
    const double sigma = y[kSigma], sigma2 = sigma * sigma;
    // sigma f_n = (4/3) sigma^4, continued below sigma = 0 (stages of the step that crosses
    // separation) as in lai.cpp; the bed gives no force there.
    const double normal_rate = 4.0 / 3.0 * sigma2 * sigma2;
    State dy;
    dy[kGammaT] = sigma > 0 ? sigma * tangential_force : 0.0;
    dy[kGammaN] = normal_rate;
    dy[kDeltaT] = sigma * v.x();
    dy[kSigma] = -0.5 * v.y();
    dy[kTau] = sigma;
    dy[kWork] = v.y() * normal_rate;
    return dy;
  }

  // One RK4 step of length h from y (bed committed at y, k1 = rhs at y); nothing committed.
  State step(const State& y, const State& k1, double h) {
    const State y2 = y + 0.5 * h * k1;
    const State k2 = rhs(y2, bed_forces(y2, false).tangential);
    const State y3 = y + 0.5 * h * k2;
    const State k3 = rhs(y3, bed_forces(y3, false).tangential);
    const State y4 = y + h * k3;
    const State k4 = rhs(y4, bed_forces(y4, false).tangential);
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
  }

  // Length in (0, h] of the step from y at which g(step) crosses zero (g(y) < 0 <= g(full step)),
  // to 1e-14 h; returns the state at the end of that step (the "after" side).
  template <class G>
  State locate(const State& y, const State& k1, double h, double g0, double g1, G&& g) {
    const double length = event_time_after(
        0.0, h, g0, g1, [&](double c) { return g(step(y, k1, c)); },
        [h](double a, double b) { return std::abs(b - a) <= 1e-14 * h; }, 60);
    return step(y, k1, length);
  }

  double potential(const State& y, double tangential_energy) const {
    const double q = approach(y);
    return 8.0 / 15.0 * q * q * std::sqrt(q) + tangential_energy;
  }
  double dissipation(const State& y, double tangential_energy) const {
    const Eigen::Vector2d gamma(y[kGammaT], y[kGammaN]);
    return -(0.5 * (v0_ + velocity(y)).dot(gamma) + potential(y, tangential_energy));
  }

  double k_;
  bool frictionless_;
  Eigen::Matrix2d N_;
  Eigen::Vector2d v0_;
  MdrSpringBed bed_;
};

// Mode of the whole contact: slip (gross sliding) only when no spring sticks; while a stick zone
// exists the contact as a whole does not slide (Mindlin's partial slip: micro-slip at the edge,
// reported in Sample::stick_fraction) and the mode is stick.
Mode contact_mode(bool frictionless, bool any_stick) {
  return frictionless || !any_stick ? Mode::slip : Mode::stick;
}

}  // namespace

namespace detail {

Outcome solve_mdr_with_step(const Configuration& configuration, const MdrOptions& options,
                            double step_ratio) {
  check(configuration, options);
  if (!(step_ratio > 0)) throw std::invalid_argument("mdr: step_ratio must be > 0");
  MdrImpact model(configuration, options.springs);
  Outcome outcome;
  outcome.model = "mdr";
  const bool history = options.record_history;
  if (history) outcome.history.reserve(std::size_t(std::min(8 / options.history_spacing, 1e5)) + 8);

  const double h = step_ratio * model.bed_.spacing();
  State y = State::Zero();
  MdrSpringBed::Forces forces = model.bed_forces(y, true);
  State k1 = model.rhs(y, forces.tangential);
  bool compressing = true;
  double next_sample = options.history_spacing;
  double spacing = options.history_spacing;  // doubles when the history is thinned
  // Initial mode: every spring of a young contact has e/r = delta_t'/((mu/k) q'), so it sticks iff
  // |tan alpha| < mu/k, i.e. Maw's Psi_1 < 1.
  const double tan_alpha = std::abs(std::tan(configuration.incidence_angle));
  Mode mode = model.frictionless_ || tan_alpha >= configuration.friction / model.k_ ? Mode::slip
                                                                                    : Mode::stick;
  double phase_start = 0;

  auto make_sample = [&](const State& s, const MdrSpringBed::Forces& f) {
    Sample sample;
    sample.tau = s[kTau];
    sample.impulse = {s[kGammaT], s[kGammaN]};
    const double q = MdrImpact::approach(s);
    sample.force = {f.tangential, 4.0 / 3.0 * q * std::sqrt(q)};
    sample.displacement = {s[kDeltaT], -q};
    sample.velocity = model.velocity(s);
    sample.spring_extension = f.centre;
    sample.stick_fraction = model.frictionless_ ? 0.0 : f.stick_fraction;
    sample.mode = q > 0 ? contact_mode(model.frictionless_, f.any_stick) : mode;
    sample.dissipation = model.dissipation(s, f.energy);
    return sample;
  };
  if (history) {
    Sample first = make_sample(y, forces);
    first.mode = mode;
    first.stick_fraction = mode == Mode::stick ? 1.0 : 0.0;  // the limit tau -> 0
    outcome.history.push_back(first);
  }

  constexpr long kMaxSteps = 10'000'000;
  long steps = 0;
  const double hertz_duration = hertz_normal_impact(configuration).duration;
  for (;; ++steps) {
    if (steps > kMaxSteps) throw std::runtime_error("mdr: no separation");
    options.control.check(y[kTau], hertz_duration);
    State y1 = model.step(y, k1, h);
    bool separated = false;
    if (compressing && model.velocity(y1).y() >= 0) {
      // End of compression inside the step: delta_n' = 0.
      auto normal_velocity = [&model](const State& s) { return model.velocity(s).y(); };
      const State yc =
          model.locate(y, k1, h, model.velocity(y).y(), model.velocity(y1).y(), normal_velocity);
      compressing = false;
      outcome.compression_normal_impulse = yc[kGammaN];
      outcome.normal_work_compression = yc[kWork];
      const double q = MdrImpact::approach(yc);
      // f_n = (4/3) q^{3/2} peaks with q, at delta_n' = 0.
      outcome.peak_normal_force = 4.0 / 3.0 * q * std::sqrt(q);
    }
    if (!compressing && !(y1[kSigma] > 0)) {
      // Separation inside the step: sigma = 0.
      auto minus_sigma = [](const State& s) { return -s[kSigma]; };
      y1 = model.locate(y, k1, h, -y[kSigma], -y1[kSigma], minus_sigma);
      y1[kSigma] = 0;  // on the surface (the root is to round-off)
      separated = true;
    }
    const bool sample_due = history && (separated || y1[kTau] >= next_sample);
    forces = model.bed_forces(y1, true, sample_due);
    y = y1;
    const Mode step_mode = separated ? mode : contact_mode(model.frictionless_, forces.any_stick);
    if (step_mode != mode) {
      outcome.phases.push_back({mode, phase_start, y[kTau]});
      phase_start = y[kTau];
      mode = step_mode;
    }
    if (sample_due) {
      outcome.history.push_back(make_sample(y, forces));
      bound_history(outcome.history, spacing);
      while (next_sample <= y[kTau]) next_sample += spacing;
    }
    if (separated) break;
    k1 = model.rhs(y, forces.tangential);
  }
  outcome.phases.push_back({mode, phase_start, y[kTau]});
  if (history) outcome.history.back().mode = Mode::separated;

  finish_contact(outcome, y[kTau], {y[kGammaT], y[kGammaN]}, model.velocity(y), model.v0_,
                 y[kWork]);
  if (model.frictionless_)
    outcome.notes.push_back("mu = 0: no tangential force, the contact slides freely");
  std::ostringstream note;
  note << "MDR spring bed: " << options.springs << " nodes over a_max = " << model.bed_.half_width()
       << " (contact half-width bound, units sqrt(R eta)), k = G*/E* = " << model.k_ << ", "
       << steps + 1 << " RK4 steps of " << h
       << " in s; mode stick while any spring sticks (partial slip), slip when none does";
  outcome.notes.push_back(note.str());
  return outcome;
}

}  // namespace detail

Outcome solve_mdr(const Configuration& configuration, const MdrOptions& options) {
  return detail::solve_mdr_with_step(configuration, options, kDefaultStepRatio);
}

}  // namespace rebound::lumped
