// The matrix-free kernel of fem/internal_force.h for one SIMD width (the template argument
// Lanes = VectorizedArray<double, n>) and one material (fem/materials/material.h). Included only
// by the translation units that instantiate it: internal_force.cpp (one lane, deal.II's own
// instantiations) and internal_force_lanes.cpp (2, 4 or 8 lanes, after fem/simd_lanes.h).
// A material without state (LinearElastic) compiles to the plain loop of loop() and
// add_cell_force(): no state is read or kept. A material with state (ElasticPlastic) compiles to
// the loop of the same name with a Mode: its state (the plastic strain, or the viscoelastic
// Maxwell arm's stress and the last strain, per cell batch and quadrature point) is advanced only
// by apply_and_advance.
#pragma once

#include <deal.II/base/aligned_vector.h>
#include <deal.II/base/mpi.h>
#include <deal.II/base/quadrature_lib.h>
#include <deal.II/base/vectorization.h>
#include <deal.II/matrix_free/fe_evaluation.h>
#include <deal.II/matrix_free/matrix_free.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <variant>
#include <vector>

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
    // A target body's material: batches of one body each (category 1 the target's cells).
    const auto on_target = [&](const auto& cell) {
      return cell->material_id() == setup.target_material_id;
    };
    if (setup.target_material) {
      if constexpr (stateful)
        throw std::invalid_argument(
            "a deformable target's own material needs an elastic body (fem/internal_force.h)");
      const auto& triangulation = setup.dofs.get_triangulation();
      data.cell_vectorization_category.assign(triangulation.n_active_cells(), 0);
      for (const auto& cell : triangulation.active_cell_iterators())
        if (!cell->is_artificial() && on_target(cell))
          data.cell_vectorization_category[cell->active_cell_index()] = 1;
      data.cell_vectorization_categories_strict = true;
    }
    matrix_free_.reinit(setup.mapping, setup.dofs, setup.constraints, dealii::QGauss<1>(p + 1),
                        data);
    if (setup.target_material) {
      target_material_ = setup.target_material;
      target_batch_.resize(matrix_free_.n_cell_batches());
      for (unsigned int cell = 0; cell < matrix_free_.n_cell_batches(); ++cell) {
        target_batch_[cell] = on_target(matrix_free_.get_cell_iterator(cell, 0));
        for (unsigned int l = 1; l < matrix_free_.n_active_entries_per_cell_batch(cell); ++l)
          if (on_target(matrix_free_.get_cell_iterator(cell, l)) != bool(target_batch_[cell]))
            throw std::logic_error("internal force: a cell batch holds both bodies");
      }
    }
    reset_state();
  }

  // f = K u: for a material without state, loop() below; with state, its loop with the mode.
  void apply(VectorType& force, const VectorType& displacement) const override {
    if constexpr (stateful)
      loop(Mode::trial, force, displacement, nullptr);
    else
      loop(force, displacement);
  }

  void apply_and_advance(VectorType& force, const VectorType& displacement) override {
    if constexpr (stateful)
      loop(Mode::advance, force, displacement, &state_);
    else
      loop(force, displacement);
  }

  void apply_elastic(VectorType& force, const VectorType& displacement) const override {
    if constexpr (stateful)
      loop(Mode::elastic, force, displacement, nullptr);
    else
      loop(force, displacement);
  }

  void reset_state() override {
    if constexpr (stateful) state_.reset(matrix_free_.n_cell_batches() * n_q_points);
  }

  void set_time_step([[maybe_unused]] double dt) override {
    if constexpr (viscous) material_.set_time_step(dt);
  }

  Energies energies() const override {
    if constexpr (stateful) return state_.energies;
    return {};
  }

  void cell_state(std::vector<double>& equivalent,
                  std::vector<dealii::SymmetricTensor<2, 3>>& tensor) const override {
    const unsigned int n = matrix_free_.get_dof_handler().get_triangulation().n_active_cells();
    equivalent.assign(n, 0.0);
    tensor.assign(n, dealii::SymmetricTensor<2, 3>());
    if constexpr (viscous) {
      for (unsigned int cell = 0; cell < matrix_free_.n_cell_batches(); ++cell)
        for (unsigned int l = 0; l < matrix_free_.n_active_entries_per_cell_batch(cell); ++l) {
          const unsigned int index = matrix_free_.get_cell_iterator(cell, l)->active_cell_index();
          for (unsigned int q = 0; q < n_q_points; ++q)
            for (unsigned int i = 0; i < 3; ++i)
              for (unsigned int j = i; j < 3; ++j)
                tensor[index][i][j] +=
                    state_.arm_stress[std::size_t(cell) * n_q_points + q][i][j][l] / n_q_points;
        }
    } else if constexpr (stateful) {
      for (unsigned int cell = 0; cell < matrix_free_.n_cell_batches(); ++cell) {
        for (unsigned int l = 0; l < matrix_free_.n_active_entries_per_cell_batch(cell); ++l) {
          const unsigned int index = matrix_free_.get_cell_iterator(cell, l)->active_cell_index();
          for (unsigned int q = 0; q < n_q_points; ++q) {
            const std::size_t k = std::size_t(cell) * n_q_points + q;
            equivalent[index] += state_.equivalent_plastic_strain[k][l] / n_q_points;
            for (unsigned int i = 0; i < 3; ++i)
              for (unsigned int j = i; j < 3; ++j)
                tensor[index][i][j] += state_.plastic_strain[k][i][j][l] / n_q_points;
          }
        }
      }
    }
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

  // A plain loop over the cell batches in their order between the ghost exchange and the
  // compress, not MatrixFree::cell_loop (which interleaves both with the cells): the same sums
  // in the same order, measured cheaper on 2 ranks (docs/FEM.md, "Performance").
  void loop(VectorType& force, const VectorType& displacement) const {
    force = 0;
    const bool ghosted = displacement.has_ghost_elements();
    if (!ghosted) displacement.update_ghost_values();
    Evaluation phi(matrix_free_);
    for (unsigned int cell = 0; cell < matrix_free_.n_cell_batches(); ++cell)
      add_cell_force(phi, cell, displacement, force);
    force.compress(dealii::VectorOperation::add);
    if (!ghosted) displacement.zero_out_ghost_values();
  }

  // force += integral of sigma(eps(u)) : eps(phi_i) over the cells of one batch.
  void add_cell_force(Evaluation& phi, unsigned int cell, const VectorType& displacement,
                      VectorType& force) const {
    phi.reinit(cell);
    phi.read_dof_values(displacement);
    phi.evaluate(dealii::EvaluationFlags::gradients);
    // (Instantiated for the materials without state only, LinearElastic: the target's is one.)
    const Material& material =
        target_batch_.empty() || !target_batch_[cell] ? material_ : *target_material_;
    for (unsigned int q = 0; q < phi.n_q_points; ++q)
      phi.submit_symmetric_gradient(material.stress(phi.get_symmetric_gradient(q)), q);
    phi.integrate(dealii::EvaluationFlags::gradients);
    phi.distribute_local_to_global(force);
  }

  // ---- A material with state per quadrature point (fem/materials/elastic_plastic.h,
  // viscoelastic.h) ----
  static constexpr bool stateful = materials::has_state<Material>;
  static constexpr bool viscous = std::is_same_v<Material, materials::Viscoelastic>;
  static constexpr unsigned int n_q_points = (p + 1) * (p + 1) * (p + 1);
  enum class Mode {
    elastic,  // Hooke's law of the (instantaneous) elastic constants; no state read or written
    trial,    // the stress from the state kept, which is not changed
    advance   // the stress, with the state advanced and the step's dissipation added
  };

  // The plastic strain eps_p and the equivalent plastic strain ebar_p per cell batch and
  // quadrature point (index cell * n_q_points + q), and per cell batch whether any of its points
  // has yielded yet: a batch that has not is evaluated as the elastic material is, with one test
  // of the trial stress against the yield surface per point, and its state is not read.
  struct PlasticState {
    dealii::AlignedVector<dealii::SymmetricTensor<2, 3, Lanes>> plastic_strain;
    dealii::AlignedVector<Lanes> equivalent_plastic_strain;
    std::vector<unsigned char> yielded;  // per cell batch
    Energies energies;
    void reset(std::size_t points) {
      plastic_strain.resize_fast(points);
      equivalent_plastic_strain.resize_fast(points);
      plastic_strain.fill(dealii::SymmetricTensor<2, 3, Lanes>());
      equivalent_plastic_strain.fill(Lanes(0.0));
      yielded.assign(points / n_q_points, 0);
      energies = Energies{};
    }
  };

  // The viscoelastic body's Maxwell arm stress h_n and strain eps_n of the last step per cell
  // batch and quadrature point (read at every point: every point relaxes).
  struct ViscousState {
    dealii::AlignedVector<dealii::SymmetricTensor<2, 3, Lanes>> arm_stress, strain;
    Energies energies;
    void reset(std::size_t points) {
      for (auto* v : {&arm_stress, &strain}) {
        v->resize_fast(points);
        v->fill(dealii::SymmetricTensor<2, 3, Lanes>());
      }
      energies = Energies{};
    }
  };
  using State = std::conditional_t<viscous, ViscousState, PlasticState>;

  // The loop of a material with state: apply()'s loop with the material's own stress.
  void loop(Mode mode, VectorType& force, const VectorType& displacement, State* advancing) const {
    force = 0;
    const bool ghosted = displacement.has_ghost_elements();
    if (!ghosted) displacement.update_ghost_values();
    Evaluation phi(matrix_free_);
    Energies step;  // this evaluation's plastic work and sigma : eps_p
    for (unsigned int cell = 0; cell < matrix_free_.n_cell_batches(); ++cell)
      if constexpr (viscous)
        add_viscous_cell_force(mode, phi, cell, displacement, force, advancing, step);
      else
        add_cell_force(mode, phi, cell, displacement, force, advancing, step);
    force.compress(dealii::VectorOperation::add);
    if (!ghosted) displacement.zero_out_ghost_values();
    if constexpr (viscous) {
      if (advancing) {
        advancing->energies.viscous_dissipation += step.viscous_dissipation;
        advancing->energies.inelastic_stress_work = step.inelastic_stress_work;
        double cells = 0;  // every point's state is read
        for (unsigned int cell = 0; cell < matrix_free_.n_cell_batches(); ++cell)
          cells += matrix_free_.n_active_entries_per_cell_batch(cell);
        advancing->energies.cells_with_state = cells;
      }
    } else {
      if (advancing) {
        advancing->energies.plastic_dissipation += step.plastic_dissipation;
        advancing->energies.inelastic_stress_work = step.inelastic_stress_work;
        double cells = 0;
        for (unsigned int cell = 0; cell < matrix_free_.n_cell_batches(); ++cell)
          if (advancing->yielded[cell]) cells += matrix_free_.n_active_entries_per_cell_batch(cell);
        advancing->energies.cells_with_state = cells;
      }
    }
  }

  // force += integral of sigma : eps(phi_i) over the cells of one batch, sigma by the radial
  // return from the batch's state (Hooke's law until one of its points yields).
  void add_cell_force(Mode mode, Evaluation& phi, unsigned int cell, const VectorType& displacement,
                      VectorType& force, State* advancing, Energies& step) const {
    phi.reinit(cell);
    phi.read_dof_values(displacement);
    phi.evaluate(dealii::EvaluationFlags::gradients);
    bool elastic = mode == Mode::elastic || !state_.yielded[cell];
    for (unsigned int q = 0; q < phi.n_q_points; ++q) {
      const dealii::SymmetricTensor<2, 3, Lanes> strain = phi.get_symmetric_gradient(q);
      if (elastic) {
        const dealii::SymmetricTensor<2, 3, Lanes> stress = material_.elastic.stress(strain);
        if (mode == Mode::elastic || !material_.yields(stress)) {
          phi.submit_symmetric_gradient(stress, q);
          continue;
        }
        elastic = false;  // the points before q have eps_p = 0 and did not yield
      }
      const std::size_t k = std::size_t(cell) * n_q_points + q;
      const auto r = material_.radial_return(strain, state_.plastic_strain[k]);
      if (advancing) advance_point(*advancing, k, r, phi.JxW(q), cell, step);
      phi.submit_symmetric_gradient(r.stress, q);
    }
    if (advancing && !elastic) advancing->yielded[cell] = 1;
    phi.integrate(dealii::EvaluationFlags::gradients);
    phi.distribute_local_to_global(force);
  }

  // force += integral of sigma : eps(phi_i) over the cells of one batch for the viscoelastic
  // body, sigma = C : eps + h with the arm's stress h integrated from the state
  // (materials::Viscoelastic); advancing: the state moved to this strain, the step's
  // dissipation D JxW and (h : eps - 2 psi(h)) JxW of the batch's cells added to `step`.
  void add_viscous_cell_force(Mode mode, Evaluation& phi, unsigned int cell,
                              const VectorType& displacement, VectorType& force, State* advancing,
                              Energies& step) const {
    phi.reinit(cell);
    phi.read_dof_values(displacement);
    phi.evaluate(dealii::EvaluationFlags::gradients);
    const materials::LinearElastic glassy = material_.glassy();
    Lanes dissipation(0.0), stress_work(0.0);
    for (unsigned int q = 0; q < phi.n_q_points; ++q) {
      const dealii::SymmetricTensor<2, 3, Lanes> strain = phi.get_symmetric_gradient(q);
      if (mode == Mode::elastic) {
        phi.submit_symmetric_gradient(glassy.stress(strain), q);
        continue;
      }
      const std::size_t k = std::size_t(cell) * n_q_points + q;
      const dealii::SymmetricTensor<2, 3, Lanes> h =
          material_.arm_stress(strain, state_.strain[k], state_.arm_stress[k]);
      if (advancing) {
        const Lanes JxW = phi.JxW(q);
        dissipation +=
            material_.dissipation(strain, state_.strain[k], state_.arm_stress[k], h) * JxW;
        stress_work += (h * strain - Lanes(2.0) * material_.arm_energy(h)) * JxW;
        advancing->strain[k] = strain;
        advancing->arm_stress[k] = h;
      }
      phi.submit_symmetric_gradient(material_.stress(strain) + h, q);
    }
    if (advancing)
      for (unsigned int l = 0; l < matrix_free_.n_active_entries_per_cell_batch(cell); ++l) {
        step.viscous_dissipation += dissipation[l];
        step.inelastic_stress_work += stress_work[l];
      }
    phi.integrate(dealii::EvaluationFlags::gradients);
    phi.distribute_local_to_global(force);
  }

  // The state of point k advanced by the return r (ElasticPlastic::advance, skipped when no lane
  // yields: the state is then written only where it changes); the plastic work R d lambda JxW
  // and sigma : eps_p JxW of the batch's cells (not of its unused lanes) added.
  template <typename Return>
  void advance_point(State& state, std::size_t k, const Return& r, const Lanes& JxW,
                     unsigned int cell, Energies& step) const {
    const unsigned int used = matrix_free_.n_active_entries_per_cell_batch(cell);
    dealii::SymmetricTensor<2, 3, Lanes>& plastic_strain = state.plastic_strain[k];
    bool yielding = false;
    for (unsigned int l = 0; l < Lanes::size(); ++l) yielding = yielding || r.scale[l] > 0;
    if (yielding) {
      const Lanes work =
          material_.advance(r, plastic_strain, state.equivalent_plastic_strain[k]) * JxW;
      for (unsigned int l = 0; l < used; ++l) step.plastic_dissipation += work[l];
    }
    const Lanes stress_work = (r.stress * plastic_strain) * JxW;
    for (unsigned int l = 0; l < used; ++l) step.inelastic_stress_work += stress_work[l];
  }

  Material material_;
  // A deformable target body's elastic material and, per cell batch, whether it is the target's
  // (empty without one).
  std::optional<materials::LinearElastic> target_material_;
  std::vector<unsigned char> target_batch_;
  MatrixFree matrix_free_;
  // Only for a material with state (an empty struct otherwise).
  std::conditional_t<stateful, State, std::tuple<>> state_;
};

// The kernel of one material for the setup's degree.
template <typename Lanes, typename Material>
std::unique_ptr<InternalForce> make_kernel(const InternalForce::Setup& setup,
                                           const Material& material) {
  if (setup.degree == 1)
    return std::make_unique<MatrixFreeInternalForce<1, Lanes, Material>>(setup, material);
  return std::make_unique<MatrixFreeInternalForce<2, Lanes, Material>>(setup, material);
}

// The elastic-plastic kernels, compiled in translation units of their own
// (internal_force_plastic.cpp for one lane, internal_force_plastic_lanes.cpp for the wider
// widths, each an explicit instantiation of make_kernel): the units of the elastic kernel then
// hold the elastic instantiations alone, so that GCC's inlining of deal.II's evaluation into them
// is what it was before the plastic material existed.
template <typename Lanes>
std::unique_ptr<InternalForce> make_plastic_operator(const InternalForce::Setup& setup,
                                                     const materials::ElasticPlastic& material);
// The viscoelastic kernels, likewise (internal_force_viscoelastic*.cpp).
template <typename Lanes>
std::unique_ptr<InternalForce> make_viscoelastic_operator(const InternalForce::Setup& setup,
                                                          const materials::Viscoelastic& material);

// The kernel for the setup's degree and material.
template <typename Lanes>
std::unique_ptr<InternalForce> make_operator(const InternalForce::Setup& setup) {
  if (setup.degree != 1 && setup.degree != 2)
    throw std::invalid_argument("fem.degree must be 1 or 2");
  return std::visit(
      [&](const auto& material) -> std::unique_ptr<InternalForce> {
        using Material = std::decay_t<decltype(material)>;
        if constexpr (std::is_same_v<Material, materials::ElasticPlastic>)
          return make_plastic_operator<Lanes>(setup, material);
        else if constexpr (std::is_same_v<Material, materials::Viscoelastic>)
          return make_viscoelastic_operator<Lanes>(setup, material);
        else
          return make_kernel<Lanes>(setup, material);
      },
      setup.material);
}

}  // namespace rebound::fem::kernel
