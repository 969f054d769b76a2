// The dofs a cell's values are made of: its unconstrained dofs and, in place of each constrained
// (hanging) one, that dof's masters. The operator's group supports (elastic_operator_kernel.h)
// and the local time stepping's dof levels (solver.cpp) both need them.
#pragma once

#include <deal.II/base/types.h>
#include <deal.II/lac/affine_constraints.h>

#include <vector>

namespace rebound::fem {

// Calls action(i) for every dof the cell holds (a master may come more than once); `scratch`
// receives the cell's dof indices.
template <typename CellIterator, typename Action>
void for_each_held_dof(const CellIterator& cell,
                       const dealii::AffineConstraints<double>& constraints,
                       std::vector<dealii::types::global_dof_index>& scratch,
                       const Action& action) {
  scratch.resize(cell->get_fe().n_dofs_per_cell());
  cell->get_dof_indices(scratch);
  for (const auto i : scratch) {
    if (const auto* entries = constraints.get_constraint_entries(i))
      for (const auto& entry : *entries) action(entry.first);
    else if (!constraints.is_constrained(i))
      action(i);
  }
}

}  // namespace rebound::fem
