// The material seam of the FEM: what the internal force's kernel (fem/internal_force_kernel.h)
// asks of the body's material at a quadrature point. A material is a type with
//   template <typename Number>
//   SymmetricTensor<2, 3, Number> stress(SymmetricTensor<2, 3, Number> strain) const;
// (Number: a SIMD batch of cells in the kernel, double in the VTK output and the patch test).
// The kernel is compiled for every alternative of Material (and every SIMD width), so a
// material's stress is inlined into the quadrature loop; the time loop never sees it.
//
// To add a material: its header here (the stress, and the constants it reads from the case), an
// alternative of Material, its case in make_material (material.cpp). A material with state per
// quadrature point (plasticity, viscoelasticity) also needs the kernel to keep that state
// (docs/ARCHITECTURE.md).
#pragma once

#include <variant>

#include "fem/materials/linear_elastic.h"

namespace rebound::cases {
struct Case;
}

namespace rebound::fem::materials {

using Material = std::variant<LinearElastic>;

// The body's material as the case describes it (fem/materials/material.cpp). The kernel's
// headers do not include the case, so that a change of the case description does not compile
// the matrix-free kernels again.
Material make_material(const cases::Case& c);

// sigma(eps) of any material, for one point (VTK output, patch test).
inline dealii::SymmetricTensor<2, 3> stress(const Material& material,
                                            const dealii::SymmetricTensor<2, 3>& strain) {
  return std::visit([&](const auto& m) { return m.stress(strain); }, material);
}

}  // namespace rebound::fem::materials
