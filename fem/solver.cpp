// The deal.II part of the FEM: FE space, conforming isoparametric geometry, lumped mass,
// velocity Verlet with kinematic contact, rigid-body averaging, VTK. The internal force is the
// matrix-free operator of fem/elastic_operator.h. Degrees 1 and 2 are instantiated.
#include <deal.II/base/index_set.h>
#include <deal.II/base/mpi.h>
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
#include <deal.II/lac/la_parallel_vector.h>
#include <deal.II/numerics/data_out.h>
#include <deal.II/numerics/data_postprocessor.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "fem/cell_dofs.h"
#include "fem/contact.h"
#include "fem/discretisation.h"
#include "fem/elastic_operator.h"
#include "fem/fem.h"
#include "fem/local_time_stepping.h"
#include "meshes/meshes.h"
#include "observables/files.h"

namespace rebound::fem {
namespace {

using namespace dealii;
using VectorType = LinearAlgebra::distributed::Vector<double>;

// sigma = lambda tr(eps) I + 2 mu eps; von Mises from its deviator.
class StressPostprocessor : public DataPostprocessor<3> {
 public:
  StressPostprocessor(double lambda, double mu) : lambda_(lambda), mu_(mu) {}
  void evaluate_vector_field(const DataPostprocessorInputs::Vector<3>& in,
                             std::vector<Vector<double>>& out) const override {
    for (unsigned int q = 0; q < in.solution_gradients.size(); ++q) {
      Tensor<2, 3> grad;
      for (unsigned int d = 0; d < 3; ++d) grad[d] = in.solution_gradients[q][d];
      const Tensor<2, 3> eps = 0.5 * (grad + transpose(grad));
      Tensor<2, 3> sigma = 2 * mu_ * eps;
      for (unsigned int d = 0; d < 3; ++d) sigma[d][d] += lambda_ * trace(eps);
      Tensor<2, 3> dev = sigma;
      for (unsigned int d = 0; d < 3; ++d) dev[d][d] -= trace(sigma) / 3;
      for (unsigned int d = 0; d < 3; ++d)
        for (unsigned int e = 0; e < 3; ++e) out[q](3 * d + e) = sigma[d][e];
      out[q](9) = std::sqrt(1.5 * scalar_product(dev, dev));
    }
  }
  std::vector<std::string> get_names() const override {
    std::vector<std::string> names(9, "stress");
    names.push_back("von_mises");
    return names;
  }
  std::vector<DataComponentInterpretation::DataComponentInterpretation>
  get_data_component_interpretation() const override {
    std::vector<DataComponentInterpretation::DataComponentInterpretation> i(
        9, DataComponentInterpretation::component_is_part_of_tensor);
    i.push_back(DataComponentInterpretation::component_is_scalar);
    return i;
  }
  UpdateFlags get_needed_update_flags() const override { return update_gradients; }

 private:
  double lambda_, mu_;
};

// A deterministic pseudo-random value from a position (the same on any partition).
double hash_value(const Point<3>& x, double scale, unsigned int component) {
  const double s = std::sin(12.9898 * x[0] / scale + 78.233 * x[1] / scale + 37.719 * x[2] / scale +
                            4.581 * component);
  const double v = s * 43758.5453;
  return v - std::floor(v) - 0.5;
}

template <int p>
class SolverImpl final : public Solver {
 public:
  SolverImpl(const cases::Case& c, const SolverOptions& options, MPI_Comm communicator,
             meshes::Mesh&& mesh);

  const Info& info() const override { return info_; }
  void set_state(const Eigen::Vector3d& displacement, const Eigen::Vector3d& velocity,
                 const Eigen::Vector3d& omega, const Eigen::Vector3d& centre) override;
  void step() override;
  const State& state() const override { return state_; }
  PatchTestResult patch_test(const Eigen::Matrix3d& gradient) override;
  double time_internal_force(int applications, int up_to_level = -1) override;
  double time_state_averages(int applications) override;
  std::string write_frame(const std::string& directory, unsigned int frame) override;

 private:
  // One node: its three dofs (local indices), initial position, mass and boundary area.
  struct Node {
    std::array<unsigned int, 3> dof;
    Point<3> X;
    double mass = 0, area = 0;
  };

  void apply_stiffness(VectorType& dst, const VectorType& src) const {
    stiffness_->apply(dst, src);
  }
  // Setup stages (the constructor runs them in this order).
  void setup_dofs();
  void setup_geometry();
  void setup_operator();
  void assemble_lumped_mass();
  void extract_nodes();
  void fill_info();
  void compute_fe_body();
  void estimate_time_step();

  // fem/contact.h's contact on node n over a step dt: v_{n+1/2} (velocity_) corrected in place,
  // v_{n-1/2} from previous_velocity_, the height from displacement_.
  NodeContact node_contact(const Node& n, double dt) {
    Eigen::Vector3d v, v0;
    for (unsigned int d = 0; d < 3; ++d) {
      v[d] = velocity_.local_element(n.dof[d]);
      v0[d] = previous_velocity_.local_element(n.dof[d]);
    }
    const NodeContact contact = rigid_plane_contact(n.X[1] + displacement_.local_element(n.dof[1]),
                                                    v, v0, n.mass, dt, friction_);
    if (contact.active)
      for (unsigned int d = 0; d < 3; ++d) velocity_.local_element(n.dof[d]) = v[d];
    return contact;
  }
  void update_force();      // force_ = K u (local: the weighted sum below)
  void compute_averages();  // state_ from u, v, force and the contact of the last step
  // compute_averages() in two halves: this rank's sums (layout in compute_averages), then
  // their reduction into state_ (lowest: this rank's lowest boundary height).
  std::array<double, 31> local_sums() const;
  void reduce_sums(const std::array<double, 31>& sums, double lowest);
  double lowest_boundary_height() const;
  // Rayleigh-quotient power iteration on M^-1 K_w, K_w = sum_g weight[g] K_g (empty: all cells).
  double estimate_lambda_max(int iterations, const std::vector<double>& weight = {});
  // The same on M^-1 A for any symmetric A given by its application y = A x.
  double estimate_lambda_max(int iterations,
                             const std::function<void(VectorType&, const VectorType&)>& apply);

  // Cell levels (docs/FEM.md, "Local time stepping"), for both schemes below.
  void setup_cell_groups(int cap);   // cell_group_ (before the operator)
  void setup_local_time_stepping();  // levels of groups and nodes (after the fine step)
  // The leapfrog local time stepping (fem/local_time_stepping.h, time stepping "lts-leapfrog").
  bool setup_leapfrog_levels();  // dof levels, operator groups, lts_; false: unstable
  // The multirate leapfrog (time stepping "multirate"; measured, not adopted).
  void step_local();
  std::vector<double> level_weights(int due) const;  // 2^l for the groups of level l <= due
  void reinit_vectors();  // mass and area in the layout of the current stiffness_

  cases::Case case_;
  SolverOptions options_;
  MPI_Comm communicator_;
  meshes::Mesh mesh_;
  double lame_lambda_, lame_mu_, density_, friction_;
  FESystem<3> fe_;
  DoFHandler<3> dof_handler_;
  IndexSet relevant_dofs_;
  AffineConstraints<double> constraints_;
  std::unique_ptr<MappingQCache<3>> mapping_;
  std::unique_ptr<ElasticOperator> stiffness_;  // f = K u (matrix-free)
  VectorType displacement_, velocity_, previous_velocity_, force_, contact_force_;
  VectorType support_positions_;        // x of every support point (conforming at hanging nodes)
  VectorType nodal_mass_, nodal_area_;  // lumped mass and boundary area per dof
  double quadrature_mass_ = 0;          // the mass integrated cell by cell (this rank)
  std::vector<Node> nodes_;             // locally owned, unconstrained nodes
  std::vector<double> kick_mass_;       // per owned dof: its node's mass, +inf where constrained
  std::vector<unsigned int> boundary_;  // indices into nodes_ of boundary nodes
  std::vector<unsigned int> touched_;   // boundary nodes with a contact force in the last step
  int contact_node_ = -1;               // index into nodes_ of P on its owner, else -1
  double time_step_ = 0;                // the fine step (global: the step)
  // local time stepping: "multirate" (local_) or "lts-leapfrog" (lts_)
  bool local_ = false;
  std::unique_ptr<LocalTimeStepping> lts_;
  enum class Hold {
    none,
    normal,
    stick
  } hold_ = Hold::normal;                 // SolverOptions::local_contact_hold
  std::vector<unsigned int> lts_group_;   // per active cell: its group in the operator of lts_
  std::vector<unsigned int> cell_group_;  // per active cell: floor(log2(shortest edge / mesh's))
  std::vector<int> level_of_group_;       // the level each group steps at (<= its number)
  int top_level_ = 0;                     // a step() is 2^top_level_ fine steps
  std::vector<std::vector<unsigned int>> nodes_of_level_;     // indices into nodes_
  std::vector<std::vector<unsigned int>> boundary_of_level_;  // indices into nodes_
  std::vector<char> touched_flag_;                            // per node: in touched_
  double strain_energy_ = 0;  // this rank's u.Ku at the last update_force (local)
  Info info_;
  State state_;
};

template <int p>
SolverImpl<p>::SolverImpl(const cases::Case& c, const SolverOptions& options, MPI_Comm communicator,
                          meshes::Mesh&& mesh)
    : case_(c),
      options_(options),
      communicator_(communicator),
      mesh_(std::move(mesh)),
      fe_(FE_Q<3>(p), 3),
      dof_handler_(*mesh_.triangulation) {
  Timer timer(communicator_);
  const double E = c.material.young_modulus, nu = c.material.poisson_ratio;
  lame_lambda_ = E * nu / ((1 + nu) * (1 - 2 * nu));
  lame_mu_ = E / (2 * (1 + nu));
  density_ = c.material.density;
  friction_ = c.contact.friction;
  // The stages, as in the deal.II tutorials: each fills the members named in its comment.
  const std::string stepping = options.time_stepping.empty() ? "global" : options.time_stepping;
  if (stepping != "global" && stepping != "lts-leapfrog" && stepping != "multirate")
    throw std::invalid_argument("time stepping \"" + stepping +
                                "\": expected \"global\", \"lts-leapfrog\" or \"multirate\"");
  local_ = stepping == "multirate";
  const bool leapfrog_local = stepping == "lts-leapfrog";
  if (options.local_contact_hold == "none")
    hold_ = Hold::none;
  else if (options.local_contact_hold == "normal")
    hold_ = Hold::normal;
  else if (options.local_contact_hold == "stick")
    hold_ = Hold::stick;
  else
    throw std::invalid_argument("local contact hold \"" + options.local_contact_hold +
                                "\": expected \"none\", \"normal\" or \"stick\"");
  if (!(options.local_damping >= 0))
    throw std::invalid_argument("local time stepping damping: expected a number >= 0");
  info_.time_stepping = stepping;
  setup_dofs();
  setup_geometry();
  if (local_ || leapfrog_local) setup_cell_groups(options_.max_time_step_level);
  setup_operator();
  assemble_lumped_mass();
  extract_nodes();
  fill_info();
  compute_fe_body();
  estimate_time_step();
  if (local_) setup_local_time_stepping();
  if (leapfrog_local) {
    // Levels as the multirate scheme finds them, then the leapfrog scheme on them; if the
    // scheme's own stability check fails, one level fewer (one level: the global leapfrog).
    for (;;) {
      setup_local_time_stepping();
      const bool stable = setup_leapfrog_levels();
      info_.local_stability_tried.push_back(info_.local_stability);
      if (stable || top_level_ == 0) break;
      const int cap = top_level_ - 1;
      lts_.reset();
      lts_group_.clear();
      setup_cell_groups(cap);
      setup_operator();
      reinit_vectors();
    }
  }
  info_.setup_seconds = timer.wall_time();
}

// dof_handler_, constraints_ (hanging nodes).
template <int p>
void SolverImpl<p>::setup_dofs() {
  dof_handler_.distribute_dofs(fe_);
  relevant_dofs_ = DoFTools::extract_locally_relevant_dofs(dof_handler_);
  constraints_.reinit(relevant_dofs_);
  DoFTools::make_hanging_node_constraints(dof_handler_, constraints_);
  constraints_.close();
}

// support_positions_, mapping_.
template <int p>
void SolverImpl<p>::setup_geometry() {
  // Positions of the support points under MappingQ(p), made conforming at hanging nodes: the
  // geometry is then the FE interpolant of itself (fem/discretisation.h).
  const MappingQ<3> mapping_q(p);
  support_positions_.reinit(dof_handler_.locally_owned_dofs(), relevant_dofs_, communicator_);
  VectorType& positions = support_positions_;
  support_positions(mapping_q, fe_, dof_handler_, constraints_, positions);
  positions.update_ghost_values();
  mapping_ = std::make_unique<MappingQCache<3>>(p);
  mapping_->initialize(mapping_q, dof_handler_, positions, false);
}

// stiffness_ (the widest SIMD width available unless options_.simd_lanes says) and the dof
// vectors.
template <int p>
void SolverImpl<p>::setup_operator() {
  ElasticOperator::Setup setup{*mapping_, dof_handler_, constraints_, p, lame_lambda_, lame_mu_};
  if (!cell_group_.empty()) setup.cell_groups = &cell_group_;
  if (!lts_group_.empty()) setup.cell_groups = &lts_group_;
  stiffness_ = make_elastic_operator(setup, options_.simd_lanes);
  for (VectorType* v : {&displacement_, &velocity_, &previous_velocity_, &force_, &contact_force_})
    stiffness_->initialize_dof_vector(*v);
}

// The mass and boundary area in the layout of a rebuilt operator (the same dofs, owned and
// ghost, so the owned values carry over; setup_operator() has made the state vectors anew).
template <int p>
void SolverImpl<p>::reinit_vectors() {
  for (VectorType* v : {&nodal_mass_, &nodal_area_}) {
    VectorType fresh;
    stiffness_->initialize_dof_vector(fresh);
    if (fresh.locally_owned_size() != v->locally_owned_size())
      throw std::logic_error("reinit_vectors: the operator's dof layout changed");
    for (unsigned int i = 0; i < fresh.locally_owned_size(); ++i)
      fresh.local_element(i) = v->local_element(i);
    v->swap(fresh);
  }
}

// nodal_mass_, nodal_area_, quadrature_mass_.
template <int p>
void SolverImpl<p>::assemble_lumped_mass() {
  // Lumped mass and nodal boundary areas, through the constraints (fem/discretisation.h).
  VectorType& mass = nodal_mass_;
  VectorType& area = nodal_area_;
  stiffness_->initialize_dof_vector(mass);
  stiffness_->initialize_dof_vector(area);
  quadrature_mass_ = fem::assemble_lumped_mass(*mapping_, fe_, dof_handler_, constraints_, p,
                                               density_, mass, area);
}

// nodes_, boundary_, contact_node_ (P's node on its owner, -1 elsewhere).
template <int p>
void SolverImpl<p>::extract_nodes() {
  const IndexSet& owned = dof_handler_.locally_owned_dofs();
  const VectorType& positions = support_positions_;
  const VectorType& mass = nodal_mass_;
  const VectorType& area = nodal_area_;
  // Nodes: owned, unconstrained support points with their three dofs.
  {
    std::vector<int> seen(owned.n_elements(), 0);
    std::vector<types::global_dof_index> indices(fe_.n_dofs_per_cell());
    const types::global_dof_index first = *owned.begin();
    for (const auto& cell : dof_handler_.active_cell_iterators()) {
      if (cell->is_artificial()) continue;
      cell->get_dof_indices(indices);
      for (unsigned int s = 0; s < fe_.base_element(0).n_dofs_per_cell(); ++s) {
        const types::global_dof_index gx = indices[fe_.component_to_system_index(0, s)];
        if (!owned.is_element(gx) || constraints_.is_constrained(gx)) continue;
        if (seen[gx - first]) continue;
        seen[gx - first] = 1;
        Node node;
        for (unsigned int d = 0; d < 3; ++d) {
          const types::global_dof_index g = indices[fe_.component_to_system_index(d, s)];
          node.dof[d] = g - first;
          node.X[d] = positions(g);
        }
        node.mass = mass.local_element(node.dof[0]);
        node.area = area.local_element(node.dof[0]);
        if (!(node.mass > 0))
          throw std::runtime_error("non-positive lumped mass at a node (hanging-node weights)");
        nodes_.push_back(node);
      }
    }
  }
  if (owned.n_elements() != velocity_.locally_owned_size())
    throw std::logic_error("extract_nodes: the state vectors do not hold the owned dofs");
  kick_mass_.assign(owned.n_elements(), std::numeric_limits<double>::infinity());
  for (const Node& n : nodes_)
    for (unsigned int d = 0; d < 3; ++d) kick_mass_[n.dof[d]] = n.mass;
  const double radius = case_.body.radius;
  double nearest = std::numeric_limits<double>::infinity();
  for (unsigned int a = 0; a < nodes_.size(); ++a) {
    const Node& n = nodes_[a];
    if (n.area > 0) boundary_.push_back(a);
    if (n.X.norm() < nearest) {
      nearest = n.X.norm();
      contact_node_ = int(a);
    }
  }
  // P's node: the node nearest to the origin over all ranks (lowest rank on a tie).
  const double global_nearest = Utilities::MPI::min(nearest, communicator_);
  const unsigned int rank = Utilities::MPI::this_mpi_process(communicator_);
  const unsigned int owner = Utilities::MPI::min(
      nearest == global_nearest ? rank : std::numeric_limits<unsigned int>::max(), communicator_);
  if (rank != owner) contact_node_ = -1;
  if (global_nearest > 1e-9 * radius)
    throw std::runtime_error("no mesh node at the contact point P");
}

// info_: sizes, masses, the mesh statistics.
template <int p>
void SolverImpl<p>::fill_info() {
  const IndexSet& owned = dof_handler_.locally_owned_dofs();
  double lowest = std::numeric_limits<double>::infinity(), min_mass = lowest, mass_sum = 0;
  for (const Node& n : nodes_) {
    mass_sum += n.mass;
    min_mass = std::min(min_mass, n.mass);
    lowest = std::min(lowest, n.X[1]);
  }
  info_.degree = p;
  info_.simd_lanes = stiffness_->lanes();
  info_.dofs = dof_handler_.n_dofs();
  info_.cells = mesh_.triangulation->n_global_active_cells();
  info_.nodes = Utilities::MPI::sum<unsigned long long>(nodes_.size(), communicator_);
  info_.boundary_nodes = Utilities::MPI::sum<unsigned long long>(boundary_.size(), communicator_);
  info_.constrained_dofs =
      Utilities::MPI::sum<unsigned long long>(constraints_.n_constraints(), communicator_);
  // n_constraints counts relevant dofs; count owned ones only.
  {
    unsigned long long n = 0;
    for (const auto i : owned)
      if (constraints_.is_constrained(i)) ++n;
    info_.constrained_dofs = Utilities::MPI::sum(n, communicator_);
  }
  info_.ranks = Utilities::MPI::n_mpi_processes(communicator_);
  info_.total_mass_lumped = Utilities::MPI::sum(mass_sum, communicator_);
  info_.total_mass_quadrature = Utilities::MPI::sum(quadrature_mass_, communicator_);
  info_.min_nodal_mass = Utilities::MPI::min(min_mass, communicator_);
  info_.lowest_node = Utilities::MPI::min(lowest, communicator_);
  info_.mesh_seconds = mesh_.statistics.seconds;
  info_.mesh_statistics = meshes::to_json(mesh_.statistics);
}

// info_.mesh_mass_properties, lambda_mesh, theta_mesh.
template <int p>
void SolverImpl<p>::compute_fe_body() {
  // The FE body's own mass distribution: its lumped nodal masses at the nodes, P at the origin.
  // This is the body whose momenta the rigid-body averaging reads (for p = 1 its straight-sided
  // cells hold less volume than the curved geometry of the mesh statistics).
  {
    std::array<double, 10> local{};  // mass | sum m x | sum m x_i x_j (xx yy zz xy xz yz)
    for (const Node& n : nodes_) {
      const Point<3>& x = n.X;
      local[0] += n.mass;
      for (unsigned int d = 0; d < 3; ++d) local[1 + d] += n.mass * x[d];
      local[4] += n.mass * x[0] * x[0];
      local[5] += n.mass * x[1] * x[1];
      local[6] += n.mass * x[2] * x[2];
      local[7] += n.mass * x[0] * x[1];
      local[8] += n.mass * x[0] * x[2];
      local[9] += n.mass * x[1] * x[2];
    }
    std::array<double, 10> sum{};
    MPI_Allreduce(local.data(), sum.data(), int(local.size()), MPI_DOUBLE, MPI_SUM, communicator_);
    cases::MassProperties m = meshes::mass_properties(mesh_.statistics, mesh_.placement);
    m.mass = sum[0];
    m.volume = sum[0] / density_;
    m.centre_of_mass = Eigen::Vector3d(sum[1], sum[2], sum[3]) / sum[0];
    Eigen::Matrix3d second;
    second << sum[4], sum[7], sum[8], sum[7], sum[5], sum[9], sum[8], sum[9], sum[6];
    second -= m.mass * m.centre_of_mass * m.centre_of_mass.transpose();
    m.central_inertia = second.trace() * Eigen::Matrix3d::Identity() - second;
    m.radius_of_gyration = std::sqrt(m.central_inertia(2, 2) / m.mass);
    m.contact_offset = m.centre_of_mass.norm();
    info_.mesh_mass_properties = m;
    // The FE body's own lambda/theta, whatever the case's lumped overrides say.
    const cases::Derived derived = cases::derive(cases::without_lumped_overrides(case_), m);
    info_.lambda_mesh = derived.lambda;
    info_.theta_mesh = derived.theta;
  }
}

// time_step_ (and info_.lambda_max, info_.time_step).
template <int p>
void SolverImpl<p>::estimate_time_step() {
  info_.lambda_max = estimate_lambda_max(options_.power_iterations);
  if (options_.time_step > 0) {
    time_step_ = options_.time_step;
  } else {
    // cfl x 2 / sqrt(lambda_max), rounded down to 3 significant digits (identical on any
    // partition: the estimate differs between partitions in the last bits only).
    const double dt = case_.fem.cfl * 2 / std::sqrt(info_.lambda_max * options_.time_step_margin);
    const double unit = std::pow(10.0, std::floor(std::log10(dt)) - 2);
    time_step_ = std::floor(dt / unit) * unit;
  }
  info_.time_step = time_step_;
  info_.fine_time_step = time_step_;
  info_.contact_time_step = time_step_;
}

// Local time stepping (docs/FEM.md, "Local time stepping"). A cell's group is
// floor(log2(its shortest edge / the mesh's shortest edge)), capped at max_time_step_level: a
// first guess of how many times the fine step its own stability limit allows (the edge-based
// estimate of meshes/statistics.cpp). setup_local_time_stepping() then checks each level's
// cells with their own eigenvalue and lowers a level that would be unstable.
template <int p>
void SolverImpl<p>::setup_cell_groups(int max_level) {
  const double edge_min = mesh_.statistics.edge_min;
  if (!(edge_min > 0)) throw std::runtime_error("local time stepping: no shortest edge");
  const int cap = std::max(0, std::min(max_level, 30));
  cell_group_.assign(mesh_.triangulation->n_active_cells(), 0);
  for (const auto& cell : mesh_.triangulation->active_cell_iterators()) {
    if (cell->is_artificial()) continue;
    const double ratio = cell->minimum_vertex_distance() / edge_min;
    cell_group_[cell->active_cell_index()] =
        (unsigned int)std::clamp(int(std::floor(std::log2(ratio))), 0, cap);
  }
}

template <int p>
std::vector<double> SolverImpl<p>::level_weights(int due) const {
  std::vector<double> weight(level_of_group_.size(), 0.0);
  for (std::size_t g = 0; g < weight.size(); ++g)
    if (level_of_group_[g] <= due) weight[g] = std::ldexp(1.0, level_of_group_[g]);
  return weight;
}

template <int p>
void SolverImpl<p>::setup_local_time_stepping() {
  const unsigned int groups = stiffness_->groups();
  level_of_group_.resize(groups);
  for (unsigned int g = 0; g < groups; ++g) level_of_group_[g] = int(g);
  // Each level l must be stable on its own: 2^l dt <= cfl 2 / sqrt(1.02 lambda_max(M^-1 K_l)),
  // K_l the stiffness of the level's cells (the fine step dt satisfies this for all cells
  // together). A level that fails moves, with all its groups, to the level its eigenvalue
  // allows; the check restarts until every level passes. Levels only fall, so this ends.
  const double cfl = case_.fem.cfl;
  int top = 0;
  std::vector<double> lambda;
  for (bool changed = true; changed;) {
    changed = false;
    top = *std::max_element(level_of_group_.begin(), level_of_group_.end());
    lambda.assign(std::size_t(top) + 1, 0.0);
    for (int level = top; level >= 1 && !changed; --level) {
      std::vector<double> weight(groups, 0.0);
      bool any = false;
      for (unsigned int g = 0; g < groups; ++g)
        if (level_of_group_[g] == level) weight[g] = 1, any = true;
      if (!any) continue;
      lambda[level] = estimate_lambda_max(options_.power_iterations, weight);
      const double allowed = cfl * 2 / std::sqrt(lambda[level] * options_.time_step_margin);
      if (std::ldexp(time_step_, level) > allowed) {
        const int fits = std::max(0, int(std::floor(std::log2(allowed / time_step_))));
        for (unsigned int g = 0; g < groups; ++g)
          if (level_of_group_[g] == level) level_of_group_[g] = std::min(fits, level - 1);
        changed = true;
      }
    }
  }
  {
    std::vector<double> weight(groups, 0.0);
    for (unsigned int g = 0; g < groups; ++g)
      if (level_of_group_[g] == 0) weight[g] = 1;
    lambda[0] = estimate_lambda_max(options_.power_iterations, weight);
  }
  top_level_ = top;
  // A node steps with the finest level of the cells it belongs to (through the hanging-node
  // constraints too): K_l x of a position-hashed x is nonzero exactly on the dofs the cells of
  // level l touch.
  VectorType x, y;
  stiffness_->initialize_dof_vector(x);
  stiffness_->initialize_dof_vector(y);
  for (const Node& n : nodes_)
    for (unsigned int d = 0; d < 3; ++d)
      x.local_element(n.dof[d]) = hash_value(n.X, mesh_.statistics.edge_min, d) + 1.0;
  std::vector<int> node_level(nodes_.size(), -1);
  for (int level = 0; level <= top; ++level) {
    std::vector<double> weight(groups, 0.0);
    for (unsigned int g = 0; g < groups; ++g)
      if (level_of_group_[g] == level) weight[g] = 1;
    stiffness_->apply_groups(y, x, weight, nullptr);
    for (unsigned int a = 0; a < nodes_.size(); ++a)
      if (node_level[a] < 0)
        for (unsigned int d = 0; d < 3; ++d)
          if (y.local_element(nodes_[a].dof[d]) != 0) node_level[a] = level;
  }
  nodes_of_level_.assign(std::size_t(top) + 1, {});
  boundary_of_level_.assign(std::size_t(top) + 1, {});
  for (unsigned int a = 0; a < nodes_.size(); ++a) {
    if (node_level[a] < 0) throw std::runtime_error("local time stepping: a node in no cell");
    nodes_of_level_[std::size_t(node_level[a])].push_back(a);
  }
  for (const unsigned int a : boundary_)
    boundary_of_level_[std::size_t(node_level[a])].push_back(a);
  touched_flag_.assign(nodes_.size(), 0);

  const unsigned int ranks = Utilities::MPI::n_mpi_processes(communicator_);
  const unsigned int rank = Utilities::MPI::this_mpi_process(communicator_);
  std::vector<unsigned long long> cells(std::size_t(top) + 1, 0), nodes(cells.size(), 0);
  std::vector<unsigned long long> by_rank(std::size_t(ranks) * cells.size(), 0);
  for (const auto& cell : mesh_.triangulation->active_cell_iterators())
    if (cell->is_locally_owned()) {
      const int level = level_of_group_[cell_group_[cell->active_cell_index()]];
      cells[std::size_t(level)] += 1;
      by_rank[rank * cells.size() + std::size_t(level)] += 1;
    }
  for (int level = 0; level <= top; ++level)
    nodes[std::size_t(level)] = nodes_of_level_[std::size_t(level)].size();
  Utilities::MPI::sum(ArrayView<const unsigned long long>(cells), communicator_,
                      ArrayView<unsigned long long>(cells));
  Utilities::MPI::sum(ArrayView<const unsigned long long>(nodes), communicator_,
                      ArrayView<unsigned long long>(nodes));
  Utilities::MPI::sum(ArrayView<const unsigned long long>(by_rank), communicator_,
                      ArrayView<unsigned long long>(by_rank));
  info_.level_cells = cells;
  info_.level_nodes = nodes;
  info_.level_lambda_max = lambda;
  info_.level_cells_by_rank.assign(ranks, {});
  for (unsigned int r = 0; r < ranks; ++r)
    info_.level_cells_by_rank[r].assign(by_rank.begin() + r * cells.size(),
                                        by_rank.begin() + (r + 1) * cells.size());
  {
    std::vector<char> fine_vertex(mesh_.triangulation->n_vertices(), 0);
    for (const auto& cell : mesh_.triangulation->active_cell_iterators())
      if (!cell->is_artificial() && level_of_group_[cell_group_[cell->active_cell_index()]] == 0)
        for (const unsigned int v : cell->vertex_indices()) fine_vertex[cell->vertex_index(v)] = 1;
    unsigned long long neighbours = 0;
    for (const auto& cell : mesh_.triangulation->active_cell_iterators()) {
      if (!cell->is_locally_owned() || level_of_group_[cell_group_[cell->active_cell_index()]] == 0)
        continue;
      bool touches = false;
      for (const unsigned int v : cell->vertex_indices())
        touches = touches || fine_vertex[cell->vertex_index(v)];
      neighbours += touches;
    }
    info_.level0_neighbour_cells = Utilities::MPI::sum(neighbours, communicator_);
  }
  info_.substeps = 1LL << top;
  info_.time_step = std::ldexp(time_step_, top);
  info_.fine_time_step = time_step_;
}

// The leapfrog local time stepping on the levels that setup_local_time_stepping() found
// (level_of_group_, top_level_): each owned unconstrained dof gets the finest level of the cells
// that hold it (a constrained dof's masters count as held), each cell the set of its dofs'
// levels (a bit mask), and the operator is rebuilt with one group per mask, so that the cells
// holding level-k dofs can be evaluated on their own (fem/local_time_stepping.h). Then the
// scheme's stability: H^2 1.02 lambda_max(M^-1 K_G) <= 4, the leapfrog's condition with the
// margin of the global step's estimate. Returns whether it holds.
template <int p>
bool SolverImpl<p>::setup_leapfrog_levels() {
  const int top = top_level_;
  const auto cell_level = [&](const auto& cell) {
    return level_of_group_[cell_group_[cell->active_cell_index()]];
  };
  std::vector<types::global_dof_index> indices;
  // Dof levels: the minimum over the locally owned cells of every rank, reduced to the owners,
  // then copied to the ghosts.
  VectorType level;
  stiffness_->initialize_dof_vector(level);
  const double none = 1e9;
  for (unsigned int i = 0;
       i < level.locally_owned_size() + level.get_partitioner()->n_ghost_indices(); ++i)
    level.local_element(i) = none;
  for (const auto& cell : dof_handler_.active_cell_iterators())
    if (cell->is_locally_owned()) {
      const double l = cell_level(cell);
      for_each_held_dof(cell, constraints_, indices,
                        [&](types::global_dof_index i) { level(i) = std::min(level(i), l); });
    }
  level.compress(VectorOperation::min);
  level.update_ghost_values();
  // Cell masks and their groups (the masks of all ranks, in ascending order).
  std::vector<unsigned int> mask(mesh_.triangulation->n_active_cells(), 0);
  std::vector<unsigned int> masks;
  for (const auto& cell : dof_handler_.active_cell_iterators())
    if (cell->is_locally_owned()) {
      unsigned int m = 0;
      for_each_held_dof(cell, constraints_, indices, [&](types::global_dof_index i) {
        const double l = level(i);
        if (!(l >= 0 && l <= top))
          throw std::logic_error("local time stepping: a dof without level");
        m |= 1u << unsigned(l);
      });
      mask[cell->active_cell_index()] = m;
      masks.push_back(m);
    }
  {
    std::sort(masks.begin(), masks.end());
    masks.erase(std::unique(masks.begin(), masks.end()), masks.end());
    std::vector<unsigned int> all;
    for (const auto& part : Utilities::MPI::all_gather(communicator_, masks))
      all.insert(all.end(), part.begin(), part.end());
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    masks = all;
  }
  lts_group_.assign(mask.size(), 0);
  std::vector<unsigned long long> cells_of_group(masks.size(), 0);
  for (const auto& cell : dof_handler_.active_cell_iterators())
    if (cell->is_locally_owned()) {
      const unsigned int g =
          unsigned(std::lower_bound(masks.begin(), masks.end(), mask[cell->active_cell_index()]) -
                   masks.begin());
      lts_group_[cell->active_cell_index()] = g;
      ++cells_of_group[g];
    }
  Utilities::MPI::sum(ArrayView<const unsigned long long>(cells_of_group), communicator_,
                      ArrayView<unsigned long long>(cells_of_group));
  setup_operator();
  reinit_vectors();
  if (stiffness_->groups() != masks.size())
    throw std::logic_error("local time stepping: operator groups and masks differ");
  // The scheme.
  LocalTimeStepping::Levels levels;
  levels.dofs.assign(std::size_t(top) + 1, {});
  levels.group_weights.assign(std::size_t(top) + 1, std::vector<double>(masks.size(), 0.0));
  std::vector<unsigned long long> nodes(std::size_t(top) + 1, 0);
  for (const Node& n : nodes_) {
    const double l = level.local_element(n.dof[0]);
    if (!(l >= 0 && l <= top)) throw std::logic_error("local time stepping: a node without level");
    for (unsigned int d = 0; d < 3; ++d) levels.dofs[std::size_t(l)].push_back(n.dof[d]);
    ++nodes[std::size_t(l)];
  }
  for (auto& list : levels.dofs) std::sort(list.begin(), list.end());
  for (int k = 0; k <= top; ++k)
    for (std::size_t g = 0; g < masks.size(); ++g)
      if (masks[g] & (1u << unsigned(k))) levels.group_weights[std::size_t(k)][g] = 1;
  lts_ = std::make_unique<LocalTimeStepping>(*stiffness_, nodal_mass_, std::move(levels),
                                             time_step_, options_.local_damping);
  // Cost: every cell is evaluated once per step of each level its dofs have.
  double evaluations = 0;
  for (std::size_t g = 0; g < masks.size(); ++g)
    for (int k = 0; k <= top; ++k)
      if (masks[g] & (1u << unsigned(k)))
        evaluations += double(cells_of_group[g]) * std::ldexp(1.0, top - k);
  info_.local_cell_evaluations = evaluations / (std::ldexp(1.0, top) * double(info_.cells));
  const double coarse = lts_->coarse_step();
  const double lambda = estimate_lambda_max(
      options_.power_iterations, [&](VectorType& y, const VectorType& x) { lts_->apply(y, x); });
  info_.local_stability = coarse * coarse * options_.time_step_margin * lambda / 4;
  info_.local_damping = options_.local_damping;
  // Info as for the multirate scheme (levels, their cells and nodes), and the steps.
  info_.substeps = 1LL << top;
  info_.time_step = coarse;
  info_.fine_time_step = time_step_;
  info_.contact_time_step = coarse;
  Utilities::MPI::sum(ArrayView<const unsigned long long>(nodes), communicator_,
                      ArrayView<unsigned long long>(nodes));
  info_.level_nodes = nodes;
  return info_.local_stability <= 1;
}

template <int p>
double SolverImpl<p>::estimate_lambda_max(int iterations, const std::vector<double>& weight) {
  return estimate_lambda_max(iterations, [&](VectorType& y, const VectorType& x) {
    if (weight.empty())
      apply_stiffness(y, x);
    else
      stiffness_->apply_groups(y, x, weight, nullptr);
  });
}

template <int p>
double SolverImpl<p>::estimate_lambda_max(
    int iterations, const std::function<void(VectorType&, const VectorType&)>& apply) {
  // Power iteration on M^-1 A from a position-hashed start vector; Rayleigh quotient
  // x.Ax / x.Mx (a lower bound that converges from below).
  VectorType x, y;
  stiffness_->initialize_dof_vector(x);
  stiffness_->initialize_dof_vector(y);
  const double scale = mesh_.statistics.edge_min > 0 ? mesh_.statistics.edge_min : 1e-3;
  for (const Node& n : nodes_)
    for (unsigned int d = 0; d < 3; ++d) x.local_element(n.dof[d]) = hash_value(n.X, scale, d);
  double lambda = 0;
  for (int k = 0; k < iterations; ++k) {
    apply(y, x);
    double xkx = 0, xmx = 0;
    for (const Node& n : nodes_)
      for (unsigned int d = 0; d < 3; ++d) {
        xkx += x.local_element(n.dof[d]) * y.local_element(n.dof[d]);
        xmx += n.mass * x.local_element(n.dof[d]) * x.local_element(n.dof[d]);
      }
    xkx = Utilities::MPI::sum(xkx, communicator_);
    xmx = Utilities::MPI::sum(xmx, communicator_);
    lambda = std::max(lambda, xkx / xmx);
    double norm = 0;
    for (const Node& n : nodes_)
      for (unsigned int d = 0; d < 3; ++d) {
        const double value = y.local_element(n.dof[d]) / n.mass;
        norm += n.mass * value * value;
      }
    norm = std::sqrt(Utilities::MPI::sum(norm, communicator_));
    x = 0;
    for (const Node& n : nodes_)
      for (unsigned int d = 0; d < 3; ++d)
        x.local_element(n.dof[d]) = y.local_element(n.dof[d]) / n.mass / norm;
  }
  return lambda;
}

template <int p>
void SolverImpl<p>::set_state(const Eigen::Vector3d& displacement, const Eigen::Vector3d& velocity,
                              const Eigen::Vector3d& omega, const Eigen::Vector3d& centre) {
  displacement_ = 0;
  velocity_ = 0;
  for (const Node& n : nodes_) {
    const Eigen::Vector3d X(n.X[0], n.X[1], n.X[2]);
    const Eigen::Vector3d v = velocity + omega.cross(X - centre);
    for (unsigned int d = 0; d < 3; ++d) {
      displacement_.local_element(n.dof[d]) = displacement[d];
      velocity_.local_element(n.dof[d]) = v[d];
    }
  }
  for (const unsigned int a : touched_) {
    for (unsigned int d = 0; d < 3; ++d) contact_force_.local_element(nodes_[a].dof[d]) = 0;
    if (!touched_flag_.empty()) touched_flag_[a] = 0;
  }
  touched_.clear();
  previous_velocity_ = velocity_;
  state_ = State();
  if (lts_) lts_->hold({});
  update_force();
  compute_averages();
}

template <int p>
void SolverImpl<p>::update_force() {
  if (lts_)  // force_ = K_G u on every node (fem/local_time_stepping.h)
    lts_->apply(force_, displacement_);
  else if (local_)  // every level is due at a synchronisation time: force_ = sum_l 2^l K_l u
    stiffness_->apply_groups(force_, displacement_, level_weights(top_level_), &strain_energy_);
  else
    apply_stiffness(force_, displacement_);
}

template <int p>
void SolverImpl<p>::step() {
  if (local_) return step_local();
  // Leapfrog (central difference): velocity_ holds v_{n-1/2}, displacement_ u_n and force_
  // K u_n (the kick forms the acceleration -M^-1 K u_n node by node, in the same pass). The
  // kinematic contact acts on v_{n+1/2}; the state reported is the one at t_n (u_n, v_n =
  // (v_{n-1/2} + v_{n+1/2}) / 2, contact force J_n / dt), with the kinetic energy in the form 1/2
  // v_{n-1/2} M v_{n+1/2} that leapfrog conserves exactly for a linear system (so that the energy
  // balance measures the contact, not the integrator).
  // Local time stepping ("lts-leapfrog"): the same leapfrog with the coarse step and force_ = K_G
  // u_n.
  const double dt = lts_ ? lts_->coarse_step() : time_step_;
  // Kick and drift as loops over the owned dofs in storage order (the compiler vectorises
  // them; a loop over nodes_ reaches the dofs through n.dof and does not vectorise). A
  // constrained dof has kick_mass_ = +inf, so its velocity stays 0 and its displacement with it.
  const unsigned int n_owned = velocity_.locally_owned_size();
  {
    double* const v = velocity_.begin();
    double* const v_previous = previous_velocity_.begin();
    const double* const f = force_.begin();
    const double* const m = kick_mass_.data();
    for (unsigned int i = 0; i < n_owned; ++i) {
      v_previous[i] = v[i];
      v[i] += dt * (-f[i] / m[i]);
    }
  }
  // The kinematic Coulomb contact of fem/contact.h on every boundary node.
  for (const unsigned int a : touched_)
    for (unsigned int d = 0; d < 3; ++d) contact_force_.local_element(nodes_[a].dof[d]) = 0;
  touched_.clear();
  Eigen::Vector3d impulse = Eigen::Vector3d::Zero();
  double friction_work = 0, normal_work = 0, contact_area = 0;
  int contact_nodes = 0;
  std::vector<unsigned int> held;  // local time stepping: what the next step holds
  if (options_.contact) {
    for (const unsigned int a : boundary_) {
      const Node& n = nodes_[a];
      const NodeContact contact = node_contact(n, dt);
      if (!contact.active) continue;
      if (lts_ && hold_ != Hold::none) {  // on the plane: held in the next step's substeps
        held.push_back(n.dof[1]);
        if (contact.stick && hold_ == Hold::stick) held.insert(held.end(), {n.dof[0], n.dof[2]});
      }
      for (unsigned int d = 0; d < 3; ++d)
        contact_force_.local_element(n.dof[d]) = contact.impulse[d] / dt;
      friction_work += contact.friction_work;
      normal_work += contact.normal_work;
      impulse += contact.impulse;
      touched_.push_back(a);
      ++contact_nodes;
      contact_area += n.area;
    }
  }
  state_.time = state_.step * dt;
  state_.step += 1;
  state_.step_impulse = impulse;  // reduced in compute_averages
  state_.step_friction_work = friction_work;
  state_.step_normal_contact_loss = -normal_work;
  state_.contact_nodes = contact_nodes;
  state_.contact_area = contact_area;
  compute_averages();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  state_.first_contact_time = state_.contact_nodes > 0 ? state_.time : nan;
  state_.last_contact_time = state_.first_contact_time;
  {
    double* const u = displacement_.begin();
    const double* const v = velocity_.begin();
    for (unsigned int i = 0; i < n_owned; ++i) u[i] += dt * v[i];
  }
  if (lts_) lts_->hold(std::move(held));
  update_force();
}

template <int p>
void SolverImpl<p>::step_local() {
  // The multirate leapfrog (impulse multiple time stepping; docs/FEM.md). One step() is
  // 2^L fine steps dt (L = top_level_) from the synchronisation time t_n. A cell of level l
  // acts every 2^l fine steps, with the impulse 2^l dt K_l u; a node of level l (the finest of
  // its cells) is kicked, checked for contact and moved every 2^l fine steps, with its own step
  // 2^l dt, and keeps its velocity in between: at fine step m the levels l <= due(m) (the
  // largest l with 2^l | m) act, and every node they touch is then at t_n + m dt. With one
  // level this is step() exactly. The state reported is the one at t_n (after the kicks and
  // contact of m = 0); its contact impulses, works and nodes are those of the 2^L fine steps.
  const double dt = time_step_;
  const long long substeps = 1LL << top_level_;
  const double coarse = std::ldexp(dt, top_level_);
  for (const unsigned int a : touched_) {
    for (unsigned int d = 0; d < 3; ++d) contact_force_.local_element(nodes_[a].dof[d]) = 0;
    touched_flag_[a] = 0;
  }
  touched_.clear();
  Eigen::Vector3d impulse = Eigen::Vector3d::Zero();
  double friction_work = 0, normal_work = 0, contact_area = 0;
  int contact_nodes = 0;
  long long first_contact = substeps, last_contact = -1;
  std::array<double, 31> sums{};
  double lowest = 0;
  for (long long m = 0; m < substeps; ++m) {
    int due = top_level_;
    if (m > 0) {  // force_ at m = 0 is update_force's (all levels)
      due = 0;
      while (((m >> (due + 1)) << (due + 1)) == m) ++due;
      stiffness_->apply_groups(force_, displacement_, level_weights(due), nullptr);
    }
    // kick: v += dt M^-1 (-sum over due levels l of 2^l K_l u)
    for (int level = 0; level <= due; ++level)
      for (const unsigned int a : nodes_of_level_[std::size_t(level)]) {
        const Node& n = nodes_[a];
        for (unsigned int d = 0; d < 3; ++d) {
          const unsigned int i = n.dof[d];
          previous_velocity_.local_element(i) = velocity_.local_element(i);
          velocity_.local_element(i) -= dt * force_.local_element(i) / n.mass;
        }
      }
    // contact (fem/contact.h) on the boundary nodes moving now, each with its own step
    if (options_.contact)
      for (int level = 0; level <= due; ++level) {
        const double node_step = std::ldexp(dt, level);
        for (const unsigned int a : boundary_of_level_[std::size_t(level)]) {
          const Node& n = nodes_[a];
          const NodeContact contact = node_contact(n, node_step);
          if (!contact.active) continue;
          for (unsigned int d = 0; d < 3; ++d)
            contact_force_.local_element(n.dof[d]) += contact.impulse[d] / coarse;
          friction_work += contact.friction_work;
          normal_work += contact.normal_work;
          impulse += contact.impulse;
          first_contact = std::min(first_contact, m);
          last_contact = m;
          if (!touched_flag_[a]) {
            touched_flag_[a] = 1;
            touched_.push_back(a);
            ++contact_nodes;
            contact_area += n.area;
          }
        }
      }
    if (m == 0) {  // every node is at t_n, between its velocities before and after t_n
      sums = local_sums();
      lowest = lowest_boundary_height();
    }
    // drift: each node of a due level to its next time, t + 2^l dt
    for (int level = 0; level <= due; ++level) {
      const double node_step = std::ldexp(dt, level);
      for (const unsigned int a : nodes_of_level_[std::size_t(level)]) {
        const Node& n = nodes_[a];
        for (unsigned int d = 0; d < 3; ++d)
          displacement_.local_element(n.dof[d]) += node_step * velocity_.local_element(n.dof[d]);
      }
    }
  }
  for (unsigned int d = 0; d < 3; ++d) sums[18 + d] = impulse[d];
  sums[21] = friction_work;
  sums[22] = -normal_work;
  sums[23] = contact_nodes;
  sums[24] = contact_area;
  state_.time = state_.step * coarse;
  state_.step += 1;
  reduce_sums(sums, lowest);
  // (fine-step indices < 2^30 are exact in a double)
  const double first = Utilities::MPI::min(double(first_contact), communicator_);
  const double last = Utilities::MPI::max(double(last_contact), communicator_);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  state_.first_contact_time = last >= 0 ? state_.time + first * dt : nan;
  state_.last_contact_time = last >= 0 ? state_.time + last * dt : nan;
  update_force();  // all levels at t_{n+1}, for the kicks of its m = 0
}

template <int p>
void SolverImpl<p>::compute_averages() {
  reduce_sums(local_sums(), lowest_boundary_height());
}

template <int p>
std::array<double, 31> SolverImpl<p>::local_sums() const {
  // Layout:
  // 0 mass | 1-3 sum m x | 4-6 momentum | 7-9 sum m x cross v | 10-15 sum m x_i x_j
  // 16 kinetic | 17 u.f | 18-20 impulse | 21 friction | 22 normal loss | 23 nodes | 24 area
  // 25-27 P position | 28-30 P velocity
  std::array<double, 31> s{};
  // One pass over the nodes with the sums in named scalars: the same operations in the same
  // order as the vector form (m x, m v, m x cross v, m x_i x_j, the kinetic and strain terms),
  // so the results are bitwise those of the Eigen loop this replaced, without its
  // store-and-packed-reload through the stack in every node's cross product, where a profile
  // of the p = 2 run spent about a fifth of the time loop (docs/FEM.md, Performance).
  double mass = 0, mx0 = 0, mx1 = 0, mx2 = 0, mv0 = 0, mv1 = 0, mv2 = 0, l0 = 0, l1 = 0, l2 = 0;
  double xx = 0, yy = 0, zz = 0, xy = 0, xz = 0, yz = 0, kinetic_sum = 0, strain = 0;
  for (const Node& n : nodes_) {
    const unsigned int i0 = n.dof[0], i1 = n.dof[1], i2 = n.dof[2];
    const double u0 = displacement_.local_element(i0), u1 = displacement_.local_element(i1),
                 u2 = displacement_.local_element(i2);
    const double x0 = n.X[0] + u0, x1 = n.X[1] + u1, x2 = n.X[2] + u2;
    const double a0 = previous_velocity_.local_element(i0), b0 = velocity_.local_element(i0);
    const double a1 = previous_velocity_.local_element(i1), b1 = velocity_.local_element(i1);
    const double a2 = previous_velocity_.local_element(i2), b2 = velocity_.local_element(i2);
    const double v0 = 0.5 * (a0 + b0), v1 = 0.5 * (a1 + b1), v2 = 0.5 * (a2 + b2);
    double kinetic = 0;
    kinetic += a0 * b0;
    kinetic += a1 * b1;
    kinetic += a2 * b2;
    const double m = n.mass;
    mass += m;
    // l = m (x cross v), as Eigen evaluates it: the cross product first, then the scaling
    l0 += m * (x1 * v2 - x2 * v1);
    l1 += m * (x2 * v0 - x0 * v2);
    l2 += m * (x0 * v1 - x1 * v0);
    mx0 += m * x0;
    mv0 += m * v0;
    mx1 += m * x1;
    mv1 += m * v1;
    mx2 += m * x2;
    mv2 += m * v2;
    xx += m * x0 * x0;
    yy += m * x1 * x1;
    zz += m * x2 * x2;
    xy += m * x0 * x1;
    xz += m * x0 * x2;
    yz += m * x1 * x2;
    kinetic_sum += 0.5 * m * kinetic;
    if (!local_) {
      strain += u0 * force_.local_element(i0);
      strain += u1 * force_.local_element(i1);
      strain += u2 * force_.local_element(i2);
    }
  }
  s = {{mass, mx0, mx1, mx2, mv0, mv1, mv2, l0, l1, l2, xx, yy, zz, xy, xz, yz, kinetic_sum,
        strain}};
  // local: force_ is a weighted sum of the levels' forces; the operator summed u.Ku over the cells
  if (local_) s[17] = strain_energy_;
  for (unsigned int d = 0; d < 3; ++d) s[18 + d] = state_.step_impulse[d];
  s[21] = state_.step_friction_work;
  s[22] = state_.step_normal_contact_loss;
  s[23] = state_.contact_nodes;
  s[24] = state_.contact_area;
  if (contact_node_ >= 0) {
    const Node& n = nodes_[contact_node_];
    for (unsigned int d = 0; d < 3; ++d) {
      s[25 + d] = n.X[d] + displacement_.local_element(n.dof[d]);
      s[28 + d] =
          0.5 * (previous_velocity_.local_element(n.dof[d]) + velocity_.local_element(n.dof[d]));
    }
  }
  return s;
}

template <int p>
double SolverImpl<p>::lowest_boundary_height() const {
  double lowest = std::numeric_limits<double>::infinity();
  for (const unsigned int a : boundary_) {
    const Node& n = nodes_[a];
    lowest = std::min(lowest, n.X[1] + displacement_.local_element(n.dof[1]));
  }
  return lowest;
}

template <int p>
void SolverImpl<p>::reduce_sums(const std::array<double, 31>& s, double lowest) {
  std::array<double, 31> r{};
  MPI_Allreduce(s.data(), r.data(), int(s.size()), MPI_DOUBLE, MPI_SUM, communicator_);
  lowest = Utilities::MPI::min(lowest, communicator_);

  State& st = state_;
  st.mass = r[0];
  const Eigen::Vector3d first(r[1], r[2], r[3]);
  st.centre = first / st.mass;
  st.momentum = Eigen::Vector3d(r[4], r[5], r[6]);
  st.centre_velocity = st.momentum / st.mass;
  st.angular_momentum = Eigen::Vector3d(r[7], r[8], r[9]);
  st.central_angular_momentum = st.angular_momentum - st.mass * st.centre.cross(st.centre_velocity);
  Eigen::Matrix3d second;  // sum m x x^T about the centre
  second << r[10], r[13], r[14], r[13], r[11], r[15], r[14], r[15], r[12];
  second -= st.mass * st.centre * st.centre.transpose();
  st.central_inertia = second.trace() * Eigen::Matrix3d::Identity() - second;
  st.omega = st.central_inertia.ldlt().solve(st.central_angular_momentum);
  st.kinetic_energy = r[16];
  st.internal_energy = 0.5 * r[17];
  st.rigid_kinetic_energy = 0.5 * st.mass * st.centre_velocity.squaredNorm() +
                            0.5 * st.omega.dot(st.central_inertia * st.omega);
  st.vibration_kinetic_energy = st.kinetic_energy - st.rigid_kinetic_energy;
  st.step_impulse = Eigen::Vector3d(r[18], r[19], r[20]);
  st.step_friction_work = r[21];
  st.step_normal_contact_loss = r[22];
  st.contact_nodes = int(std::lround(r[23]));
  st.contact_area = r[24];
  st.contact_point = Eigen::Vector3d(r[25], r[26], r[27]);
  st.contact_node_velocity = Eigen::Vector3d(r[28], r[29], r[30]);
  st.contact_point_rigid_velocity =
      st.centre_velocity + st.omega.cross(st.contact_point - st.centre);
  st.lowest_boundary_height = lowest;
  st.finite = std::isfinite(st.kinetic_energy) && std::isfinite(st.internal_energy) &&
              std::isfinite(st.momentum.sum()) && std::isfinite(lowest);
}

template <int p>
double SolverImpl<p>::time_internal_force(int applications, int up_to_level) {
  VectorType f;
  stiffness_->initialize_dof_vector(f);
  const int due = up_to_level < 0 ? top_level_ : std::min(up_to_level, top_level_);
  const std::vector<double> weights = local_ ? level_weights(due) : std::vector<double>{};
  MPI_Barrier(communicator_);
  Timer timer;
  for (int k = 0; k < applications; ++k) {
    if (lts_)
      lts_->apply(f, displacement_);
    else if (local_)
      stiffness_->apply_groups(f, displacement_, weights, nullptr);
    else
      apply_stiffness(f, displacement_);
  }
  return Utilities::MPI::max(timer.wall_time(), communicator_);
}

template <int p>
double SolverImpl<p>::time_state_averages(int applications) {
  const State saved = state_;  // compute_averages() reduces the step's contact sums in place
  MPI_Barrier(communicator_);
  Timer timer;
  for (int k = 0; k < applications; ++k) {
    state_ = saved;
    compute_averages();
  }
  const double wall = timer.wall_time();
  state_ = saved;
  return Utilities::MPI::max(wall, communicator_);
}

template <int p>
PatchTestResult SolverImpl<p>::patch_test(const Eigen::Matrix3d& gradient) {
  VectorType saved = displacement_;
  displacement_ = 0;
  for (const Node& n : nodes_) {
    const Eigen::Vector3d u = gradient * Eigen::Vector3d(n.X[0], n.X[1], n.X[2]);
    for (unsigned int d = 0; d < 3; ++d) displacement_.local_element(n.dof[d]) = u[d];
  }
  VectorType f;
  stiffness_->initialize_dof_vector(f);
  apply_stiffness(f, displacement_);
  PatchTestResult r;
  for (const Node& n : nodes_)
    for (unsigned int d = 0; d < 3; ++d) {
      const double value = std::abs(f.local_element(n.dof[d]));
      r.force_scale = std::max(r.force_scale, value);
      if (n.area == 0) r.max_interior_force = std::max(r.max_interior_force, value);
    }
  const Eigen::Matrix3d eps = 0.5 * (gradient + gradient.transpose());
  const Eigen::Matrix3d sigma =
      lame_lambda_ * eps.trace() * Eigen::Matrix3d::Identity() + 2 * lame_mu_ * eps;
  r.stress_scale = sigma.norm();
  Tensor<2, 3> sigma_exact;
  for (unsigned int i = 0; i < 3; ++i)
    for (unsigned int j = 0; j < 3; ++j) sigma_exact[i][j] = sigma(i, j);
  r.max_stress_error = stiffness_->max_stress_error(displacement_, sigma_exact);
  r.max_interior_force = Utilities::MPI::max(r.max_interior_force, communicator_);
  r.force_scale = Utilities::MPI::max(r.force_scale, communicator_);
  displacement_ = saved;
  update_force();
  return r;
}

template <int p>
std::string SolverImpl<p>::write_frame(const std::string& directory, unsigned int frame) {
  VectorType u = displacement_, v = velocity_, force = contact_force_, traction;
  traction.reinit(contact_force_);
  for (const unsigned int a : touched_) {
    const Node& n = nodes_[a];
    for (unsigned int d = 0; d < 3; ++d)
      traction.local_element(n.dof[d]) = force.local_element(n.dof[d]) / n.area;
  }
  for (VectorType* x : {&u, &v, &force, &traction}) {
    constraints_.distribute(*x);
    x->update_ghost_values();
  }
  DataOut<3> out;
  out.attach_dof_handler(dof_handler_);
  const std::vector<DataComponentInterpretation::DataComponentInterpretation> vector(
      3, DataComponentInterpretation::component_is_part_of_vector);
  out.add_data_vector(u, std::vector<std::string>(3, "displacement"), DataOut<3>::type_dof_data,
                      vector);
  out.add_data_vector(v, std::vector<std::string>(3, "velocity"), DataOut<3>::type_dof_data,
                      vector);
  out.add_data_vector(force, std::vector<std::string>(3, "contact_force"),
                      DataOut<3>::type_dof_data, vector);
  out.add_data_vector(traction, std::vector<std::string>(3, "contact_traction"),
                      DataOut<3>::type_dof_data, vector);
  const StressPostprocessor stress(lame_lambda_, lame_mu_);
  out.add_data_vector(u, stress);
  Vector<float> subdomain(mesh_.triangulation->n_active_cells());
  for (const auto& cell : mesh_.triangulation->active_cell_iterators())
    if (cell->is_locally_owned())
      subdomain(cell->active_cell_index()) = float(cell->subdomain_id());
  out.add_data_vector(subdomain, "subdomain");
  out.build_patches(*mapping_, p);
  DataOutBase::VtkFlags flags;
  flags.time = state_.time;
  flags.cycle = int(frame);
  out.set_flags(flags);
  // Each rank encodes its piece in memory and writes it through write_file_atomically (a unique
  // temporary, every write checked, errno's text on failure, renamed into place); rank 0 then
  // writes the .pvtu record. A failure on any rank fails the frame on every rank (collective).
  const unsigned int rank = Utilities::MPI::this_mpi_process(communicator_);
  const unsigned int ranks = Utilities::MPI::n_mpi_processes(communicator_);
  const std::string stem = "solution_" + Utilities::int_to_string(frame, 4);
  std::string problem;
  try {
    std::ostringstream piece;
    out.write_vtu(piece);
    observables::write_file_atomically(directory + "/" + stem + "." + std::to_string(rank) + ".vtu",
                                       piece.str());
  } catch (const std::exception& error) {
    problem = error.what();
  }
  const unsigned int failed_rank =
      Utilities::MPI::min(problem.empty() ? ranks : rank, communicator_);
  if (failed_rank < ranks)
    throw observables::FileError(problem.empty() ? "rank " + std::to_string(failed_rank) +
                                                       " could not write its piece of " +
                                                       directory + "/" + stem + ".pvtu"
                                                 : problem);
  const std::string record = stem + ".pvtu";
  if (rank == 0) {
    std::vector<std::string> pieces;
    for (unsigned int r = 0; r < ranks; ++r)
      pieces.push_back(stem + "." + std::to_string(r) + ".vtu");
    std::ostringstream text;
    out.write_pvtu_record(text, pieces);
    observables::write_file_atomically(directory + "/" + record, text.str());
  }
  return record;
}

}  // namespace

std::unique_ptr<Solver> Solver::create(const cases::Case& c, const SolverOptions& options,
                                       MPI_Comm communicator) {
  if (c.fem.degree != 1 && c.fem.degree != 2)
    throw std::invalid_argument("fem.degree must be 1 or 2");
  meshes::Mesh mesh = meshes::build_mesh(c, options.extra_levels, communicator);
  if (c.fem.degree == 1)
    return std::make_unique<SolverImpl<1>>(c, options, communicator, std::move(mesh));
  return std::make_unique<SolverImpl<2>>(c, options, communicator, std::move(mesh));
}

}  // namespace rebound::fem
