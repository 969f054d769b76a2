// Small-strain isotropic linear elasticity (Hooke's law), the FEM's material today:
//   sigma(eps) = lambda tr(eps) I + 2 mu eps,
// with Lame's constants from Young's modulus E and Poisson's ratio nu,
//   lambda = E nu / ((1 + nu)(1 - 2 nu)),  mu = E / (2 (1 + nu)).
// The stress is written once, for any number type: the matrix-free kernel evaluates it on a batch
// of cells (Number = VectorizedArray<double, n>), the VTK output and the patch test on one point
// (Number = double). No state: the stress depends on the current strain alone.
#pragma once

#include <deal.II/base/symmetric_tensor.h>

namespace rebound::fem::materials {

struct LinearElastic {
  double lame_lambda = 0, lame_mu = 0;  // Pa

  static LinearElastic from_young_poisson(double young_modulus, double poisson_ratio) {
    const double E = young_modulus, nu = poisson_ratio;
    return {E * nu / ((1 + nu) * (1 - 2 * nu)), E / (2 * (1 + nu))};
  }

  template <typename Number>
  dealii::SymmetricTensor<2, 3, Number> stress(dealii::SymmetricTensor<2, 3, Number> eps) const {
    const Number pressure = Number(lame_lambda) * trace(eps);
    eps *= Number(2 * lame_mu);
    for (unsigned int d = 0; d < 3; ++d) eps[d][d] += pressure;
    return eps;
  }
};

}  // namespace rebound::fem::materials
