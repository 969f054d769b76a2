// The recursion of fem/local_time_stepping.h.
#include "fem/local_time_stepping.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace rebound::fem {

LocalTimeStepping::LocalTimeStepping(const ElasticOperator& stiffness, const VectorType& nodal_mass,
                                     Levels levels, double fine_step, double nu)
    : stiffness_(stiffness), levels_(std::move(levels)) {
  if (levels_.dofs.empty() || levels_.dofs.size() != levels_.group_weights.size())
    throw std::invalid_argument("local time stepping: one dof list and one weight set per level");
  if (!(fine_step > 0) || !(nu >= 0))
    throw std::invalid_argument("local time stepping: fine step > 0 and damping >= 0 expected");
  top_ = int(levels_.dofs.size()) - 1;
  const std::size_t count = levels_.dofs.size();
  const unsigned int owned = nodal_mass.locally_owned_size();
  inverse_mass_.assign(owned, 0.0);
  for (unsigned int i = 0; i < owned; ++i)
    if (nodal_mass.local_element(i) > 0) inverse_mass_[i] = 1 / nodal_mass.local_element(i);
  step_.resize(count);
  damping_.assign(count, 1.0);
  for (std::size_t k = 0; k < count; ++k) {
    step_[k] = std::ldexp(fine_step, int(k));
    // The damped Chebyshev polynomial of degree 2 on level k >= 1: T2(d - x / w) / T2(d), w
    // making its slope at x = 0 the leapfrog's (consistency): w = 2 T2'(d) / T2(d).
    if (k > 0) damping_[k] = 1 + nu * std::ldexp(1.0, 1 - int(k)) / 4;
  }
  // Supports: O_k = what the level-k groups write; S_k = O_0 u ... u O_k; closed_k = S_k \ S_{k-1}.
  written_.assign(count, {});
  support_.assign(count, {});
  closed_.assign(count, {});
  std::vector<char> in_support(owned, 0);
  for (std::size_t k = 0; k < count; ++k) {
    std::vector<char> mark(owned, 0);
    const std::vector<double>& weight = levels_.group_weights[k];
    if (weight.size() != stiffness_.groups())
      throw std::invalid_argument("local time stepping: one weight per operator group expected");
    for (unsigned int g = 0; g < weight.size(); ++g)
      if (weight[g] != 0)
        for (const unsigned int i : stiffness_.group_support(g)) mark[i] = 1;
    for (unsigned int i = 0; i < owned; ++i)
      if (mark[i]) written_[k].push_back(i);
    for (const unsigned int i : written_[k])
      if (!in_support[i]) {
        in_support[i] = 1;
        closed_[k].push_back(i);
      }
    for (unsigned int i = 0; i < owned; ++i)
      if (in_support[i]) support_[k].push_back(i);
  }
  support_level_.assign(owned, count);
  for (std::size_t k = count; k-- > 0;)
    for (const unsigned int i : support_[k]) support_level_[i] = (unsigned int)k;
  for (const auto& list : levels_.dofs)
    for (const unsigned int i : list)
      if (i >= owned || !in_support[i])
        throw std::invalid_argument("local time stepping: a dof outside every level's cells");
  input_.resize(count);
  for (VectorType& v : input_) stiffness_.initialize_dof_vector(v);
  stiffness_.initialize_dof_vector(output_);
  frozen_.assign(count, std::vector<double>(owned, 0.0));
  first_.assign(count, std::vector<double>(owned, 0.0));
  inner_.assign(count, std::vector<double>(owned, 0.0));
}

void LocalTimeStepping::hold(std::vector<unsigned int> dofs) {
  for (const unsigned int i : dofs)
    if (i >= support_level_.size())
      throw std::out_of_range("local time stepping: held dof outside the owned range");
  held_ = std::move(dofs);
}

void LocalTimeStepping::apply(VectorType& force, const VectorType& displacement) {
  std::vector<double>& r = inner_[0];  // free at the top: level 0 has no inner results
  increment(top_, nullptr, displacement.begin(), r.data());
  // K_G u = -(2 / H^2) M R_L(0, u)
  const double scale = -2 / (coarse_step() * coarse_step());
  for (const unsigned int i : support_[std::size_t(top_)])
    force.local_element(i) = inverse_mass_[i] > 0 ? scale * r[i] / inverse_mass_[i] : 0.0;
}

void LocalTimeStepping::increment(int k, const double* c, const double* z, double* r) {
  const std::size_t l = std::size_t(k);
  // c' = c + M^-1 K (Pi_k - Pi_{k-1}) z: the level-k dofs of z through the level-k groups.
  VectorType& in = input_[l];
  for (const unsigned int i : levels_.dofs[l]) in.local_element(i) = z[i];
  stiffness_.apply_groups_on_support(output_, in, levels_.group_weights[l]);
  double* frozen = frozen_[l].data();
  if (c != nullptr)
    for (const unsigned int i : support_[l]) frozen[i] = c[i];
  else
    for (const unsigned int i : support_[l]) frozen[i] = 0;
  for (const unsigned int i : written_[l]) frozen[i] += output_.local_element(i) * inverse_mass_[i];
  const double h = step_[l];
  if (k == 0) {  // one leapfrog half step of delta from rest
    for (const unsigned int i : support_[0]) r[i] = -0.5 * h * h * frozen[i];
    return;
  }
  // Two damped-Chebyshev steps of h_{k-1} on the finer levels' dofs (S_{k-1}): with
  // w T2(d) = 8 d the recursion of the header reduces to
  //   Y1 = z + (2 - 1/d^2) R_{k-1}(c', z),   R_k = 2 (R_{k-1}(c', z) + R_{k-1}(c', Y1)),
  // (d = 1: two leapfrog steps from rest). A held dof stays at z inside the step. ...
  const double d = damping_[l];
  const double a = 2 - 1 / (d * d);
  double* y1 = first_[l].data();
  double* inner = inner_[l].data();
  const std::vector<unsigned int>& finer = support_[l - 1];
  increment(k - 1, frozen, z, inner);
  for (const unsigned int i : finer) {
    y1[i] = z[i] + a * inner[i];
    r[i] = 2 * inner[i];
  }
  for (const unsigned int i : held_)
    if (int(support_level_[i]) <= k - 1) y1[i] = z[i];
  increment(k - 1, frozen, y1, inner);
  for (const unsigned int i : finer) r[i] += 2 * inner[i];
  // ... and the closed form of a frozen force on the rest of level k's reach.
  for (const unsigned int i : closed_[l]) r[i] = -0.5 * h * h * frozen[i];
}

}  // namespace rebound::fem
