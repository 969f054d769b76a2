// The operator of fem/internal_force.h for one SIMD width wider than the library's: deal.II's
// matrix-free templates instantiated here for VectorizedArray<double, REBOUND_SIMD_LANES> (the
// library has only one lane); the evaluation factories in matrix_free_lanes.cpp (a second unit,
// so that the two compile in parallel). fem/CMakeLists.txt compiles both once per width, with
// REBOUND_SIMD_BITS and the matching instruction set:
//   128 (SSE2, every x86-64 CPU): linked into fem, entry make_internal_force_lanes2;
//   256 (AVX2 + FMA) and 512 (AVX-512F): the modules rebound_fem_avx2 and rebound_fem_avx512,
//   each exporting one C symbol, rebound_make_internal_force, and loaded by
//   fem/internal_force.cpp (dlopen, RTLD_LOCAL: none of a module's symbols, its copies of
//   library templates included, can take the place of the program's) only on a CPU that has
//   the instructions.
#include "fem/simd_lanes.h"  // first: sets deal.II's SIMD width for this unit
// clang-format off
#include <deal.II/matrix_free/matrix_free.templates.h>
#include <deal.II/matrix_free/shape_info.templates.h>
#include <deal.II/matrix_free/mapping_info.templates.h>
#include <deal.II/matrix_free/evaluation_template_face_factory.templates.h>
// clang-format on

#include "fem/internal_force_kernel.h"

using Lanes = dealii::VectorizedArray<double, REBOUND_SIMD_LANES>;
template class dealii::MatrixFree<3, double, Lanes>;
template struct dealii::internal::MatrixFreeFunctions::ShapeInfo<Lanes>;
template void dealii::internal::MatrixFreeFunctions::ShapeInfo<Lanes>::reinit<3, 3, 3>(
    const dealii::Quadrature<3>&, const dealii::FiniteElement<3, 3>&, const unsigned int);
template struct dealii::internal::MatrixFreeFunctions::MappingInfo<3, double, Lanes>;
template struct dealii::internal::FEFaceEvaluationFactory<3, Lanes>;

#if REBOUND_SIMD_LANES == 2
namespace rebound::fem {
std::unique_ptr<InternalForce> make_internal_force_lanes2(const InternalForce::Setup& setup) {
  return kernel::make_operator<Lanes>(setup);
}
}  // namespace rebound::fem
#else
// The module's one entry point (the only symbol it exports; -fvisibility=hidden otherwise).
extern "C" __attribute__((visibility("default"))) rebound::fem::InternalForce*
rebound_make_internal_force(const rebound::fem::InternalForce::Setup* setup) {
  return rebound::fem::kernel::make_operator<Lanes>(*setup).release();
}
#endif
