// deal.II's cell evaluation factories for one SIMD width wider than the library's (see
// internal_force_lanes.cpp, compiled beside it for each width).
#include "fem/simd_lanes.h"  // first: sets deal.II's SIMD width for this unit
// clang-format off
#include <deal.II/matrix_free/fe_evaluation.h>
#include <deal.II/matrix_free/evaluation_template_factory.templates.h>
#include <deal.II/matrix_free/evaluation_template_factory_hanging_nodes.templates.h>
// clang-format on

using Lanes = dealii::VectorizedArray<double, REBOUND_SIMD_LANES>;
template struct dealii::internal::FEEvaluationFactory<3, Lanes>;
template struct dealii::internal::FEEvaluationHangingNodesFactory<3, double, Lanes>;
