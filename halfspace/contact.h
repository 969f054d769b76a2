// Quasi-static frictional contact of an elastic sphere (a half-space with the profile
// h = (x^2 + y^2)/2, non-dimensional, see influence.h) on a rigid plane, one load step at a time.
//
// Conditions in every cell i (Kalker, Three-Dimensional Elastic Bodies in Rolling Contact, 1990,
// ch. 2; Johnson ch. 5):
//   normal:     g_i = h_i - d + u_n,i >= 0,  p_i >= 0,  g_i p_i = 0,
//               u_n = C_nn p + C_nt q  (d: rigid approach of the body);
//   tangential: |q_i| <= mu p_i; the slip increment of the step
//               ds_i = d(delta_t) e_t + (C_tt q + C_tn p)_i - (C_tt q + C_tn p)_i,previous
//               vanishes where |q_i| < mu p_i (stick) and is opposite q_i where |q_i| = mu p_i
//               (slip, maximal dissipation): ds_i = -l_i q_i, l_i >= 0.
// The problem is history dependent: a step starts from the previous step's tractions.
//
// Algorithms:
// - normal problem for given d and shear: the conjugate-gradient method of Polonsky & Keer
//   (Wear 231, 1999) with the approach prescribed (no load constraint, so no mean-gap shift);
// - tangential problem for given p: the step's conditions are the optimality conditions of the
//   convex problem  min 1/2 (q - q_prev)^T C_tt (q - q_prev) + q^T b  over the Coulomb discs,
//   b = d(delta_t) e_t + C_tn p - (C_tn p)_prev (its gradient is ds); solved by accelerated
//   projected gradients (FISTA, Beck & Teboulle 2009, with the adaptive restart of O'Donoghue &
//   Candes 2015), step 1/L with L = the largest eigenvalue of C_tt;
// - coupling (beta != 0): normal and tangential problems alternate (Panagiotopoulos process,
//   as Kalker's KOMBI) until neither changes.
#pragma once

#include <Eigen/Dense>
#include <atomic>
#include <functional>

#include "halfspace/influence.h"

namespace rebound::halfspace {

struct ContactOptions {
  double normal_tolerance = 1e-8;      // Polonsky-Keer: relative change of the pressure
  double tangential_tolerance = 1e-5;  // FISTA: traction change relative to min(mu, 1) max p
  double coupling_tolerance = 1e-5;    // normal <-> tangential: change relative to max p
  int max_iterations = 20000;
  bool extrapolate = true;  // start a step from the linear extrapolation of the last two
  // Read before every iteration of both solvers (a relaxed atomic load beside an iteration's FFT
  // convolutions; a step takes seconds on a fine grid): when true, step() throws
  // Contact::Stopped.
  const std::atomic<bool>* stop = nullptr;
};

// The contact's fields, each on the grid (Influence's layout).
struct ContactFields {
  Influence::Field pressure, shear_t, shear_b;                      // p, q_t, q_b (on the body)
  Influence::Field displacement_n, displacement_t, displacement_b;  // elastic u of the body
};

struct StepStatistics {
  int normal_iterations = 0, tangential_iterations = 0, coupling_iterations = 0;
};

class Contact {
 public:
  // Thrown by step() when ContactOptions::stop is set; the contact's fields are then those of
  // an unfinished step (the solve is abandoned).
  struct Stopped {};

  Contact(int cells, double spacing, double poisson_ratio, double beta, double friction,
          ContactOptions options = {});

  Influence& influence() { return influence_; }
  // Replaces the sphere's gap h = (x^2 + y^2)/2 by h(r), r = sqrt(x^2 + y^2), before the first
  // step: the exact gap of a ball in a spherical socket (lumped/halfspace.h). A cell where h is
  // not finite (beyond the ball) never touches.
  void set_profile(const std::function<double(double)>& gap_of_radius);
  const ContactFields& fields() const { return current_; }

  // Solves the step to rigid approach `approach` with the rigid tangential displacement of the
  // body increased by `shift` = (t, b) since the previous step, and makes it the current state.
  StepStatistics step(double approach, const Eigen::Vector2d& shift);

  // Results of the current state (non-dimensional: force gamma', energy over m v^2).
  double normal_force() const;
  Eigen::Vector2d tangential_force() const;  // (t, b)
  double elastic_energy() const;             // 1/2 sum traction . u A (Clapeyron)
  int contact_cells() const;                 // cells with p > 0
  int stuck_cells() const;                   // contact cells strictly inside the Coulomb disc
  // Friction work of the last step, -sum q . ds A (>= 0 by the slip rule).
  double step_dissipation() const { return step_dissipation_; }
  // Largest p over the cells of the grid's outer ring (non-zero: the grid is too small).
  double edge_pressure() const;

 private:
  int solve_normal(double approach, const Influence::Field& offset);
  int solve_tangential(const Eigen::Vector2d& shift);
  void throw_if_stopped() const {
    if (options_.stop != nullptr && options_.stop->load(std::memory_order_relaxed)) throw Stopped{};
  }

  Influence influence_;
  double friction_;
  ContactOptions options_;
  Influence::Field profile_;  // h_i = (x^2 + y^2)/2, or set_profile's
  ContactFields previous_, current_;
  // Work fields.
  Influence::Field cross_n_, cross_t_, cross_b_, u_, r_, t_, g_;
  Influence::Field y_t_, y_b_, x_t_, x_b_, c_t_, c_b_;
  double step_dissipation_ = 0;
};

}  // namespace rebound::halfspace
