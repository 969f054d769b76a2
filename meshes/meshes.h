// Hexahedral meshes of the bodies on exact curved surfaces, refined toward the contact point P,
// on a parallel::distributed::Triangulation<3> (p4est). See docs/MESHES.md.
//
// Frame (cases/derived.h): x = t, y = n (plane normal, into the body), z = b. P is the origin,
// the rigid plane is y = 0, the body occupies y >= 0 and its centre of mass G lies at
// |PG| (-sin theta, cos theta, 0). The touching cap's centre is at (0, R, 0).
//
// Typical use (the FEM):
//   meshes::Mesh mesh = meshes::build_mesh(c, extra_levels, MPI_COMM_WORLD);
//   dealii::MappingQ<3> mapping(2);            // the manifolds make it exact to O(h^3)
//   dof_handler.reinit(*mesh.triangulation); ...
// The returned triangulation must not be refined or repartitioned further: the vertex nearest
// to P is moved onto P after the last refinement (see snap_contact_vertex). Build a new mesh
// with more levels instead.
#pragma once

#include <deal.II/base/point.h>
#include <deal.II/base/tensor.h>
#include <deal.II/distributed/tria.h>
#include <deal.II/fe/mapping.h>
#include <mpi.h>

#include <Eigen/Dense>
#include <array>
#include <iosfwd>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"

namespace rebound::meshes {

using Triangulation = dealii::parallel::distributed::Triangulation<3>;
using Point = dealii::Point<3>;

// Manifold ids set on the coarse mesh (inherited by every refinement).
namespace manifold_ids {
constexpr dealii::types::manifold_id interior = 1;     // TransfiniteInterpolationManifold
constexpr dealii::types::manifold_id contact_cap = 2;  // SphericalManifold about the touching cap
constexpr dealii::types::manifold_id far_cap = 3;      // SphericalManifold about the other cap
constexpr dealii::types::manifold_id cylinder = 4;     // CylindricalManifold (capsule only)
// A target body's (MeshOptions::target_body): SphericalManifolds about its own caps' centres.
constexpr dealii::types::manifold_id target_contact_cap = 11;
constexpr dealii::types::manifold_id target_far_cap = 12;
// A target shell's (MeshOptions::target_shell): a SphericalManifold about its centre, every cell.
constexpr dealii::types::manifold_id target_shell = 13;
}  // namespace manifold_ids
// Boundary ids of the body's surface. Cells whose faces are all flat and interior (the inner
// cubes and the cylinder's core column) carry numbers::flat_manifold_id.
namespace boundary_ids {
constexpr dealii::types::boundary_id contact_cap = 1;  // hemisphere (sphere: half) containing P
constexpr dealii::types::boundary_id far_cap = 2;
constexpr dealii::types::boundary_id cylinder = 3;
constexpr dealii::types::boundary_id target_contact_cap = 11;  // a target body's half with P
constexpr dealii::types::boundary_id target_far_cap = 12;
constexpr dealii::types::boundary_id target_block_surface = 13;  // a target block's face y = 0
constexpr dealii::types::boundary_id target_block_bottom = 14;   // ... its face y = -depth
constexpr dealii::types::boundary_id target_block_edges = 15;    // ... its faces |x|, |z| = L
constexpr dealii::types::boundary_id target_shell_inner = 16;  // a target shell's r = R1 (P on it)
constexpr dealii::types::boundary_id target_shell_outer = 17;  // ... its r = R_o
}  // namespace boundary_ids
// Material ids: which body a cell belongs to (inherited by every refinement). A mesh without a
// target body has the body's cells only.
namespace body_ids {
constexpr dealii::types::material_id body = 0;
constexpr dealii::types::material_id target = 1;  // MeshOptions::target_body or target_block
}  // namespace body_ids

// Where the body sits. Only sphere and capsule are supported (a sphere is a capsule with L = 0).
struct Placement {
  cases::Shape shape = cases::Shape::sphere;
  double radius = 0;             // R, m
  double length = 0;             // L between cap centres (0 for a sphere), m
  double axis_angle = 0;         // phi: angle between the axis and n (Lai 1999, eq. 5.78), rad
  Point contact_point;           // P = origin
  Point contact_cap_centre;      // (0, R, 0)
  Point far_cap_centre;          // contact_cap_centre + L axis
  dealii::Tensor<1, 3> axis;     // unit: touching cap -> other cap (sphere: +y)
  dealii::Tensor<1, 3> lateral;  // unit, perpendicular to axis, in the (t, n) plane
  // Signed distance of p to the exact surface (negative inside), m.
  double surface_distance(const Point& p) const;
};

// Placement of the case's body; throws std::invalid_argument for shapes without a generator
// or when P does not lie on a cap (capsule axis angle >= ~pi/2).
Placement place_body(const cases::Case& c);

// A thick spherical shell R1 <= |x - centre| <= R_o around the body (an elastic socket's wall),
// its inner surface touching the body at P from outside (centre = (0, R1, 0)).
struct Shell {
  Point centre;
  double inner_radius = 0, outer_radius = 0;  // R1 < R_o, m
};

// Filled from the case by mesh_options(); the defaults are the case's (cases::FemOptions), the
// one place where each key has its default.
struct MeshOptions {
  int global_levels = cases::FemOptions{}.refinement;  // uniform refinements of the coarse mesh
                                                       // before the contact refinement
  int extra_levels = 0;       // uniform refinements of the finished mesh (--level K)
  double contact_radius = 0;  // a_max (Hertz; THEORY §3), m
  // The largest contact_radius build_mesh takes, m (0: cases::mesh_contact_radius_limit of the
  // body, the plane's Hertz zone; a target may allow more, as the socket's conformal zone does).
  double contact_radius_limit = 0;
  // cells within a_max of P: diameter <= a_max / resolution (fem.contact_resolution)
  double contact_resolution = cases::FemOptions{}.contact_resolution;
  double grading = 1.0;  // further out: diameter <= h_c + grading * (distance - a_max)
  bool snap_contact_vertex = true;
  double cfl = cases::FemOptions{}.cfl;  // factor of the stable time step estimate (fem.cfl)
  // A second, deformable body that the body strikes (a sphere touching it at P from y < 0), meshed
  // in the same triangulation with cells of material id body_ids::target and refined toward P by
  // the same rule; empty: the body alone. The statistics are the body's.
  std::optional<Placement> target_body;
  // A deformable block under P instead (an elastic half-space's stand-in): the box
  // [-L, L] x [-L, 0] x [-L, L] of half-width and depth L = target_block (m), its face y = 0
  // touching the body at P, meshed with cells of material id body_ids::target and refined toward P
  // by the same rule; 0: none.
  double target_block = 0;
  // The block's depth instead of L (a plate's thickness h: its coarse cells are then about h wide,
  // 2n x 1 x 2n of them with n = round(L / h)); 0: L.
  double target_block_depth = 0;
  // A deformable shell around the body instead (an elastic socket): 24 coarse cells per radial
  // layer (a cube's six faces, each 2 x 2, projected onto the spheres; P a vertex of the inner
  // surface), the layers about as thick as the cells are wide, material id body_ids::target,
  // refined toward P by the same rule; empty: none.
  std::optional<Shell> target_shell;
};
MeshOptions mesh_options(const cases::Case& c, int extra_levels);

// Low-level steps of build_mesh (exposed for tests and for other meshing strategies).
// Creates the coarse mesh (12 cells for a sphere, 12 + 5 n_layers for a capsule) with manifold
// and boundary ids and attaches the manifolds. `triangulation` must be empty.
void make_coarse_mesh(const Placement& placement, Triangulation& triangulation);
// The same with the coarse cells of options' target body, block or shell beside the body's (a
// block: 2n x 1 x 2n flat cells of width L/n and depth D with P a vertex of its face y = 0,
// n = max(1, round(L/D)), D = target_block_depth or L); the two bodies share no vertex, P
// included.
void make_coarse_mesh(const Placement& placement, const MeshOptions& options,
                      Triangulation& triangulation);
// A sphere of radius R touching the body's P from below: its centre at (0, -R, 0), its touching
// cap's pole at P.
Placement place_target_sphere(double radius);
// Distance from P to the ball enclosing the cell's vertices (0 if it contains P), m.
double distance_to_contact(const Placement& placement, const Triangulation::cell_iterator& cell);
// Target cell diameter at that distance.
double target_diameter(const MeshOptions& options, double distance);
// Local refinement until every cell meets target_diameter (2:1 balanced by p4est). Returns the
// number of refinement cycles.
int refine_toward_contact(const Placement& placement, const MeshOptions& options,
                          Triangulation& triangulation);
// Largest diameter of the cells whose enclosing ball contains P. Collective.
double contact_cell_diameter(const Placement& placement, const Triangulation& triangulation);
// Moves the boundary vertex nearest to P exactly onto P by a smooth rotation about the touching
// cap's centre (weight (1 - (r/support)^2)^2 of the distance r to that vertex), which keeps
// every vertex of the cap's surface on the sphere; build_mesh uses a support of 3
// contact_cell_diameter (the vertex moves by less than half a cell). Cells (all levels) within the
// support then get flat interior manifold ids (their boundary faces keep the exact cap), since the
// moved vertices may leave the charts of the transfinite manifold. Returns the distance the vertex
// moved (0, and nothing changed, when P is already a vertex: every sphere, a capsule at
// theta = 0).
double snap_contact_vertex(const Placement& placement, double support_radius,
                           Triangulation& triangulation);

struct MeshStatistics {
  // mesh
  unsigned long long cells = 0, vertices = 0, coarse_cells = 0;
  unsigned long long dofs_q1 = 0, dofs_q2 = 0;  // FESystem(FE_Q(p), 3), hanging nodes included
  int global_levels = 0, extra_levels = 0, max_level = 0, ranks = 1;
  unsigned int mapping_degree = 2;
  // mass distribution from the mesh (MappingQ(mapping_degree), Gauss quadrature)
  double volume = 0, volume_exact = 0, mass = 0, mass_exact = 0;
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero(), centroid_exact = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia_central = Eigen::Matrix3d::Zero();
  Eigen::Matrix3d inertia_exact = Eigen::Matrix3d::Zero();
  double lambda = 0, theta = 0, lambda_exact = 0, theta_exact = 0;  // THEORY §2
  double contact_offset = 0, contact_offset_exact = 0;              // |PG|
  double radius_of_gyration = 0, radius_of_gyration_exact = 0;      // about b
  // sizes (vertex-based cell diameters)
  double h_min = 0, h_max = 0, h_contact = 0, edge_min = 0;
  double a_max = 0, contact_resolution = 0, h_contact_target = 0;
  double contact_vertex_shift = 0;  // distance the snapped vertex moved
  double lowest_vertex = 0;         // min y over all vertices (0: P)
  // quality: min over cells of min det J / max det J (vertices and Gauss points)
  double min_jacobian_ratio = 0, min_jacobian = 0;
  double min_jacobian_ratio_contact = 0;  // the same over cells within 3 a_max of P
  // explicit dynamics: dt_p = cfl * edge_min / (sqrt(3) p^2 c_p), p = 1, 2
  double wave_speed = 0, contact_duration = 0, cfl = 0;
  std::array<double, 2> stable_time_step_estimate{{0, 0}};
  std::array<double, 2> steps_for_contact{{0, 0}};
  // The mesh's grading in stable steps: time_step_levels[k] counts the cells whose shortest edge
  // lies in [2^k, 2^(k+1)) edge_min, i.e. whose own stable step is 2^k times the global one
  // (within a factor 2). The global step is set by level 0 (the contact zone's cells).
  std::vector<unsigned long long> time_step_levels;
  double seconds = 0;  // wall time of build_mesh (statistics included)
};

// Statistics of a built mesh; collective over the triangulation's communicator. With
// cell_quality, also returns the per-cell Jacobian ratios (see jacobian_ratios).
MeshStatistics compute_statistics(const cases::Case& c, const Placement& placement,
                                  const MeshOptions& options, const Triangulation& triangulation,
                                  unsigned int mapping_degree = 2,
                                  std::vector<double>* cell_quality = nullptr);

// Per active cell (indexed by active_cell_index; 0 on cells not locally owned): min det J /
// max det J over the cell's vertices and Gauss points.
std::vector<double> jacobian_ratios(const dealii::Mapping<3>& mapping,
                                    const Triangulation& triangulation,
                                    double* min_jacobian = nullptr);

struct Mesh {
  std::unique_ptr<Triangulation> triangulation;
  Placement placement;
  MeshOptions options;
  MeshStatistics statistics;
  std::vector<double> cell_quality;  // per active cell index (locally owned), for write_vtu
};

// An empty triangulation with the settings build_mesh uses (vertex 2:1 balance).
std::unique_ptr<Triangulation> make_triangulation(MPI_Comm communicator);

// Coarse mesh, options.global_levels uniform refinements, contact refinement, then
// options.extra_levels uniform refinements of the whole mesh (so that every cell, the contact
// zone included, halves per extra level: the refinement study), the contact-vertex snap and the
// statistics. Collective over `communicator`.
Mesh build_mesh(const cases::Case& c, const MeshOptions& options, MPI_Comm communicator);
// The same with the case's options: mesh_options(c, extra_levels).
Mesh build_mesh(const cases::Case& c, int extra_levels, MPI_Comm communicator);

// Writes directory/mesh.vtu (one rank) or directory/mesh.pvtu + mesh.<rank>.vtu (several), with
// cell data level, diameter, quality and subdomain, and removes the other variant's stale files.
// Collective; returns the name of the file to open.
std::string write_vtu(const Mesh& mesh, const std::string& directory);

nlohmann::json to_json(const MeshStatistics& s);

// The mesh's own mass properties in the form of cases/derived.h, for
// cases::derive(c, mass_properties(...)) (lambda, theta and m of the discrete body).
cases::MassProperties mass_properties(const MeshStatistics& s, const Placement& placement);

// ---- Abaqus/CalculiX input deck of the body (meshes/abaqus_inp.cpp, docs/FEM.md) ----
//
// The mesh as model data for CalculiX (ccx) or Abaqus: *NODE, *ELEMENT (C3D8 for degree 1: the 8
// vertices; C3D20 for degree 2: the vertices and the edge midpoints placed by MappingQ(2), as the
// FEM places them), *EQUATION constraints tying every hanging node to the nodes of the coarse face
// or edge it lies on (bilinear for C3D8, the 8-node serendipity face for C3D20), the sets below,
// *MATERIAL/*SOLID SECTION from the case and *INITIAL CONDITIONS, TYPE=VELOCITY with the case's
// rigid-body velocity (v_G + omega x (x - G), as `rebound fem` starts). No *STEP: the plane, the
// contact and the analysis are the user's (bench/calculix_hertz.py is a complete example).
// Hanging nodes are placed at the constraint's interpolation of their masters, so the geometry is
// the isoparametric, conforming interpolant of itself as in the FEM (for C3D8 it is exactly the
// p = 1 FEM's geometry; C3D20 has no face or cell centre node, so it differs from the p = 2 FEM's
// Q2 geometry by the serendipity interpolation of those points).
//
// Names: NSET NALL (all nodes), NHANG (hanging nodes), NP (the node at P), NCONTACT (nodes of the
// contact surface); ELSET EALL; SURFACE SCONTACT (TYPE=ELEMENT): the boundary faces of the touching
// cap whose centre lies within contact_surface_radius of P; MATERIAL BODY.
struct InpOptions {
  unsigned int degree = 1;            // 1: C3D8, 2: C3D20
  double contact_surface_radius = 0;  // m; 0: 2 a_max (the Hertz contact radius)
};

struct InpSummary {
  unsigned int degree = 1;
  std::string element_type;  // "C3D8" or "C3D20"
  unsigned long long nodes = 0, elements = 0;
  unsigned long long hanging_nodes = 0, equations = 0;  // equations = 3 hanging_nodes
  unsigned long long contact_faces = 0, contact_nodes = 0;
  unsigned long long contact_hanging_nodes = 0;  // hanging nodes among NCONTACT
  double contact_surface_radius = 0;             // m
  double volume = 0;        // sum of the element volumes from the written nodes (Gauss 3^3), m^3
  double min_jacobian = 0;  // smallest det J over the elements' Gauss points (> 0 or it throws)
};

// Writes the deck to `out`. The triangulation must live on one MPI rank (build the mesh on
// MPI_COMM_SELF). Throws std::invalid_argument for a bad degree or a parallel mesh, and
// std::runtime_error if an element would have a non-positive Jacobian or the hanging-node
// constraints found from two coarse faces disagree.
InpSummary write_inp(const cases::Case& c, const Mesh& mesh, const InpOptions& options,
                     std::ostream& out);
// The same into `file` (written to a temporary and renamed).
InpSummary write_inp(const cases::Case& c, const Mesh& mesh, const InpOptions& options,
                     const std::string& file);

// The mesh statistics as `rebound mesh` prints them (meshes/tables.cpp): cells, vertices, dofs,
// mass distribution and sizes against the exact body, quality, the explicit step; `file` the
// .vtu written. The CalculiX deck's summary likewise, its volume against `volume_exact`.
std::string mesh_table(const cases::Case& c, const MeshStatistics& statistics,
                       const std::string& file);
std::string inp_table(const InpSummary& summary, double volume_exact, const std::string& file);

}  // namespace rebound::meshes
