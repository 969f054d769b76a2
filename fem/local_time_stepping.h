// Local time stepping of the FEM (docs/FEM.md, "Local time stepping"): the leapfrog-based local
// time stepping of Diaz & Grote (SIAM J. Sci. Comput. 31, 2009), nested over several levels
// (Diaz & Grote, Comput. Methods Appl. Mech. Engrg. 291, 2015) and stabilised by a damped
// Chebyshev step on every level (Carle, Hochbruck & Sturm, SIAM J. Numer. Anal. 58, 2020;
// Grote, Michel & Sauter, Math. Comp. 90, 2021).
//
// The mesh's cells have levels k = 0 (the finest: the contact zone) .. L, a cell of level k being
// stable with the step h_k = 2^k delta on its own; a dof's level is the finest of its cells'. The
// scheme is the leapfrog with the coarse step H = h_L,
//   u_{n+1} - 2 u_n + u_{n-1} = -H^2 M^-1 K_G u_n,
// in which the stiffness K is replaced by a modified one, K_G u_n = -(2 / H^2) M R_L(0, u_n), with
// R_k(c, z) the change over h_k of the solution y of y'' = -(c + M^-1 K Pi_k y), y(0) = z,
// y'(0) = 0, c frozen, Pi_k keeping the dofs of levels <= k, computed with two steps of h_{k-1}:
//   R_0(c, z) = -1/2 delta^2 (c + M^-1 K Pi_0 z)                      (one leapfrog half step)
//   R_k(c, z): c' = c + M^-1 K (Pi_k - Pi_{k-1}) z                    (level k frozen at z)
//              s(y) = d y + (8 / w) R_{k-1}(c', y)                   (w, d of the damped
//              Y1 = s(z) / d,  Y2 = (2 d s(Y1) - z) / T2(d)           Chebyshev polynomial T2)
//              R_k = Y2 - z,
// which with w T2(d) = 8 d is Y1 = z + (2 - 1/d^2) R_{k-1}(c', z), R_k = 2 (R_{k-1}(c', z) +
// R_{k-1}(c', Y1)). With d = 1 (w = 8) these are two leapfrog steps of h_{k-1} from rest, i.e.
// Diaz & Grote's scheme; d = 1 + nu_k / 4 (nu_k = nu_1 2^(1-k)), w = 2 T2'(d) / T2(d) damp it so
// that no step ratio is critical. Every dof outside the reach of the finer levels gets the closed
// form
// R_k = -1/2 h_k^2 c' (the recursion gives exactly this where K Pi_{k-1} does not reach), so a
// cell is evaluated at the rate of the finest dof it holds and the vector work of level k stays
// on its own dofs.
//
// K_G is symmetric and consistent (K_G -> K as delta -> 0, exactly K with one level; rigid
// motions are in its kernel), so the scheme conserves 1/2 v_{n-1/2} M v_{n+1/2} + 1/2 u_n.K_G u_n
// exactly for a linear body, and is stable while the eigenvalues of H^2 M^-1 K_G lie in [0, 4]
// (scripts/lts_leapfrog_reference.py is the 1-D reference). The interface between
// levels: inside a step of level k the dofs of coarser levels stay at their values of the
// synchronisation time (Pi_k masks them out; their force c' is frozen there).
//
// Contact: a held dof (hold(): the caller's contact nodes, their normal dof, and all three when
// they stick) keeps its value of the synchronisation time inside every step of every level, as
// a node on the plane does at every fine step; its own R is still computed, so its "force" is
// the elastic force on it while held, which the caller's contact correction turns into the
// reaction. Holding keeps the forces' sum zero (momentum is exact): every R sums, with the
// masses, to -1/2 h^2 sum m c' whatever its z.
#pragma once

#include <deal.II/lac/la_parallel_vector.h>

#include <utility>
#include <vector>

#include "fem/elastic_operator.h"

namespace rebound::fem {

class LocalTimeStepping {
 public:
  using VectorType = ElasticOperator::VectorType;

  // The levels of the owned, unconstrained dofs (index = position in the vector's local
  // storage) and, per level k, the weights of the operator's groups that hold a level-k dof
  // (1, else 0). The operator's groups must not mix cells with and without a level-k dof, for
  // every k.
  struct Levels {
    std::vector<std::vector<unsigned int>> dofs;     // [k]: owned unconstrained dofs of level k
    std::vector<std::vector<double>> group_weights;  // [k]: weight per operator group
  };

  // nodal_mass: the lumped mass per dof (copied); fine_step: delta, the step of level 0; nu: the
  // damping of level 1 (level k: nu 2^(1-k)). The operator must outlive this.
  LocalTimeStepping(const ElasticOperator& stiffness, const VectorType& nodal_mass, Levels levels,
                    double fine_step, double nu);

  // force = K_G displacement on every owned unconstrained dof (collective: every rank makes the
  // same operator calls). The other entries of force are not written.
  void apply(VectorType& force, const VectorType& displacement);
  // The dofs (owned, local indices) held at their value of the synchronisation time in the
  // next apply() calls (see the header's comment); empty: none.
  void hold(std::vector<unsigned int> dofs);

  double coarse_step() const { return step_[std::size_t(top_)]; }  // H = 2^L delta

 private:
  // r = R_k(c, z) on support(k); c may be null (zero). All arrays have the owned size.
  void increment(int k, const double* c, const double* z, double* r);

  const ElasticOperator& stiffness_;
  std::vector<double> inverse_mass_;  // per owned entry (0 where there is no mass)
  Levels levels_;
  int top_ = 0;
  std::vector<double> step_;                        // h_k
  std::vector<double> damping_;                     // d_k (1 on level 0)
  std::vector<unsigned int> support_level_;         // per owned entry: the first k with it in S_k
  std::vector<unsigned int> held_;                  // dofs held inside the steps
  std::vector<std::vector<unsigned int>> written_;  // O_k: owned entries level k's groups write
  std::vector<std::vector<unsigned int>> support_;  // S_k = O_0 u ... u O_k
  std::vector<std::vector<unsigned int>> closed_;   // S_k \ S_{k-1}
  std::vector<VectorType> input_;                   // [k]: zero but on level-k dofs
  VectorType output_;
  std::vector<std::vector<double>> frozen_, first_, inner_;  // [k]: c', Y1, R_{k-1} results
};

}  // namespace rebound::fem
