// The quasi-static normal contact law of the FE body (fem/quasi_static.h): assembly of K, one
// factorisation, the candidates' influence matrix, a primal-dual active set per body force, and
// the impact integrated on the law.
#include "fem/quasi_static.h"

#include <deal.II/base/quadrature_lib.h>
#include <deal.II/base/timer.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_system.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/fe/mapping_q.h>
#include <deal.II/fe/mapping_q_cache.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/sparse_matrix.h>
#include <deal.II/lac/sparsity_pattern.h>
#include <deal.II/lac/vector.h>
#include <mpi.h>

#include <Eigen/CholmodSupport>
#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "cases/derived.h"
#include "fem/discretisation.h"
#include "fem/targets/target.h"
#include "meshes/meshes.h"

namespace rebound::fem {
namespace {

using namespace dealii;

// One unconstrained node: its three dofs, its reference position, lumped mass and boundary area.
struct Node {
  std::array<types::global_dof_index, 3> dof;
  Point<3> X;
  double mass = 0, area = 0;
};

// The discretised body on the mesh the explicit FEM uses against the case's target
// (fem::mesh_options): FE space, conforming geometry, lumped mass, stiffness matrix.
class StaticBody {
 public:
  StaticBody(const cases::Case& c, int extra_levels)
      : degree_(c.fem.degree),
        mesh_(meshes::build_mesh(c, mesh_options(c, extra_levels), MPI_COMM_SELF)),
        fe_(FE_Q<3>(degree_), 3),
        dof_handler_(*mesh_.triangulation) {
    const double E = c.material.young_modulus, nu = c.material.poisson_ratio;
    lame_lambda_ = E * nu / ((1 + nu) * (1 - 2 * nu));
    lame_mu_ = E / (2 * (1 + nu));
    dof_handler_.distribute_dofs(fe_);
    hanging_.clear();
    DoFTools::make_hanging_node_constraints(dof_handler_, hanging_);
    hanging_.close();
    const MappingQ<3> mapping_q(degree_);
    Vector<double> positions(dof_handler_.n_dofs());
    support_positions(mapping_q, fe_, dof_handler_, hanging_, positions);
    mapping_ = std::make_unique<MappingQCache<3>>(degree_);
    mapping_->initialize(mapping_q, dof_handler_, positions, false);
    Vector<double> mass(dof_handler_.n_dofs()), area(dof_handler_.n_dofs());
    assemble_lumped_mass(*mapping_, fe_, dof_handler_, hanging_, degree_, c.material.density, mass,
                         area);
    extract_nodes(positions, mass, area);
  }

  const std::vector<Node>& nodes() const { return nodes_; }
  unsigned long long dofs() const { return dof_handler_.n_dofs(); }
  unsigned long long cells() const { return mesh_.triangulation->n_active_cells(); }
  double h_contact() const { return mesh_.statistics.h_contact; }

  // K with the hanging-node constraints and the homogeneous constraints `held` (dofs held at 0),
  // factorised.
  void factorise(const std::vector<types::global_dof_index>& held) {
    constraints_.clear();
    constraints_.merge(hanging_);
    for (const types::global_dof_index i : held)
      if (!constraints_.is_constrained(i)) constraints_.add_line(i);
    constraints_.close();
    DynamicSparsityPattern dsp(dof_handler_.n_dofs());
    DoFTools::make_sparsity_pattern(dof_handler_, dsp, constraints_, false);
    pattern_.copy_from(dsp);
    stiffness_.reinit(pattern_);
    assemble_stiffness();
    // K is symmetric positive definite (the condensed rows of constrained dofs keep only their
    // diagonal): CHOLMOD's supernodal Cholesky of its lower triangle.
    std::vector<Eigen::Triplet<double>> entries;
    entries.reserve(stiffness_.n_nonzero_elements() / 2 + stiffness_.m());
    for (const auto& entry : stiffness_)
      if (entry.column() <= entry.row() && entry.value() != 0)
        entries.emplace_back(int(entry.row()), int(entry.column()), entry.value());
    Eigen::SparseMatrix<double> lower(int(stiffness_.m()), int(stiffness_.n()));
    lower.setFromTriplets(entries.begin(), entries.end());
    stiffness_.clear();
    cholesky_.compute(lower);
    if (cholesky_.info() != Eigen::Success)
      throw std::runtime_error(
          "quasi-static contact law: the stiffness with its support is not positive definite");
  }

  // Each column of `columns` (one load each) replaced by K^-1 of it on the unconstrained dofs,
  // then the constraints distributed (hanging nodes follow their masters, held dofs are 0). A
  // block of loads is solved at once (the supernodal factor's dense kernels).
  void solve(Eigen::MatrixXd& columns) const {
    for (types::global_dof_index i = 0; i < dof_handler_.n_dofs(); ++i)
      if (constraints_.is_constrained(i)) columns.row(Eigen::Index(i)).setZero();
    columns = cholesky_.solve(columns).eval();
    Vector<double> x(dof_handler_.n_dofs());
    for (Eigen::Index c = 0; c < columns.cols(); ++c) {
      for (types::global_dof_index i = 0; i < x.size(); ++i) x(i) = columns(Eigen::Index(i), c);
      constraints_.distribute(x);
      for (types::global_dof_index i = 0; i < x.size(); ++i) columns(Eigen::Index(i), c) = x(i);
    }
  }

 private:
  // K_ij = integral of lambda div(phi_i) div(phi_j) + 2 mu eps(phi_i) : eps(phi_j), with the
  // explicit operator's geometry (MappingQCache) and quadrature (QGauss(p + 1)).
  void assemble_stiffness() {
    const QGauss<3> quadrature(degree_ + 1);
    FEValues<3> values(*mapping_, fe_, quadrature, update_gradients | update_JxW_values);
    const FEValuesExtractors::Vector u(0);
    const unsigned int n = fe_.n_dofs_per_cell();
    FullMatrix<double> local(n, n);
    std::vector<types::global_dof_index> indices(n);
    std::vector<SymmetricTensor<2, 3>> eps(n);
    std::vector<double> div(n);
    for (const auto& cell : dof_handler_.active_cell_iterators()) {
      values.reinit(cell);
      local = 0;
      for (unsigned int q = 0; q < quadrature.size(); ++q) {
        for (unsigned int i = 0; i < n; ++i) {
          eps[i] = values[u].symmetric_gradient(i, q);
          div[i] = trace(eps[i]);
        }
        const double w = values.JxW(q);
        for (unsigned int i = 0; i < n; ++i)
          for (unsigned int j = 0; j <= i; ++j)
            local(i, j) += (lame_lambda_ * div[i] * div[j] + 2 * lame_mu_ * (eps[i] * eps[j])) * w;
      }
      for (unsigned int i = 0; i < n; ++i)
        for (unsigned int j = i + 1; j < n; ++j) local(i, j) = local(j, i);
      cell->get_dof_indices(indices);
      constraints_.distribute_local_to_global(local, indices, stiffness_);
    }
  }

  void extract_nodes(const Vector<double>& positions, const Vector<double>& mass,
                     const Vector<double>& area) {
    std::vector<char> seen(dof_handler_.n_dofs(), 0);
    std::vector<types::global_dof_index> indices(fe_.n_dofs_per_cell());
    for (const auto& cell : dof_handler_.active_cell_iterators()) {
      cell->get_dof_indices(indices);
      for (unsigned int s = 0; s < fe_.base_element(0).n_dofs_per_cell(); ++s) {
        const types::global_dof_index gx = indices[fe_.component_to_system_index(0, s)];
        if (seen[gx] || hanging_.is_constrained(gx)) continue;
        seen[gx] = 1;
        Node node;
        for (unsigned int d = 0; d < 3; ++d) {
          node.dof[d] = indices[fe_.component_to_system_index(d, s)];
          node.X[d] = positions(node.dof[d]);
        }
        node.mass = mass(node.dof[0]);
        node.area = area(node.dof[0]);
        nodes_.push_back(node);
      }
    }
  }

  int degree_;
  meshes::Mesh mesh_;
  FESystem<3> fe_;
  DoFHandler<3> dof_handler_;
  AffineConstraints<double> hanging_, constraints_;
  std::unique_ptr<MappingQCache<3>> mapping_;
  double lame_lambda_ = 0, lame_mu_ = 0;
  std::vector<Node> nodes_;
  SparsityPattern pattern_;
  SparseMatrix<double> stiffness_;
  Eigen::CholmodSupernodalLLT<Eigen::SparseMatrix<double>, Eigen::Lower> cholesky_;
};

// The contact problem of one body force b on the candidates (n of them): the nodal forces f >= 0
// along the target's normals n_i and the rigid approach c of the body along n (y) with
//   gap = g + b w + W f + c n_y >= 0,  f >= 0,  f . gap = 0,  sum f n_y = m b,
// g the candidates' initial gaps and n_y the y components of their normals (1 on the plane),
// i.e. the minimum of the complementary energy f.W f / 2 + f.(g + b w) over f >= 0 with the
// force balance along y (c its multiplier). Both methods below start from the feasible forces
// `start` (f >= 0, sum f n_y = F) with the nodes they load in contact: the previous body force's
// solution scaled to this one, so that each point only changes the set by what its larger contact
// takes. Each set costs a dense Cholesky solve on its nodes (hundreds in a conformal contact).
//  1. The primal-dual active-set method (Hintermueller, Ito & Kunisch, SIAM J. Optim. 13:865,
//     2002): solve on the set, drop every node that pulls, add every node that penetrates, until
//     the set repeats, which is then the solution (the KKT conditions hold). It usually settles
//     in a few solves; after 30 it gives way to
//  2. the primal active-set method for convex quadratic programmes (Lawson & Hanson's NNLS with
//     the balance as an equality, every penetrating node added at once; Nocedal & Wright,
//     Numerical Optimization, sec. 16.5): every iterate is feasible and the energy does not rise;
//     a set that has not settled after 20 n + 100 steps is an error.
// The moment balance about n is left to the support (the loads of a sphere's symmetric mesh are
// nearly coaxial; the solution reports the offset of the contact force's line from the
// centroid's).
struct ContactSolution {
  Eigen::VectorXd force, gap;
  double approach_shift = 0;  // c
  int iterations = 0;
};

// The equality-constrained minimum over the nodes S in contact: W_SS f_S + c n_y,S = -g_S,
// sum f_S n_y,S = F; returns (f_S, c). W_SS is a compliance, symmetric positive definite: by its
// Cholesky factor, y = W_SS^-1 (-g_S) and z = W_SS^-1 n_y,S, then c from the balance and
// f_S = y - c z.
Eigen::VectorXd solve_on_set(const Eigen::MatrixXd& W, const Eigen::VectorXd& g,
                             const Eigen::VectorXd& lift, const std::vector<int>& S, double force) {
  const int k = int(S.size());
  Eigen::MatrixXd W_SS(k, k);
  Eigen::VectorXd minus_g(k), lift_S(k);
  for (int a = 0; a < k; ++a) {
    for (int c = 0; c < k; ++c) W_SS(a, c) = W(S[a], S[c]);
    minus_g[a] = -g[S[a]];
    lift_S[a] = lift[S[a]];
  }
  const Eigen::LLT<Eigen::MatrixXd> cholesky(W_SS);
  if (cholesky.info() != Eigen::Success)
    throw std::runtime_error(
        "quasi-static contact law: the compliance of the contact nodes is not positive definite");
  const Eigen::VectorXd y = cholesky.solve(minus_g), z = cholesky.solve(lift_S);
  Eigen::VectorXd x(k + 1);
  x[k] = (lift_S.dot(y) - force) / lift_S.dot(z);
  x.head(k) = y - x[k] * z;
  return x;
}

std::vector<int> set_of(const std::vector<char>& in_contact) {
  std::vector<int> S;
  for (int i = 0; i < int(in_contact.size()); ++i)
    if (in_contact[i]) S.push_back(i);
  return S;
}

ContactSolution solve_contact(const Eigen::MatrixXd& W, const Eigen::VectorXd& g,
                              const Eigen::VectorXd& lift, const Eigen::VectorXd& start,
                              double force, double gap_tolerance) {
  const int n = int(g.size());
  std::vector<char> free(n, 0);
  for (int i = 0; i < n; ++i) free[i] = start[i] > 0;
  ContactSolution s;
  // 1. Primal-dual active set.
  for (int iteration = 1; iteration <= 30; ++iteration) {
    const std::vector<int> S = set_of(free);
    const Eigen::VectorXd x = solve_on_set(W, g, lift, S, force);
    const int k = int(S.size());
    s.iterations = iteration;
    Eigen::VectorXd f = Eigen::VectorXd::Zero(n);
    for (int a = 0; a < k; ++a) f[S[a]] = x[a];
    const Eigen::VectorXd gap = g + W * f + x[k] * lift;
    bool changed = false;
    for (int a = 0; a < k; ++a)
      if (x[a] <= 0) free[S[a]] = 0, changed = true;
    for (int i = 0; i < n; ++i)
      if (!free[i] && f[i] == 0 && gap[i] < -gap_tolerance) free[i] = 1, changed = true;
    if (!changed) {
      s.force = f;
      s.gap = gap;
      s.approach_shift = x[k];
      return s;
    }
  }
  // 2. Primal active set from the feasible start.
  Eigen::VectorXd f = start;
  for (int i = 0; i < n; ++i) free[i] = f[i] > 0;
  for (int iteration = s.iterations + 1; iteration <= 20 * n + 100; ++iteration) {
    const std::vector<int> S = set_of(free);
    const Eigen::VectorXd x = solve_on_set(W, g, lift, S, force);
    const int k = int(S.size());
    s.iterations = iteration;
    // A node in contact would pull: move towards x as far as every force stays >= 0, release the
    // node that reaches 0 first, and solve again.
    double step = 1;
    int blocking = -1;
    for (int a = 0; a < k; ++a)
      if (x[a] <= 0) {
        const double t = f[S[a]] / (f[S[a]] - x[a]);
        if (t < step) step = t, blocking = S[a];
      }
    if (blocking >= 0) {
      for (int a = 0; a < k; ++a) f[S[a]] += step * (x[a] - f[S[a]]);
      f[blocking] = 0;
      free[blocking] = 0;
      continue;
    }
    for (int a = 0; a < k; ++a) f[S[a]] = x[a];
    s.approach_shift = x[k];
    s.force = f;
    s.gap = g + W * f + x[k] * lift;
    // Optimal when no held node would penetrate; else add every one that would.
    bool penetrating = false;
    for (int i = 0; i < n; ++i)
      if (!free[i] && s.gap[i] < -gap_tolerance) free[i] = 1, penetrating = true;
    if (!penetrating) return s;
  }
  throw std::runtime_error("quasi-static contact law: the active set did not settle");
}

// The influence of the candidate nodes on one another: W(:, j) their displacements along their
// normals n_i (the target's, fem/targets/target.h) under a unit force along n_j at j,
// mean_unit(j) the mass-weighted mean displacement along y it gives; w and mean_body the same for
// the body force of unit deceleration along y (b = 1: -m_i on every node's y dof). One
// back-substitution each, 32 loads per solve of the factor; the stop flag is read before each
// block.
struct Influence {
  Eigen::MatrixXd W;
  Eigen::VectorXd w, mean_unit;
  double mean_body = 0;
};

Influence influence_solves(StaticBody& body, const std::vector<Node>& nodes,
                           const std::vector<int>& candidates,
                           const std::vector<Eigen::Vector3d>& normals, double mass,
                           const StaticLawOptions& options) {
  const int n = int(candidates.size());
  const auto along_normal = [&](const Eigen::MatrixXd& x, Eigen::Index column, int i) {
    const Node& node = nodes[candidates[i]];
    return normals[i][0] * x(Eigen::Index(node.dof[0]), column) +
           normals[i][1] * x(Eigen::Index(node.dof[1]), column) +
           normals[i][2] * x(Eigen::Index(node.dof[2]), column);
  };
  const auto mean_normal = [&](const Eigen::MatrixXd& x, Eigen::Index column) {
    double sum = 0;
    for (const Node& node : nodes) sum += node.mass * x(Eigen::Index(node.dof[1]), column);
    return sum / mass;
  };
  Influence in;
  in.W.resize(n, n);
  in.w.resize(n);
  in.mean_unit.resize(n);
  const Eigen::Index dofs = Eigen::Index(body.dofs());
  constexpr int block = 32;  // loads per solve
  for (int first = 0; first < n; first += block) {
    if (options.stop && options.stop->load())
      throw QuasiStaticInterrupted("quasi-static contact law interrupted after " +
                                   std::to_string(first) + " of " + std::to_string(n + 1) +
                                   " influence solves");
    if (options.progress) options.progress(first, n + 1);
    const int count = std::min(block, n - first);
    Eigen::MatrixXd x = Eigen::MatrixXd::Zero(dofs, count);
    for (int c = 0; c < count; ++c)
      for (unsigned int d = 0; d < 3; ++d)
        x(Eigen::Index(nodes[candidates[first + c]].dof[d]), c) = normals[first + c][d];
    body.solve(x);
    for (int c = 0; c < count; ++c) {
      for (int i = 0; i < n; ++i) in.W(i, first + c) = along_normal(x, c, i);
      in.mean_unit[first + c] = mean_normal(x, c);
    }
  }
  Eigen::MatrixXd x = Eigen::MatrixXd::Zero(dofs, 1);
  for (const Node& node : nodes) x(Eigen::Index(node.dof[1]), 0) = -node.mass;
  body.solve(x);
  for (int i = 0; i < n; ++i) in.w[i] = along_normal(x, 0, i);
  in.mean_body = mean_normal(x, 0);
  if (options.progress) options.progress(n + 1, n + 1);
  return in;
}

// The target's initial gap and normal at each candidate (the plane: y and e_y), and the normals'
// y components (the balance's weights; 1 on the plane).
struct CandidateGeometry {
  Eigen::VectorXd gap, lift;
  std::vector<Eigen::Vector3d> normals;
};

CandidateGeometry candidate_geometry(const Target& target, const std::vector<Node>& nodes,
                                     const std::vector<int>& candidates) {
  const int n = int(candidates.size());
  CandidateGeometry g{Eigen::VectorXd(n), Eigen::VectorXd(n), std::vector<Eigen::Vector3d>(n)};
  for (int i = 0; i < n; ++i) {
    const Point<3>& X = nodes[candidates[i]].X;
    const Eigen::Vector3d x(X[0], X[1], X[2]);
    g.gap[i] = target.gap(x);
    g.normals[i] = target.normal(x);
    g.lift[i] = g.normals[i][1];
  }
  return g;
}

void check_force_fractions(const std::vector<double>& fractions) {
  if (fractions.empty())
    throw std::invalid_argument("quasi-static contact law: no body forces asked for");
  for (std::size_t k = 0; k < fractions.size(); ++k)
    if (!(fractions[k] > 0) || (k > 0 && !(fractions[k] > fractions[k - 1])))
      throw std::invalid_argument(
          "quasi-static contact law: the body forces must be positive and increasing");
}

}  // namespace

std::vector<double> default_force_fractions() {
  std::vector<double> f;
  const int points = 40;
  for (int k = 0; k < points; ++k)
    f.push_back(1e-3 * std::pow(1.3 / 1e-3, double(k) / double(points - 1)));
  return f;
}

StaticLaw static_contact_law(const cases::Case& c, const StaticLawOptions& options) {
  check_force_fractions(options.force_fractions);
  Timer timer;
  const cases::Derived d = cases::derive(c);
  const double E_star = d.hertz.contact_modulus;
  const double R = d.hertz.radius;
  const double peak = d.hertz.peak_force;
  const double largest = options.force_fractions.back() * peak;
  const std::unique_ptr<Target> target = make_target(c);
  StaticLaw law;
  law.degree = c.fem.degree;
  law.candidate_radius = options.candidate_radius > 0 ? options.candidate_radius
                                                      : 1.3 * target->contact_radius(c, largest);

  StaticBody body(c, options.extra_levels);
  law.dofs = body.dofs();
  law.cells = body.cells();
  law.h_contact = body.h_contact();
  const std::vector<Node>& nodes = body.nodes();
  double mass = 0, moment_x = 0, moment_z = 0;
  for (const Node& node : nodes) {
    mass += node.mass;
    moment_x += node.mass * node.X[0];
    moment_z += node.mass * node.X[2];
  }
  law.mass = mass;
  // The support: the node farthest from the plane fixed; the node at P held in t and b; the node
  // farthest from the axis in t held in b (the spin about n).
  int top = 0, at_p = 0, side = 0;
  for (int i = 0; i < int(nodes.size()); ++i) {
    if (nodes[i].X[1] > nodes[top].X[1]) top = i;
    if (nodes[i].X.norm() < nodes[at_p].X.norm()) at_p = i;
    if (std::abs(nodes[i].X[0]) > std::abs(nodes[side].X[0])) side = i;
  }
  if (nodes[at_p].X.norm() > 1e-9 * R)
    throw std::runtime_error("quasi-static contact law: no mesh node at the contact point P");
  body.factorise({nodes[top].dof[0], nodes[top].dof[1], nodes[top].dof[2], nodes[at_p].dof[0],
                  nodes[at_p].dof[2], nodes[side].dof[2]});
  law.setup_seconds = timer.wall_time();

  // Candidates: boundary nodes within the candidate radius of P.
  std::vector<int> candidates;
  for (int i = 0; i < int(nodes.size()); ++i)
    if (nodes[i].area > 0 && nodes[i].X.norm() <= law.candidate_radius) candidates.push_back(i);
  const int n = int(candidates.size());
  law.candidates = n;
  if (n < 4) throw std::runtime_error("quasi-static contact law: fewer than 4 candidate nodes");
  const CandidateGeometry geometry = candidate_geometry(*target, nodes, candidates);
  const Eigen::VectorXd &gap = geometry.gap, &lift = geometry.lift;
  const int first = int(std::find(candidates.begin(), candidates.end(), at_p) - candidates.begin());
  if (first == n) throw std::runtime_error("quasi-static contact law: P is not a candidate node");

  Timer influence_timer;
  Influence influence = influence_solves(body, nodes, candidates, geometry.normals, mass, options);
  law.influence_seconds = influence_timer.wall_time();
  Eigen::MatrixXd& W = influence.W;
  const Eigen::VectorXd& w = influence.w;
  const Eigen::VectorXd& mean_unit = influence.mean_unit;
  const double mean_body = influence.mean_body;
  // Maxwell-Betti: W is symmetric, and the body force's displacement at j equals minus the mass
  // times the mean displacement a unit force at j gives (the same K, loads and masses on both
  // sides), both up to the factorisation's round-off.
  law.reciprocity_error =
      std::max((W - W.transpose()).cwiseAbs().maxCoeff() / W.cwiseAbs().maxCoeff(),
               (w + mass * mean_unit).cwiseAbs().maxCoeff() / w.cwiseAbs().maxCoeff());
  W = 0.5 * (W + W.transpose());
  // The outermost ring of candidates: contact there means the radius was too small.
  const double outer = 0.9 * law.candidate_radius;

  Timer solving;
  // The first body force starts with all of it on the node at P; each next one from the previous
  // solution scaled to it.
  Eigen::VectorXd start = Eigen::VectorXd::Zero(n);
  start[first] = options.force_fractions.front() * peak / lift[first];
  double start_force = options.force_fractions.front() * peak;
  for (const double fraction : options.force_fractions) {
    const double force = fraction * peak;
    const double b = force / mass;
    // A held node enters the contact when it would penetrate by more than 1e-9 of Hertz's
    // approach (round-off level).
    const double hertz_approach = std::cbrt(9 * force * force / (16 * E_star * E_star * R));
    const ContactSolution s = solve_contact(W, gap + b * w, lift, (force / start_force) * start,
                                            force, 1e-9 * hertz_approach);
    start = s.force;
    start_force = force;
    StaticLawPoint point;
    point.force = force;
    // The centroid's approach: minus the mean of (supported solution + rigid approach c).
    point.approach = -(s.force.dot(mean_unit) + b * mean_body + s.approach_shift);
    point.hertz_approach = hertz_approach;
    {
      double mx = 0, mz = 0;
      for (int i = 0; i < n; ++i) {
        mx += s.force[i] * lift[i] * nodes[candidates[i]].X[0];
        mz += s.force[i] * lift[i] * nodes[candidates[i]].X[2];
      }
      point.load_offset = std::hypot(mx / force - moment_x / mass, mz / force - moment_z / mass);
    }
    point.balance_error = std::abs(s.force.dot(lift) - force) / force;
    point.active_set_iterations = s.iterations;
    for (int i = 0; i < n; ++i) {
      point.max_penetration = std::max(point.max_penetration, -s.gap[i]);
      if (s.force[i] > 0) {
        ++point.contact_nodes;
        const double r = nodes[candidates[i]].X.norm();
        point.contact_radius = std::max(point.contact_radius, r);
        if (r > outer)
          throw std::runtime_error("quasi-static contact law: at " + std::to_string(force) +
                                   " N the contact reaches the outermost candidate nodes (within " +
                                   std::to_string(law.candidate_radius) +
                                   " m of P, 1.3 contact radii of the target at the largest "
                                   "force): the law would be cut");
      }
    }
    law.points.push_back(point);
  }
  law.law_seconds = solving.wall_time();
  return law;
}

QuasiStaticImpact quasi_static_impact(const StaticLaw& law, double speed) {
  const std::vector<StaticLawPoint>& p = law.points;
  if (p.size() < 2)
    throw std::invalid_argument("quasi-static impact: the law has fewer than 2 points");
  const double m = law.mass;
  // F(delta): Hertz's 3/2 power through the first point below it, power laws between points,
  // the last segment's power beyond the last point (flagged by the caller's peak check).
  std::vector<double> exponent(p.size());
  for (std::size_t k = 0; k + 1 < p.size(); ++k)
    exponent[k] =
        std::log(p[k + 1].force / p[k].force) / std::log(p[k + 1].approach / p[k].approach);
  exponent.back() = exponent[p.size() - 2];
  const auto force_at = [&](double delta) {
    if (delta <= 0) return 0.0;
    if (delta <= p[0].approach) return p[0].force * std::pow(delta / p[0].approach, 1.5);
    std::size_t k = 0;
    while (k + 1 < p.size() && delta > p[k + 1].approach) ++k;
    return p[k].force * std::pow(delta / p[k].approach, exponent[k]);
  };
  // RK4 on (delta, v) with a step of 1e-5 of Hertz's duration scale delta_H / speed, until v
  // turns; the turning point located on the last step by the energy (v^2 linear in delta there).
  const double E_star_guess = p.back().force / (4.0 / 3.0 * std::pow(p.back().approach, 1.5));
  const double delta_scale = std::pow(15 * m * speed * speed / (16 * E_star_guess), 0.4);
  const double h = 1e-5 * delta_scale / speed;
  double t = 0, delta = 0, v = speed;
  const auto acceleration = [&](double x) { return -force_at(x) / m; };
  for (long long step = 0; step < 100000000LL; ++step) {
    const double k1x = v, k1v = acceleration(delta);
    const double k2x = v + 0.5 * h * k1v, k2v = acceleration(delta + 0.5 * h * k1x);
    const double k3x = v + 0.5 * h * k2v, k3v = acceleration(delta + 0.5 * h * k2x);
    const double k4x = v + h * k3v, k4v = acceleration(delta + h * k3x);
    const double delta_next = delta + h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
    const double v_next = v + h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
    if (v_next <= 0) {
      // v^2 is linear in delta near the turning point: v^2 = 2 a (delta_max - delta), so the
      // time left is v / a and delta_max = delta + v^2 / (2 a), a = F(delta)/m.
      const double a = force_at(delta) / m;
      QuasiStaticImpact r;
      r.max_approach = delta + v * v / (2 * a);
      r.contact_duration = 2 * (t + v / a);
      r.peak_force = force_at(r.max_approach);
      if (r.max_approach > p.back().approach)
        throw std::invalid_argument(
            "quasi-static impact: the approach passes the law's largest force (" +
            std::to_string(p.back().force) + " N); ask for larger forces");
      return r;
    }
    t += h;
    delta = delta_next;
    v = v_next;
  }
  throw std::runtime_error("quasi-static impact: no turning point");
}

}  // namespace rebound::fem
