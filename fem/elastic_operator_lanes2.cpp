// The operator of fem/elastic_operator.h with two SIMD lanes (SSE2): deal.II's matrix-free
// templates instantiated here for VectorizedArray<double, 2> (the library has only one lane).
// The evaluation factories are instantiated in matrix_free_lanes2.cpp (a second unit, so
// that the two compile in parallel).
#include "fem/simd_lanes.h"  // first: sets deal.II's SIMD width for this unit
// clang-format off
#include <deal.II/matrix_free/matrix_free.templates.h>
#include <deal.II/matrix_free/shape_info.templates.h>
#include <deal.II/matrix_free/mapping_info.templates.h>
#include <deal.II/matrix_free/evaluation_template_face_factory.templates.h>
// clang-format on

#include "fem/elastic_operator_kernel.h"

using Lanes2 = dealii::VectorizedArray<double, 2>;
template class dealii::MatrixFree<3, double, Lanes2>;
template struct dealii::internal::MatrixFreeFunctions::ShapeInfo<Lanes2>;
template void dealii::internal::MatrixFreeFunctions::ShapeInfo<Lanes2>::reinit<3, 3, 3>(
    const dealii::Quadrature<3>&, const dealii::FiniteElement<3, 3>&, const unsigned int);
template struct dealii::internal::MatrixFreeFunctions::MappingInfo<3, double, Lanes2>;
template struct dealii::internal::FEFaceEvaluationFactory<3, Lanes2>;

namespace rebound::fem {
std::unique_ptr<ElasticOperator> make_elastic_operator_lanes2(const ElasticOperator::Setup& setup) {
  return kernel::make_operator<Lanes2>(setup);
}
}  // namespace rebound::fem
