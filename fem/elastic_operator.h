// The internal force of the FEM, f = K u, for isotropic linear elasticity
//   sigma(u) = lambda tr(eps) I + 2 mu eps,  eps = (grad u + grad u^T) / 2,
//   f_i = sum over cells of the integral of sigma(u) : eps(phi_i),
// evaluated matrix-free (deal.II's MatrixFree and FEEvaluation: sum factorisation on
// FESystem(FE_Q(p), 3), Gauss quadrature with p + 1 points per direction), never assembled.
//
// SIMD lanes. FEEvaluation works on batches of cells, one cell per lane of a
// VectorizedArray<double, lanes>. Debian's deal.II is built for any x86-64 CPU, so its own
// instantiations have one lane (scalar arithmetic). rebound compiles the same kernel again for
// two lanes (SSE2, part of every x86-64 CPU): elastic_operator_lanes.cpp and
// matrix_free_lanes.cpp instantiate deal.II's templates for that width (fem/simd_lanes.h); and
// for four (AVX2 + FMA) and eight (AVX-512F) in the modules rebound_fem_avx2 and
// rebound_fem_avx512, each loaded at run time only on a CPU that has those instructions, so the
// program still runs on any x86-64 CPU. The lanes change the order of the floating-point sums
// only; the results agree to round-off (tests/fem/test_fem.cpp,
// SimdLanesGiveTheSameImpactToRoundOff), the speed is measured by bench/bench_fem
// (docs/PERFORMANCE.md).
#pragma once

#include <deal.II/base/tensor.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/fe/mapping.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/la_parallel_vector.h>

#include <memory>
#include <vector>

namespace rebound::fem {

class ElasticOperator {
 public:
  using VectorType = dealii::LinearAlgebra::distributed::Vector<double>;
  struct Setup {
    const dealii::Mapping<3>& mapping;
    const dealii::DoFHandler<3>& dofs;  // FESystem(FE_Q(degree), 3)
    const dealii::AffineConstraints<double>& constraints;
    int degree;                   // 1 or 2
    double lame_lambda, lame_mu;  // Pa
    // Optional: a group number per active cell of the triangulation (indexed by
    // active_cell_index), for apply_groups(). Each SIMD batch then holds cells of one group.
    const std::vector<unsigned int>* cell_groups = nullptr;
  };

  virtual ~ElasticOperator() = default;
  // force = K displacement (force is overwritten; ghosts of displacement are updated inside and
  // cleared again, unless it already has ghost values: then they are trusted and kept).
  virtual void apply(VectorType& force, const VectorType& displacement) const = 0;
  // force = sum over groups g of weight[g] K_g displacement, K_g the stiffness of the cells of
  // group g (Setup::cell_groups; without groups every cell is in group 0); a group with weight
  // 0 is skipped (its cells cost nothing). If strain_energy is not null it receives this rank's
  // sum over the applied cells of u_c . K_c u_c (twice their strain energy, unweighted; sum over
  // ranks for the body's). Local time stepping (docs/FEM.md) uses it for the stiffness of the
  // cells whose step has come.
  virtual void apply_groups(VectorType& force, const VectorType& displacement,
                            const std::vector<double>& weight, double* strain_energy) const = 0;
  // As apply_groups without the energy, but writing only the locally owned entries of force in
  // the supports of the applied groups (group_support): the other entries keep their values,
  // and the cost of clearing force is that of the supports, not of the whole vector. Local time
  // stepping (fem/local_time_stepping.h) evaluates small groups many times per step with it.
  virtual void apply_groups_on_support(VectorType& force, const VectorType& displacement,
                                       const std::vector<double>& weight) const = 0;
  // The locally owned entries (indices into the vector's local storage, ascending) that the
  // cells of group g on any rank write: the unconstrained dofs of those cells and the masters of
  // their constrained dofs.
  virtual const std::vector<unsigned int>& group_support(unsigned int g) const = 0;
  // The number of groups (1 + the largest group number of any cell on any rank).
  virtual unsigned int groups() const = 0;
  // A vector with the operator's parallel layout (owned + ghost dofs of its cells).
  virtual void initialize_dof_vector(VectorType& vector) const = 0;
  // Max over the quadrature points of |sigma(displacement) - sigma_exact| (Frobenius), Pa:
  // the stress half of the patch test.
  virtual double max_stress_error(const VectorType& displacement,
                                  const dealii::Tensor<2, 3>& sigma_exact) const = 0;
  // Cells per SIMD batch (doubles per register).
  virtual unsigned int lanes() const = 0;
};

// The SIMD widths this build and this CPU can run, ascending (always contains 1).
std::vector<unsigned int> available_lanes();

// The width used when none is asked for: $REBOUND_SIMD_LANES if set (1, 2 or 4; one of
// available_lanes(), else std::invalid_argument naming the variable), else the widest.
unsigned int default_lanes();

// The operator for `lanes` (0: default_lanes()). Throws std::invalid_argument for a width
// that is not in available_lanes().
std::unique_ptr<ElasticOperator> make_elastic_operator(const ElasticOperator::Setup& setup,
                                                       unsigned int lanes = 0);

}  // namespace rebound::fem
