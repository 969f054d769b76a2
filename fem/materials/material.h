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
// quadrature point declares `static constexpr bool has_state = true` and the kernel keeps that
// state per cell batch and quadrature point, advancing it once per time step
// (InternalForce::apply_and_advance); fem/materials/elastic_plastic.h and viscoelastic.h are
// the ones there are (docs/ARCHITECTURE.md).
#pragma once

#include <type_traits>
#include <variant>

#include "fem/materials/elastic_plastic.h"
#include "fem/materials/linear_elastic.h"
#include "fem/materials/viscoelastic.h"

namespace rebound::cases {
struct Case;
}

namespace rebound::fem::materials {

using Material = std::variant<LinearElastic, ElasticPlastic, Viscoelastic>;

// Whether a material keeps state per quadrature point (its member has_state; false without one).
template <typename M, typename = void>
struct HasState : std::false_type {};
template <typename M>
struct HasState<M, std::void_t<decltype(M::has_state)>> : std::bool_constant<M::has_state> {};
template <typename M>
inline constexpr bool has_state = HasState<M>::value;

inline bool has_state_per_point(const Material& material) {
  return std::visit([](const auto& m) { return has_state<std::decay_t<decltype(m)>>; }, material);
}

// The body's material as the case describes it (fem/materials/material.cpp). The kernel's
// headers do not include the case, so that a change of the case description does not compile
// the matrix-free kernels again.
Material make_material(const cases::Case& c);

// sigma(eps) of any material, for one point from the virgin state (the patch test).
inline dealii::SymmetricTensor<2, 3> stress(const Material& material,
                                            const dealii::SymmetricTensor<2, 3>& strain) {
  return std::visit([&](const auto& m) { return m.stress(strain); }, material);
}

// sigma at one point of a body whose state tensor there is `state` (the VTK output: the mean of
// the cell's quadrature points, InternalForce::cell_state): the plastic strain eps_p of an
// elastic-plastic body, the Maxwell arm's stress h of a viscoelastic one (sigma = C : eps + h);
// an elastic material ignores it.
inline dealii::SymmetricTensor<2, 3> stress(const Material& material,
                                            const dealii::SymmetricTensor<2, 3>& strain,
                                            const dealii::SymmetricTensor<2, 3>& state) {
  return std::visit(
      [&](const auto& m) {
        using M = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<M, ElasticPlastic>)
          return m.radial_return(strain, state).stress;
        else if constexpr (std::is_same_v<M, Viscoelastic>)
          return dealii::SymmetricTensor<2, 3>(m.stress(strain) + state);
        else
          return m.stress(strain);
      },
      material);
}

}  // namespace rebound::fem::materials
