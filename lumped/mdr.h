// The method of dimensionality reduction (MDR; Popov & Hess 2015, ch. 3 and 5; Willert,
// Lyashenko & Popov for the oblique impact of spheres; docs/THEORY.md §9): the 3-D contact of the
// sphere is replaced by a bed of independent 1-D springs, each with its own Coulomb stick/slip
// state, so that the contact has a stick zone and slip zones (Mindlin & Deresiewicz 1953) instead
// of Lai's single tangential spring. The rigid-body dynamics are Lai's (docs/THEORY.md §2 and §5,
// lambda, theta, alpha); only the contact force law changes.
//
// Dimensional model. Springs at x in [-a_max, a_max], spacing dx, normal stiffness E* dx,
// tangential stiffness G* dx, 1/E* = (1 - nu^2)/E and 1/G* = (2 - nu)/(4G) on a rigid plane. The
// sphere's 1-D profile is g(x) = x^2/R; spring i touches while d > g(x_i) (d the approach), with
// normal displacement d - g(x_i); it enters contact with zero tangential displacement u_i,
// obeys Coulomb locally, |G* u_i| <= mu E* (d - g(x_i)) (sliding keeps it on the limit), and
// drops its force (u_i := 0) when it leaves. F_n = sum E* (d - g) dx -> (4/3) E* sqrt(R) d^{3/2}
// (Hertz), F_t = -sum G* u_i dx (on the body, opposing the springs' shear).
//
// Full-stick stiffness. All springs of the contact [-a, a], a = sqrt(R d), sticking: dF_t/du_t =
// 2 a G* = 8 G a/(2 - nu). Lai's f_t (Lai 1999, eq. 5.24) has the stiffness
// 4(1 - nu)/(2 - nu) E/(1 - nu^2) sqrt(R) sqrt(d) = 4(1 - nu)/(2 - nu) 2G/(1 - nu) a = 8 G a/(2 -
// nu) (E/(1 - nu^2) = 2G(1 + nu)/(1 - nu^2) = 2G/(1 - nu)): the same (Mindlin's). MDR is
// incremental in the stick zone (dF_t = 2 a G* du_t), Lai's spring secant (f_t = -K(d) s).
//
// Non-dimensional form (lumped/outcome.h). With eta = (m^2 v^4/(E*^2 R))^{1/5}, d = -eta delta_n
// = eta q, the rigid tangential displacement of P eta delta_t, u_i = eta e_i, and the bed
// coordinate x = sqrt(R eta) xi:
//   d - g(x) = eta (q - xi^2),   F_n = E* sqrt(R) eta^{3/2} sum (q - xi_i^2) dxi,
// and since eta^{5/2} = m v^2/(E* sqrt(R)), the force over m v^2/eta is
//   gamma_n' = sum (q - xi_i^2) dxi -> (4/3) q^{3/2},      gamma_t' = -k sum e_i dxi,
//   k = G*/E* = 4G(1 - nu^2)/((2 - nu) E) = 2(1 - nu)/(2 - nu),
// and Coulomb reads |e_i| <= (mu/k)(q - xi_i^2). R, E and m are gone: the model depends on nu,
// mu, lambda, theta and alpha only, as Lai's does (and Maw's Psi_1 = (k/mu) tan alpha). The
// stored energy over m v^2 is
//   V = (8/15) q^{5/2} + (k/2) sum e_i^2 dxi.
// Lai's f_t = -(4/(3 kappa)) eps sqrt(q) has the stiffness 4/(3 kappa) sqrt(q) = 2 k sqrt(q),
// the full-stick stiffness of the bed (2 sqrt(q) wide).
//
// The continuum limit and the discretisation are described in lumped/mdr.cpp.
#pragma once

#include <vector>

#include "lumped/outcome.h"

namespace rebound::lumped {

struct MdrOptions {
  bool record_history = true;
  double history_spacing = 0.01;  // tau between history samples (taken at the first step end)
  // Nodes of the bed across the largest contact half-width the body can reach (the energy bound
  // a_max of mdr.cpp); the step in the contact variable s is tied to the node spacing (2 dxi).
  // 200: Psi_2 within ~1e-5 of the converged value for the Maw sphere at mu = 0.1 (convergence
  // study in docs/LUMPED.md), ~0.5 ms per impact.
  int springs = 200;
  double dundurs_beta = 0;  // reserved: MDR has no radial coupling; must be 0
  SolveControl control;     // checked at every step (Interrupted on a stop)
};

// Solves one impact with the MDR spring bed. model = "mdr". Throws std::invalid_argument for
// dundurs_beta != 0, a normal_law other than "hertz" (the bed is the Hertz profile), springs < 8
// or an out-of-range configuration.
Outcome solve_mdr(const Configuration& configuration, const MdrOptions& options = {});

// The half of the spring bed at xi >= 0, non-dimensional (mdr.h header comment). The bed is
// symmetric in xi (the profile xi^2 is even and every spring sees the same delta_t), so the
// springs at -xi_j carry the same state as those at xi_j. Exposed for tests (Cattaneo-Mindlin,
// the full-stick stiffness) and used by solve_mdr.
//
// Nodes xi_j = j a_max / springs, j = 0 .. springs (+2 spare). move() takes the bed from its
// committed (delta_t, q) to new ones along a straight path: a node already in contact gets the
// trial e_j + (delta_t1 - delta_t0); a node the edge passes during the move enters at the
// fraction f of the path where q = xi_j^2 (q linear along the path) with e = 0 and gets
// (1 - f)(delta_t1 - delta_t0); the trial is then clipped to the Coulomb limit (return mapping,
// exact for a monotone path). Nodes outside the contact carry e = 0.
class MdrSpringBed {
 public:
  // friction mu, k = G*/E* (mdr_stiffness_ratio).
  MdrSpringBed(int springs, double half_width, double friction, double stiffness_ratio);

  // Result of a move: the tangential force and, if asked, the stored energy and stick fraction.
  struct Forces {
    double tangential = 0;      // gamma_t' = -k int_{-a}^{a} e dxi
    double energy = 0;          // (k/2) int_{-a}^{a} e^2 dxi
    double stick_fraction = 0;  // part of [-a, a] (by length) whose springs stick
    double centre = 0;          // e at xi = 0
    bool any_stick = false;     // some spring in contact sticks (always filled)
  };
  // Evaluates the bed at (delta_t, q) from the committed state; commits it if `commit`.
  // energy/stick_fraction are filled only if `details`.
  Forces move(double delta_t, double q, bool commit, bool details = false);

  double half_width() const { return spacing_ * springs_; }
  double spacing() const { return spacing_; }
  double committed_q() const { return q_; }

 private:
  int springs_;
  double spacing_;
  double k_, slip_ratio_;       // slip_ratio = mu / k: |e| <= slip_ratio (q - xi^2)
  double delta_t_ = 0, q_ = 0;  // committed path end
  // Per node: xi^2; e (committed); e and slip direction (0: stick) of the last move; the moments
  // int xi^2 and int xi^4 over the interval [xi_j, xi_j+1].
  std::vector<double> xi2_, e_, trial_;
  std::vector<signed char> slip_;
  std::vector<double> moment2_, moment4_;
};

// k = G*/E* = 2 (1 - nu)/(2 - nu) for a body of Poisson ratio nu on a rigid plane.
double mdr_stiffness_ratio(double poisson_ratio);

namespace detail {
// solve_mdr with the step in s set to step_ratio times the node spacing (solve_mdr uses the
// default ratio of mdr.cpp): for the convergence study in time.
Outcome solve_mdr_with_step(const Configuration& configuration, const MdrOptions& options,
                            double step_ratio);
}  // namespace detail

}  // namespace rebound::lumped
