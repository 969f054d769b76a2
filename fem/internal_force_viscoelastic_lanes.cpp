// The viscoelastic kernel for one SIMD width wider than the library's, in a unit of its own
// (fem/internal_force_kernel.h, make_viscoelastic_operator), compiled beside
// internal_force_lanes.cpp with the same REBOUND_SIMD_BITS and instruction set; deal.II's
// matrix-free templates for the width are instantiated there and in matrix_free_lanes.cpp.
#include "fem/simd_lanes.h"  // first: sets deal.II's SIMD width for this unit
// clang-format off
#include <deal.II/matrix_free/matrix_free.templates.h>
#include <deal.II/matrix_free/shape_info.templates.h>
#include <deal.II/matrix_free/mapping_info.templates.h>
// clang-format on

#include "fem/internal_force_kernel.h"

namespace rebound::fem::kernel {

template <typename Lanes>
std::unique_ptr<InternalForce> make_viscoelastic_operator(const InternalForce::Setup& setup,
                                                          const materials::Viscoelastic& material) {
  return make_kernel<Lanes>(setup, material);
}

template std::unique_ptr<InternalForce>
make_viscoelastic_operator<dealii::VectorizedArray<double, REBOUND_SIMD_LANES>>(
    const InternalForce::Setup&, const materials::Viscoelastic&);

}  // namespace rebound::fem::kernel
