// The operator of fem/elastic_operator.h with four SIMD lanes (AVX2 + FMA): deal.II's
// matrix-free templates instantiated here for VectorizedArray<double, 4> (the library has only
// one lane); the evaluation factories in matrix_free_lanes4.cpp. Both are compiled with -mavx2
// -mfma into the module rebound_fem_avx2, which fem/elastic_operator.cpp loads (RTLD_LOCAL:
// none of its symbols, its copies of library templates included, can take the place of the
// program's) only on a CPU with AVX2 and FMA.
#include "fem/simd_lanes.h"  // first: sets deal.II's SIMD width for this unit
// clang-format off
#include <deal.II/matrix_free/matrix_free.templates.h>
#include <deal.II/matrix_free/shape_info.templates.h>
#include <deal.II/matrix_free/mapping_info.templates.h>
#include <deal.II/matrix_free/evaluation_template_face_factory.templates.h>
// clang-format on

#include "fem/elastic_operator_kernel.h"

using Lanes4 = dealii::VectorizedArray<double, 4>;
template class dealii::MatrixFree<3, double, Lanes4>;
template struct dealii::internal::MatrixFreeFunctions::ShapeInfo<Lanes4>;
template void dealii::internal::MatrixFreeFunctions::ShapeInfo<Lanes4>::reinit<3, 3, 3>(
    const dealii::Quadrature<3>&, const dealii::FiniteElement<3, 3>&, const unsigned int);
template struct dealii::internal::MatrixFreeFunctions::MappingInfo<3, double, Lanes4>;
template struct dealii::internal::FEFaceEvaluationFactory<3, Lanes4>;

// The module's one entry point (the only symbol it exports; -fvisibility=hidden otherwise).
extern "C" __attribute__((visibility("default"))) rebound::fem::ElasticOperator*
rebound_make_elastic_operator_lanes4(const rebound::fem::ElasticOperator::Setup* setup) {
  return rebound::fem::kernel::make_operator<Lanes4>(*setup).release();
}
