// The matrix-free kernel of fem/internal_force.h for one SIMD width (the template argument
// Lanes = VectorizedArray<double, n>) and one material (fem/materials/material.h). Included only
// by the translation units that instantiate it: internal_force.cpp (one lane, deal.II's own
// instantiations) and internal_force_lanes.cpp (2, 4 or 8 lanes, after fem/simd_lanes.h).
#pragma once

#include <deal.II/base/mpi.h>
#include <deal.II/base/quadrature_lib.h>
#include <deal.II/base/vectorization.h>
#include <deal.II/matrix_free/fe_evaluation.h>
#include <deal.II/matrix_free/matrix_free.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <variant>

#include "fem/internal_force.h"

namespace rebound::fem::kernel {

template <int p, typename Lanes, typename Material>
class MatrixFreeInternalForce final : public InternalForce {
 public:
  using MatrixFree = dealii::MatrixFree<3, double, Lanes>;

  MatrixFreeInternalForce(const Setup& setup, const Material& material) : material_(material) {
    typename MatrixFree::AdditionalData data;
    data.tasks_parallel_scheme = MatrixFree::AdditionalData::none;
    data.mapping_update_flags = dealii::update_gradients | dealii::update_JxW_values;
    matrix_free_.reinit(setup.mapping, setup.dofs, setup.constraints, dealii::QGauss<1>(p + 1),
                        data);
  }

  // A plain loop over the cell batches in their order between the ghost exchange and the
  // compress, not MatrixFree::cell_loop (which interleaves both with the cells): the same sums
  // in the same order, measured cheaper on 2 ranks (docs/FEM.md, "Performance").
  void apply(VectorType& force, const VectorType& displacement) const override {
    force = 0;
    const bool ghosted = displacement.has_ghost_elements();
    if (!ghosted) displacement.update_ghost_values();
    Evaluation phi(matrix_free_);
    for (unsigned int cell = 0; cell < matrix_free_.n_cell_batches(); ++cell)
      add_cell_force(phi, cell, displacement, force);
    force.compress(dealii::VectorOperation::add);
    if (!ghosted) displacement.zero_out_ghost_values();
  }

  void initialize_dof_vector(VectorType& vector) const override {
    matrix_free_.initialize_dof_vector(vector);
  }

  double max_stress_error(const VectorType& displacement,
                          const dealii::Tensor<2, 3>& sigma_exact) const override {
    displacement.update_ghost_values();
    Evaluation phi(matrix_free_);
    double error = 0;
    for (unsigned int cell = 0; cell < matrix_free_.n_cell_batches(); ++cell) {
      phi.reinit(cell);
      phi.read_dof_values(displacement);
      phi.evaluate(dealii::EvaluationFlags::gradients);
      for (unsigned int q = 0; q < phi.n_q_points; ++q) {
        const auto sigma = material_.stress(phi.get_symmetric_gradient(q));
        for (unsigned int l = 0; l < matrix_free_.n_active_entries_per_cell_batch(cell); ++l) {
          double sum = 0;
          for (unsigned int i = 0; i < 3; ++i)
            for (unsigned int j = 0; j < 3; ++j) {
              const double d = sigma[i][j][l] - sigma_exact[i][j];
              sum += d * d;
            }
          error = std::max(error, std::sqrt(sum));
        }
      }
    }
    displacement.zero_out_ghost_values();
    return dealii::Utilities::MPI::max(error, matrix_free_.get_task_info().communicator);
  }

  unsigned int lanes() const override { return Lanes::size(); }

 private:
  using Evaluation = dealii::FEEvaluation<3, p, p + 1, 3, double, Lanes>;

  // force += integral of sigma(eps(u)) : eps(phi_i) over the cells of one batch.
  void add_cell_force(Evaluation& phi, unsigned int cell, const VectorType& displacement,
                      VectorType& force) const {
    phi.reinit(cell);
    phi.read_dof_values(displacement);
    phi.evaluate(dealii::EvaluationFlags::gradients);
    for (unsigned int q = 0; q < phi.n_q_points; ++q)
      phi.submit_symmetric_gradient(material_.stress(phi.get_symmetric_gradient(q)), q);
    phi.integrate(dealii::EvaluationFlags::gradients);
    phi.distribute_local_to_global(force);
  }

  Material material_;
  MatrixFree matrix_free_;
};

// The kernel for the setup's degree and material.
template <typename Lanes>
std::unique_ptr<InternalForce> make_operator(const InternalForce::Setup& setup) {
  if (setup.degree != 1 && setup.degree != 2)
    throw std::invalid_argument("fem.degree must be 1 or 2");
  return std::visit(
      [&](const auto& material) -> std::unique_ptr<InternalForce> {
        using Material = std::decay_t<decltype(material)>;
        if (setup.degree == 1)
          return std::make_unique<MatrixFreeInternalForce<1, Lanes, Material>>(setup, material);
        return std::make_unique<MatrixFreeInternalForce<2, Lanes, Material>>(setup, material);
      },
      setup.material);
}

}  // namespace rebound::fem::kernel
