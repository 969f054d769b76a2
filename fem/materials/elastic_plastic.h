// Small-strain J2 (von Mises) perfect plasticity, material.model "elastic-plastic": Hooke's law
// (fem/materials/linear_elastic.h) on the elastic strain eps - eps_p, a yield surface
//   f(sigma) = |s| - sqrt(2/3) Y <= 0,  s = dev sigma,  |s| = sqrt(s : s),
// no hardening, and the associative flow rule d eps_p = d lambda n, n = s / |s|. The stress is
// integrated by the radial return (Simo & Hughes 1998, Computational Inelasticity, sec. 3.3, Box
// 3.1 with zero hardening; Wilkins 1964), once per time step and quadrature point:
//   trial:   sigma_tr = C : (eps_{n+1} - eps_p,n),  s_tr = dev sigma_tr,
//   check:   f = |s_tr| - R,  R = sqrt(2/3) Y;  f <= 0: sigma_{n+1} = sigma_tr (elastic step);
//   return:  d lambda = f / (2 mu),  n = s_tr / |s_tr|,
//            sigma_{n+1} = sigma_tr - 2 mu d lambda n = sigma_tr - (1 - R / |s_tr|) s_tr,
//            eps_p,n+1 = eps_p,n + d lambda n,  ebar_p,n+1 = ebar_p,n + sqrt(2/3) d lambda.
// The return is exact for perfect plasticity (the yield surface is a cylinder, so the closest
// point of the surface in the energy norm lies on the radius through the trial deviator) and
// unconditionally stable. The plastic work of the step at the point is taken as
// sigma_{n+1} : d eps_p = R d lambda = Y d ebar_p (the maximum-dissipation value on the surface);
// docs/THEORY.md ("J2 plasticity in the FE body") shows that it differs from the trapezoidal work
// the leapfrog balances by O(|d eps|^2) per step.
//
// The stress is written once for any number type, as Hooke's law is: a SIMD batch of cells in the
// kernel (fem/internal_force_kernel.h, which keeps eps_p and ebar_p per cell batch and quadrature
// point) and double in the tests and the VTK output. Where no lane yields, the stress is Hooke's
// law on eps - eps_p with bitwise the elastic material's operations, so that a body that never
// yields runs as the elastic one does.
#pragma once

#include <deal.II/base/symmetric_tensor.h>
#include <deal.II/base/vectorization.h>

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "fem/materials/linear_elastic.h"

namespace rebound::fem::materials {

struct ElasticPlastic {
  // The kernel keeps eps_p and ebar_p per quadrature point (fem/internal_force_kernel.h).
  static constexpr bool has_state = true;

  LinearElastic elastic;    // Lame's constants
  double yield_stress = 0;  // Y, Pa

  // The outcome of the radial return at one point (per lane for a batch).
  template <typename Number>
  struct Return {
    dealii::SymmetricTensor<2, 3, Number> stress;  // sigma_{n+1}
    // (1 - R / |s_tr|) where the trial stress lies outside the surface, 0 elsewhere; then
    // eps_p,n+1 - eps_p,n = scale s_tr / (2 mu) and 2 mu d lambda = scale |s_tr|.
    Number scale;
    dealii::SymmetricTensor<2, 3, Number> trial_deviator;  // s_tr
  };

  // The radial return from the plastic strain eps_p,n at the total strain eps_{n+1}.
  template <typename Number>
  Return<Number> radial_return(const dealii::SymmetricTensor<2, 3, Number>& strain,
                               const dealii::SymmetricTensor<2, 3, Number>& plastic_strain) const {
    Return<Number> r;
    r.stress = elastic.stress(strain - plastic_strain);
    r.trial_deviator = r.stress;
    const Number mean = (r.stress[0][0] + r.stress[1][1] + r.stress[2][2]) * Number(1.0 / 3.0);
    for (unsigned int d = 0; d < 3; ++d) r.trial_deviator[d][d] -= mean;
    const Number norm_squared = r.trial_deviator * r.trial_deviator;
    const double radius_squared = 2.0 / 3.0 * yield_stress * yield_stress;
    // Where norm_squared <= R^2 the mask gives 0, and the quotient of the other branch (which
    // may divide by the floor 1e-300 Pa^2, never by zero) is discarded.
    const Number norm = std::sqrt(std::max(norm_squared, Number(1e-300)));
    r.scale = dealii::compare_and_apply_mask<dealii::SIMDComparison::greater_than>(
        norm_squared, Number(radius_squared), Number(1.0) - Number(yield_radius()) / norm,
        Number(0.0));
    r.stress -= r.scale * r.trial_deviator;
    return r;
  }

  // The point's state advanced by the return r: eps_p += d lambda n = scale s_tr / (2 mu),
  // ebar_p += sqrt(2/3) d lambda, with 2 mu d lambda = scale |s_tr|. Returns the plastic work
  // density of the step, sigma_{n+1} : d eps_p = R d lambda (J/m^3; 0 where no lane yields).
  template <typename Number>
  Number advance(const Return<Number>& r, dealii::SymmetricTensor<2, 3, Number>& plastic_strain,
                 Number& equivalent_plastic_strain) const {
    const double two_mu = 2 * elastic.lame_mu;
    const Number norm = std::sqrt(r.trial_deviator * r.trial_deviator);
    const Number multiplier = r.scale * norm / two_mu;  // d lambda
    plastic_strain += (r.scale / two_mu) * r.trial_deviator;
    equivalent_plastic_strain += std::sqrt(2.0 / 3.0) * multiplier;
    return yield_radius() * multiplier;
  }

  // R = sqrt(2/3) Y, the radius of the yield cylinder in deviatoric stress space, Pa.
  double yield_radius() const { return std::sqrt(2.0 / 3.0) * yield_stress; }

  // Whether a lane's trial stress lies outside the yield surface (the elastic part's stress of
  // the strain, before any plastic strain: the kernel's test for a batch without plastic strain).
  template <typename Number>
  bool yields(const dealii::SymmetricTensor<2, 3, Number>& stress) const {
    const Number mean = (stress[0][0] + stress[1][1] + stress[2][2]) * Number(1.0 / 3.0);
    dealii::SymmetricTensor<2, 3, Number> s = stress;
    for (unsigned int d = 0; d < 3; ++d) s[d][d] -= mean;
    const Number norm_squared = s * s;
    const double radius_squared = 2.0 / 3.0 * yield_stress * yield_stress;
    if constexpr (std::is_arithmetic_v<Number>) {
      return norm_squared > radius_squared;
    } else {
      for (unsigned int l = 0; l < Number::size(); ++l)
        if (norm_squared[l] > radius_squared) return true;
      return false;
    }
  }

  // The stress at the strain from the virgin state (eps_p = 0): one radial return, which is the
  // exact J2 stress along any proportional strain path from zero (the patch test's linear
  // fields). The time integration keeps the state (fem/internal_force_kernel.h).
  template <typename Number>
  dealii::SymmetricTensor<2, 3, Number> stress(
      const dealii::SymmetricTensor<2, 3, Number>& eps) const {
    return radial_return(eps, dealii::SymmetricTensor<2, 3, Number>()).stress;
  }
};

}  // namespace rebound::fem::materials
