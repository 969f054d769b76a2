#include "lumped/uncoupled.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "lumped/integrator.h"

namespace rebound::lumped {

double uncoupled_stick_limit(double friction, double poisson_ratio) {
  if (friction == 0) return 0.0;
  // The program's own expression: c := exp((2 / 3) * ln(Mu * (2 - Nu) / (2 * (1 - Nu)))).
  return std::exp((2.0 / 3.0) *
                  std::log(friction * (2 - poisson_ratio) / (2 * (1 - poisson_ratio))));
}

double uncoupled_tangential_stiffness(double poisson_ratio) {
  return 8 * (1 - poisson_ratio) / (3 * (2 - poisson_ratio));
}

namespace {

void check(const Configuration& c, const char* model) {
  auto fail = [model](const std::string& what) {
    throw std::invalid_argument(std::string(model) + ": " + what);
  };
  if (c.normal_law != "hertz")
    fail("the uncoupled-spring model has a Hertz normal spring; normal_law '" + c.normal_law +
         "' is not supported (use model 'lai' for the dissipative normal laws)");
  if (!(c.friction >= 0) || !std::isfinite(c.friction)) fail("friction must be finite and >= 0");
  if (!(c.poisson_ratio > -1 && c.poisson_ratio <= 0.5)) fail("poisson_ratio must be in (-1, 0.5]");
  if (!(c.lambda >= 0 && c.lambda < 1)) fail("lambda must be in [0, 1)");
  if (!(std::abs(c.incidence_angle) < 1.5707963267948966)) fail("|incidence_angle| must be < pi/2");
}

// Stored energy of the two springs over m v^2.
double potential(double delta_n, double epsilon, double kt) {
  const double q = std::max(-delta_n, 0.0), e = std::abs(epsilon);
  return 8.0 / 15.0 * q * q * std::sqrt(q) + 0.4 * kt * e * e * std::sqrt(e);
}

// ----------------------------------------------------------------------------------------------
// Accurate solve.

using State = Eigen::Matrix<double, 6, 1>;
enum : int { kGammaT = 0, kGammaN, kDeltaT, kDeltaN, kEpsilon, kWork };

struct Model {
  explicit Model(const Configuration& c)
      : c_(uncoupled_stick_limit(c.friction, c.poisson_ratio)),
        kt_(uncoupled_tangential_stiffness(c.poisson_ratio)),
        frictionless_(c.friction == 0),
        N_(scaled_inverse_inertia(c.lambda, c.theta)),
        v0_(incident_velocity(c.incidence_angle)) {}

  Eigen::Vector2d velocity(const State& y) const {
    return v0_ + N_ * Eigen::Vector2d(y[kGammaT], y[kGammaN]);
  }
  Eigen::Vector2d force(const State& y) const {
    const double q = std::max(-y[kDeltaN], 0.0), eps = y[kEpsilon];
    return {-kt_ * eps * std::sqrt(std::abs(eps)), 4.0 / 3.0 * q * std::sqrt(q)};
  }
  State rhs(const State& y) const {
    const Eigen::Vector2d v = velocity(y), f = force(y);
    State dy;
    dy[kGammaT] = f.x();
    dy[kGammaN] = f.y();
    dy[kDeltaT] = v.x();
    dy[kDeltaN] = v.y();
    dy[kEpsilon] = frictionless_ ? 0.0 : mode_ == Mode::stick ? v.x() : -c_ * slip_sign_ * v.y();
    dy[kWork] = v.y() * f.y();
    return dy;
  }
  double dissipation(const State& y) const {
    const Eigen::Vector2d gamma(y[kGammaT], y[kGammaN]);
    return -(0.5 * (v0_ + velocity(y)).dot(gamma) + potential(y[kDeltaN], y[kEpsilon], kt_));
  }
  Sample sample(double tau, const State& y) const {
    Sample s;
    s.tau = tau;
    s.impulse = {y[kGammaT], y[kGammaN]};
    s.force = force(y);
    s.displacement = {y[kDeltaT], y[kDeltaN]};
    s.velocity = velocity(y);
    s.spring_extension = y[kEpsilon];
    s.mode = mode_;
    s.dissipation = dissipation(y);
    return s;
  }

  double c_, kt_;
  bool frictionless_;
  Eigen::Matrix2d N_;
  Eigen::Vector2d v0_;
  Mode mode_ = Mode::stick;
  double slip_sign_ = 1;
};

}  // namespace

Outcome solve_uncoupled(const Configuration& configuration) {
  check(configuration, "uncoupled");
  Model model(configuration);
  Outcome outcome;
  outcome.model = "uncoupled";
  const double alpha = configuration.incidence_angle;
  if (model.frictionless_) {
    model.mode_ = Mode::slip;
    outcome.notes.push_back("mu = 0: no tangential force, the contact slides freely");
  } else {
    model.mode_ = std::abs(std::tan(alpha)) < model.c_ ? Mode::stick : Mode::slip;
  }
  model.slip_sign_ = alpha >= 0 ? 1.0 : -1.0;

  IntegratorOptions integrator_options;
  integrator_options.relative_tolerance = configuration.relative_tolerance;
  integrator_options.absolute_tolerance = configuration.relative_tolerance * 1e-3;
  DormandPrince<6> integrator(integrator_options);

  // Events. 0: separation; 1: end of compression; 2: stick -> slip; 3: slip -> stick.
  const Event<6> separation{[](double, const State& y) { return y[kDeltaN]; }, +1};
  const Event<6> compression_end{[&model](double, const State& y) { return model.velocity(y).y(); },
                                 +1};
  const Event<6> cone_reached{
      [&model](double, const State& y) { return std::abs(y[kEpsilon]) - model.c_ * (-y[kDeltaN]); },
      +1};
  const Event<6> slip_stops{[&model](double, const State& y) {
                              const Eigen::Vector2d v = model.velocity(y);
                              return model.slip_sign_ * v.x() + model.c_ * v.y();
                            },
                            -1};

  constexpr double kSpacing = 0.01;
  auto rhs = [&model](double, const State& y) { return model.rhs(y); };
  auto record = [&](double tau, const State& y) {
    const Sample s = model.sample(tau, y);
    outcome.peak_normal_force = std::isnan(outcome.peak_normal_force)
                                    ? s.force.y()
                                    : std::max(outcome.peak_normal_force, s.force.y());
    outcome.history.push_back(s);
  };
  double next_sample = kSpacing;
  auto observer = [&](const DormandPrince<6>::DenseStep& step) {
    for (; next_sample < step.t1; next_sample += kSpacing)
      if (next_sample > step.t0) record(next_sample, step.at(next_sample));
  };

  State y = State::Zero();
  double tau = 0, phase_start = 0, h = 0;
  bool compressing = true;
  int switches = 0;
  record(0, y);
  constexpr double kTauLimit = 1e3;
  for (;;) {
    std::vector<Event<6>> events = {separation};
    if (compressing) events.push_back(compression_end);
    if (!model.frictionless_)
      events.push_back(model.mode_ == Mode::stick ? cone_reached : slip_stops);
    const auto result = integrator.integrate(rhs, tau, y, kTauLimit, events, observer, h);
    h = integrator.last_step();
    tau = result.t;
    y = result.y;
    if (result.event < 0) throw std::runtime_error("uncoupled: no separation before tau = 1000");
    // Separation wins a tie (an unstretched spring's cone closes at separation too).
    if (result.event == 0 || (tau > 0 && y[kDeltaN] >= 0)) break;
    if (compressing && result.event == 1) {
      compressing = false;
      outcome.compression_normal_impulse = y[kGammaN];
      outcome.normal_work_compression = y[kWork];
      // The normal force peaks at maximum compression (delta_n' = 0).
      const double q = -y[kDeltaN];
      outcome.peak_normal_force = std::max(outcome.peak_normal_force, 4.0 / 3.0 * q * std::sqrt(q));
      record(tau, y);
      continue;
    }
    if (++switches > 1000) throw std::runtime_error("uncoupled: stick/slip chattering");
    outcome.phases.push_back({model.mode_, phase_start, tau});
    phase_start = tau;
    if (model.mode_ == Mode::stick) {
      model.mode_ = Mode::slip;
      model.slip_sign_ = y[kEpsilon] >= 0 ? 1.0 : -1.0;
    } else {
      model.mode_ = Mode::stick;
    }
    // The event root is on the cone to round-off: put epsilon exactly on it.
    y[kEpsilon] = model.slip_sign_ * model.c_ * (-y[kDeltaN]);
    record(tau, y);
  }
  outcome.phases.push_back({model.mode_, phase_start, tau});
  y[kDeltaN] = std::min(y[kDeltaN], 0.0);
  record(tau, y);
  outcome.history.back().mode = Mode::separated;

  finish_contact(outcome, tau, {y[kGammaT], y[kGammaN]}, model.velocity(y), model.v0_, y[kWork]);
  std::ostringstream note;
  note << "uncoupled springs: c = " << model.c_ << ", k_t = " << model.kt_ << ", "
       << outcome.phases.size() << " phase(s), " << integrator.statistics().steps
       << " Dormand-Prince steps";
  outcome.notes.push_back(note.str());
  return outcome;
}

// ----------------------------------------------------------------------------------------------
// The Predicting Rebound thesis's program, procedure main, step for step. Variable names follow the
// Pascal (i* = the state at the start of the step, f* = at its end).

Outcome solve_uncoupled_euler(const Configuration& configuration, EulerConeTest cone_test,
                              const SolveControl& control) {
  check(configuration, "uncoupled-euler");
  const double ht = configuration.euler_step;
  if (!(ht > 0) || !std::isfinite(ht))
    throw std::invalid_argument("uncoupled-euler: euler_step must be positive");
  Outcome outcome;
  outcome.model = "uncoupled-euler";
  // Mirror image for alpha < 0 (t -> -t): the program assumes alpha >= 0.
  const double mirror = configuration.incidence_angle < 0 ? -1.0 : 1.0;
  const double A = mirror * configuration.incidence_angle;
  const double Te = mirror * configuration.theta;
  const double Mu = configuration.friction, Nu = configuration.poisson_ratio,
               La = configuration.lambda;
  if (mirror < 0)
    outcome.notes.push_back(
        "alpha < 0: solved as the mirror image (alpha, theta) -> "
        "(-alpha, -theta), tangential components flipped back");

  const double c = uncoupled_stick_limit(Mu, Nu);
  const double kt = uncoupled_tangential_stiffness(Nu);
  const Eigen::Vector2d v0 = incident_velocity(A);

  double Gt = 0, Gn = 0, Dt = 0, Dn = 0, Eps = 0;
  double Dlt = std::sin(A), Dln = -std::cos(A);
  bool test = std::abs(std::tan(A)) < std::abs(c);
  const long max_steps = static_cast<long>(std::ceil(1e3 / ht));

  // One state of the program (the mode is that of the step leaving the state).
  struct Row {
    double Gt, Gn, Dt, Dn, Eps, Dlt, Dln;
    bool slip;
  };
  // Fill the outcome (flip tangential components back for a mirrored solve).
  auto sample_of = [&](long index, const Row& r, Mode mode) {
    Sample s;
    s.tau = index * ht;
    s.impulse = {mirror * r.Gt, r.Gn};
    const double q = std::max(-r.Dn, 0.0);
    s.force = {-mirror * kt * r.Eps * std::sqrt(std::abs(r.Eps)), 4.0 / 3.0 * q * std::sqrt(q)};
    s.displacement = {mirror * r.Dt, r.Dn};
    s.velocity = {mirror * r.Dlt, r.Dln};
    s.spring_extension = mirror * r.Eps;
    s.mode = mode;
    const Eigen::Vector2d gamma(r.Gt, r.Gn), velocity(r.Dlt, r.Dln);
    s.dissipation = -(0.5 * (v0 + velocity).dot(gamma) + potential(r.Dn, r.Eps, kt));
    return s;
  };
  // The states are used as they come (a step of 1e-7 makes ~3e7 of them): every state enters
  // the phases, the peak force, the dissipation check and the normal works; the history keeps
  // every `stride`-th state and the last, the stride doubling (every other sample dropped) when
  // kMaxHistorySamples are held.
  long stride = 1;
  double min_dissipation = 0, max_drop = 0, running_max = 0;
  bool compressing = true;
  auto take_state = [&](long n, const Row& r, const Row* next) {
    const bool last = next == nullptr;
    const Mode mode = last ? Mode::separated : (r.slip ? Mode::slip : Mode::stick);
    const Sample s = sample_of(n, r, mode);
    if (last || n % stride == 0) {
      if (outcome.history.size() >= kMaxHistorySamples) {
        drop_every_other_sample(outcome.history);  // states 0, 2s, 4s, ...: the stride doubles
        stride *= 2;
      }
      if (last || n % stride == 0) outcome.history.push_back(s);
    }
    min_dissipation = std::min(min_dissipation, s.dissipation);
    max_drop = std::max(max_drop, running_max - s.dissipation);
    running_max = std::max(running_max, s.dissipation);
    outcome.peak_normal_force = std::isnan(outcome.peak_normal_force)
                                    ? s.force.y()
                                    : std::max(outcome.peak_normal_force, s.force.y());
    if (last) return;
    const Mode step_mode = r.slip ? Mode::slip : Mode::stick;
    if (outcome.phases.empty() || outcome.phases.back().mode != step_mode)
      outcome.phases.push_back({step_mode, n * ht, (n + 1) * ht});
    else
      outcome.phases.back().end = (n + 1) * ht;
    // Normal works (left-point sums, as the Euler update uses the rates at the step start) and
    // gamma_n at delta_n' = 0 (linear interpolation between the two states around it).
    const double work = r.Dln * (next->Gn - r.Gn);
    if (compressing && r.Dln >= 0) compressing = false;
    (compressing ? outcome.normal_work_compression : outcome.normal_work_restitution) += work;
    if (compressing && next->Dln >= 0) {
      const double f = -r.Dln / (next->Dln - r.Dln);
      outcome.compression_normal_impulse = r.Gn + f * (next->Gn - r.Gn);
    }
  };

  const double hertz_duration = hertz_normal_impact(configuration).duration;
  Row previous{};
  long i = 0;
  double fDn = Dn;
  while (fDn <= 0) {
    if (i > max_steps) throw std::runtime_error("uncoupled-euler: no separation before tau = 1000");
    if (i % 4096 == 0) control.check(i * ht, hertz_duration);
    const double iGt = Gt, iGn = Gn, iDt = Dt, iDn = Dn, iEps = Eps;
    if (i != 0) {
      // (mu = 0: the cone is the point eps = 0, where "<=" would let the spring stretch.)
      test = cone_test == EulerConeTest::as_printed || c == 0 ? std::abs(iEps) < c * (-iDn)
                                                              : std::abs(iEps) <= c * (-iDn);
    }
    const double fDt =
        ht * (std::sin(A) + (1 + La * std::cos(2 * Te)) * iGt + La * std::sin(2 * Te) * iGn) + iDt;
    fDn =
        ht * (-std::cos(A) + La * std::sin(2 * Te) * iGt + (1 - La * std::cos(2 * Te)) * iGn) + iDn;
    double fEps;
    if (test)
      fEps = fDt - iDt + iEps;
    else
      fEps = iEps >= 0 ? -c * fDn : c * fDn;
    const double fGt = -ht * 8 * (1 - Nu) / (3 * (2 - Nu)) * iEps * std::sqrt(std::abs(iEps)) + iGt;
    const double fGn = iDn == 0 ? iGn : ht * 4 / 3 * std::exp((3.0 / 2) * std::log(-iDn)) + iGn;
    const double fDlt =
        std::sin(A) + (1 + La * std::cos(2 * Te)) * fGt + (La * std::sin(2 * Te)) * fGn;
    const double fDln =
        -std::cos(A) + (La * std::sin(2 * Te)) * fGt + (1 - La * std::cos(2 * Te)) * fGn;

    // Reported mode of step i: slip if the program slipped, or if a "stick" step started on the
    // cone left it (on_cone_sticks: the program re-projects at the next step).
    const bool on_cone = iEps != 0 && std::abs(iEps) >= c * (-iDn);
    const bool leaves = !(std::abs(fEps) < c * (-fDn));
    const Row row{iGt, iGn, iDt, iDn, iEps, Dlt, Dln, !test || (on_cone && leaves && fDn <= 0)};
    if (i > 0) take_state(i - 1, previous, &row);
    previous = row;

    Gt = fGt, Gn = fGn, Dt = fDt, Dn = fDn, Eps = fEps, Dlt = fDlt, Dln = fDln;
    ++i;
  }
  // The program reports the state before the last step (iter = i - 1, the last delta_n <= 0).
  const long k = i - 1;
  const Row& last = previous;
  take_state(k, last, nullptr);
  if (compressing) outcome.compression_normal_impulse = last.Gn;

  outcome.duration = k * ht;
  outcome.impulse = {mirror * last.Gt, last.Gn};
  outcome.separation_velocity = {mirror * last.Dlt, last.Dln};
  const double kinetic_change =
      0.5 * (v0 + Eigen::Vector2d(last.Dlt, last.Dln)).dot(Eigen::Vector2d(last.Gt, last.Gn));
  outcome.creates_energy = kinetic_change > 1e-9;

  std::ostringstream note;
  note << "the uncoupled-spring thesis's program, explicit Euler h = " << ht << ", " << k
       << " steps, c = " << c << ", mode tested once per step ("
       << (cone_test == EulerConeTest::as_printed ? "as printed: on the cone = slip"
                                                  : "on the cone = stick")
       << "); results at the last state with delta_n <= 0";
  outcome.notes.push_back(note.str());
  if (Mu == 0) outcome.notes.push_back("mu = 0: c = 0 (the program's ln(0) is undefined)");
  if (stride > 1)
    outcome.notes.push_back("history: one state in " + std::to_string(stride) + " of " +
                            std::to_string(k + 1) + ", and the last (" +
                            std::to_string(outcome.history.size()) + " samples)");
  if (min_dissipation < -1e-12 || max_drop > 1e-12) {
    std::ostringstream d;
    d << "Euler: dissipation D not monotone (min " << min_dissipation << ", largest drop "
      << max_drop << "): O(h) integration error";
    if (cone_test == EulerConeTest::as_printed)
      d << " and slip that never stops (friction pushing the body)";
    outcome.notes.push_back(d.str());
  }
  return outcome;
}

}  // namespace rebound::lumped
