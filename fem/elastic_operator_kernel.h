// The matrix-free kernel of fem/elastic_operator.h for one SIMD width (the template argument
// Lanes = VectorizedArray<double, n>). Included only by the translation units that instantiate
// it: elastic_operator.cpp (one lane, deal.II's own instantiations) and
// elastic_operator_lanes.cpp (2, 4 or 8 lanes, after fem/simd_lanes.h).
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
#include <vector>

#include "fem/cell_dofs.h"
#include "fem/elastic_operator.h"

namespace rebound::fem::kernel {

template <int p, typename Lanes>
class MatrixFreeElasticOperator final : public ElasticOperator {
 public:
  using MatrixFree = dealii::MatrixFree<3, double, Lanes>;

  explicit MatrixFreeElasticOperator(const Setup& setup)
      : lame_lambda_(setup.lame_lambda), lame_mu_(setup.lame_mu) {
    typename MatrixFree::AdditionalData data;
    data.tasks_parallel_scheme = MatrixFree::AdditionalData::none;
    data.mapping_update_flags = dealii::update_gradients | dealii::update_JxW_values;
    unsigned int groups = 1;
    if (setup.cell_groups != nullptr) {
      // Batches never mix groups (strict categories), so a group can be applied on its own.
      data.cell_vectorization_category = *setup.cell_groups;
      data.cell_vectorization_categories_strict = true;
      for (const unsigned int g : *setup.cell_groups) groups = std::max(groups, g + 1);
    }
    matrix_free_.reinit(setup.mapping, setup.dofs, setup.constraints, dealii::QGauss<1>(p + 1),
                        data);
    groups = dealii::Utilities::MPI::max(groups, matrix_free_.get_task_info().communicator);
    batches_of_group_.resize(groups);
    for (unsigned int batch = 0; batch < matrix_free_.n_cell_batches(); ++batch)
      batches_of_group_[setup.cell_groups != nullptr ? matrix_free_.get_cell_category(batch) : 0]
          .push_back(batch);
    find_group_supports(setup.constraints);
  }

  // A plain loop over the cell batches in their order between the ghost exchange and the
  // compress, not MatrixFree::cell_loop (which interleaves both with the cells): the same sums
  // in the same order, measured cheaper on 2 ranks (docs/FEM.md, "Performance").
  void apply(VectorType& force, const VectorType& displacement) const override {
    const Lanes one(1.);
    accumulate(force, displacement, [&](Evaluation& phi) {
      for (unsigned int cell = 0; cell < matrix_free_.n_cell_batches(); ++cell)
        add_cell_force(phi, cell, displacement, one, nullptr, force);
    });
  }

  void apply_groups(VectorType& force, const VectorType& displacement,
                    const std::vector<double>& weight, double* strain_energy) const override {
    if (weight.size() != batches_of_group_.size())
      throw std::invalid_argument("apply_groups: one weight per cell group expected");
    double energy = 0;
    accumulate(force, displacement, [&](Evaluation& phi) {
      for (unsigned int g = 0; g < batches_of_group_.size(); ++g) {
        if (weight[g] == 0) continue;
        const Lanes w(weight[g]);
        for (const unsigned int cell : batches_of_group_[g])
          add_cell_force(phi, cell, displacement, w, strain_energy != nullptr ? &energy : nullptr,
                         force);
      }
    });
    if (strain_energy != nullptr) *strain_energy = energy;
  }

  void apply_groups_on_support(VectorType& force, const VectorType& displacement,
                               const std::vector<double>& weight) const override {
    if (weight.size() != batches_of_group_.size())
      throw std::invalid_argument("apply_groups_on_support: one weight per cell group expected");
    for (unsigned int g = 0; g < batches_of_group_.size(); ++g)
      if (weight[g] != 0)
        for (const unsigned int i : support_of_group_[g]) force.local_element(i) = 0;
    accumulate(
        force, displacement,
        [&](Evaluation& phi) {
          for (unsigned int g = 0; g < batches_of_group_.size(); ++g) {
            if (weight[g] == 0) continue;
            const Lanes w(weight[g]);
            for (const unsigned int cell : batches_of_group_[g])
              add_cell_force(phi, cell, displacement, w, nullptr, force);
          }
        },
        false);
  }

  const std::vector<unsigned int>& group_support(unsigned int g) const override {
    return support_of_group_.at(g);
  }

  unsigned int groups() const override { return (unsigned int)batches_of_group_.size(); }

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
        const auto sigma = stress(phi.get_symmetric_gradient(q));
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

  // sigma = lambda tr(eps) I + 2 mu eps at one quadrature point of a batch of cells.
  dealii::SymmetricTensor<2, 3, Lanes> stress(dealii::SymmetricTensor<2, 3, Lanes> eps) const {
    const Lanes pressure = Lanes(lame_lambda_) * trace(eps);
    eps *= Lanes(2 * lame_mu_);
    for (unsigned int d = 0; d < 3; ++d) eps[d][d] += pressure;
    return eps;
  }

  // force = 0 (unless clear is false: the caller cleared what the cells write), the ghosts of
  // displacement (unless the caller has them: then they are trusted and kept), cell_loop(phi)
  // adding the cells' forces, and the compress of the sums over ranks (which sends the ghost
  // entries to their owners and leaves them zero).
  template <typename CellLoop>
  void accumulate(VectorType& force, const VectorType& displacement, CellLoop cell_loop,
                  bool clear = true) const {
    if (clear) force = 0;
    const bool ghosted = displacement.has_ghost_elements();
    if (!ghosted) displacement.update_ghost_values();
    Evaluation phi(matrix_free_);
    cell_loop(phi);
    force.compress(dealii::VectorOperation::add);
    if (!ghosted) displacement.zero_out_ghost_values();
  }

  // force += weight * integral of sigma(u) : eps(phi_i) over the cells of one batch; with
  // `energy`, adds the batch's u_c.K_c u_c to it, cell by cell.
  void add_cell_force(Evaluation& phi, unsigned int cell, const VectorType& displacement,
                      const Lanes& weight, double* energy, VectorType& force) const {
    phi.reinit(cell);
    phi.read_dof_values(displacement);
    phi.evaluate(dealii::EvaluationFlags::gradients);
    Lanes cell_energy(0.);
    for (unsigned int q = 0; q < phi.n_q_points; ++q) {
      const auto eps = phi.get_symmetric_gradient(q);
      const auto sigma = stress(eps);
      if (energy != nullptr) cell_energy += scalar_product(sigma, eps) * phi.JxW(q);
      phi.submit_symmetric_gradient(sigma * weight, q);
    }
    phi.integrate(dealii::EvaluationFlags::gradients);
    phi.distribute_local_to_global(force);
    if (energy != nullptr)
      for (unsigned int l = 0; l < matrix_free_.n_active_entries_per_cell_batch(cell); ++l)
        *energy += cell_energy[l];
  }

  // support_of_group_: per group, the owned entries its cells on any rank write (their dofs,
  // constrained ones replaced by their masters), marked in a vector whose ghost marks the
  // compress sends to the owners.
  void find_group_supports(const dealii::AffineConstraints<double>& constraints) {
    VectorType marks;
    matrix_free_.initialize_dof_vector(marks);
    support_of_group_.assign(batches_of_group_.size(), {});
    std::vector<dealii::types::global_dof_index> indices;
    for (unsigned int g = 0; g < batches_of_group_.size(); ++g) {
      marks = 0;
      for (const unsigned int batch : batches_of_group_[g])
        for (unsigned int l = 0; l < matrix_free_.n_active_entries_per_cell_batch(batch); ++l)
          for_each_held_dof(matrix_free_.get_cell_iterator(batch, l), constraints, indices,
                            [&](dealii::types::global_dof_index i) { marks(i) = 1; });
      marks.compress(dealii::VectorOperation::add);
      for (unsigned int i = 0; i < marks.locally_owned_size(); ++i)
        if (marks.local_element(i) != 0) support_of_group_[g].push_back(i);
    }
  }

  double lame_lambda_, lame_mu_;
  MatrixFree matrix_free_;
  std::vector<std::vector<unsigned int>> batches_of_group_;  // SIMD batches of each cell group
  std::vector<std::vector<unsigned int>> support_of_group_;  // owned entries each group writes
};

template <typename Lanes>
std::unique_ptr<ElasticOperator> make_operator(const ElasticOperator::Setup& setup) {
  if (setup.degree == 1) return std::make_unique<MatrixFreeElasticOperator<1, Lanes>>(setup);
  if (setup.degree == 2) return std::make_unique<MatrixFreeElasticOperator<2, Lanes>>(setup);
  throw std::invalid_argument("fem.degree must be 1 or 2");
}

}  // namespace rebound::fem::kernel
