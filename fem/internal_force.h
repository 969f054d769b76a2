// The internal force of the FEM, f = K u: for the body's material (fem/materials/material.h), and a
// deformable target body's elastic material on its cells (Setup::target_material)
//   f_i = sum over cells of the integral of sigma(eps(u)) : eps(phi_i),  eps = (grad u + grad u^T)
//   / 2,
// evaluated matrix-free (deal.II's MatrixFree and FEEvaluation: sum factorisation on
// FESystem(FE_Q(p), 3), Gauss quadrature with p + 1 points per direction), never assembled.
//
// SIMD lanes. FEEvaluation works on batches of cells, one cell per lane of a
// VectorizedArray<double, lanes>. Debian's deal.II is built for any x86-64 CPU, so its own
// instantiations have one lane (scalar arithmetic). rebound compiles the same kernel again for
// two lanes (SSE2, part of every x86-64 CPU): internal_force_lanes.cpp and
// matrix_free_lanes.cpp instantiate deal.II's templates for that width (fem/simd_lanes.h); and
// for four (AVX2 + FMA) and eight (AVX-512F) in the modules rebound_fem_avx2 and
// rebound_fem_avx512, each loaded at run time only on a CPU that has those instructions, so the
// program still runs on any x86-64 CPU. The lanes change the order of the floating-point sums
// only; the results agree to round-off (tests/fem/test_fem.cpp,
// SimdLanesGiveTheSameImpactToRoundOff), the speed is measured by bench/bench_fem
// (docs/PERFORMANCE.md).
#pragma once

#include <deal.II/base/symmetric_tensor.h>
#include <deal.II/base/tensor.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/fe/mapping.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/la_parallel_vector.h>

#include <memory>
#include <optional>
#include <vector>

#include "fem/materials/material.h"

namespace rebound::fem {

class InternalForce {
 public:
  using VectorType = dealii::LinearAlgebra::distributed::Vector<double>;
  struct Setup {
    const dealii::Mapping<3>& mapping;
    const dealii::DoFHandler<3>& dofs;  // FESystem(FE_Q(degree), 3)
    const dealii::AffineConstraints<double>& constraints;
    int degree;  // 1 or 2
    materials::Material material;
    // A deformable target body's own elastic material, on the cells of material id
    // target_material_id (the matrix-free batches are then split by body, so each batch holds one
    // material); empty: every cell is the body's. The body's material must then be elastic.
    std::optional<materials::LinearElastic> target_material = std::nullopt;
    dealii::types::material_id target_material_id = 1;
  };

  // What a material with state (fem/materials/elastic_plastic.h, viscoelastic.h) has done, on
  // this rank's cells, as of the last apply_and_advance (zero for a material without state).
  struct Energies {
    double plastic_dissipation = 0;  // the plastic work summed over the steps, J
    double viscous_dissipation = 0;  // the Maxwell arm's dissipation summed over the steps, J
    // What u.f exceeds twice the stored elastic energy by, J (u.f = integral of sigma : eps):
    // the integral of sigma : eps_p for plasticity (the elastic energy is 1/2 sigma : (eps -
    // eps_p)); of h : eps - 2 psi(h) for the viscoelastic body (sigma = C : eps + h, the energy
    // 1/2 eps : C : eps + psi(h), psi the Maxwell arm's spring energy).
    double inelastic_stress_work = 0;
    // The cells of the batches whose state is read (those where some point has yielded): what
    // the state costs in memory traffic.
    double cells_with_state = 0;
  };

  virtual ~InternalForce() = default;
  // force = K displacement (force is overwritten; ghosts of displacement are updated inside and
  // cleared again, unless it already has ghost values: then they are trusted and kept). With a
  // material that has state per quadrature point, the stress is the return from the state kept
  // (a trial: the state does not change), so that any number of extra evaluations (the
  // benchmarks, the patch test) leave the run as it was.
  virtual void apply(VectorType& force, const VectorType& displacement) const = 0;
  // The same force with the material's state advanced to `displacement` and the step's plastic
  // work added: the one evaluation per time step (the solver's update_force). For a material
  // without state, apply().
  virtual void apply_and_advance(VectorType& force, const VectorType& displacement) = 0;
  // force = K_e displacement with the material's instantaneous elastic constants alone (no state
  // read or written): the operator whose largest eigenvalue gives the stable time step
  // (plasticity only softens the body; the viscoelastic body's glassy modulus is (1 + g) E). For
  // an elastic material, apply().
  virtual void apply_elastic(VectorType& force, const VectorType& displacement) const = 0;
  // The material back to its virgin state (no plastic strain, no arm stress, no work).
  virtual void reset_state() = 0;
  // The time step of the runs that follow (a viscoelastic material's integrator depends on it;
  // the others ignore it).
  virtual void set_time_step(double dt) = 0;
  virtual Energies energies() const = 0;
  // The mean over each of this rank's cells' quadrature points of the equivalent plastic strain
  // ebar_p and of the plastic strain eps_p (a viscoelastic material: zero and the Maxwell arm's
  // stress h), by active_cell_index (vectors sized to the triangulation's active cells; left
  // zero for other ranks' cells and an elastic material).
  virtual void cell_state(std::vector<double>& equivalent,
                          std::vector<dealii::SymmetricTensor<2, 3>>& tensor) const = 0;
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
std::unique_ptr<InternalForce> make_internal_force(const InternalForce::Setup& setup,
                                                   unsigned int lanes = 0);

}  // namespace rebound::fem
