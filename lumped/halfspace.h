// A planar impact of an elastic sphere on a rigid plane with a quasi-static 3-D half-space contact
// (Kalker CONTACT-type; docs/THEORY.md §10): the rigid-body dynamics of Lai's model (docs/THEORY.md
// §5) with the contact force of a grid of cells with uniform tractions (halfspace/contact.h) in
// place of Lai's springs.
//
// Non-dimensional form (Lai 1999, eqs. 5.40-5.45): eta = (m^2 v^4 / (E*^2 R))^{1/5} with E*
// the plane-strain modulus E/(1 - nu^2) (docs/THEORY.md §3, rigid plane), displacements u = eta
// delta, time t = (eta/v) tau, impulse g = m v gamma, force f = (m v^2/eta) gamma'. The contact
// is measured in its own scales: in-plane lengths x = sqrt(R eta) xi (the Hertz radius
// sqrt(R d)), tractions p = (m v^2/(R eta^2)) p^, so that a cell of area A^ carries the force
// gamma' = p^ A^. Then
//   gap:           x^2/(2R) = eta xi^2/2,
//   displacement:  u = (1/(pi E*)) int p / r dA = (m v^2/(E* sqrt(R) eta^{3/2})) (1/pi) int p^/r^
//                  dA^ = eta (1/pi) int p^/r^ dA^   since eta^{5/2} = m v^2/(E* sqrt R),
// (and likewise for the Cerruti and coupling terms, whose moduli are E* times functions of nu):
// R and E* drop out, and the model depends only on nu, mu, lambda, theta, alpha, as Lai's does
// (Hertz in these units: gamma_n' = (4/3) d^{3/2}, contact radius sqrt(d)).
//
// A ball in a spherical socket (Configuration::socket): R is R1 R2 / dR and the gap is the two
// spheres' exact one, cases::socket_gap, instead of the paraboloid (docs/THEORY.md §10): the rung
// between Hertz with R_eff (the paraboloid) and the FEM (no half-space assumption).
//
// Time integration: velocity Verlet in tau (second order, one contact solve per step),
//   delta_{k+1} = delta_k + dtau delta'_k + dtau^2/2 N gamma'_k,
//   gamma'_{k+1} = contact(delta_{k+1}),  gamma_{k+1} = gamma_k + dtau/2 (gamma'_k + gamma'_{k+1}),
//   delta'_{k+1} = (sin alpha, -cos alpha) + N gamma_{k+1},
// the contact solved incrementally (friction is history dependent) for the approach
// d = -delta_n and the rigid tangential displacement increment of P. The step count is per the
// Hertz duration of the impact's normal speed. Separation: the step that ends with no contact is
// cut at the root of delta_n(tau) = 0 on its constant-acceleration path, and over that part the
// force decays as Hertz's, (tau_end - tau)^{3/2}, so its impulse is (2/5) dtau' gamma'_k.
#pragma once

#include "halfspace/contact.h"
#include "lumped/outcome.h"

namespace rebound::cases {
struct Case;
}

namespace rebound::lumped {

// Defaults from the convergence study (docs/HALFSPACE.md; nu = 0.3, sphere): at Psi1 = 2, mu = 0.1
// Psi2 moves by < 3e-4 (coupling off) and ~1e-3 (on) from 12 to 48 cells, and by 5e-5 (off) /
// 5e-4 (on, first order in dtau) from 100 to 400 steps; the Hertz duration and peak force are
// within 2e-4. 24 cells and 100 steps take ~0.25 s (off) / ~0.6 s (on) per impact.
struct HalfspaceOptions {
  bool record_history = true;
  double history_spacing = 0.01;  // tau between history samples (at the time steps)
  // Grid cells across the maximal Hertz contact diameter 2 sqrt(delta_max) of the impact's normal
  // speed (the grid itself covers `domain` times that, odd cells so that one is at P).
  int cells = 24;
  // true: Dundurs' beta of the pair (Configuration::dundurs_beta; (1-2nu)/(2(1-nu)) on a rigid
  // plane); false: beta = 0
  bool dundurs_coupling = true;
  int time_steps = 100;  // steps per Hertz contact duration of the impact's normal speed
  double domain = 1.25;  // grid side over the maximal Hertz contact diameter
  halfspace::ContactOptions contact;
  SolveControl control;  // checked at every step, its stop flag also at every
                         // contact iteration (lumped::Interrupted on a stop)
};

Outcome solve_halfspace(const Configuration& configuration, const HalfspaceOptions& options = {});

// Cost and grid of the last solve_halfspace() on this thread.
struct HalfspaceStatistics {
  int grid_cells = 0;    // M (the grid is M x M)
  double cell_size = 0;  // h, in sqrt(R eta)
  double time_step = 0;  // dtau
  int steps = 0;         // contact solves
  long normal_iterations = 0, tangential_iterations = 0, coupling_iterations = 0;
  int restarts = 0;                   // grid enlarged because the contact reached its edge
  double max_out_of_plane_force = 0;  // max |gamma_b'| over max gamma_n' (0 by symmetry)
  double min_dissipation_rate = 0;    // min over steps of the friction work of a step (>= 0)
};
HalfspaceStatistics last_halfspace_statistics();

// The model's quasi-static normal contact at a prescribed rigid approach delta, without dynamics:
// its static F(delta) (rebound.halfspace_static, docs/PYTHON.md; scripts/socket_study.py). The
// case's body profile (the paraboloid of Hertz's R on a plane, the exact gap of the two spheres,
// cases::socket_gap, on a socket) pressed by delta into the half-space of the pair's E* and nu*,
// frictionless (mu = 0: no shear, so Dundurs' beta moves no normal traction and is set to 0),
// solved by halfspace::Contact (Polonsky-Keer) in units where the gap is in delta and in-plane
// lengths in sqrt(R delta), Hertz's contact radius at delta (R = R1 R2 / dR on a socket).
struct HalfspaceStaticOptions {
  int cells = 40;        // grid cells across Hertz's contact diameter 2 sqrt(R delta) (>= 2)
  double domain = 1.25;  // grid side over that diameter (> 0; odd cells, one centred at P)
  halfspace::ContactOptions contact;
};
struct HalfspaceStaticContact {
  double approach = 0;         // delta, m
  double force = 0;            // normal force, N
  double contact_radius = 0;   // sqrt(contact area / pi), m (area: the cells with p > 0)
  double max_pressure = 0;     // Pa
  double edge_pressure = 0;    // largest p on the grid's outer ring, Pa: 0 (else it throws)
  int grid_cells = 0;          // M (the grid is M x M)
  double cell_size = 0;        // m
  double grid_half_width = 0;  // M h / 2, m
  int iterations = 0;          // Polonsky-Keer iterations
};
// Throws std::invalid_argument for an approach check_static_approach (lumped/normal_laws.h)
// rejects or bad options, and std::runtime_error when the contact reaches the grid's edge (a
// non-zero pressure on its outer ring: the grid is too small for this contact, enlarge `domain`).
// delta = 0 gives the empty contact.
HalfspaceStaticContact halfspace_static_contact(const cases::Case& c, double approach,
                                                const HalfspaceStaticOptions& options = {});

}  // namespace rebound::lumped
