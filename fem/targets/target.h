// The target seam of the FEM: what the body strikes. A target owns
//   - its geometry: the gap between a point of the body and the target's surface, and the
//     surface's normal there (pointing into the body);
//   - its contact law on one boundary node of the body over one explicit step (fem/contact.h's
//     kinematic Coulomb contact for the rigid plane);
//   - what the mesh must refine for it: the contact zone's size (meshes::MeshOptions), and the
//     contact zone's size under a static load.
// The solver's time loop (fem/solver.cpp) only calls contact() on every boundary node and gap()
// for the lowest boundary node's gap, so a new rigid target (a rigid spherical socket) does not
// touch it. A deformable target body (deformable()) is meshed with the body and its contact is the
// solver's two-body contact stage (fem/two_body_contact.h), the same for every such target.
//
// Frame (cases/derived.h): x = t, y = n, z = b; the contact point P at the origin, where the body
// first touches the target; the body's initial velocity and spin are given in this frame.
//
// To add a target: a cases::TargetType with its keys (cases/), a class here implementing Target,
// and its case in make_target (fem/targets/target.cpp); docs/ARCHITECTURE.md.
#pragma once

#include <Eigen/Dense>
#include <memory>
#include <optional>
#include <vector>

#include "cases/case.h"
#include "fem/contact.h"
#include "meshes/meshes.h"

namespace rebound::fem {

// What the solver needs of a deformable target body (fem/targets/elastic_sphere.h,
// elastic_halfspace.h, elastic_plate.h, elastic_socket.h): the two-body contact's friction, how far
// from P the contact surfaces are tabled, and the body's elastic material.
struct DeformableTarget {
  double friction = 0;        // Coulomb coefficient mu between the bodies
  double surface_radius = 0;  // boundary faces of both bodies within this distance of P, m
  // Its own elastic material (the body's may differ): E (Pa), nu, rho (kg/m^3).
  double young_modulus = 0, poisson_ratio = 0, density = 0;
  // Its faces held fixed (meshes::boundary_ids; a clamped plate's edges, a socket's outer
  // surface); empty: it is free.
  std::vector<dealii::types::boundary_id> held_boundaries;
  // The contact measures gaps from the target's exact surface (gap()), not its facets' chords
  // (TwoBodyContactOptions::surface_gap): a concave surface's.
  bool exact_surface_gap = false;
};

class Target {
 public:
  virtual ~Target() = default;
  // Signed distance of the body's point x (current position, m) from the target's surface:
  // positive outside the target, negative when x has penetrated it.
  virtual double gap(const Eigen::Vector3d& x) const = 0;
  // The surface's unit normal nearest to x, pointing out of the target (into the body).
  virtual Eigen::Vector3d normal(const Eigen::Vector3d& x) const = 0;
  // The contact law on one node of the body over a step dt: the node at x (t_n) of lumped mass m,
  // with velocity v_{n-1/2} (previous_velocity) and v_{n+1/2} after the free step (velocity,
  // corrected in place). Returns the node's impulse and the works (fem/contact.h).
  virtual NodeContact contact(const Eigen::Vector3d& x, Eigen::Vector3d& velocity,
                              const Eigen::Vector3d& previous_velocity, double mass,
                              double dt) const = 0;
  // The radius of the contact zone under the normal force F (N) of a static contact, an estimate
  // to size what must hold it: the quasi-static law's candidate nodes (fem/quasi_static.h).
  virtual double contact_radius(const cases::Case& c, double force) const = 0;
  // The mesh the body needs against this target (its contact zone refined), for
  // meshes::build_mesh; extra_levels: uniform refinements of the finished mesh (--level).
  virtual meshes::MeshOptions mesh_options(const cases::Case& c, int extra_levels) const = 0;
  // A deformable target body, meshed beside the body (mesh_options().target_body) and met through
  // fem/two_body_contact.h instead of contact(); empty for a rigid target.
  virtual std::optional<DeformableTarget> deformable() const { return std::nullopt; }
};

// The case's target (cases::Case::target); throws cases::CaseError naming target.type for a target
// the FEM does not model.
std::unique_ptr<Target> make_target(const cases::Case& c);

// The mesh options of the case's target: make_target(c)->mesh_options(c, extra_levels).
meshes::MeshOptions mesh_options(const cases::Case& c, int extra_levels);

}  // namespace rebound::fem
