// What every lumped model computes, in Lai's non-dimensional variables (Lai 1999, eqs. 5.40-5.45):
// impulse g = m v gamma, displacement u = eta delta, spring extension s = eta epsilon,
// time t = (eta / v) tau, force f = (m v^2 / eta) gamma'. Velocities of P are v delta'.
// Converting to SI is the job of lumped/summary.h; the models never see dimensions.
#pragma once

#include <Eigen/Dense>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cases/derived.h"
#include "cases/socket.h"

namespace rebound::lumped {

// A planar impact of a body on a rigid half-space (or, through poisson_ratio and dundurs_beta, on
// an elastic one), non-dimensionalised.
struct Configuration {
  double lambda = 0;    // inertia coupling (Lai 1999, eq. 3.36)
  double theta = 0;     // rad, principal angle of N (3.33)
  double friction = 0;  // Coulomb mu
  // nu of the contact: the body's on a rigid plane; on an elastic target the pair's effective
  // nu* (cases::ContactPair), with which every formula in nu below holds for the pair.
  double poisson_ratio = 0.3;
  // Dundurs' beta of the pair (cases::ContactPair); empty: the body's on a rigid plane,
  // cases::rigid_plane_dundurs_beta(poisson_ratio). Only the half-space model couples with it.
  std::optional<double> dundurs_beta;
  double incidence_angle = 0;  // alpha in [0, pi/2), tan alpha = v_t / -v_n
  // Options of particular models:
  std::string normal_law = "hertz";   // normal spring of the compliant models
  std::optional<double> restitution;  // prescribed e / c / d / c_r
  // Dissipative normal laws: how the damping is taken from restitution, "exact" or "published"
  // (lumped/normal_laws.h).
  std::string restitution_calibration = "exact";
  // A ball in a spherical socket (target.type "spherical_socket"): its geometry in Lai's length
  // unit eta, whose Hertz radius is then R1 R2 / dR (cases/socket.h); empty on a plane. The
  // socket's laws (normal_law liu, wang-gao) and the half-space's exact gap read it.
  std::optional<cases::SocketGeometry> socket;
  int polynomial_index = 2;  // Steuermann's n of normal_law liu and wang-gao
  // normal_law thornton: x_y = delta_y / eta, delta_y = (pi p_y / (2 E*))^2 R with the limiting
  // pressure p_y = 1.6 Y (Thornton 1997; from material.yield_stress).
  std::optional<double> yield_compression;
  // normal_law viscoelastic: Brilliantov et al.'s A in Lai's time unit, A v / eta (from
  // lumped.dissipative_constant, s).
  std::optional<double> dissipative_constant;
  std::optional<double> impulse_ratio;  // Brach
  double relative_tolerance = 1e-8;     // accurate integrators
  double euler_step = 1e-2;             // the Predicting Rebound thesis's fixed-step Euler
  int springs = 200;                    // MDR bed (lumped/mdr.h)
  int cells = 24;                       // half-space grid (lumped/halfspace.h)
  int time_steps = 100;                 // half-space steps per Hertz duration
  bool dundurs_coupling = true;         // half-space: beta of the pair (false: beta = 0)
};

// m N, the inverse inertia operator scaled by the effective mass (Lai 1999, eq. 3.34).
inline Eigen::Matrix2d scaled_inverse_inertia(double lambda, double theta) {
  Eigen::Matrix2d N;
  const double c = std::cos(2 * theta), s = std::sin(2 * theta);
  N << 1 + lambda * c, lambda * s, lambda * s, 1 - lambda * c;
  return N;
}

// Approach velocity of P over v: (sin alpha, -cos alpha) (3.57).
inline Eigen::Vector2d incident_velocity(double incidence_angle) {
  return {std::sin(incidence_angle), -std::cos(incidence_angle)};
}

// Hertz's normal impact of the configuration (docs/THEORY.md §3 and §5, in Lai's units): the normal
// speed cos(alpha) against the normal compliance (m N)_nn = 1 - lambda cos 2 theta, friction and
// the tangential motion left out: the largest approach delta_max = (15/16 cos^2 alpha /
// N_nn)^{2/5}, the contact radius sqrt(delta_max) (in sqrt(R eta)) and the duration
// cases::hertz_duration_constant() delta_max / cos alpha. It sizes the half-space grid and step,
// and is what the long solves report their progress against.
struct HertzNormalImpact {
  double approach, radius, duration;
};
inline HertzNormalImpact hertz_normal_impact(const Configuration& configuration) {
  const double normal_speed = std::cos(configuration.incidence_angle);
  const double normal_compliance = 1 - configuration.lambda * std::cos(2 * configuration.theta);
  const double approach =
      std::pow(15.0 / 16.0 * normal_speed * normal_speed / normal_compliance, 0.4);
  return {approach, std::sqrt(approach),
          cases::hertz_duration_constant() * approach / normal_speed};
}

// A solve stopped by its caller (SolveControl::stop); carries no result, only how far it got:
// the contact time reached over Hertz's duration (hertz_normal_impact).
class Interrupted : public std::runtime_error {
 public:
  explicit Interrupted(double fraction_of_hertz_duration)
      : std::runtime_error(describe(fraction_of_hertz_duration)),
        fraction(fraction_of_hertz_duration) {}
  double fraction;

 private:
  static std::string describe(double fraction) {
    char text[80];
    std::snprintf(text, sizeof text, "interrupted at %.1f %% of Hertz's contact duration",
                  100 * fraction);
    return text;
  }
};

// How the caller of a long solve watches and stops it. The models whose cost the case sets (the
// half-space grid and steps, the MDR springs, the Euler step: seconds to hours) call check() at
// their time steps; the adaptive Lai and uncoupled solves and the rigid-body laws take
// milliseconds and do not.
struct SolveControl {
  // When *stop becomes true (a signal handler's flag), the solve throws Interrupted at its next
  // check.
  const std::atomic<bool>* stop = nullptr;
  // Called at the checks with the contact time reached over the Hertz duration
  // (hertz_normal_impact): an estimate of the fraction done that friction and an eccentric body
  // can take past 1.
  std::function<void(double fraction)> progress;
  // Called when the solve starts again from tau = 0 (the half-space grid enlarged because the
  // contact reached its edge): the progress falls back.
  std::function<void()> started_over;

  void check(double tau, double hertz_duration) const {
    if (stop != nullptr && stop->load(std::memory_order_relaxed))
      throw Interrupted(tau / hertz_duration);
    if (progress) progress(tau / hertz_duration);
  }
};

enum class Mode { stick, slip, separated };
inline const char* to_string(Mode mode) {
  switch (mode) {
    case Mode::stick:
      return "stick";
    case Mode::slip:
      return "slip";
    case Mode::separated:
      return "separated";
  }
  return "?";
}

// One instant of a compliant model's contact, non-dimensional. Vectors are (t, n).
struct Sample {
  double tau = 0;
  Eigen::Vector2d impulse = Eigen::Vector2d::Zero();       // gamma
  Eigen::Vector2d force = Eigen::Vector2d::Zero();         // gamma'
  Eigen::Vector2d displacement = Eigen::Vector2d::Zero();  // delta: rigid-body displacement of P
  Eigen::Vector2d velocity = Eigen::Vector2d::Zero();      // delta': rigid-body velocity of P / v
  double spring_extension = 0;                             // epsilon
  Mode mode = Mode::stick;
  double dissipation = 0;  // D(tau) = -(Delta K + V), >= 0 and non-decreasing
  // Fraction of the contact that sticks (area for the half-space model, springs for the MDR
  // bed); NaN for the single-spring models, whose whole contact is in `mode`.
  double stick_fraction = std::numeric_limits<double>::quiet_NaN();
};

struct Phase {
  Mode mode = Mode::stick;
  double start = 0;  // tau
  double end = 0;    // tau
};

struct Outcome {
  std::string model;                                  // "lai", "uncoupled", "newton", ...
  Eigen::Vector2d impulse = Eigen::Vector2d::Zero();  // gamma at separation
  Eigen::Vector2d separation_velocity = Eigen::Vector2d::Zero();  // delta' at separation = w / v
  double duration = std::numeric_limits<double>::quiet_NaN();     // tau_end; NaN for rigid laws
  double compression_normal_impulse = 0;  // gamma_n when delta_n' = 0 (end of compression)
  double normal_work_compression = 0;     // W_nc over m v^2 (<= 0), Lai 1999, eqs. 5.74-5.75
  double normal_work_restitution = 0;     // W_nr over m v^2 (>= 0)
  double peak_normal_force = std::numeric_limits<double>::quiet_NaN();  // max gamma_n'
  std::vector<Sample> history;     // dense, ordered in tau; empty for rigid-body laws
  std::vector<Phase> phases;       // stick/slip phases in order
  bool creates_energy = false;     // kinetic energy after > before (e.g. Kane's double pendulum)
  std::vector<std::string> notes;  // human-readable remarks (events, defects of the law)
  // Dissipative normal laws (Lai's model): the prescribed e, the e_N this impact achieved
  // (w_n / v_n), how the law's damping was taken from e ("exact" or "published",
  // lumped/normal_laws.h) and that damping (NormalSpring::damping).
  std::optional<double> prescribed_restitution;
  std::optional<double> achieved_restitution;
  std::optional<std::string> restitution_calibration;
  std::optional<double> normal_law_damping;
};

// The history's memory is bounded: at kMaxHistorySamples samples every other one is dropped (the
// first and the newest kept) and the sampling interval doubles, so a contact that lasts far longer
// than usual in tau (lambda near 1) keeps between half and all of that many, evenly thinned.
constexpr std::size_t kMaxHistorySamples = 20000;
// Keeps the samples of even index (the first among them): the sampling interval doubles.
inline void drop_every_other_sample(std::vector<Sample>& history) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < history.size(); i += 2) history[kept++] = history[i];
  history.resize(kept);
}
inline void bound_history(std::vector<Sample>& history, double& spacing) {
  if (history.size() < kMaxHistorySamples) return;
  const Sample newest = history.back();
  const bool newest_dropped = history.size() % 2 == 0;
  drop_every_other_sample(history);
  if (newest_dropped) history.push_back(newest);
  spacing *= 2;
}

// The end of a compliant model's contact at tau_end: the impulse gamma and the separation
// velocity delta' of P, the normal work of restitution (the total normal work W_n less that of
// compression, Lai 1999, eqs. 5.74-5.75) and whether the kinetic energy grew: the change over
// m v^2 is gamma . (delta'(0) + delta'(end)) / 2 (5.70), with delta'(0) = incident_velocity,
// beyond `energy_tolerance` (the integration's own energy error).
inline void finish_contact(Outcome& outcome, double tau_end, const Eigen::Vector2d& impulse,
                           const Eigen::Vector2d& separation_velocity,
                           const Eigen::Vector2d& incident, double normal_work,
                           double energy_tolerance = 1e-9) {
  outcome.duration = tau_end;
  outcome.impulse = impulse;
  outcome.separation_velocity = separation_velocity;
  outcome.normal_work_restitution = normal_work - outcome.normal_work_compression;
  const double kinetic_change = 0.5 * (incident + separation_velocity).dot(impulse);
  outcome.creates_energy = kinetic_change > energy_tolerance;
}

}  // namespace rebound::lumped
