// The deal.II part of the FEM (docs/FEM.md): FE space, conforming isoparametric geometry,
// lumped mass, the explicit leapfrog step with the target's contact, rigid-body averaging, VTK.
// The internal force is the matrix-free operator of fem/internal_force.h on the body's material
// (fem/materials/), the contact is the target's (fem/targets/). Degrees 1 and 2 are instantiated.
#include <deal.II/base/index_set.h>
#include <deal.II/base/mpi.h>
#include <deal.II/base/quadrature_lib.h>
#include <deal.II/base/timer.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_system.h>
#include <deal.II/fe/fe_tools.h>
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
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <variant>

#include "fem/contact.h"
#include "fem/discretisation.h"
#include "fem/fem.h"
#include "fem/internal_force.h"
#include "fem/materials/material.h"
#include "fem/targets/target.h"
#include "fem/two_body_contact.h"
#include "meshes/meshes.h"
#include "observables/files.h"

namespace rebound::fem {
namespace {

using namespace dealii;
using VectorType = LinearAlgebra::distributed::Vector<double>;

// The stress of the body's material (a target body's cells: its own) and its von Mises
// equivalent, for the VTK frames. For a
// material with state, the stress at an output point is the material's from the mean state
// tensor of the cell's quadrature points (the plastic strain, or the viscoelastic Maxwell arm's
// stress; materials::stress).
class StressPostprocessor : public DataPostprocessor<3> {
 public:
  StressPostprocessor(const materials::Material& material,
                      const std::vector<SymmetricTensor<2, 3>>& cell_plastic_strain,
                      std::optional<materials::LinearElastic> target_material)
      : material_(material),
        cell_plastic_strain_(cell_plastic_strain),
        target_material_(target_material) {}
  void evaluate_vector_field(const DataPostprocessorInputs::Vector<3>& in,
                             std::vector<Vector<double>>& out) const override {
    const SymmetricTensor<2, 3> plastic_strain =
        cell_plastic_strain_.empty()
            ? SymmetricTensor<2, 3>()
            : cell_plastic_strain_[in.template get_cell<3>()->active_cell_index()];
    for (unsigned int q = 0; q < in.solution_gradients.size(); ++q) {
      Tensor<2, 3> grad;
      for (unsigned int d = 0; d < 3; ++d) grad[d] = in.solution_gradients[q][d];
      const bool on_target =
          target_material_ && in.template get_cell<3>()->material_id() == meshes::body_ids::target;
      const Tensor<2, 3> sigma =
          on_target ? Tensor<2, 3>(target_material_->stress(symmetrize(grad)))
                    : Tensor<2, 3>(materials::stress(material_, symmetrize(grad), plastic_strain));
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
  materials::Material material_;
  const std::vector<SymmetricTensor<2, 3>>& cell_plastic_strain_;  // empty: none
  std::optional<materials::LinearElastic> target_material_;        // a target body's cells
};

// A deterministic pseudo-random value from a position (the same on any partition).
double hash_value(const Point<3>& x, double scale, unsigned int component) {
  const double s = std::sin(12.9898 * x[0] / scale + 78.233 * x[1] / scale + 37.719 * x[2] / scale +
                            4.581 * component);
  const double v = s * 43758.5453;
  return v - std::floor(v) - 0.5;
}

// This rank's share of the rigid-body averages of the state (compute_averages), summed over the
// ranks as one array of doubles (every member is a double: NodeSums::size below).
struct NodeSums {
  double mass;
  double first_moment[3];      // sum m x
  double momentum[3];          // sum m v
  double angular_momentum[3];  // sum m x cross v, about the origin
  double second_moment[6];     // sum m x_i x_j: xx yy zz xy xz yz
  double kinetic_energy;       // sum 1/2 m v_{n-1/2}.v_{n+1/2}
  double twice_strain_energy;  // u.Ku - integral of sigma : eps_p (u.Ku when elastic)
  double plastic_dissipation;  // the material's plastic work so far (InternalForce::energies)
  double viscous_dissipation;  // ... its viscous dissipation so far
  double cells_with_state;     // ... and its cells whose state is read
  // the contact of the last step
  double impulse[3];  // on the body, N s
  double friction_work, normal_contact_loss, contact_nodes, contact_area;
  // P's node (on its owner; zero elsewhere)
  double contact_point[3], contact_point_velocity[3];
  static constexpr int size = 34;
};
static_assert(sizeof(NodeSums) == NodeSums::size * sizeof(double), "NodeSums holds doubles only");

// The target's contact over one step, summed over this rank's boundary nodes.
struct StepContact {
  Eigen::Vector3d impulse = Eigen::Vector3d::Zero();  // on the body, N s
  double friction_work = 0, normal_work = 0, area = 0;
  int nodes = 0;
};

// The contact surfaces of the body and a deformable target body, replicated on every rank in one
// order that does not depend on the partition (fem/two_body_contact.h): the nodes sorted by body
// and reference position, the facets by body and centroid. Each rank fills the nodes it owns
// before the contact and reads them back after it.
struct ContactSurfaces {
  std::vector<SurfaceNode> nodes;
  std::vector<Facet> facets;
  // this rank's owned table nodes: (table index, the node's three local dofs)
  std::vector<std::pair<int, std::array<unsigned int, 3>>> owned;
  std::vector<int> counts, offsets;  // per rank, doubles of the per-step exchange
  std::vector<double> mine, all;     // its buffers: this rank's rows, every rank's
  TwoBodyContactOptions options;
  PartnerSearchShare share;  // the ranks' shares of the partner search
  double radius = 0;         // the boundary within this distance of P is tabled, m
};

// Every rank's rows concatenated in rank order (the sizes first, then the rows).
std::vector<double> gather_rows(const std::vector<double>& mine, MPI_Comm communicator) {
  int ranks = 0;
  MPI_Comm_size(communicator, &ranks);
  const int size = int(mine.size());
  std::vector<int> counts(ranks), offsets(ranks, 0);
  MPI_Allgather(&size, 1, MPI_INT, counts.data(), 1, MPI_INT, communicator);
  for (int r = 1; r < ranks; ++r) offsets[r] = offsets[r - 1] + counts[r - 1];
  std::vector<double> all(std::size_t(offsets.back() + counts.back()));
  MPI_Allgatherv(mine.data(), size, MPI_DOUBLE, all.data(), counts.data(), offsets.data(),
                 MPI_DOUBLE, communicator);
  return all;
}

template <int p>
class SolverImpl final : public Solver {
 public:
  SolverImpl(const cases::Case& c, const SolverOptions& options, MPI_Comm communicator,
             std::unique_ptr<Target> target, meshes::Mesh&& mesh);

  const Info& info() const override { return info_; }
  void set_state(const Eigen::Vector3d& displacement, const Eigen::Vector3d& velocity,
                 const Eigen::Vector3d& omega, const Eigen::Vector3d& centre) override;
  void step() override;
  const State& state() const override { return state_; }
  PatchTestResult patch_test(const Eigen::Matrix3d& gradient) override;
  double time_internal_force(int applications) override;
  double time_state_averages(int applications) override;
  std::string write_frame(const std::string& directory, unsigned int frame) override;

 private:
  // One node: its three dofs (local indices), initial position, mass and boundary area.
  struct Node {
    std::array<unsigned int, 3> dof;
    Point<3> X;
    double mass = 0, area = 0;
  };
  // Every owned node: the body's, then a deformable target body's.
  template <class F>
  void for_all_nodes(F&& f) const {
    for (const Node& n : nodes_) f(n);
    for (const Node& n : target_nodes_) f(n);
  }

  // Setup stages (the constructor runs them in this order).
  void setup_dofs();
  void setup_geometry();
  void hold_target_boundaries();
  void setup_operator();
  void assemble_lumped_mass();
  void extract_nodes();
  void fill_info();
  void compute_fe_body();
  void estimate_time_step();
  void setup_contact_surfaces();  // a deformable target body only
  // This rank's contact facets within `radius` of P, flattened (setup_contact_surfaces).
  std::vector<double> owned_contact_facets(double radius) const;

  // The stages of a step.
  void kick(double dt);                     // v_{n+1/2} = v_{n-1/2} - dt M^-1 K u_n
  StepContact contact(double dt);           // the target's contact on every boundary node
  StepContact two_body_contact(double dt);  // ... or with a deformable target body
  void drift(double dt);                    // u_{n+1} = u_n + dt v_{n+1/2}
  void update_force();                      // force_ = K u
  void compute_averages();      // state_ from u, v, force and the contact of the last step
  NodeSums local_sums() const;  // this rank's share of them
  NodeSums body_sums(const std::vector<Node>& nodes) const;  // ... of one body's nodes
  void reduce_target_sums();                                 // state_.target
  void reduce_sums(const NodeSums& sums, double lowest);     // ... summed into state_
  double lowest_boundary_gap() const;             // this rank's smallest gap of a boundary node
  Eigen::Vector3d position(const Node& n) const;  // X + u
  // Rayleigh-quotient power iteration on M^-1 K.
  double estimate_lambda_max(int iterations);

  cases::Case case_;
  SolverOptions options_;
  MPI_Comm communicator_;
  std::unique_ptr<Target> target_;
  meshes::Mesh mesh_;
  materials::Material material_;
  double density_;
  FESystem<3> fe_;
  DoFHandler<3> dof_handler_;
  IndexSet relevant_dofs_;
  AffineConstraints<double> constraints_;
  std::unique_ptr<MappingQCache<3>> mapping_;
  std::unique_ptr<InternalForce> internal_force_;  // f = K u (matrix-free)
  VectorType displacement_, velocity_, previous_velocity_, force_, contact_force_;
  VectorType support_positions_;        // x of every support point (conforming at hanging nodes)
  VectorType nodal_mass_, nodal_area_;  // lumped mass and boundary area per dof
  double quadrature_mass_ = 0;          // the mass integrated cell by cell (this rank)
  std::vector<Node> nodes_;             // locally owned, unconstrained nodes of the body
  std::vector<Node> target_nodes_;      // ... of a deformable target body (none for a rigid one)
  std::optional<DeformableTarget> deformable_;  // the target's, when it is a body
  ContactSurfaces surfaces_;                    // ... and the two bodies' contact surfaces
  std::vector<double> kick_mass_;       // per owned dof: its node's mass, +inf where constrained
  std::vector<unsigned int> boundary_;  // indices into nodes_ of boundary nodes
  std::vector<unsigned int> touched_;   // boundary nodes with a contact force in the last step
  int contact_node_ = -1;               // index into nodes_ of P on its owner, else -1
  double time_step_ = 0;
  Info info_;
  State state_;
};

template <int p>
SolverImpl<p>::SolverImpl(const cases::Case& c, const SolverOptions& options, MPI_Comm communicator,
                          std::unique_ptr<Target> target, meshes::Mesh&& mesh)
    : case_(c),
      options_(options),
      communicator_(communicator),
      target_(std::move(target)),
      mesh_(std::move(mesh)),
      material_(materials::make_material(c)),
      density_(c.material.density),
      fe_(FE_Q<3>(p), 3),
      dof_handler_(*mesh_.triangulation) {
  Timer timer(communicator_);
  deformable_ = target_->deformable();
  // The stages, as in the deal.II tutorials: each fills the members named in its comment.
  setup_dofs();
  setup_geometry();
  hold_target_boundaries();
  setup_operator();
  assemble_lumped_mass();
  extract_nodes();
  fill_info();
  compute_fe_body();
  estimate_time_step();
  if (deformable_) setup_contact_surfaces();
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

// constraints_ again, for a target that holds some of its faces (a clamped plate's edges,
// DeformableTarget::held_boundaries): the hanging nodes' and zero displacement there, so that
// those nodes take no mass (kick_mass_ +inf) and never move. After setup_geometry, whose positions
// must follow the hanging nodes only.
template <int p>
void SolverImpl<p>::hold_target_boundaries() {
  if (!deformable_ || deformable_->held_boundaries.empty()) return;
  constraints_.clear();
  constraints_.reinit(relevant_dofs_);
  DoFTools::make_hanging_node_constraints(dof_handler_, constraints_);
  for (const types::boundary_id id : deformable_->held_boundaries)
    DoFTools::make_zero_boundary_constraints(dof_handler_, id, constraints_);
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

// internal_force_ (the widest SIMD width available unless options_.simd_lanes says) and the dof
// vectors.
template <int p>
void SolverImpl<p>::setup_operator() {
  InternalForce::Setup setup{*mapping_, dof_handler_, constraints_, p, material_};
  if (deformable_) {
    setup.target_material = materials::LinearElastic::from_young_poisson(
        deformable_->young_modulus, deformable_->poisson_ratio);
    setup.target_material_id = meshes::body_ids::target;
  }
  internal_force_ = make_internal_force(setup, options_.simd_lanes);
  for (VectorType* v : {&displacement_, &velocity_, &previous_velocity_, &force_, &contact_force_})
    internal_force_->initialize_dof_vector(*v);
}

// nodal_mass_, nodal_area_, quadrature_mass_.
template <int p>
void SolverImpl<p>::assemble_lumped_mass() {
  // Lumped mass and nodal boundary areas, through the constraints (fem/discretisation.h).
  VectorType& mass = nodal_mass_;
  VectorType& area = nodal_area_;
  internal_force_->initialize_dof_vector(mass);
  internal_force_->initialize_dof_vector(area);
  std::optional<double> target_density;
  if (deformable_) target_density = deformable_->density;
  quadrature_mass_ =
      fem::assemble_lumped_mass(*mapping_, fe_, dof_handler_, constraints_, p, density_, mass, area,
                                target_density, meshes::body_ids::target);
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
        (cell->material_id() == meshes::body_ids::target ? target_nodes_ : nodes_).push_back(node);
      }
    }
  }
  if (owned.n_elements() != velocity_.locally_owned_size())
    throw std::logic_error("extract_nodes: the state vectors do not hold the owned dofs");
  kick_mass_.assign(owned.n_elements(), std::numeric_limits<double>::infinity());
  for_all_nodes([&](const Node& n) {
    for (unsigned int d = 0; d < 3; ++d) kick_mass_[n.dof[d]] = n.mass;
  });
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
  info_.simd_lanes = internal_force_->lanes();
  info_.dofs = dof_handler_.n_dofs();
  info_.cells = mesh_.triangulation->n_global_active_cells();
  info_.nodes =
      Utilities::MPI::sum<unsigned long long>(nodes_.size() + target_nodes_.size(), communicator_);
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
  info_.block_size = mesh_.options.target_block;
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
  internal_force_->set_time_step(time_step_);
}

template <int p>
double SolverImpl<p>::estimate_lambda_max(int iterations) {
  // Power iteration on M^-1 K from a position-hashed start vector; Rayleigh quotient
  // x.Kx / x.Mx (a lower bound that converges from below). K is the elastic operator: a plastic
  // body is softer where it yields, so the elastic step is stable for it.
  VectorType x, y;
  internal_force_->initialize_dof_vector(x);
  internal_force_->initialize_dof_vector(y);
  const double scale = mesh_.statistics.edge_min > 0 ? mesh_.statistics.edge_min : 1e-3;
  for_all_nodes([&](const Node& n) {
    for (unsigned int d = 0; d < 3; ++d) x.local_element(n.dof[d]) = hash_value(n.X, scale, d);
  });
  double lambda = 0;
  for (int k = 0; k < iterations; ++k) {
    internal_force_->apply_elastic(y, x);
    double xkx = 0, xmx = 0;
    for_all_nodes([&](const Node& n) {
      for (unsigned int d = 0; d < 3; ++d) {
        xkx += x.local_element(n.dof[d]) * y.local_element(n.dof[d]);
        xmx += n.mass * x.local_element(n.dof[d]) * x.local_element(n.dof[d]);
      }
    });
    xkx = Utilities::MPI::sum(xkx, communicator_);
    xmx = Utilities::MPI::sum(xmx, communicator_);
    lambda = std::max(lambda, xkx / xmx);
    double norm = 0;
    for_all_nodes([&](const Node& n) {
      for (unsigned int d = 0; d < 3; ++d) {
        const double value = y.local_element(n.dof[d]) / n.mass;
        norm += n.mass * value * value;
      }
    });
    norm = std::sqrt(Utilities::MPI::sum(norm, communicator_));
    x = 0;
    for_all_nodes([&](const Node& n) {
      for (unsigned int d = 0; d < 3; ++d)
        x.local_element(n.dof[d]) = y.local_element(n.dof[d]) / n.mass / norm;
    });
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
  for (const unsigned int a : touched_)
    for (unsigned int d = 0; d < 3; ++d) contact_force_.local_element(nodes_[a].dof[d]) = 0;
  touched_.clear();
  previous_velocity_ = velocity_;
  state_ = State();
  internal_force_->reset_state();  // t = 0: a virgin material
  update_force();
  compute_averages();
}

// The one evaluation of the internal force per step: the material's state (plastic strain)
// advances to u_{n+1} here and nowhere else.
template <int p>
void SolverImpl<p>::update_force() {
  internal_force_->apply_and_advance(force_, displacement_);
}

// One step of the leapfrog (central difference) with the target's contact. Before it
// velocity_ holds v_{n-1/2}, displacement_ u_n and force_ K u_n. The kinematic contact acts on
// v_{n+1/2}; the state reported is the one at t_n (u_n, v_n = (v_{n-1/2} + v_{n+1/2}) / 2,
// contact force J_n / dt), with the kinetic energy in the form 1/2 v_{n-1/2} M v_{n+1/2} that
// leapfrog conserves exactly for a linear system (so that the energy balance measures the
// contact, not the integrator).
template <int p>
void SolverImpl<p>::step() {
  const double dt = time_step_;
  kick(dt);
  const StepContact contact = !options_.contact ? StepContact{}
                              : deformable_     ? two_body_contact(dt)
                                                : this->contact(dt);
  state_.time = state_.step * dt;
  state_.step += 1;
  state_.step_impulse = contact.impulse;  // summed over the ranks in compute_averages
  state_.step_friction_work = contact.friction_work;
  state_.step_normal_contact_loss = -contact.normal_work;
  state_.contact_nodes = contact.nodes;
  state_.contact_area = contact.area;
  compute_averages();
  drift(dt);
  update_force();
}

// Kick and drift are loops over the owned dofs in storage order (the compiler vectorises them; a
// loop over nodes_ reaches the dofs through n.dof and does not vectorise). A constrained dof has
// kick_mass_ = +inf, so its velocity stays 0 and its displacement with it.
template <int p>
void SolverImpl<p>::kick(double dt) {
  const unsigned int n_owned = velocity_.locally_owned_size();
  double* const v = velocity_.begin();
  double* const v_previous = previous_velocity_.begin();
  const double* const f = force_.begin();
  const double* const m = kick_mass_.data();
  for (unsigned int i = 0; i < n_owned; ++i) {
    v_previous[i] = v[i];
    v[i] += dt * (-f[i] / m[i]);
  }
}

template <int p>
void SolverImpl<p>::drift(double dt) {
  const unsigned int n_owned = velocity_.locally_owned_size();
  double* const u = displacement_.begin();
  const double* const v = velocity_.begin();
  for (unsigned int i = 0; i < n_owned; ++i) u[i] += dt * v[i];
}

template <int p>
Eigen::Vector3d SolverImpl<p>::position(const Node& n) const {
  return {n.X[0] + displacement_.local_element(n.dof[0]),
          n.X[1] + displacement_.local_element(n.dof[1]),
          n.X[2] + displacement_.local_element(n.dof[2])};
}

// The target's contact law (fem/targets/target.h) on every boundary node: v_{n+1/2} corrected in
// place, the nodal contact forces J / dt kept for the frames.
template <int p>
StepContact SolverImpl<p>::contact(double dt) {
  for (const unsigned int a : touched_)
    for (unsigned int d = 0; d < 3; ++d) contact_force_.local_element(nodes_[a].dof[d]) = 0;
  touched_.clear();
  StepContact sum;
  for (const unsigned int a : boundary_) {
    const Node& n = nodes_[a];
    Eigen::Vector3d v, v0;
    for (unsigned int d = 0; d < 3; ++d) {
      v[d] = velocity_.local_element(n.dof[d]);
      v0[d] = previous_velocity_.local_element(n.dof[d]);
    }
    const NodeContact node = target_->contact(position(n), v, v0, n.mass, dt);
    if (!node.active) continue;
    for (unsigned int d = 0; d < 3; ++d) {
      velocity_.local_element(n.dof[d]) = v[d];
      contact_force_.local_element(n.dof[d]) = node.impulse[d] / dt;
    }
    sum.friction_work += node.friction_work;
    sum.normal_work += node.normal_work;
    sum.impulse += node.impulse;
    touched_.push_back(a);
    ++sum.nodes;
    sum.area += n.area;
  }
  return sum;
}

// surfaces_: the boundary faces of both bodies within the target's surface radius of P, each
// split into p x p bilinear facets through its support points (their corners at hanging nodes
// carried onto the constraint's masters), gathered on every rank with the nodes they reach.
template <int p>
std::vector<double> SolverImpl<p>::owned_contact_facets(double radius) const {
  const std::vector<unsigned int> lexicographic =
      FETools::lexicographic_to_hierarchic_numbering<2>(p);
  const VectorType& positions = support_positions_;
  // This rank's facets, flattened: body, then per corner: count, (x dof, weight) x count.
  std::vector<double> mine;
  std::vector<types::global_dof_index> face_dofs(fe_.n_dofs_per_face());
  for (const auto& cell : dof_handler_.active_cell_iterators()) {
    if (!cell->is_locally_owned()) continue;
    for (const unsigned int f : cell->face_indices()) {
      if (!cell->face(f)->at_boundary()) continue;
      const Point<3> centre = cell->face(f)->center();
      if (centre.norm() > radius) continue;
      cell->face(f)->get_dof_indices(face_dofs);
      // the x dof of each support point of the face, in the face's lexicographic order
      std::vector<types::global_dof_index> grid((p + 1) * (p + 1));
      for (unsigned int i = 0; i < face_dofs.size(); ++i) {
        const auto [component, index] = fe_.face_system_to_component_index(i);
        if (component == 0) {
          for (unsigned int l = 0; l < grid.size(); ++l)
            if (lexicographic[l] == index) grid[l] = face_dofs[i];
        }
      }
      const auto y_of = [&](types::global_dof_index x) {
        // the node's y and z dofs follow from the face's: find them by the same support point
        for (unsigned int i = 0; i < face_dofs.size(); ++i)
          if (face_dofs[i] == x) {
            const unsigned int index = fe_.face_system_to_component_index(i).second;
            std::array<types::global_dof_index, 3> dofs{};
            for (unsigned int j = 0; j < face_dofs.size(); ++j)
              if (fe_.face_system_to_component_index(j).second == index)
                dofs[fe_.face_system_to_component_index(j).first] = face_dofs[j];
            return dofs;
          }
        throw std::logic_error("setup_contact_surfaces: a face dof without its node");
      };
      const auto point = [&](types::global_dof_index x) {
        const auto dofs = y_of(x);
        return Eigen::Vector3d(positions(dofs[0]), positions(dofs[1]), positions(dofs[2]));
      };
      const Point<3> inside = cell->center();
      const Eigen::Vector3d outward =
          Eigen::Vector3d(centre[0] - inside[0], centre[1] - inside[1], centre[2] - inside[2]);
      for (unsigned int j = 0; j < unsigned(p); ++j)
        for (unsigned int i = 0; i < unsigned(p); ++i) {
          std::array<types::global_dof_index, 4> corner = {
              {grid[j * (p + 1) + i], grid[j * (p + 1) + i + 1], grid[(j + 1) * (p + 1) + i],
               grid[(j + 1) * (p + 1) + i + 1]}};
          const Eigen::Vector3d x0 = point(corner[0]), x1 = point(corner[1]), x2 = point(corner[2]),
                                x3 = point(corner[3]);
          const Eigen::Vector3d normal = ((x1 - x0) + (x3 - x2)).cross((x2 - x0) + (x3 - x1));
          if (normal.dot(outward) < 0) {
            std::swap(corner[0], corner[1]);
            std::swap(corner[2], corner[3]);
          }
          mine.push_back(double(cell->material_id()));
          for (const types::global_dof_index x : corner) {
            if (constraints_.is_constrained(x)) {
              const auto* entries = constraints_.get_constraint_entries(x);
              mine.push_back(double(entries->size()));
              for (const auto& [master, weight] : *entries) {
                mine.push_back(double(master));
                mine.push_back(weight);
              }
            } else {
              mine.push_back(1);
              mine.push_back(double(x));
              mine.push_back(1);
            }
          }
        }
    }
  }
  return mine;
}

template <int p>
void SolverImpl<p>::setup_contact_surfaces() {
  ContactSurfaces& t = surfaces_;
  t.radius = deformable_->surface_radius;
  t.options.friction = deformable_->friction;
  if (deformable_->exact_surface_gap)  // the target's gap from its exact surface (a socket's)
    t.options.surface_gap = [target = target_.get()](const Eigen::Vector3d& x) {
      return target->gap(x);
    };
  t.share.rank = int(Utilities::MPI::this_mpi_process(communicator_));
  t.share.ranks = int(Utilities::MPI::n_mpi_processes(communicator_));
  t.share.gather = [communicator = communicator_](const std::vector<double>& rows) {
    return gather_rows(rows, communicator);
  };
  const std::vector<std::vector<double>> all_facets =
      Utilities::MPI::all_gather(communicator_, owned_contact_facets(t.radius));
  // The nodes the facets reach (x dofs), and which of them this rank owns.
  struct RawFacet {
    int body;
    std::array<std::vector<std::pair<types::global_dof_index, double>>, 4> corner;
  };
  std::vector<RawFacet> raw;
  std::vector<types::global_dof_index> reached;
  for (const std::vector<double>& list : all_facets)
    for (std::size_t k = 0; k < list.size();) {
      RawFacet f;
      f.body = int(list[k++]);
      for (int c = 0; c < 4; ++c) {
        const int count = int(list[k++]);
        for (int m = 0; m < count; ++m, k += 2) {
          f.corner[c].emplace_back(types::global_dof_index(list[k]), list[k + 1]);
          reached.push_back(types::global_dof_index(list[k]));
        }
      }
      raw.push_back(std::move(f));
    }
  std::sort(reached.begin(), reached.end());
  reached.erase(std::unique(reached.begin(), reached.end()), reached.end());
  // This rank's reached nodes: x dof, body, X, mass, area.
  std::unordered_map<types::global_dof_index, std::pair<int, const Node*>> by_dof;
  const types::global_dof_index first = *dof_handler_.locally_owned_dofs().begin();
  for (const Node& n : nodes_) by_dof[first + n.dof[0]] = {0, &n};
  for (const Node& n : target_nodes_) by_dof[first + n.dof[0]] = {1, &n};
  std::vector<double> owned_rows;
  for (const types::global_dof_index x : reached) {
    const auto found = by_dof.find(x);
    if (found == by_dof.end()) continue;
    const Node& n = *found->second.second;
    owned_rows.insert(owned_rows.end(), {double(x), double(found->second.first), n.X[0], n.X[1],
                                         n.X[2], n.mass, n.area});
  }
  struct Row {
    types::global_dof_index dof;
    SurfaceNode node;
  };
  std::vector<Row> rows;
  for (const std::vector<double>& list : Utilities::MPI::all_gather(communicator_, owned_rows))
    for (std::size_t k = 0; k < list.size(); k += 7) {
      Row r;
      r.dof = types::global_dof_index(list[k]);
      r.node.body = int(list[k + 1]);
      r.node.X = Eigen::Vector3d(list[k + 2], list[k + 3], list[k + 4]);
      r.node.mass = list[k + 5];
      r.node.area = list[k + 6];
      rows.push_back(r);
    }
  if (rows.size() != reached.size())
    throw std::logic_error("setup_contact_surfaces: a reached node has no owner");
  // The partition-independent order: by body and reference position.
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return std::make_tuple(a.node.body, a.node.X[0], a.node.X[1], a.node.X[2]) <
           std::make_tuple(b.node.body, b.node.X[0], b.node.X[1], b.node.X[2]);
  });
  std::unordered_map<types::global_dof_index, int> table_index;
  for (int i = 0; i < int(rows.size()); ++i) {
    table_index[rows[i].dof] = i;
    t.nodes.push_back(rows[i].node);
  }
  for (const RawFacet& f : raw) {
    Facet facet;
    facet.body = f.body;
    for (int c = 0; c < 4; ++c)
      for (const auto& [dof, weight] : f.corner[c])
        facet.corner[c].emplace_back(table_index.at(dof), weight);
    t.facets.push_back(std::move(facet));
  }
  const auto centroid = [&](const Facet& f) {
    Eigen::Vector3d x = Eigen::Vector3d::Zero();
    for (int c = 0; c < 4; ++c)
      for (const auto& [k, w] : f.corner[c]) x += 0.25 * w * t.nodes[k].X;
    return std::make_tuple(f.body, x[0], x[1], x[2]);
  };
  std::sort(t.facets.begin(), t.facets.end(),
            [&](const Facet& a, const Facet& b) { return centroid(a) < centroid(b); });
  for (int i = 0; i < int(rows.size()); ++i) {
    const auto found = by_dof.find(rows[i].dof);
    if (found != by_dof.end()) t.owned.emplace_back(i, found->second.second->dof);
  }
  // The per-step exchange: each rank's owned rows, 10 doubles each (index, u, v, v_previous).
  const std::vector<int> sizes =
      Utilities::MPI::all_gather(communicator_, int(10 * t.owned.size()));
  t.counts = sizes;
  t.offsets.assign(sizes.size(), 0);
  for (std::size_t r = 1; r < sizes.size(); ++r) t.offsets[r] = t.offsets[r - 1] + sizes[r - 1];
}

// The two-body contact (fem/two_body_contact.h) on the replicated surfaces: every rank gathers the
// tabled nodes' u_n, v_{n+1/2} and v_{n-1/2}, applies the same contact to the same table, and
// writes back the velocities of the nodes it owns. The step's contact is the body's: its impulse,
// its contact nodes and area; the works are both bodies'.
template <int p>
StepContact SolverImpl<p>::two_body_contact(double dt) {
  ContactSurfaces& t = surfaces_;
  std::vector<double>& mine = t.mine;
  mine.clear();
  for (const auto& [index, dof] : t.owned) {
    mine.push_back(double(index));
    for (const VectorType* v : {&displacement_, &velocity_, &previous_velocity_})
      for (unsigned int d = 0; d < 3; ++d) mine.push_back(v->local_element(dof[d]));
  }
  std::vector<double>& all = t.all;
  all.resize(t.offsets.back() + t.counts.back());
  MPI_Allgatherv(mine.data(), int(mine.size()), MPI_DOUBLE, all.data(), t.counts.data(),
                 t.offsets.data(), MPI_DOUBLE, communicator_);
  for (std::size_t k = 0; k < all.size(); k += 10) {
    SurfaceNode& n = t.nodes[std::size_t(all[k])];
    n.u = Eigen::Vector3d(all[k + 1], all[k + 2], all[k + 3]);
    n.v = Eigen::Vector3d(all[k + 4], all[k + 5], all[k + 6]);
    n.v_previous = Eigen::Vector3d(all[k + 7], all[k + 8], all[k + 9]);
  }
  const TwoBodyContactResult r = fem::two_body_contact(t.nodes, t.facets, dt, t.options, t.share);
  // Every owned node of the table is written: its contact force is J / dt, zero without contact.
  for (const auto& [index, dof] : t.owned) {
    const Eigen::Vector3d impulse = r.normal_impulse[index] + r.friction_impulse[index];
    for (unsigned int d = 0; d < 3; ++d) {
      velocity_.local_element(dof[d]) = t.nodes[index].v[d];
      contact_force_.local_element(dof[d]) = impulse[d] / dt;
    }
  }
  state_.contact_sweeps = r.sweeps;
  state_.contact_penetration = r.penetration;
  state_.contact_converged = r.converged;
  if (r.travel >= r.margin) {
    char text[320];
    std::snprintf(text, sizeof text,
                  "a contact node moved %.4g m in the step at t = %.6g s, beyond the %.4g m within "
                  "which the two-body contact looks for its facet: the step is too long for the "
                  "speed",
                  r.travel, state_.time, r.margin);
    state_.problem = text;
  }
  if (r.reach > 0.8 * t.radius) {
    char text[320];
    std::snprintf(text, sizeof text,
                  "the two bodies' contact reached %.4g m from P at t = %.6g s, beyond 0.8 of the "
                  "tabled contact surfaces' radius %.4g m: the contact may miss nodes outside them",
                  r.reach, state_.time, t.radius);
    state_.problem = text;
  }
  StepContact sum;
  sum.impulse = r.impulse[0];
  sum.normal_work = r.normal_work;
  sum.friction_work = r.friction_work;
  // Counted on rank 0 only: the table is replicated, and compute_averages sums over the ranks.
  if (Utilities::MPI::this_mpi_process(communicator_) == 0) {
    sum.nodes = r.contact_nodes[0];
    sum.area = r.contact_area[0];
  } else {
    sum.impulse.setZero();
    sum.normal_work = sum.friction_work = 0;
  }
  return sum;
}

template <int p>
void SolverImpl<p>::compute_averages() {
  reduce_sums(local_sums(), lowest_boundary_gap());
  if (deformable_) reduce_target_sums();
}

template <int p>
NodeSums SolverImpl<p>::local_sums() const {
  NodeSums s = body_sums(nodes_);
  const InternalForce::Energies material = internal_force_->energies();
  s.twice_strain_energy -= material.inelastic_stress_work;
  s.plastic_dissipation = material.plastic_dissipation;
  s.viscous_dissipation = material.viscous_dissipation;
  s.cells_with_state = material.cells_with_state;
  for (unsigned int d = 0; d < 3; ++d) s.impulse[d] = state_.step_impulse[d];
  s.friction_work = state_.step_friction_work;
  s.normal_contact_loss = state_.step_normal_contact_loss;
  s.contact_nodes = state_.contact_nodes;
  s.contact_area = state_.contact_area;
  if (contact_node_ >= 0) {
    const Node& n = nodes_[contact_node_];
    for (unsigned int d = 0; d < 3; ++d) {
      s.contact_point[d] = n.X[d] + displacement_.local_element(n.dof[d]);
      s.contact_point_velocity[d] =
          0.5 * (previous_velocity_.local_element(n.dof[d]) + velocity_.local_element(n.dof[d]));
    }
  }
  return s;
}

template <int p>
NodeSums SolverImpl<p>::body_sums(const std::vector<Node>& nodes) const {
  // One pass over the nodes with the sums in named scalars: the same operations in the same
  // order as the vector form (m x, m v, m x cross v, m x_i x_j, the kinetic and strain terms),
  // so the results are bitwise those of the Eigen loop this replaced, without its
  // store-and-packed-reload through the stack in every node's cross product, where a profile
  // of the p = 2 run spent about a fifth of the time loop (docs/FEM.md, Performance).
  double mass = 0, mx0 = 0, mx1 = 0, mx2 = 0, mv0 = 0, mv1 = 0, mv2 = 0, l0 = 0, l1 = 0, l2 = 0;
  double xx = 0, yy = 0, zz = 0, xy = 0, xz = 0, yz = 0, kinetic_sum = 0, strain = 0;
  for (const Node& n : nodes) {
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
    strain += u0 * force_.local_element(i0);
    strain += u1 * force_.local_element(i1);
    strain += u2 * force_.local_element(i2);
  }
  NodeSums s{};
  s.mass = mass;
  const double first[3] = {mx0, mx1, mx2}, momentum[3] = {mv0, mv1, mv2}, l[3] = {l0, l1, l2};
  const double second[6] = {xx, yy, zz, xy, xz, yz};
  std::copy(first, first + 3, s.first_moment);
  std::copy(momentum, momentum + 3, s.momentum);
  std::copy(l, l + 3, s.angular_momentum);
  std::copy(second, second + 6, s.second_moment);
  s.kinetic_energy = kinetic_sum;
  s.twice_strain_energy = strain;
  return s;
}

// The target body's averages: the same sums over its nodes, reduced over the ranks. Its strain
// energy is 1/2 u.Ku over its own nodes (the FE target is elastic: fem/targets/elastic_sphere.h).
template <int p>
void SolverImpl<p>::reduce_target_sums() {
  const NodeSums local = body_sums(target_nodes_);
  NodeSums r{};
  MPI_Allreduce(reinterpret_cast<const double*>(&local), reinterpret_cast<double*>(&r),
                NodeSums::size, MPI_DOUBLE, MPI_SUM, communicator_);
  const auto vector = [](const double* x) { return Eigen::Vector3d(x[0], x[1], x[2]); };
  BodyState& t = state_.target;
  t.moves = case_.target.moves();
  t.mass = r.mass;
  t.centre = vector(r.first_moment) / t.mass;
  t.momentum = vector(r.momentum);
  t.centre_velocity = t.momentum / t.mass;
  t.angular_momentum = vector(r.angular_momentum);
  const Eigen::Vector3d central = t.angular_momentum - t.mass * t.centre.cross(t.centre_velocity);
  const double* m2 = r.second_moment;  // xx yy zz xy xz yz
  Eigen::Matrix3d second;
  second << m2[0], m2[3], m2[4], m2[3], m2[1], m2[5], m2[4], m2[5], m2[2];
  second -= t.mass * t.centre * t.centre.transpose();
  const Eigen::Matrix3d inertia = second.trace() * Eigen::Matrix3d::Identity() - second;
  t.omega = inertia.ldlt().solve(central);
  t.kinetic_energy = r.kinetic_energy;
  t.internal_energy = 0.5 * r.twice_strain_energy;
  t.rigid_kinetic_energy =
      0.5 * t.mass * t.centre_velocity.squaredNorm() + 0.5 * t.omega.dot(inertia * t.omega);
  state_.finite = state_.finite && std::isfinite(t.kinetic_energy) &&
                  std::isfinite(t.internal_energy) && std::isfinite(t.momentum.sum());
}

template <int p>
double SolverImpl<p>::lowest_boundary_gap() const {
  double lowest = std::numeric_limits<double>::infinity();
  for (const unsigned int a : boundary_)
    lowest = std::min(lowest, target_->gap(position(nodes_[a])));
  return lowest;
}

template <int p>
void SolverImpl<p>::reduce_sums(const NodeSums& local, double lowest) {
  NodeSums r{};
  MPI_Allreduce(reinterpret_cast<const double*>(&local), reinterpret_cast<double*>(&r),
                NodeSums::size, MPI_DOUBLE, MPI_SUM, communicator_);
  lowest = Utilities::MPI::min(lowest, communicator_);
  const auto vector = [](const double* x) { return Eigen::Vector3d(x[0], x[1], x[2]); };

  State& st = state_;
  st.mass = r.mass;
  st.centre = vector(r.first_moment) / st.mass;
  st.momentum = vector(r.momentum);
  st.centre_velocity = st.momentum / st.mass;
  st.angular_momentum = vector(r.angular_momentum);
  st.central_angular_momentum = st.angular_momentum - st.mass * st.centre.cross(st.centre_velocity);
  const double* m2 = r.second_moment;  // xx yy zz xy xz yz
  Eigen::Matrix3d second;              // sum m x x^T about the centre
  second << m2[0], m2[3], m2[4], m2[3], m2[1], m2[5], m2[4], m2[5], m2[2];
  second -= st.mass * st.centre * st.centre.transpose();
  st.central_inertia = second.trace() * Eigen::Matrix3d::Identity() - second;
  st.omega = st.central_inertia.ldlt().solve(st.central_angular_momentum);
  st.kinetic_energy = r.kinetic_energy;
  st.internal_energy = 0.5 * r.twice_strain_energy;
  st.plastic_dissipation = r.plastic_dissipation;
  st.viscous_dissipation = r.viscous_dissipation;
  st.cells_with_plastic_state = (unsigned long long)std::llround(r.cells_with_state);
  st.rigid_kinetic_energy = 0.5 * st.mass * st.centre_velocity.squaredNorm() +
                            0.5 * st.omega.dot(st.central_inertia * st.omega);
  st.vibration_kinetic_energy = st.kinetic_energy - st.rigid_kinetic_energy;
  st.step_impulse = vector(r.impulse);
  st.step_friction_work = r.friction_work;
  st.step_normal_contact_loss = r.normal_contact_loss;
  st.contact_nodes = int(std::lround(r.contact_nodes));
  st.contact_area = r.contact_area;
  st.contact_point = vector(r.contact_point);
  st.contact_node_velocity = vector(r.contact_point_velocity);
  st.contact_point_rigid_velocity =
      st.centre_velocity + st.omega.cross(st.contact_point - st.centre);
  st.lowest_boundary_height = lowest;
  st.finite = std::isfinite(st.kinetic_energy) && std::isfinite(st.internal_energy) &&
              std::isfinite(st.plastic_dissipation) && std::isfinite(st.viscous_dissipation) &&
              std::isfinite(st.momentum.sum()) && std::isfinite(lowest);
}

template <int p>
double SolverImpl<p>::time_internal_force(int applications) {
  VectorType f;
  internal_force_->initialize_dof_vector(f);
  MPI_Barrier(communicator_);
  Timer timer;
  for (int k = 0; k < applications; ++k) internal_force_->apply(f, displacement_);
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
  const VectorType saved = displacement_, saved_force = force_;
  displacement_ = 0;
  for (const Node& n : nodes_) {
    const Eigen::Vector3d u = gradient * Eigen::Vector3d(n.X[0], n.X[1], n.X[2]);
    for (unsigned int d = 0; d < 3; ++d) displacement_.local_element(n.dof[d]) = u[d];
  }
  VectorType f;
  internal_force_->initialize_dof_vector(f);
  internal_force_->apply(f, displacement_);
  PatchTestResult r;
  for (const Node& n : nodes_)
    for (unsigned int d = 0; d < 3; ++d) {
      const double value = std::abs(f.local_element(n.dof[d]));
      r.force_scale = std::max(r.force_scale, value);
      if (n.area == 0) r.max_interior_force = std::max(r.max_interior_force, value);
    }
  // The exact stress of the linear field: the material's at the constant strain.
  Tensor<2, 3> grad;
  for (unsigned int i = 0; i < 3; ++i)
    for (unsigned int j = 0; j < 3; ++j) grad[i][j] = gradient(i, j);
  const Tensor<2, 3> sigma_exact = materials::stress(material_, symmetrize(grad));
  r.stress_scale = sigma_exact.norm();
  r.max_stress_error = internal_force_->max_stress_error(displacement_, sigma_exact);
  r.max_interior_force = Utilities::MPI::max(r.max_interior_force, communicator_);
  r.force_scale = Utilities::MPI::max(r.force_scale, communicator_);
  displacement_ = saved;
  force_ = saved_force;  // (not update_force(): that would advance the material's state)
  return r;
}

template <int p>
std::string SolverImpl<p>::write_frame(const std::string& directory, unsigned int frame) {
  VectorType u = displacement_, v = velocity_, force = contact_force_, traction;
  traction.reinit(contact_force_);
  for_all_nodes([&](const Node& n) {
    if (n.area > 0)
      for (unsigned int d = 0; d < 3; ++d)
        traction.local_element(n.dof[d]) = force.local_element(n.dof[d]) / n.area;
  });
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
  std::vector<double> equivalent_plastic_strain;
  std::vector<SymmetricTensor<2, 3>> cell_state;  // eps_p, or the Maxwell arm's stress
  if (materials::has_state_per_point(material_))
    internal_force_->cell_state(equivalent_plastic_strain, cell_state);
  const bool plastic = std::holds_alternative<materials::ElasticPlastic>(material_);
  std::optional<materials::LinearElastic> target_material;
  if (deformable_)
    target_material = materials::LinearElastic::from_young_poisson(deformable_->young_modulus,
                                                                   deformable_->poisson_ratio);
  const StressPostprocessor stress(material_, cell_state, target_material);
  out.add_data_vector(u, stress);
  Vector<double> equivalent(equivalent_plastic_strain.begin(), equivalent_plastic_strain.end());
  if (plastic)
    out.add_data_vector(equivalent, "equivalent_plastic_strain", DataOut<3>::type_cell_data);
  Vector<float> subdomain(mesh_.triangulation->n_active_cells());
  for (const auto& cell : mesh_.triangulation->active_cell_iterators())
    if (cell->is_locally_owned())
      subdomain(cell->active_cell_index()) = float(cell->subdomain_id());
  out.add_data_vector(subdomain, "subdomain");
  Vector<float> body(mesh_.triangulation->n_active_cells());  // 0: the body, 1: a target body
  for (const auto& cell : mesh_.triangulation->active_cell_iterators())
    if (cell->is_locally_owned()) body(cell->active_cell_index()) = float(cell->material_id());
  if (deformable_) out.add_data_vector(body, "body");
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
  std::unique_ptr<Target> target = make_target(c);
  meshes::MeshOptions mesh_options = target->mesh_options(c, options.extra_levels);
  if (options.contact_zone_radius > 0) mesh_options.contact_radius = options.contact_zone_radius;
  meshes::Mesh mesh = meshes::build_mesh(c, mesh_options, communicator);
  if (c.fem.degree == 1)
    return std::make_unique<SolverImpl<1>>(c, options, communicator, std::move(target),
                                           std::move(mesh));
  return std::make_unique<SolverImpl<2>>(c, options, communicator, std::move(target),
                                         std::move(mesh));
}

}  // namespace rebound::fem
