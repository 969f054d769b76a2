#include "halfspace/contact.h"

#include <algorithm>
#include <cmath>

namespace rebound::halfspace {
namespace {

void zero(ContactFields& f, int n) {
  for (Influence::Field* x : {&f.pressure, &f.shear_t, &f.shear_b, &f.displacement_n,
                              &f.displacement_t, &f.displacement_b})
    x->setZero(n);
}

}  // namespace

Contact::Contact(int cells, double spacing, double poisson_ratio, double beta, double friction,
                 ContactOptions options)
    : influence_(cells, spacing, poisson_ratio, beta), friction_(friction), options_(options) {
  const int n = influence_.size();
  profile_.resize(n);
  for (int i = 0; i < cells; ++i) {
    for (int j = 0; j < cells; ++j) {
      const double x = influence_.coordinate(i), y = influence_.coordinate(j);
      profile_[i * cells + j] = 0.5 * (x * x + y * y);  // the sphere's gap x^2/(2R), R = 1
    }
  }
  zero(previous_, n);
  zero(current_, n);
  for (Influence::Field* x : {&cross_n_, &cross_t_, &cross_b_, &u_, &r_, &t_, &g_, &y_t_, &y_b_,
                              &x_t_, &x_b_, &c_t_, &c_b_})
    x->setZero(n);
}

void Contact::set_profile(const std::function<double(double)>& gap_of_radius) {
  const int cells = influence_.cells();
  for (int i = 0; i < cells; ++i)
    for (int j = 0; j < cells; ++j) {
      const double x = influence_.coordinate(i), y = influence_.coordinate(j);
      const double h = gap_of_radius(std::hypot(x, y));
      profile_[i * cells + j] = std::isfinite(h) ? h : 1e300;  // 1e300: never in contact
    }
}

StepStatistics Contact::step(double approach, const Eigen::Vector2d& shift) {
  // Start from the linear extrapolation of the last two steps' tractions (the load steps of an
  // impact are uniform and smooth in time): it halves the iterations of both solvers.
  Influence::Field& p = current_.pressure;
  Influence::Field& q_t = current_.shear_t;
  Influence::Field& q_b = current_.shear_b;
  if (options_.extrapolate) {
    const Influence::Field p_guess = (2 * p - previous_.pressure).cwiseMax(0.0),
                           q_t_guess = 2 * q_t - previous_.shear_t,
                           q_b_guess = 2 * q_b - previous_.shear_b;
    previous_ = current_;
    p = p_guess;
    q_t = q_t_guess;
    q_b = q_b_guess;
  } else {
    previous_ = current_;
  }
  StepStatistics statistics;
  const bool frictional = friction_ > 0;
  const bool coupled = frictional && influence_.beta() != 0;
  cross_n_.setZero();
  cross_t_.setZero();
  cross_b_.setZero();
  if (coupled) influence_.normal_from_shear(q_t, q_b, cross_n_);  // the shear starts at the guess
  Influence::Field p_before, q_t_before, q_b_before;
  for (int iteration = 0; iteration < 200; ++iteration) {
    p_before = p;
    q_t_before = q_t;
    q_b_before = q_b;
    statistics.normal_iterations += solve_normal(approach, cross_n_);
    ++statistics.coupling_iterations;
    if (!frictional) {
      q_t.setZero();
      q_b.setZero();
      c_t_.setZero();
      c_b_.setZero();
      step_dissipation_ = 0;
      break;
    }
    if (coupled) influence_.shear_from_pressure(p, cross_t_, cross_b_);
    statistics.tangential_iterations += solve_tangential(shift);
    if (!coupled) break;
    influence_.normal_from_shear(q_t, q_b, cross_n_);
    // Panagiotopoulos process: converged when another normal and tangential solve change
    // neither field.
    const double scale = std::max(p.maxCoeff(), 1e-300);
    const double change =
        std::max({(p - p_before).cwiseAbs().maxCoeff(), (q_t - q_t_before).cwiseAbs().maxCoeff(),
                  (q_b - q_b_before).cwiseAbs().maxCoeff()});
    if (change <= options_.coupling_tolerance * scale) break;
  }
  // Elastic displacements of the solution: u_n = C_nn p + C_nt q, u_tb = C_tt q + C_tn p
  // (c_t_, c_b_ hold C_tt q from the tangential solve).
  influence_.normal(p, current_.displacement_n);
  current_.displacement_n += cross_n_;
  current_.displacement_t = c_t_ + cross_t_;
  current_.displacement_b = c_b_ + cross_b_;
  return statistics;
}

// Polonsky & Keer (1999), the conjugate-gradient method for the normal contact, with the rigid
// approach d given: minimises 1/2 p^T C_nn p + p^T (h - d + offset) over p >= 0. On the set S of
// loaded cells the gap is driven to zero along conjugate directions t (t = g + (G/G_old) t_old,
// G = sum_S g^2); a step tau = (g . t)/(C t . t) on S, negative pressures are set to 0, and cells
// with p = 0 but a negative gap (overlap) enter S with p = -tau g (and the conjugacy restarts).
int Contact::solve_normal(double approach, const Influence::Field& offset) {
  Influence::Field& p = current_.pressure;
  const int n = influence_.size();
  p = p.cwiseMax(0.0);
  if (!(p.sum() > 0)) {  // first contact: the overlap over the self-influence as a start
    g_ = profile_.array() - approach + offset.array();
    p = (-g_).cwiseMax(0.0) / influence_.self_normal();
  }
  if (!(p.sum() > 0)) return 0;
  double g_old = 1;
  bool conjugate = false;
  t_.setZero();
  int iteration = 0;
  while (iteration < options_.max_iterations) {
    throw_if_stopped();
    ++iteration;
    influence_.normal(p, u_);
    g_ = u_.array() + profile_.array() - approach + offset.array();
    double g_sum = 0;
    for (int i = 0; i < n; ++i)
      if (p[i] > 0) g_sum += g_[i] * g_[i];
    const double ratio = conjugate ? g_sum / g_old : 0.0;
    for (int i = 0; i < n; ++i) t_[i] = p[i] > 0 ? g_[i] + ratio * t_[i] : 0.0;
    g_old = g_sum;
    influence_.normal(t_, r_);
    double rt = 0, gt = 0;
    for (int i = 0; i < n; ++i) {
      if (p[i] > 0) {
        rt += r_[i] * t_[i];
        gt += g_[i] * t_[i];
      }
    }
    const double tau = rt > 0 ? gt / rt : 0.0;
    double change = 0, total = 0;
    bool overlap = false;
    for (int i = 0; i < n; ++i) {
      const double before = p[i];
      if (p[i] > 0) p[i] = std::max(0.0, p[i] - tau * t_[i]);
      // Overlap: an unloaded cell that penetrates the plane is loaded.
      else if (g_[i] < 0) {
        p[i] = -tau * g_[i];
        overlap = overlap || p[i] > 0;
      }
      change += std::abs(p[i] - before);
      total += p[i];
    }
    conjugate = !overlap;
    if (!(total > 0)) break;  // no contact left
    if (change <= options_.normal_tolerance * total) break;
  }
  return iteration;
}

// Accelerated projected gradients on min 1/2 (q - q_prev)^T C_tt (q - q_prev) + q^T b over the
// discs |q_i| <= mu p_i (see the header): the gradient C_tt q - (C_tt q)_prev + b is the slip
// increment ds of the step, so a fixed point q = P(q - ds/L) is exactly Kalker's stick/slip
// condition. L bounds the spectrum of C_tt, so every step decreases the objective.
int Contact::solve_tangential(const Eigen::Vector2d& shift) {
  Influence::Field& p = current_.pressure;
  Influence::Field& q_t = current_.shear_t;
  Influence::Field& q_b = current_.shear_b;
  const int n = influence_.size();
  // The stopping scale: the largest traction Coulomb allows, mu max p, but never more than the
  // pressure itself: with a large mu (full stick, mu = 1000) mu max p would stop FISTA at a
  // change of 1e-2 max p instead of 1e-5.
  const double limit_scale = std::min(friction_, 1.0) * p.maxCoeff();
  // b minus (C_tt q)_prev: the part of ds that does not depend on q.
  const Influence::Field b_t = (cross_t_ - previous_.displacement_t).array() + shift.x();
  const Influence::Field b_b = (cross_b_ - previous_.displacement_b).array() + shift.y();
  auto project = [&](Influence::Field& a_t, Influence::Field& a_b) {
    for (int i = 0; i < n; ++i) {
      const double limit = friction_ * std::max(p[i], 0.0);
      const double magnitude = std::hypot(a_t[i], a_b[i]);
      if (magnitude > limit) {
        const double s = magnitude > 0 ? limit / magnitude : 0.0;
        a_t[i] *= s;
        a_b[i] *= s;
      }
    }
  };
  int iteration = 0;
  if (limit_scale > 0) {
    const double inverse_l = 1 / influence_.tangential_norm();
    x_t_ = q_t;
    x_b_ = q_b;
    project(x_t_, x_b_);
    y_t_ = x_t_;
    y_b_ = x_b_;
    double momentum = 1;
    Influence::Field next_t, next_b;
    while (iteration < options_.max_iterations) {
      throw_if_stopped();
      ++iteration;
      influence_.tangential(y_t_, y_b_, c_t_, c_b_);
      next_t = y_t_ - inverse_l * (c_t_ + b_t);
      next_b = y_b_ - inverse_l * (c_b_ + b_b);
      project(next_t, next_b);
      double change = 0, restart = 0;
      for (int i = 0; i < n; ++i) {
        const double d_t = next_t[i] - x_t_[i], d_b = next_b[i] - x_b_[i];
        change = std::max(change, std::max(std::abs(d_t), std::abs(d_b)));
        restart += (y_t_[i] - next_t[i]) * d_t + (y_b_[i] - next_b[i]) * d_b;
      }
      if (restart > 0) {  // gradient restart (O'Donoghue & Candes): drop the momentum
        momentum = 1;
        y_t_ = next_t;
        y_b_ = next_b;
      } else {
        const double momentum_next = 0.5 * (1 + std::sqrt(1 + 4 * momentum * momentum));
        const double w = (momentum - 1) / momentum_next;
        y_t_ = next_t + w * (next_t - x_t_);
        y_b_ = next_b + w * (next_b - x_b_);
        momentum = momentum_next;
      }
      x_t_.swap(next_t);
      x_b_.swap(next_b);
      if (change <= options_.tangential_tolerance * limit_scale) break;
    }
    q_t = x_t_;
    q_b = x_b_;
  } else {
    q_t.setZero();
    q_b.setZero();
  }
  influence_.tangential(q_t, q_b, c_t_, c_b_);
  // Friction work of the step, -sum q . ds A (ds = C_tt q + b).
  step_dissipation_ = -influence_.cell_area() * ((q_t.array() * (c_t_ + b_t).array()).sum() +
                                                 (q_b.array() * (c_b_ + b_b).array()).sum());
  return iteration;
}

double Contact::normal_force() const {
  return influence_.cell_area() * current_.pressure.sum();
}

Eigen::Vector2d Contact::tangential_force() const {
  return influence_.cell_area() * Eigen::Vector2d(current_.shear_t.sum(), current_.shear_b.sum());
}

double Contact::elastic_energy() const {
  const ContactFields& f = current_;
  return 0.5 * influence_.cell_area() *
         (f.pressure.dot(f.displacement_n) + f.shear_t.dot(f.displacement_t) +
          f.shear_b.dot(f.displacement_b));
}

int Contact::contact_cells() const {
  return int((current_.pressure.array() > 0).count());
}

int Contact::stuck_cells() const {
  if (!(friction_ > 0)) return 0;
  int stuck = 0;
  for (int i = 0; i < influence_.size(); ++i) {
    const double p = current_.pressure[i];
    // Projection puts slipping cells on the disc to round-off; 1e-9 separates them.
    if (p > 0 && std::hypot(current_.shear_t[i], current_.shear_b[i]) < friction_ * p * (1 - 1e-9))
      ++stuck;
  }
  return stuck;
}

double Contact::edge_pressure() const {
  const int m = influence_.cells();
  double edge = 0;
  for (int k = 0; k < m; ++k) {
    for (const int at : {k, (m - 1) * m + k, k * m, k * m + m - 1})
      edge = std::max(edge, current_.pressure[at]);
  }
  return edge;
}

}  // namespace rebound::halfspace
