#include "lumped/lai.h"

#include <cmath>
#include <sstream>

#include "cases/derived.h"
#include "lumped/integrator.h"
#include "lumped/normal_laws.h"

namespace rebound::lumped {
namespace {

// State: gamma_t, gamma_n, delta_t, delta_n, epsilon, W_n (normal work int delta_n' dgamma_n).
using State = Eigen::Matrix<double, 6, 1>;
enum : int { kGammaT = 0, kGammaN, kDeltaT, kDeltaN, kEpsilon, kWork };

thread_local LaiStatistics statistics;

class LaiModel {
 public:
  explicit LaiModel(const Configuration& c)
      : kappa_(cases::kappa_of(c.poisson_ratio)),
        stick_limit_(cases::stick_limit(kappa_, c.friction)),
        frictionless_(c.friction == 0),
        always_stick_(std::isinf(stick_limit_)),
        N_(scaled_inverse_inertia(c.lambda, c.theta)),
        v0_(incident_velocity(c.incidence_angle)),
        spring_(make_normal_spring(parse_normal_law(c.normal_law), c.restitution.value_or(1.0),
                                   std::cos(c.incidence_angle))) {}

  Eigen::Vector2d velocity(const State& y) const {
    return v0_ + N_ * Eigen::Vector2d(y[kGammaT], y[kGammaN]);
  }
  // Contact force gamma' (t, n) at state y with the given contact-point velocity.
  Eigen::Vector2d force(const State& y, const Eigen::Vector2d& velocity) const {
    const double x = -y[kDeltaN];
    if (x <= 0) return Eigen::Vector2d::Zero();
    const double root = std::sqrt(x), eps = y[kEpsilon];
    const double normal_elastic =
        spring_.law == NormalLaw::hertz ? 4.0 / 3.0 * x * root : spring_.force(x, -velocity.y());
    return {-4.0 / (3.0 * kappa_) * eps * root, normal_elastic + eps * eps / (3.0 * kappa_ * root)};
  }
  State rhs(const State& y) const {
    const Eigen::Vector2d v = velocity(y);
    const Eigen::Vector2d f = force(y, v);
    State dy;
    dy[kGammaT] = f.x();
    dy[kGammaN] = f.y();
    dy[kDeltaT] = v.x();
    dy[kDeltaN] = v.y();
    dy[kEpsilon] = frictionless_          ? 0.0
                   : mode_ == Mode::stick ? v.x()
                                          : -stick_limit_ * slip_sign_ * v.y();
    dy[kWork] = v.y() * f.y();
    return dy;
  }
  // Stored energy of the springs over m v^2 (PHYSICS sec. 3).
  double potential(const State& y) const {
    const double x = -y[kDeltaN];
    if (x <= 0) return 0;
    const double root = std::sqrt(x);
    return 8.0 / 15.0 * x * x * root + 2.0 / (3.0 * kappa_) * y[kEpsilon] * y[kEpsilon] * root;
  }
  double dissipation(const State& y) const {
    const Eigen::Vector2d gamma(y[kGammaT], y[kGammaN]);
    const double kinetic_change = 0.5 * (v0_ + velocity(y)).dot(gamma);
    return -(kinetic_change + potential(y));
  }
  Sample sample(double tau, const State& y) const {
    Sample s;
    s.tau = tau;
    s.impulse = {y[kGammaT], y[kGammaN]};
    s.velocity = velocity(y);
    s.force = force(y, s.velocity);
    s.displacement = {y[kDeltaT], y[kDeltaN]};
    s.spring_extension = y[kEpsilon];
    s.mode = mode_;
    s.dissipation = dissipation(y);
    return s;
  }

  double kappa_, stick_limit_;
  bool frictionless_, always_stick_;
  Eigen::Matrix2d N_;
  Eigen::Vector2d v0_;
  NormalSpring spring_;
  Mode mode_ = Mode::stick;
  double slip_sign_ = 1;
};

}  // namespace

LaiStatistics last_lai_statistics() {
  return statistics;
}

Outcome solve_lai(const Configuration& configuration, const LaiOptions& options) {
  LaiModel model(configuration);
  Outcome outcome;
  outcome.model = "lai";
  statistics = {};

  const double alpha = configuration.incidence_angle;
  const double tan_alpha = std::tan(alpha);
  // Initial mode (seed 000 eq. 5.57): stick iff |tan alpha| < C.
  if (model.frictionless_) {
    model.mode_ = Mode::slip;
    outcome.notes.push_back("mu = 0: no tangential force, the contact slides freely");
  } else if (model.always_stick_) {
    model.mode_ = Mode::stick;
    outcome.notes.push_back(
        "kappa mu^2 >= 1: the tangential spring never reaches the friction "
        "limit, the contact sticks throughout (no dissipation)");
  } else {
    model.mode_ = std::abs(tan_alpha) < model.stick_limit_ ? Mode::stick : Mode::slip;
  }
  model.slip_sign_ = alpha >= 0 ? 1.0 : -1.0;

  IntegratorOptions integrator_options;
  integrator_options.relative_tolerance = configuration.relative_tolerance;
  integrator_options.absolute_tolerance = configuration.relative_tolerance * 1e-2;
  DormandPrince<6> integrator(integrator_options);

  // Events. 0: separation (delta_n back to 0); 1: end of compression (delta_n' = 0);
  // 2: stick -> slip (|eps| reaches C(-delta_n)); 3: slip -> stick
  // (sgn(eps) delta_t' + C delta_n' reaches 0, PHYSICS sec. 3 erratum of seed eq. 5.60).
  const auto separation = Event<6>{[](double, const State& y) { return y[kDeltaN]; }, +1};
  const auto compression_end =
      Event<6>{[&model](double, const State& y) { return model.velocity(y).y(); }, +1};
  const auto cone_reached =
      Event<6>{[&model](double, const State& y) {
                 return std::abs(y[kEpsilon]) - model.stick_limit_ * (-y[kDeltaN]);
               },
               +1};
  const auto slip_reversal =
      Event<6>{[&model](double, const State& y) {
                 const Eigen::Vector2d v = model.velocity(y);
                 return model.slip_sign_ * v.x() + model.stick_limit_ * v.y();
               },
               -1};

  auto rhs = [&model](double, const State& y) { return model.rhs(y); };
  double next_sample = 0;
  auto record = [&](double tau, const State& y) {
    const Sample s = model.sample(tau, y);
    outcome.peak_normal_force = std::isnan(outcome.peak_normal_force)
                                    ? s.force.y()
                                    : std::max(outcome.peak_normal_force, s.force.y());
    if (options.record_history) outcome.history.push_back(s);
  };
  auto observer = [&](const DormandPrince<6>::DenseStep& step) {
    if (options.record_history) {
      while (next_sample < step.t1) {
        if (next_sample > step.t0) record(next_sample, step.at(next_sample));
        next_sample += options.history_spacing;
      }
    }
    const State end = step.r1 + step.r2;  // the state at t1 of an untruncated step
    const State& at_end = step.t1 == step.t0 + step.h ? end : step.at(step.t1);
    const double force = model.force(at_end, model.velocity(at_end)).y();
    outcome.peak_normal_force =
        std::isnan(outcome.peak_normal_force) ? force : std::max(outcome.peak_normal_force, force);
  };

  State y = State::Zero();
  double tau = 0;
  bool compressing = true;
  double phase_start = 0;
  record(0, y);
  next_sample = options.history_spacing;
  const double tau_limit = 1e3;  // far beyond any contact (Hertz tau_c ~ 4)
  double h = 0;
  for (int segment = 0; segment < 10000; ++segment) {
    std::vector<Event<6>> events = {separation};
    if (compressing) events.push_back(compression_end);
    if (!model.frictionless_ && !model.always_stick_)
      events.push_back(model.mode_ == Mode::stick ? cone_reached : slip_reversal);
    const auto result = integrator.integrate(rhs, tau, y, tau_limit, events, observer, h);
    h = integrator.last_step();
    tau = result.t;
    y = result.y;
    if (result.event < 0) throw std::runtime_error("Lai model: no separation before tau = 1000");
    ++statistics.events;
    record(tau, y);
    const int which = result.event == 0 ? 0 : (compressing && result.event == 1 ? 1 : 2);
    if (which == 0) break;  // separation
    if (which == 1) {
      compressing = false;
      outcome.compression_normal_impulse = y[kGammaN];
      outcome.normal_work_compression = y[kWork];
      continue;
    }
    // Stick/slip switch at tau.
    outcome.phases.push_back({model.mode_, phase_start, tau});
    phase_start = tau;
    if (model.mode_ == Mode::stick) {
      model.mode_ = Mode::slip;
      model.slip_sign_ = y[kEpsilon] >= 0 ? 1.0 : -1.0;
      // Put epsilon exactly on the cone (the event root is accurate to round-off).
      y[kEpsilon] = model.slip_sign_ * model.stick_limit_ * (-y[kDeltaN]);
    } else {
      model.mode_ = Mode::stick;
    }
  }
  outcome.phases.push_back({model.mode_, phase_start, tau});
  if (!outcome.history.empty()) outcome.history.back().mode = Mode::separated;

  outcome.duration = tau;
  outcome.impulse = {y[kGammaT], y[kGammaN]};
  outcome.separation_velocity = model.velocity(y);
  outcome.normal_work_restitution = y[kWork] - outcome.normal_work_compression;
  const double kinetic_change =
      0.5 * (model.v0_ + outcome.separation_velocity).dot(outcome.impulse);
  outcome.creates_energy = kinetic_change > 1e-9;
  if (model.spring_.law != NormalLaw::hertz) {
    outcome.prescribed_restitution = model.spring_.restitution;
    outcome.achieved_restitution = outcome.separation_velocity.y() / std::cos(alpha);
  }
  const auto& s = integrator.statistics();
  statistics.steps = s.steps;
  statistics.rejected = s.rejected;
  statistics.evaluations = s.evaluations;
  return outcome;
}

}  // namespace rebound::lumped
