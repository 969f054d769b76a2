// The parts of the FE body that the explicit solver (fem/solver.cpp) and the quasi-static
// contact law (fem/quasi_static.h) share, so that both discretise the same body the same way:
// the conforming isoparametric geometry and the lumped mass with the nodal boundary areas.
#pragma once

#include <deal.II/base/index_set.h>
#include <deal.II/base/quadrature_lib.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/fe/fe_system.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/fe/mapping_q.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/vector.h>
#include <deal.II/lac/vector_operation.h>

#include <optional>

namespace rebound::fem {

// Positions of the support points of `fe` under MappingQ(degree) (which follows the manifolds),
// made conforming at hanging nodes by the constraints: the geometry is then the FE interpolant of
// itself (MappingQCache::initialize with this vector). `positions` holds the owned dofs (and the
// ghosts the caller updates afterwards, for a distributed vector).
template <class VectorType>
void support_positions(const dealii::MappingQ<3>& mapping, const dealii::FESystem<3>& fe,
                       const dealii::DoFHandler<3>& dof_handler,
                       const dealii::AffineConstraints<double>& constraints,
                       VectorType& positions) {
  using namespace dealii;
  const IndexSet& owned = dof_handler.locally_owned_dofs();
  const Quadrature<3> support(fe.get_unit_support_points());
  FEValues<3> values(mapping, fe, support, update_quadrature_points);
  std::vector<types::global_dof_index> indices(fe.n_dofs_per_cell());
  for (const auto& cell : dof_handler.active_cell_iterators()) {
    if (cell->is_artificial()) continue;
    values.reinit(cell);
    cell->get_dof_indices(indices);
    for (unsigned int i = 0; i < indices.size(); ++i)
      if (owned.is_element(indices[i]))
        positions(indices[i]) = values.quadrature_point(i)[fe.system_to_component_index(i).first];
  }
  constraints.distribute(positions);
}

// Lumped mass (p = 1: row sum of the consistent mass; p = 2: Gauss-Lobatto collocation) and
// nodal boundary areas (row sums of the boundary "mass"), both through the constraints (mass is
// conserved across hanging nodes), into vectors that the caller has sized; returns this process's
// mass integrated cell by cell (density x volume of its owned cells). A target body's cells
// (material id target_id) take target_density when it is given.
template <class VectorType>
double assemble_lumped_mass(const dealii::Mapping<3>& mapping, const dealii::FESystem<3>& fe,
                            const dealii::DoFHandler<3>& dof_handler,
                            const dealii::AffineConstraints<double>& constraints, int degree,
                            double body_density, VectorType& mass, VectorType& area,
                            std::optional<double> target_density = std::nullopt,
                            dealii::types::material_id target_id = 1) {
  using namespace dealii;
  double quadrature_mass = 0;
  const Quadrature<3> quadrature =
      degree == 1 ? Quadrature<3>(QGauss<3>(2)) : Quadrature<3>(QGaussLobatto<3>(degree + 1));
  FEValues<3> values(mapping, fe, quadrature, update_values | update_JxW_values);
  FEFaceValues<3> face_values(mapping, fe, QGauss<2>(degree + 1),
                              update_values | update_JxW_values);
  const unsigned int n = fe.n_dofs_per_cell();
  Vector<double> local_mass(n), local_area(n);
  std::vector<types::global_dof_index> indices(n);
  for (const auto& cell : dof_handler.active_cell_iterators()) {
    if (!cell->is_locally_owned()) continue;
    const double density =
        target_density && cell->material_id() == target_id ? *target_density : body_density;
    values.reinit(cell);
    cell->get_dof_indices(indices);
    local_mass = 0;
    local_area = 0;
    for (unsigned int q = 0; q < quadrature.size(); ++q) {
      quadrature_mass += density * values.JxW(q);
      for (unsigned int i = 0; i < n; ++i) {
        const double phi =
            values.shape_value_component(i, q, fe.system_to_component_index(i).first);
        local_mass(i) += density * (degree == 1 ? phi : phi * phi) * values.JxW(q);
      }
    }
    for (const unsigned int f : cell->face_indices()) {
      if (!cell->face(f)->at_boundary()) continue;
      face_values.reinit(cell, f);
      for (unsigned int q = 0; q < face_values.n_quadrature_points; ++q)
        for (unsigned int i = 0; i < n; ++i)
          local_area(i) +=
              face_values.shape_value_component(i, q, fe.system_to_component_index(i).first) *
              face_values.JxW(q);
    }
    constraints.distribute_local_to_global(local_mass, indices, mass);
    constraints.distribute_local_to_global(local_area, indices, area);
  }
  mass.compress(VectorOperation::add);
  area.compress(VectorOperation::add);
  return quadrature_mass;
}

}  // namespace rebound::fem
