// 3-D explicit elastodynamics of a body striking its target (deal.II, matrix-free, MPI + p4est).
// See docs/FEM.md and docs/THEORY.md §11.
//
// Frame (cases/derived.h): x = t, y = n (the target's normal at P, into the body), z = b; P, the
// first point of contact, at the origin.
//
// Method in one paragraph: the body's material (fem/materials/) with FESystem(FE_Q(p), 3),
// p = 1, 2, on the meshes module's triangulation, with hanging-node constraints. The geometry is
// the isoparametric interpolant of MappingQ(p) with hanging support points made conforming
// (MappingQCache from a position vector on which the constraints were distributed), so linear
// fields are exactly in the FE space (patch test, exact rigid modes). Internal force f = K u by
// a matrix-free FEEvaluation<3, p, p+1, 3> kernel (fem/internal_force.h, SIMD over cells).
// Diagonal mass: row sum of the consistent mass for p = 1, Gauss-Lobatto collocation for p = 2,
// assembled through the constraints (mass is conserved across hanging nodes). Velocity Verlet with
// the target's contact (fem/targets/: the rigid plane's kinematic node-to-plane contact,
// predictor-corrector, with Coulomb friction on the half-step velocity; a deformable target's
// two-body node-to-facet contact, fem/two_body_contact.h).
#pragma once

#include <mpi.h>

#include <Eigen/Dense>
#include <atomic>
#include <functional>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"
#include "observables/history.h"
#include "observables/quantities.h"

namespace rebound::fem {

struct SolverOptions {
  int extra_levels = 0;            // global levels added to fem.refinement (the --level option)
  bool contact = true;             // false: free flight (no contact with the target)
  double time_step = 0;            // > 0: use this step instead of the estimate
  int power_iterations = 40;       // for lambda_max(M^-1 K)
  double time_step_margin = 1.02;  // lambda_max estimate multiplied by this before dt
  unsigned int simd_lanes = 0;     // cells per SIMD batch of the internal force (0:
                                   // $REBOUND_SIMD_LANES, else the widest; internal_force.h)
  // > 0: refine the mesh over a contact zone of this radius (m) instead of the target's own
  // (Target::mesh_options), so that two targets can be timed on one mesh (bench_fem --targets).
  double contact_zone_radius = 0;
};

struct Info {
  int degree = 0;
  unsigned int simd_lanes = 1;  // cells per SIMD batch of the internal force
  unsigned long long dofs = 0, cells = 0, nodes = 0, constrained_dofs = 0, boundary_nodes = 0;
  int ranks = 1;
  double lambda_max = 0;             // estimate of the largest eigenvalue of M^-1 K, 1/s^2
  double time_step = 0;              // s
  double total_mass_lumped = 0;      // sum of the diagonal mass (one component), kg
  double total_mass_quadrature = 0;  // the same mass integrated cell by cell, kg
  double min_nodal_mass = 0;         // over unconstrained nodes, kg
  double lowest_node = 0;            // min y of the nodes, m
  double block_size = 0;  // a half-space's block (fem/targets/elastic_halfspace.h): L, m; else 0
  double lambda_mesh = 0, theta_mesh = 0;  // THEORY §2 of the FE body (mesh_mass_properties)
  double mesh_seconds = 0, setup_seconds = 0;
  nlohmann::json mesh_statistics;
  // Of the FE body itself: its lumped nodal masses at the nodes (what the rigid-body averaging
  // reads); contact radius and body axis from the geometry.
  cases::MassProperties mesh_mass_properties;
};

// The rigid-body averages of a deformable target body (fem/targets/elastic_sphere.h), in the case's
// frame; all zero for a rigid target.
struct BodyState {
  double mass = 0;
  Eigen::Vector3d centre = Eigen::Vector3d::Zero(), centre_velocity = Eigen::Vector3d::Zero();
  Eigen::Vector3d momentum = Eigen::Vector3d::Zero();
  Eigen::Vector3d angular_momentum = Eigen::Vector3d::Zero();  // about the origin
  Eigen::Vector3d omega = Eigen::Vector3d::Zero();
  double kinetic_energy = 0, internal_energy = 0, rigid_kinetic_energy = 0;
  // A free body whose rigid motion enters the relative quantities (the target sphere); false for a
  // half-space's block, which stands for an immovable target, and for a rigid target.
  bool moves = false;
};

// Rigid-body averaging of the current state (THEORY §11; Lai 1999, §6.2) and the contact of the
// last step.
struct State {
  double time = 0;
  long long step = 0;
  double mass = 0;
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();           // current G, m
  Eigen::Vector3d centre_velocity = Eigen::Vector3d::Zero();  // momentum / mass
  Eigen::Vector3d momentum = Eigen::Vector3d::Zero();
  Eigen::Vector3d angular_momentum = Eigen::Vector3d::Zero();  // about the origin
  Eigen::Vector3d central_angular_momentum = Eigen::Vector3d::Zero();
  Eigen::Matrix3d central_inertia = Eigen::Matrix3d::Zero();
  Eigen::Vector3d omega = Eigen::Vector3d::Zero();
  Eigen::Vector3d contact_point = Eigen::Vector3d::Zero();  // material point P, current
  Eigen::Vector3d contact_point_rigid_velocity = Eigen::Vector3d::Zero();  // v_G + w x r_GP
  Eigen::Vector3d contact_node_velocity = Eigen::Vector3d::Zero();         // P's own velocity
  // internal_energy: the stored elastic energy 1/2 integral of sigma : (eps - eps_p) (plus the
  // Maxwell arm's psi(h) for a viscoelastic body; 1/2 u.Ku
  // for an elastic material)
  double kinetic_energy = 0, internal_energy = 0, rigid_kinetic_energy = 0;
  double vibration_kinetic_energy = 0;
  // The plastic work since the start, J (material.model "elastic-plastic"; 0 for an elastic
  // body): the sum over the steps and quadrature points of sigma_{n+1} : d eps_p
  // (fem/materials/elastic_plastic.h).
  double plastic_dissipation = 0;
  // The viscous dissipation since the start, J (material.model "viscoelastic"; 0 otherwise): the
  // sum over the steps and quadrature points of the Maxwell arm's dissipation
  // (fem/materials/viscoelastic.h).
  double viscous_dissipation = 0;
  // The cells whose plastic or viscous state the internal force reads (those of the SIMD batches
  // where some quadrature point has yielded; 0 for an elastic body).
  unsigned long long cells_with_plastic_state = 0;
  // contact during the last step (zero before the first step)
  Eigen::Vector3d step_impulse = Eigen::Vector3d::Zero();  // sum over nodes, on the body, N s
  double step_friction_work = 0;                           // >= 0, J
  double step_normal_contact_loss = 0;  // kinetic energy removed by the normal correction, J
  int contact_nodes = 0;
  double contact_area = 0;  // sum of the nodal boundary areas of the contact nodes, m^2
  // the smallest gap to the target (Target::gap) over unconstrained boundary nodes (the rigid
  // plane: their lowest height), m
  double lowest_boundary_height = 0;
  bool finite = true;
  // A deformable target body's averages (BodyState), and the two-body contact's Gauss-Seidel
  // sweeps and the penetration it left in the last step (fem/two_body_contact.h).
  BodyState target;
  int contact_sweeps = 0;
  double contact_penetration = 0;
  // Whether those sweeps met their tolerance (false: they stopped at their limit, the step's
  // contact impulses not converged; the run counts such steps and warns).
  bool contact_converged = true;
  // Set when the step cannot be trusted (the run fails with it): the two bodies' contact reached
  // the edge of the tabled contact surfaces.
  std::string problem;
};

struct PatchTestResult {
  double max_interior_force = 0;  // max |(K u)_i| over interior unconstrained dofs, N
  double force_scale = 0;         // max |(K u)_i| over all dofs (boundary traction), N
  double max_stress_error = 0;    // max over quadrature points |sigma - sigma_exact|, Pa
  double stress_scale = 0;        // |sigma_exact|, Pa
};

class Solver {
 public:
  virtual ~Solver() = default;
  // Builds the mesh (meshes::build_mesh), the FE space, the mass and the time step. Collective.
  static std::unique_ptr<Solver> create(const cases::Case& c, const SolverOptions& options,
                                        MPI_Comm communicator);

  virtual const Info& info() const = 0;
  // u = displacement(X) (rigid lift etc.), v = v_G + omega x (X - centre) at the nodes; t = 0.
  virtual void set_state(const Eigen::Vector3d& displacement, const Eigen::Vector3d& velocity,
                         const Eigen::Vector3d& omega, const Eigen::Vector3d& centre) = 0;
  // One time step (velocity Verlet + contact). Collective.
  virtual void step() = 0;
  // Averages of the current state (collective; cheap: computed during step()).
  virtual const State& state() const = 0;
  // u = G X (+ 0), K u, stress at quadrature points. Leaves the state untouched.
  virtual PatchTestResult patch_test(const Eigen::Matrix3d& gradient) = 0;
  // For benchmarks: wall seconds (the slowest rank's) of `applications` evaluations of the
  // internal force K u on the current displacement into a scratch vector. Leaves the state
  // untouched. Collective.
  virtual double time_internal_force(int applications) = 0;
  // For benchmarks: wall seconds (the slowest rank's) of `applications` formations of the state
  // from u, v and the last contact (the rigid-body sums over the nodes, the lowest boundary node
  // and their reduction over the ranks: what every step does). Leaves the state untouched.
  // Collective.
  virtual double time_state_averages(int applications) = 0;
  // Writes directory/solution_NNNN.vtu (+ .pvtu) with displacement, velocity, stress, von Mises,
  // contact force and pressure, subdomain (the stress of a viscoelastic body with the cell's mean
  // Maxwell arm stress), and for an elastic-plastic body the equivalent plastic
  // strain (a cell field: the mean of the cell's quadrature points). Returns the .pvtu name
  // (relative). Collective.
  virtual std::string write_frame(const std::string& directory, unsigned int frame) = 0;
};

// ---- A complete run of a case (used by `rebound fem` and the tests) -----------------------

struct HistoryRow : observables::ContactPointSample {
  double internal_energy, rigid_kinetic_energy, vibration_kinetic_energy;
  // total: kinetic + internal + friction + plastic + viscous
  double frictional_dissipation, total_energy;
  int contact_nodes;
  double contact_area, contact_node_velocity_t, contact_node_velocity_n;
  double center_velocity_t, center_velocity_n, spin, normal_force_smoothed;
  double binormal_impulse, lowest_boundary_height, normal_contact_loss, plastic_dissipation;
  double viscous_dissipation;
};
// history.csv's columns in memory, and the file (decimated to at most max_rows rows).
observables::History history_table(const std::vector<HistoryRow>& rows);
std::string history_csv(const std::vector<HistoryRow>& rows, std::size_t max_rows = 20000);

struct Progress {
  long long step;
  double time, end_time;  // end_time: the override, else the expected end of the default rule
  double wall_seconds, dof_steps_per_second;
  bool in_contact;
};

struct RunOptions {
  SolverOptions solver;
  int frames = 50;                    // VTK frames (0: none)
  std::string output_directory;       // frames go here (empty: no frames)
  std::optional<double> end_time;     // overrides the case's fem.end_time and the default rule
  double settle_fraction = 0.2;       // default end: no contact for this x t_Hertz after contact
  double cap_factor = 3.0;            // default end: at most this x t_Hertz
  double energy_growth_bound = 0.02;  // stop when E > E0 (1 + bound)
  long long max_steps = 0;            // > 0: stop after this many steps (tests)
  const std::atomic<bool>* interrupt = nullptr;   // set by a signal handler (studies::StopOnSignal)
  std::function<void(const Progress&)> progress;  // called on every rank, every step
};

struct RunResult {
  // "completed" (the contact happened and ended), "incomplete" (it had not ended, or not begun,
  // when the run stopped), "interrupted", "failed" (numerically, or quantities not physical)
  std::string status;
  std::string message;                // cause when not completed
  std::vector<std::string> warnings;  // the run's own (summary() adds the case's)
  Info info;
  std::vector<HistoryRow> history;  // every step (row 0: the initial state)
  State initial, final;
  nlohmann::json summary;                              // summary.json content
  std::vector<std::pair<double, std::string>> frames;  // (time, pvtu file)
  double wall_time = 0;
};

// Runs the case from its rigid-body initial state (THEORY §11) to the end-time rule.
// P's rigid-body velocity relative to the target's rigid-body velocity at the same place,
// v_G1 + w1 x (P - G1) - (v_G2 + w2 x (P - G2)) (Stronge 2000): the body's own on a fixed target
// (whose BodyState is empty). The FEM's rebound quantities (e, Psi2, rebound angle) are of it.
Eigen::Vector3d relative_contact_point_velocity(const State& s);

// Collective; every rank returns the same result (the history is replicated).
RunResult run(const cases::Case& c, const RunOptions& options, MPI_Comm communicator);

// The summary of a finished run: the rebound quantities (observables/quantities.h, the same
// definitions as the lumped models') plus the FEM's own keys (status, mesh, energies, run data).
observables::Summary summary(const cases::Case& c, const cases::Derived& d, const RunResult& r);
nlohmann::json summary_json(const cases::Case& c, const cases::Derived& d, const RunResult& r);

}  // namespace rebound::fem
