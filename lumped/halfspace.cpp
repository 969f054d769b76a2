#include "lumped/halfspace.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

#include "cases/case.h"
#include "cases/derived.h"
#include "cases/format.h"
#include "cases/socket.h"
#include "lumped/normal_laws.h"

namespace rebound::lumped {
namespace {

thread_local HalfspaceStatistics statistics;

struct ContactLost {};  // the grid is too small: restart on a larger one

Outcome integrate(const Configuration& configuration, const HalfspaceOptions& options,
                  double domain) {
  const double nu = configuration.poisson_ratio, mu = configuration.friction;
  const double alpha = configuration.incidence_angle;
  const Eigen::Matrix2d N = scaled_inverse_inertia(configuration.lambda, configuration.theta);
  const Eigen::Vector2d v0 = incident_velocity(alpha);
  if (!(v0.y() < 0)) throw std::invalid_argument("halfspace: the body must approach the plane");
  const HertzNormalImpact hertz = hertz_normal_impact(configuration);
  const double beta = options.dundurs_coupling
                          ? configuration.dundurs_beta.value_or(cases::rigid_plane_dundurs_beta(nu))
                          : 0.0;
  if (options.cells < 2) throw std::invalid_argument("halfspace: cells must be >= 2");
  const double spacing = 2 * hertz.radius / options.cells;
  int grid = int(std::ceil(domain * options.cells));
  if (grid % 2 == 0) ++grid;  // odd: a cell centred at P
  halfspace::ContactOptions contact_options = options.contact;
  if (contact_options.stop == nullptr) contact_options.stop = options.control.stop;
  halfspace::Contact contact(grid, spacing, nu, beta, mu, contact_options);
  if (configuration.socket) {
    // The ball in a socket: the exact gap of the two spheres (cases::socket_gap) in place of the
    // paraboloid. In-plane lengths are in sqrt(R_eff eta) (R_eff = R1 R2 / dR, the R of eta),
    // the gap in eta; the socket's geometry is already in eta.
    const cases::SocketGeometry socket = *configuration.socket;
    const double unit = std::sqrt(cases::effective_radius(socket));
    contact.set_profile([socket, unit](double r) { return cases::socket_gap(socket, r * unit); });
  }
  const double dt = hertz.duration / options.time_steps;

  statistics.grid_cells = grid;
  statistics.cell_size = spacing;
  statistics.time_step = dt;
  statistics.steps = 0;
  statistics.normal_iterations = statistics.tangential_iterations = statistics.coupling_iterations =
      0;
  statistics.max_out_of_plane_force = 0;
  statistics.min_dissipation_rate = 0;

  Outcome outcome;
  outcome.model = "halfspace";
  double tau = 0, work = 0, peak = 0;
  Eigen::Vector2d gamma = Eigen::Vector2d::Zero(), delta = Eigen::Vector2d::Zero();
  Eigen::Vector2d velocity = v0, force = Eigen::Vector2d::Zero();
  bool compressing = true;
  std::vector<double> normal_forces = {0.0};
  double max_out_of_plane = 0;
  Mode mode = Mode::stick;
  double phase_start = 0;
  bool first_mode = true;
  double next_sample = 0;
  auto sample = [&](double at, Mode m, double stick_fraction, double elastic_energy) {
    Sample s;
    s.tau = at;
    s.impulse = gamma;
    s.force = force;
    s.displacement = delta;
    s.velocity = velocity;
    s.spring_extension = std::numeric_limits<double>::quiet_NaN();  // no single spring
    s.mode = m;
    // D = -(Delta K + V), Delta K = gamma . (delta'(0) + delta'(tau))/2 (Lai 1999, eq. 5.70).
    s.dissipation = -(0.5 * (v0 + velocity).dot(gamma) + elastic_energy);
    s.stick_fraction = stick_fraction;
    return s;
  };
  auto record = [&](const Sample& s, bool always) {
    if (!options.record_history) return;
    if (!always && s.tau + 1e-12 < next_sample) return;
    outcome.history.push_back(s);
    next_sample = s.tau + options.history_spacing;
  };
  record(sample(0, mu > 0 ? Mode::stick : Mode::slip, mu > 0 ? 1.0 : 0.0, 0), true);

  const int max_steps = 50 * options.time_steps;  // a contact lasts a few Hertz durations at most
  for (int k = 0;; ++k) {
    if (k > max_steps) throw std::runtime_error("halfspace: no separation");
    options.control.check(tau, hertz.duration);
    const Eigen::Vector2d acceleration = N * force;
    const Eigen::Vector2d delta_next = delta + dt * velocity + 0.5 * dt * dt * acceleration;
    const double approach = -delta_next.y();
    Eigen::Vector2d force_next = Eigen::Vector2d::Zero();
    double elastic_energy = 0, stick_fraction = 0;
    if (approach > 0) {
      // A stop inside the step's iterations (seconds each on a fine grid) ends the solve as one
      // at the step's start would.
      const halfspace::StepStatistics s = [&] {
        try {
          return contact.step(approach, Eigen::Vector2d(delta_next.x() - delta.x(), 0.0));
        } catch (const halfspace::Contact::Stopped&) {
          throw Interrupted(tau / hertz.duration);
        }
      }();
      ++statistics.steps;
      statistics.normal_iterations += s.normal_iterations;
      statistics.tangential_iterations += s.tangential_iterations;
      statistics.coupling_iterations += s.coupling_iterations;
      if (contact.edge_pressure() > 0) throw ContactLost{};
      const Eigen::Vector2d shear = contact.tangential_force();
      force_next = {shear.x(), contact.normal_force()};
      max_out_of_plane = std::max(max_out_of_plane, std::abs(shear.y()));
      elastic_energy = contact.elastic_energy();
      const int contact_cells = contact.contact_cells();
      stick_fraction = contact_cells > 0 ? double(contact.stuck_cells()) / contact_cells : 0.0;
      statistics.min_dissipation_rate =
          std::min(statistics.min_dissipation_rate, contact.step_dissipation());
    }
    if (!(force_next.y() > 0)) {
      // Separation within this step: delta_n(s) = delta_n + s delta_n' + s^2/2 a_n = 0.
      // With c = delta_n < 0 the upward crossing is the root 2c / (-b - sqrt(b^2 - 4ac)) (the
      // rationalised (-b + sqrt(.))/(2a), also right for a -> 0).
      const double a = 0.5 * acceleration.y(), b = velocity.y(), c = delta.y();
      const double disc = b * b - 4 * a * c;
      double s = dt;
      if (disc >= 0 && -b - std::sqrt(disc) < 0)
        s = std::clamp(2 * c / (-b - std::sqrt(disc)), 0.0, dt);
      const Eigen::Vector2d gamma_end = gamma + 0.4 * s * force;  // int (1 - s'/s)^{3/2} = 2/5 s
      const Eigen::Vector2d velocity_end = v0 + N * gamma_end;
      work += 0.5 * (velocity.y() + velocity_end.y()) * (gamma_end.y() - gamma.y());
      tau += s;
      gamma = gamma_end;
      velocity = velocity_end;
      delta = delta + s * v0 + N * (0.5 * s * s * force);  // for the record only
      force = Eigen::Vector2d::Zero();
      break;
    }
    const Eigen::Vector2d gamma_next = gamma + 0.5 * dt * (force + force_next);
    const Eigen::Vector2d velocity_next = v0 + N * gamma_next;
    const double work_step =
        0.5 * (velocity.y() + velocity_next.y()) * (gamma_next.y() - gamma.y());
    if (compressing && velocity_next.y() >= 0) {
      // End of compression (delta_n' = 0) inside the step: delta_n' is linear in gamma_n on it.
      const double f = -velocity.y() / (velocity_next.y() - velocity.y());
      outcome.compression_normal_impulse = gamma.y() + f * (gamma_next.y() - gamma.y());
      outcome.normal_work_compression =
          work + 0.5 * velocity.y() * f * (gamma_next.y() - gamma.y());
      compressing = false;
    }
    work += work_step;
    tau += dt;
    gamma = gamma_next;
    delta = delta_next;
    velocity = velocity_next;
    force = force_next;
    normal_forces.push_back(force.y());
    peak = std::max(peak, force.y());
    // The contact slides as a whole (gross slip) when no cell sticks; partial slip counts as
    // stick (the stick zone holds the contact). Switches are placed mid-step.
    const Mode m = stick_fraction > 0 ? Mode::stick : Mode::slip;
    bool switched = false;
    if (first_mode) {
      mode = m;
      first_mode = false;
      // The sample at first touch (no contact yet) takes the first step's state of the contact.
      if (!outcome.history.empty()) {
        outcome.history.front().mode = m;
        outcome.history.front().stick_fraction = stick_fraction;
      }
    } else if (m != mode) {
      outcome.phases.push_back({mode, phase_start, tau - 0.5 * dt});
      phase_start = tau - 0.5 * dt;
      mode = m;
      switched = true;
    }
    record(sample(tau, m, stick_fraction, elastic_energy), switched);
  }
  outcome.phases.push_back({mode, phase_start, tau});
  record(sample(tau, Mode::separated, 0.0, 0.0), true);

  // Peak normal force: the largest step value refined by the parabola through its neighbours.
  const auto it = std::max_element(normal_forces.begin(), normal_forces.end());
  const std::size_t i = std::size_t(it - normal_forces.begin());
  outcome.peak_normal_force = *it;
  if (i > 0 && i + 1 < normal_forces.size()) {
    const double y0 = normal_forces[i - 1], y1 = normal_forces[i], y2 = normal_forces[i + 1];
    const double curvature = 2 * y1 - y0 - y2;
    if (curvature > 0) outcome.peak_normal_force = y1 + (y2 - y0) * (y2 - y0) / (8 * curvature);
  }
  statistics.max_out_of_plane_force = peak > 0 ? max_out_of_plane / peak : 0.0;

  // Velocity Verlet conserves energy to O(dtau^2): ~1e-6 of the kinetic energy at 200 steps.
  finish_contact(outcome, tau, gamma, velocity, v0, work, 1e-5);
  char note[256];
  std::snprintf(note, sizeof note,
                "half-space grid %d x %d cells of %.4g sqrt(R eta) (%d across the Hertz contact "
                "diameter), beta = %.4g, %d steps of dtau = %.4g",
                grid, grid, spacing, options.cells, beta, statistics.steps, dt);
  outcome.notes.push_back(note);
  if (configuration.socket)
    outcome.notes.push_back(
        "ball in a spherical socket: the half-space's gap is the exact gap of the two spheres "
        "(R = R1 R2 / dR in eta and the grid's unit)");
  if (mu == 0) outcome.notes.push_back("mu = 0: no tangential traction, the contact slides freely");
  return outcome;
}

}  // namespace

HalfspaceStatistics last_halfspace_statistics() {
  return statistics;
}

Outcome solve_halfspace(const Configuration& configuration, const HalfspaceOptions& options) {
  double domain = options.domain;
  for (int restart = 0; restart < 8; ++restart) {
    try {
      Outcome outcome = integrate(configuration, options, domain);
      statistics.restarts = restart;
      if (restart > 0)
        outcome.notes.push_back("the contact reached the grid's edge: grid enlarged " +
                                std::to_string(restart) + " time(s)");
      return outcome;
    } catch (const ContactLost&) {
      domain *= 1.25;
      if (options.control.started_over) options.control.started_over();
    }
  }
  throw std::runtime_error("halfspace: the contact keeps growing beyond the grid");
}

HalfspaceStaticContact halfspace_static_contact(const cases::Case& c, double approach,
                                                const HalfspaceStaticOptions& options) {
  check_static_approach(c, approach);
  if (options.cells < 2)
    throw std::invalid_argument("halfspace static contact: cells is " +
                                std::to_string(options.cells) + "; expected >= 2");
  if (!(options.domain > 0) || !std::isfinite(options.domain))
    throw std::invalid_argument("halfspace static contact: domain is " +
                                cases::format_number(options.domain) + "; expected > 0");
  HalfspaceStaticContact result;
  result.approach = approach;
  if (approach == 0) return result;
  const cases::Derived d = cases::derive(c);
  const double E = d.contact_modulus, R = d.hertz.radius;
  // Units: the gap in delta, in-plane lengths in sqrt(R delta), pressures in E* sqrt(delta / R),
  // forces in E* sqrt(R) delta^{3/2} (Hertz: (4/3) in these units, contact radius 1).
  const double length = std::sqrt(R * approach);
  const double pressure = E * std::sqrt(approach / R), force = pressure * length * length;
  const double spacing = 2.0 / options.cells;
  int grid = int(std::ceil(options.domain * options.cells));
  if (grid % 2 == 0) ++grid;
  halfspace::Contact contact(grid, spacing, d.pair.poisson_ratio, 0.0, 0.0, options.contact);
  if (c.target.type == cases::TargetType::spherical_socket) {
    const cases::SocketGeometry socket = cases::scaled(cases::socket_geometry(c), approach);
    const double unit = std::sqrt(cases::effective_radius(socket));  // sqrt(R delta) in delta
    contact.set_profile([socket, unit](double r) { return cases::socket_gap(socket, r * unit); });
  }
  result.iterations = contact.step(1.0, Eigen::Vector2d::Zero()).normal_iterations;
  result.grid_cells = grid;
  result.cell_size = spacing * length;
  result.grid_half_width = 0.5 * grid * spacing * length;
  result.edge_pressure = contact.edge_pressure() * pressure;
  if (result.edge_pressure > 0)
    throw std::runtime_error(
        "halfspace static contact: at approach " + cases::format_number(approach) +
        " m the contact reaches the edge of the grid (" + std::to_string(grid) + " x " +
        std::to_string(grid) + " cells of " + cases::format_number(result.cell_size) +
        " m, half-width " + cases::format_number(result.grid_half_width) + " m; pressure " +
        cases::format_number(result.edge_pressure) +
        " Pa on its outer ring): the grid is too small, enlarge domain (" +
        cases::format_number(options.domain) + ")");
  result.force = contact.normal_force() * force;
  result.contact_radius = std::sqrt(contact.contact_cells() * spacing * spacing / M_PI) * length;
  result.max_pressure = contact.fields().pressure.maxCoeff() * pressure;
  return result;
}

}  // namespace rebound::lumped
