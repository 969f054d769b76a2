// The uncoupled non-linear spring model of the thesis Predicting Rebound of Planar Elastic
// Collisions (sec. 3.2.6-3.2.7, appendix program "impact"; docs/THEORY.md §6), in Lai's
// non-dimensional variables (lumped/outcome.h; the thesis's eqs. 3.2-80 to 3.2-87 define the same
// eta, gamma, delta, epsilon and tau):
//   K_n = (4/3) E sqrt(R),  K_t = 8(1 - nu)/(3(2 - nu)) E sqrt(R),
//   gamma_n' = (4/3) (-delta_n)^{3/2}                        (3.2-96)
//   gamma_t' = -k_t |epsilon|^{1/2} epsilon, k_t = 8(1 - nu)/(3(2 - nu))   (3.2-95)
//   delta' = (sin alpha, -cos alpha) + (m N) gamma            (3.2-97, 3.2-98)
//   stick while |F_t| < mu F_n, i.e. |epsilon| < c (-delta_n) with
//   c = (mu (2 - nu)/(2 (1 - nu)))^{2/3} (4.28): epsilon' = delta_t'                  (3.2-99)
//   otherwise slip, the spring on the friction limit: epsilon = sgn(epsilon) c (-delta_n) (3.2-100)
// The normal and tangential springs are independent (no coupling term), the only dissipation is
// friction. Initial stick iff |tan alpha| < c. The thesis reports incidence with Maw's
// psi_1 = 2(1-nu)/(mu(2-nu)) tan alpha (its program's calc_beta_coef) and with its own
// psi_1' = tan alpha / c (5.5), the 2/3 power.
//
// Stored energy V = (8/15)(-delta_n)^{5/2} + (2/5) k_t |epsilon|^{5/2}; dissipation
// D = -(Delta K + V), Delta K = (v0 + delta') . gamma / 2. Friction dissipates
// k_t |eps|^{1/2} eps (delta_t' - eps') >= 0, so slip may continue only while
// sgn(eps) delta_t' + c delta_n' > 0 (docs/THEORY.md §5 and §12: Lai's slip -> stick
// rule with C -> c).
//
// Only the Hertz normal spring of the thesis is supported: a Configuration::normal_law other than
// "hertz" throws std::invalid_argument.
#pragma once

#include "lumped/outcome.h"

namespace rebound::lumped {

// c = (mu (2 - nu) / (2 (1 - nu)))^{2/3}: the stick cone |epsilon| < c (-delta_n). 0 if mu = 0.
double uncoupled_stick_limit(double friction, double poisson_ratio);
// k_t = 8 (1 - nu) / (3 (2 - nu)): non-dimensional tangential stiffness.
double uncoupled_tangential_stiffness(double poisson_ratio);

// Accurate solve: DormandPrince (rtol = configuration.relative_tolerance, atol = 1e-3 rtol) on
// (gamma_t, gamma_n, delta_t, delta_n, epsilon) plus the normal-work quadrature
// int delta_n' dgamma_n, with the switching surfaces located as events: stick -> slip
// (|eps| = c (-delta_n)), slip -> stick (sgn(eps) delta_t' + c delta_n' = 0), end of
// compression (delta_n' = 0) and separation (delta_n = 0). History every 0.01 in tau plus every
// event. model = "uncoupled".
Outcome solve_uncoupled(const Configuration& configuration);

// How the Euler mode resolves the program's mode test abs(iEps) < c * (-iDn) when the spring
// sits exactly on the cone, which is the case on every step after a slip step: slip puts
// fEps := -c * fDn, so the next test compares c (-iDn) with itself.
//  on_cone_sticks  the tie counts as stick ("<="). Reproduces the seed's reported behaviour
//                  (slip stops and sticking resumes: its Fig. F5.8 and the sphere regions
//                  1.19 / 4.59 of sec. 5.3.1): the original (THINK Pascal, 1994-95, SANE
//                  extended arithmetic, fEps stored as double) compared a double-rounded value
//                  with the unrounded extended product, so the tie went either way by round-off.
//                  Within a slip phase, steps alternate: a "stick" step started on the cone
//                  overshoots it when the body drives the spring outwards, the next step projects
//                  back; such a step is reported as slip in history/phases. Default.
//  as_printed      "<" in IEEE double: the tie is slip, so once slipping the contact slips to
//                  the end (friction may then push the body along, D can decrease). Kept to show
//                  what a literal port does.
enum class EulerConeTest { on_cone_sticks, as_printed };

// The Predicting Rebound thesis's fixed-step explicit Euler (appendix program "impact", procedure
// main), step h = configuration.euler_step, the mode tested once per step at the start of the step
// as the program does, state updated in the program's order (eqs. 4.20-4.25). Its variables are
// ours (Gt, Gn, Dt, Dn, Eps = gamma_t, gamma_n, delta_t, delta_n, epsilon; Dlt, Dln = delta_t',
// delta_n'; Tau = tau; ht = h). The loop runs while delta_n <= 0; as the program does, the
// results are taken at the last state with delta_n <= 0 (state k): duration = k h, impulse =
// gamma_k, separation_velocity = delta'_k. History: one Sample per state 0..k, or, beyond
// kMaxHistorySamples states, every 2^j-th state and the last (memory is bounded; the results use
// every state).
// compression_normal_impulse interpolates gamma_n linearly to delta_n' = 0 between states;
// normal works are the left-point sums of delta_n' dgamma_n over each phase. alpha < 0 is solved
// as the mirror image (alpha, theta) -> (-alpha, -theta) (the program's first slip step would
// put the spring on the wrong side). model = "uncoupled-euler".
// control is checked every 4096 steps.
Outcome solve_uncoupled_euler(const Configuration& configuration,
                              EulerConeTest cone_test = EulerConeTest::on_cone_sticks,
                              const SolveControl& control = {});

}  // namespace rebound::lumped
