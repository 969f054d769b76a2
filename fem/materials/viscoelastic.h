// The standard linear solid (Zener), material.model "viscoelastic": Hooke's law of the case's
// elastic constants (the relaxed, long-time modulus E) in parallel with one Maxwell arm whose
// spring is g C (the same isotropic tensor scaled by the relaxation strength
// g = material.relaxation_strength, Zener's (M_unrelaxed - M_relaxed) / M_relaxed) and whose
// dashpot relaxes it with the time tau = material.relaxation_time:
//   sigma = C : eps + h,   dh/dt + h / tau = g C : d eps/dt,
// so that a step of strain gives sigma(t) = C : eps (1 + g exp(-t / tau)) (the glassy modulus
// (1 + g) E at once, E after many tau). The arm's stress h is integrated by the exact exponential
// integrator for a strain linear in time over the step (Simo & Hughes 1998, Computational
// Inelasticity, sec. 10.3), unconditionally stable:
//   h_{n+1} = a h_n + g b C : (eps_{n+1} - eps_n),  a = exp(-dt / tau),  b = (1 - a) / (dt / tau),
// so sigma_{n+1} = C : eps_{n+1} + h_{n+1} is linear in eps_{n+1} with the tangent (1 + g b) C
// <= (1 + g) C: the stable step of the explicit scheme is the elastic one over sqrt(1 + g) for
// any tau and mesh (a Kelvin-Voigt body's shrinks like h^2 as the mesh is refined).
// Energy (docs/THEORY.md, "The viscoelastic FE body"): the arm stores psi(h) = 1/2 h : (g C)^-1 :
// h, and its dissipation over a step is taken as the trapezoidal work of h on the strain less the
// change of psi, D = 1/2 (h_n + h_{n+1}) : (eps_{n+1} - eps_n) - psi(h_{n+1}) + psi(h_n): the
// leapfrog balances the trapezoidal work of the internal force, so the balance kinetic + stored +
// viscous holds to round-off; D differs from the exact dissipation of the integrated path,
// integral of h : (g C)^-1 : h / tau dt, by O(dt^2) per unit time.
//
// The stress is written once for any number type (a SIMD batch of cells in the kernel,
// fem/internal_force_kernel.h, which keeps h and eps_n per cell batch and quadrature point;
// double in the tests).
#pragma once

#include <deal.II/base/symmetric_tensor.h>

#include <cmath>

#include "fem/materials/linear_elastic.h"

namespace rebound::fem::materials {

struct Viscoelastic {
  // The kernel keeps h and eps_n per quadrature point (fem/internal_force_kernel.h).
  static constexpr bool has_state = true;

  LinearElastic elastic;           // C, the relaxed modulus (Lame's constants of E, nu)
  double relaxation_strength = 0;  // g > 0
  double relaxation_time = 0;      // tau, s
  // The step's constants (set_time_step): a = exp(-dt / tau) and g b; before a step is set,
  // a = 1 and g b = 0 (the arm holds its stress, the body is the relaxed one).
  double decay = 1, rate_weight = 0;

  static Viscoelastic from(const LinearElastic& elastic, double g, double tau) {
    Viscoelastic m;
    m.elastic = elastic;
    m.relaxation_strength = g;
    m.relaxation_time = tau;
    return m;
  }

  void set_time_step(double dt) {
    const double x = dt / relaxation_time;
    decay = std::exp(-x);
    // b = (1 - e^-x) / x, by expm1 so that tau >> dt keeps its digits (b -> 1 - x / 2).
    rate_weight = relaxation_strength * (x > 0 ? -std::expm1(-x) / x : 1.0);
  }

  // (1 + g) C: the instantaneous stiffness, whose largest eigenvalue bounds the stable step.
  LinearElastic glassy() const {
    return {(1 + relaxation_strength) * elastic.lame_lambda,
            (1 + relaxation_strength) * elastic.lame_mu};
  }

  // h_{n+1} from h_n, eps_n and eps_{n+1}.
  template <typename Number>
  dealii::SymmetricTensor<2, 3, Number> arm_stress(
      const dealii::SymmetricTensor<2, 3, Number>& strain,
      const dealii::SymmetricTensor<2, 3, Number>& previous_strain,
      const dealii::SymmetricTensor<2, 3, Number>& previous_arm_stress) const {
    dealii::SymmetricTensor<2, 3, Number> h = elastic.stress(strain - previous_strain);
    h *= Number(rate_weight);
    h += Number(decay) * previous_arm_stress;
    return h;
  }

  // psi(h) = 1/2 h : (g C)^-1 : h, with C^-1 : h = (h - lambda / (3 lambda + 2 mu) tr(h) I) /
  // (2 mu): the energy density the arm's spring stores, J/m^3.
  template <typename Number>
  Number arm_energy(const dealii::SymmetricTensor<2, 3, Number>& h) const {
    const double lambda = elastic.lame_lambda, mu = elastic.lame_mu;
    const Number t = h[0][0] + h[1][1] + h[2][2];
    return (h * h - Number(lambda / (3 * lambda + 2 * mu)) * t * t) *
           Number(1.0 / (4 * mu * relaxation_strength));
  }

  // The dissipation density of the step from (eps_n, h_n) to (eps_{n+1}, h_{n+1}) (see above).
  template <typename Number>
  Number dissipation(const dealii::SymmetricTensor<2, 3, Number>& strain,
                     const dealii::SymmetricTensor<2, 3, Number>& previous_strain,
                     const dealii::SymmetricTensor<2, 3, Number>& previous_arm_stress,
                     const dealii::SymmetricTensor<2, 3, Number>& arm) const {
    return Number(0.5) * ((previous_arm_stress + arm) * (strain - previous_strain)) -
           arm_energy(arm) + arm_energy(previous_arm_stress);
  }

  // The relaxed stress C : eps (a strain held long: the patch test's static field).
  template <typename Number>
  dealii::SymmetricTensor<2, 3, Number> stress(
      const dealii::SymmetricTensor<2, 3, Number>& eps) const {
    return elastic.stress(eps);
  }
};

}  // namespace rebound::fem::materials
