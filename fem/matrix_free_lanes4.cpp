// deal.II's cell evaluation factories for four SIMD lanes (AVX2 + FMA) (see
// elastic_operator_lanes4.cpp).
#include "fem/simd_lanes.h"  // first: sets deal.II's SIMD width for this unit
// clang-format off
#include <deal.II/matrix_free/fe_evaluation.h>
#include <deal.II/matrix_free/evaluation_template_factory.templates.h>
#include <deal.II/matrix_free/evaluation_template_factory_hanging_nodes.templates.h>
// clang-format on

using Lanes4 = dealii::VectorizedArray<double, 4>;
template struct dealii::internal::FEEvaluationFactory<3, Lanes4>;
template struct dealii::internal::FEEvaluationHangingNodesFactory<3, double, Lanes4>;
