#include "lumped/lai.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "cases/derived.h"
#include "lumped/integrator.h"
#include "lumped/normal_laws.h"

namespace rebound::lumped {
namespace {

// Lai's equations (docs/THEORY.md §5) are integrated in a contact variable s with
// dtau/ds = sigma = sqrt(-delta_n) (a Sundman time transformation). In s the right-hand side is
// a polynomial in the state, sigma' = -delta_n' / 2, gamma' = sigma gamma_tau' with
//   sigma f_n = (4/3) sigma^4 + eps^2 / (3 kappa),   sigma f_t = -(4 / (3 kappa)) eps sigma^2,
// so the solution is smooth at first touch and at separation (in tau the forces grow like
// (-delta_n)^{3/2} there and the integrator has to crawl), the step that crosses separation does
// not shrink, and no square root or division is evaluated per stage.
//
// State: gamma_t, gamma_n, sigma, epsilon (the right-hand side depends on these), then the
// quadratures W_n = int delta_n' dgamma_n (normal work) and tau, and, when the history is
// recorded, delta_t (output only: outside the error norm, so the steps do not depend on it).
enum : int { kGammaT = 0, kGammaN, kSigma, kEpsilon, kWork, kTau, kDeltaT };
constexpr int kControlled = 6;  // components in the error norm

template <bool kHistory>
struct Layout {
  static constexpr int size = kHistory ? 7 : 6;
  using State = Eigen::Matrix<double, size, 1>;
  using Integrator = DormandPrince<size, size - 4, kControlled>;
};

thread_local LaiStatistics statistics;

class LaiModel {
 public:
  explicit LaiModel(const Configuration& c)
      : kappa_(cases::kappa_of(c.poisson_ratio)),
        stick_limit_(cases::stick_limit(kappa_, c.friction)),
        friction_(c.friction),
        frictionless_(c.friction == 0),
        always_stick_(std::isinf(stick_limit_)),
        N_(scaled_inverse_inertia(c.lambda, c.theta)),
        v0_(incident_velocity(c.incidence_angle)),
        spring_(normal_spring(c)),
        hertz_(spring_.law == NormalLaw::hertz),
        socket_law_(spring_.law == NormalLaw::liu || spring_.law == NormalLaw::wang_gao),
        // The laws whose release (NormalSpring::release) is located as an event: thornton's
        // x = x_f (the force ~ (x - x_f)^{3/2} is not smooth there) and viscoelastic's cut.
        watches_release_(spring_.law == NormalLaw::thornton ||
                         spring_.law == NormalLaw::viscoelastic),
        // The plane's laws other than Hertz's: the slip cone is Coulomb's on the law's force.
        coulomb_law_(!hertz_ && !socket_law_),
        tangential_stiffness_(4.0 / (3.0 * kappa_)),
        coupling_(1.0 / (3.0 * kappa_)) {}

  template <class State>
  Eigen::Vector2d velocity(const State& y) const {
    return v0_ + N_ * Eigen::Vector2d(y[kGammaT], y[kGammaN]);
  }
  // epsilon: integrated in stick; in slip on the cone, sgn(eps) C (-delta_n), so that
  // |eps| = C (-delta_n) holds exactly; 0 without friction.
  template <class State>
  double extension(const State& y) const {
    return mode_ == Mode::stick ? y[kEpsilon] : slip_extension(y);
  }
  template <class State>
  double slip_extension(const State& y) const {
    if (coulomb_law_) return slip_sign_ * coulomb_cone(y[kSigma] * y[kSigma], -velocity(y).y());
    return slip_cone_ * (y[kSigma] * y[kSigma]);
  }
  // Coulomb's cone in eps for a normal law F(x, x') other than Hertz's (docs/THEORY.md §7,
  // "Coulomb's bound with a dissipative law"): the tangential force (4/(3 kappa)) |eps| sigma
  // equals mu times the normal force F + eps^2 / (3 kappa sigma) where
  // mu eps^2 - 4 x |eps| + 3 kappa mu sigma F = 0, whose smaller root is
  //   |eps| = (3/2) kappa mu F / (sqrt(x) (1 + s)),  s = sqrt(1 - kappa mu^2 f),
  // f = F / ((4/3) x^{3/2}) the law's force over Hertz's at x. For Hertz (f = 1) it is C x, the
  // cone of Lai's eq. 5.57 (stick_limit_). Where kappa mu^2 f > 1 no extension reaches mu F_n
  // (the contact sticks); s is then taken as 0, which keeps the cone continuous and |F_t| below
  // mu F_n.
  double coulomb_cone(double x, double rate) const {
    return cone_of(x, spring_.force(x, rate)).value;
  }
  // d|eps|/dtau on the cone: its partials times x' and, through F(x, x'), x'' (the normal
  // acceleration of P, N times the contact force).
  template <class State>
  double coulomb_cone_rate(const State& y) const {
    const Eigen::Vector2d v = velocity(y), a = N_ * force(y, v);
    const double x = y[kSigma] * y[kSigma], rate = -v.y(), acceleration = -a.y();
    const NormalSpring::Slopes f = spring_.force_and_slopes(x, rate);
    const Cone c = cone_of(x, f.force);
    return (c.by_compression + c.by_force * f.compression) * rate +
           c.by_force * f.rate * acceleration;
  }
  struct Cone {
    double value, by_compression, by_force;  // |eps| and its partials in x (F held) and F
  };
  Cone cone_of(double x, double force) const {
    if (!(x > 0) || !(force > 0)) return {0.0, 0.0, 0.0};
    const double root = std::sqrt(x), k = kappa_ * friction_ * friction_,
                 scale = 1.5 * kappa_ * friction_;
    const double f = 0.75 * force / (x * root), s = std::sqrt(std::max(0.0, 1.0 - k * f));
    const double value = scale * force / (root * (1.0 + s));
    // ds/dx = (3/4) k f / (x s), ds/dF = -(3/8) k / (x^{3/2} s); 0 where s is held at 0.
    const double ds_dx = s > 0 ? 0.75 * k * f / (x * s) : 0.0;
    const double ds_df = s > 0 ? -0.375 * k / (x * root * s) : 0.0;
    return {value, value * (-0.5 / x - ds_dx / (1.0 + s)),
            value * (1.0 / force - ds_df / (1.0 + s))};
  }
  // Contact force gamma' (t, n) = d gamma / d tau.
  template <class State>
  Eigen::Vector2d force(const State& y, const Eigen::Vector2d& velocity) const {
    const double sigma = y[kSigma];
    if (!(sigma > 0)) return Eigen::Vector2d::Zero();
    const double eps = extension(y);
    const double normal_elastic =
        hertz_ ? 4.0 / 3.0 * sigma * sigma * sigma : spring_.force(sigma * sigma, -velocity.y());
    return {-tangential_stiffness_ * eps * sigma, normal_elastic + coupling_ * eps * eps / sigma};
  }
  // dy/ds in stick (kStick) or slip.
  template <bool kStick, class State>
  State rhs(const State& y) const {
    const Eigen::Vector2d v = velocity(y);
    const double sigma = y[kSigma], sigma2 = sigma * sigma;
    const double eps = kStick ? y[kEpsilon] : slip_extension(y);
    // sigma times the elastic normal force: (4/3) sigma^4 for Hertz, continued analytically
    // below sigma = 0 (visited by the stages of the step that crosses separation).
    const double normal =
        hertz_ ? 4.0 / 3.0 * (sigma2 * sigma2) : std::abs(sigma) * spring_.force(sigma2, -v.y());
    const double normal_rate = normal + coupling_ * (eps * eps);  // d gamma_n / ds
    State dy;
    dy[kGammaT] = -tangential_stiffness_ * eps * sigma2;
    dy[kGammaN] = normal_rate;
    dy[kSigma] = -0.5 * v.y();
    dy[kEpsilon] = kStick ? sigma * v.x() : 0.0;
    dy[kWork] = v.y() * normal_rate;
    dy[kTau] = sigma;
    if constexpr (int(State::RowsAtCompileTime) > int(kDeltaT)) dy[kDeltaT] = sigma * v.x();
    return dy;
  }
  // Switching functions.
  template <class State>
  double separation(const State& y) const {  // delta_n = -sigma^2 back to 0: sigma through 0
    return -y[kSigma];
  }
  template <class State>
  double compression_end(const State& y) const {  // delta_n' = 0
    return v0_.y() + N_(1, 0) * y[kGammaT] + N_(1, 1) * y[kGammaN];
  }
  // The normal law's release (thornton's x = x_f, viscoelastic's cut), upward through 0; once
  // located the law's force is 0 (NormalSpring::released) and the slot is not watched again.
  template <class State>
  double release(const State& y) const {
    if (spring_.released || !spring_.releases()) return -1.0;
    return -spring_.release(y[kSigma] * y[kSigma], -velocity(y).y());
  }
  template <class State>
  double cone_reached(const State& y) const {  // |eps| reaches the cone (Hertz: C (-delta_n))
    const double x = y[kSigma] * y[kSigma];
    return std::abs(y[kEpsilon]) -
           (coulomb_law_ ? coulomb_cone(x, -velocity(y).y()) : stick_limit_ * x);
  }
  template <class State>
  double slip_reversal(const State& y) const {  // the slip velocity reaches 0 (Hertz: sgn(eps)
    // delta_t' + C delta_n')
    const Eigen::Vector2d v = velocity(y);  // (docs/THEORY.md §12: Lai 1999, eq. 5.60 corrected)
    if (coulomb_law_) return slip_sign_ * v.x() - coulomb_cone_rate(y);
    return slip_sign_ * v.x() + stick_limit_ * v.y();
  }
  // Stored energy of the springs over m v^2 (docs/THEORY.md §5).
  template <class State>
  double potential(const State& y) const {
    const double sigma = y[kSigma];
    if (!(sigma > 0)) return 0;
    const double eps = extension(y), sigma2 = sigma * sigma;
    // The socket's laws store their own K(x) x, thornton what its unloading branch returns; the
    // plane's other laws Hertz's (8/15) x^{5/2}.
    const double normal =
        hertz_ ? 8.0 / 15.0 * sigma2 * sigma2 * sigma : spring_.elastic_energy(sigma2);
    return normal + 2.0 / (3.0 * kappa_) * eps * eps * sigma;
  }
  template <class State>
  double dissipation(const State& y) const {
    const Eigen::Vector2d gamma(y[kGammaT], y[kGammaN]);
    const double kinetic_change = 0.5 * (v0_ + velocity(y)).dot(gamma);
    return -(kinetic_change + potential(y));
  }
  template <class State>
  Sample sample(double tau, const State& y) const {
    Sample s;
    s.tau = tau;
    s.impulse = {y[kGammaT], y[kGammaN]};
    s.velocity = velocity(y);
    s.force = force(y, s.velocity);
    if constexpr (int(State::RowsAtCompileTime) > int(kDeltaT))
      s.displacement = {y[kDeltaT], -(y[kSigma] * y[kSigma])};
    else
      s.displacement = {std::numeric_limits<double>::quiet_NaN(), -(y[kSigma] * y[kSigma])};
    s.spring_extension = extension(y);
    s.mode = mode_;
    s.dissipation = dissipation(y);
    return s;
  }
  // Sets the mode and, for slip, its direction sgn(eps) = slip_sign.
  void set_mode(Mode mode, double slip_sign) {
    mode_ = mode;
    slip_sign_ = slip_sign;
    slip_cone_ = frictionless_ ? 0.0 : slip_sign * stick_limit_;
  }

  double kappa_, stick_limit_, friction_;
  bool frictionless_, always_stick_;
  Eigen::Matrix2d N_;
  Eigen::Vector2d v0_;
  NormalSpring spring_;
  bool hertz_, socket_law_, watches_release_;
  // The slip cone is Coulomb's on the law's own force (coulomb_cone), not Hertz's C x: every law
  // of the plane but Hertz's (the socket's laws keep C x, docs/THEORY.md §7).
  bool coulomb_law_;
  double tangential_stiffness_, coupling_;  // 4 / (3 kappa), 1 / (3 kappa)
  Mode mode_ = Mode::stick;
  double slip_sign_ = 1;
  double slip_cone_ = 0;  // eps / (-delta_n) in slip: sgn(eps) C, 0 without friction
};

// The switching surfaces watched on one segment in stick (kStick) or slip, as an event set of
// the integrator. Fixed slots, so that the integrator's loop over them unrolls; a slot not
// watched stays at -1 and never fires.
enum : int { kSeparation = 0, kCompressionEnd, kFrictionSwitch, kRelease };
template <bool kStick>
struct LaiEvents {
  const LaiModel& model;
  bool compressing, friction;
  static constexpr int size() { return 4; }
  // Separation, end of compression, the law's release and stick -> slip upward; slip -> stick
  // downward.
  static constexpr int direction(int i) { return i == kFrictionSwitch && !kStick ? -1 : 1; }
  template <class State>
  double value(int i, double, const State& y) const {
    if (i == kSeparation) return model.separation(y);
    if (i == kCompressionEnd) return compressing ? model.compression_end(y) : -1.0;
    if (i == kRelease) return compressing || !model.watches_release_ ? -1.0 : model.release(y);
    if (!friction) return -1.0;
    return kStick ? model.cone_reached(y) : model.slip_reversal(y);
  }
};

template <bool kHistory>
Outcome solve(const Configuration& configuration, const LaiOptions& options) {
  using State = typename Layout<kHistory>::State;
  using Integrator = typename Layout<kHistory>::Integrator;
  LaiModel model(configuration);
  Outcome outcome;
  outcome.model = "lai";
  outcome.phases.reserve(4);
  if (kHistory && options.history_spacing > 0)  // a contact lasts tau ~ 4-6 (3.97 for Hertz)
    outcome.history.reserve(std::size_t(std::min(8 / options.history_spacing, 1e5)) + 8);
  statistics = {};

  const double alpha = configuration.incidence_angle;
  const double tan_alpha = std::tan(alpha);
  const double slip_sign = alpha >= 0 ? 1.0 : -1.0;
  // Initial mode (Lai 1999, eq. 5.57): stick iff |tan alpha| < C.
  if (model.frictionless_) {
    model.set_mode(Mode::slip, slip_sign);
    outcome.notes.push_back("mu = 0: no tangential force, the contact slides freely");
  } else if (model.always_stick_) {
    model.set_mode(Mode::stick, slip_sign);
    outcome.notes.push_back(
        "kappa mu^2 >= 1: the tangential spring never reaches the friction "
        "limit, the contact sticks throughout (no dissipation)");
  } else {
    // ... with the cone's opening at first touch, lim |eps| / x (C for Hertz, Thornton and
    // Michalczyk; C of f = 1 + D for the viscous laws; unbounded for the viscoelastic law, whose
    // force ~ A x' sqrt(x) dwarfs Hertz's there).
    const double x0 = 1e-12, opening = model.coulomb_law_
                                           ? model.coulomb_cone(x0, -model.v0_.y()) / x0
                                           : model.stick_limit_;
    model.set_mode(std::abs(tan_alpha) < opening ? Mode::stick : Mode::slip, slip_sign);
  }
  const bool friction = !model.frictionless_ && !model.always_stick_;

  IntegratorOptions integrator_options;
  integrator_options.relative_tolerance = configuration.relative_tolerance;
  integrator_options.absolute_tolerance = configuration.relative_tolerance * 1e-2;
  Integrator integrator(integrator_options);

  auto rhs_stick = [&model](double, const State& y) { return model.rhs<true>(y); };
  auto rhs_slip = [&model](double, const State& y) { return model.rhs<false>(y); };
  auto update_peak = [&outcome](double force) {
    outcome.peak_normal_force =
        std::isnan(outcome.peak_normal_force) ? force : std::max(outcome.peak_normal_force, force);
  };
  double spacing = options.history_spacing;  // doubles when the history is thinned
  auto record = [&](double tau, const State& y) {
    const Sample s = model.sample(tau, y);
    update_peak(s.force.y());
    if (kHistory) {
      outcome.history.push_back(s);
      bound_history(outcome.history, spacing);
    }
  };
  double next_sample = options.history_spacing;
  auto observer = [&](const typename Integrator::DenseStep& step) {
    if constexpr (kHistory) {
      // A sample every history_spacing in tau. tau increases along the step (dtau/ds = sigma > 0
      // inside the contact): solve tau(theta) = sample, theta = (s - t0) / h, on the quartic
      // continuous extension of tau, by Newton from the cubic Hermite interpolant of the inverse.
      const std::array<double, 5> c = step.coefficients(kTau);
      const double p1 = c[1] + c[2], p2 = c[3] - c[2] + c[4], p3 = -c[3] - 2 * c[4], p4 = c[4];
      auto tau_at = [&](double theta) {
        return c[0] + theta * (p1 + theta * (p2 + theta * (p3 + theta * p4)));
      };
      auto slope_at = [&](double theta) {
        return p1 + theta * (2 * p2 + theta * (3 * p3 + theta * 4 * p4));
      };
      const double theta1 = (step.t1 - step.t0) / step.h, tau0 = c[0], tau1 = tau_at(theta1);
      if (next_sample < tau1) {
        // Inverse Hermite data: theta(tau0) = 0, theta(tau1) = theta1, dtheta/dtau at both ends
        // (in units of the step's tau range).
        const double range = tau1 - tau0, m0 = range / p1, m1 = range / slope_at(theta1),
                     inverse_range = 1 / range;
        const bool hermite = std::isfinite(m0) && std::isfinite(m1) && m0 > 0 && m1 > 0;
        for (; next_sample < tau1; next_sample += spacing) {
          if (!(next_sample > tau0)) continue;
          const double u = (next_sample - tau0) * inverse_range;
          double theta = std::clamp(
              hermite ? u * (m0 + u * ((3 * theta1 - 2 * m0 - m1) + u * (m0 + m1 - 2 * theta1)))
                      : theta1 * u,
              0.0, theta1);
          for (int iteration = 0; iteration < 20; ++iteration) {
            const double residual = tau_at(theta) - next_sample;
            // 1e-12: the state is then at the sample's tau far below the integration error.
            if (std::abs(residual) <= 1e-12 * std::max(1.0, next_sample)) break;
            theta = std::clamp(theta - residual / slope_at(theta), 0.0, theta1);
          }
          record(next_sample, step.at(step.t0 + theta * step.h));
        }
      }
    }
    // Peak normal force over the step ends (events go through record()): f_n = gamma_n'(s) / sigma.
    if (step.t1 == step.t0 + step.h && step.end()[kSigma] > 0)
      update_peak(step.end_derivative()[kGammaN] / step.end()[kSigma]);
  };

  State y = State::Zero();
  double s = 0;
  bool compressing = true;
  double phase_start = 0;
  // Where the law's force jumps or vanishes (an event), a sticking spring outside Coulomb's cone
  // of the force after it starts to slip there.
  auto slip_if_outside_cone = [&](double rate) {
    if (!model.coulomb_law_ || !friction || model.mode_ != Mode::stick) return;
    if (!(std::abs(y[kEpsilon]) > model.coulomb_cone(y[kSigma] * y[kSigma], rate))) return;
    outcome.phases.push_back({model.mode_, phase_start, y[kTau]});
    phase_start = y[kTau];
    model.set_mode(Mode::slip, y[kEpsilon] >= 0 ? 1.0 : -1.0);
  };
  record(0, y);
  constexpr double kSLimit = 1e4;  // far beyond any contact (normal Hertz impact: s_c ~ 7)
  // First step: in s the solution starts smoothly, and a step of 0.1 has an error estimate of
  // ~0.5 at rtol 1e-8 (the automatic choice starts 1000 times smaller and wastes 3-4 steps).
  double h = 0.1 * std::pow(configuration.relative_tolerance / 1e-8, 0.2);
  for (int segment = 0; segment < 10000; ++segment) {
    const auto result =
        model.mode_ == Mode::stick
            ? integrator.integrate(rhs_stick, s, y, kSLimit,
                                   LaiEvents<true>{model, compressing, friction}, observer, h)
            : integrator.integrate(rhs_slip, s, y, kSLimit,
                                   LaiEvents<false>{model, compressing, friction}, observer, h);
    h = integrator.last_step();
    s = result.t;
    y = result.y;
    if (result.event < 0) throw std::runtime_error("Lai model: no separation");
    ++statistics.events;
    if (result.event == kSeparation) y[kSigma] = 0;  // on the surface (the root is to round-off)
    // (At a release or the end of compression the sample is taken after the law's switch, so that
    // it shows the force and the friction from there on.)
    if (result.event != kRelease && result.event != kCompressionEnd) record(y[kTau], y);
    if (result.event == kSeparation) break;
    if (result.event == kRelease) {
      model.spring_.released = true;  // the normal law's force is 0 from here on
      // ... and so is Coulomb's bound on the tangential force: a sticking spring slides (eps = 0).
      slip_if_outside_cone(0.0);
      record(y[kTau], y);
      continue;
    }
    if (result.event == kCompressionEnd) {
      compressing = false;
      // thornton: the unloading branch from this x_max (the law's memory of this impact).
      model.spring_.start_unloading(y[kSigma] * y[kSigma]);
      outcome.compression_normal_impulse = y[kGammaN];
      outcome.normal_work_compression = y[kWork];
      // Michalczyk's force drops to R^2 times Hertz's as restitution starts (x' < 0): a sticking
      // spring beyond the narrowed cone slides.
      slip_if_outside_cone(-std::numeric_limits<double>::denorm_min());
      record(y[kTau], y);
      continue;
    }
    // Stick/slip switch at tau.
    outcome.phases.push_back({model.mode_, phase_start, y[kTau]});
    phase_start = y[kTau];
    if (model.mode_ == Mode::stick) {
      // From here on epsilon is exactly on the cone (the event root is on it to round-off).
      model.set_mode(Mode::slip, y[kEpsilon] >= 0 ? 1.0 : -1.0);
    } else {
      y[kEpsilon] = model.slip_extension(y);
      model.set_mode(Mode::stick, model.slip_sign_);
    }
  }
  const double tau = y[kTau];
  outcome.phases.push_back({model.mode_, phase_start, tau});
  if (!outcome.history.empty()) outcome.history.back().mode = Mode::separated;

  finish_contact(outcome, tau, {y[kGammaT], y[kGammaN]}, model.velocity(y), model.v0_, y[kWork]);
  if (model.spring_.dissipative()) {
    outcome.achieved_restitution = outcome.separation_velocity.y() / std::cos(alpha);
    if (model.spring_.calibrated()) {  // (thornton and viscoelastic take no restitution)
      outcome.prescribed_restitution = model.spring_.restitution;
      outcome.restitution_calibration = to_string(model.spring_.calibration);
      outcome.normal_law_damping = model.spring_.damping;
    }
  }
  const auto& integrator_statistics = integrator.statistics();
  statistics.steps = integrator_statistics.steps;
  statistics.rejected = integrator_statistics.rejected;
  statistics.evaluations = integrator_statistics.evaluations;
  return outcome;
}

}  // namespace

LaiStatistics last_lai_statistics() {
  return statistics;
}

Outcome solve_lai(const Configuration& configuration, const LaiOptions& options) {
  // The history adds delta_t to the state, outside the error norm: both paths take the same steps.
  return options.record_history ? solve<true>(configuration, options)
                                : solve<false>(configuration, options);
}

}  // namespace rebound::lumped
