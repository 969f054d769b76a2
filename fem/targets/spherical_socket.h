// The rigid spherical socket of radius R1 around the ball of radius R2 < R1 (Wang & Gao 2023's
// spherical joint with clearance dR = R1 - R2; docs/THEORY.md, the ball in a socket): the ball
// touches the socket's concave surface at P, the origin, where both normals are +y, so the socket's
// centre is C = (0, R1, 0) and the ball's (0, R2, 0). A point x of the ball is at the gap
// R1 - |x - C| from the surface (positive inside the socket), the surface's normal there points
// back to C, (C - x)/|C - x|, and the contact law is the kinematic Coulomb contact in the tangent
// plane at the node (fem/contact.h, rigid_surface_contact). The mesh is refined over the
// conformal contact zone: the radius R1 sin(theta) of the overlap of the two undeformed spheres
// at Hertz's approach with R_eff = R1 R2 / dR (cases::socket_overlap_radius), which is sqrt(2)
// Hertz's contact radius at light load and grows past it as the contact turns conformal. The
// rigid-body quantities are those of the case's frame, whose n is the initial contact normal
// (the line of centres).
#pragma once

#include "fem/targets/target.h"

namespace rebound::fem {

class SphericalSocket final : public Target {
 public:
  SphericalSocket(double radius, double friction)
      : radius_(radius), centre_(0, radius, 0), friction_(friction) {}

  double gap(const Eigen::Vector3d& x) const override { return radius_ - (x - centre_).norm(); }
  Eigen::Vector3d normal(const Eigen::Vector3d& x) const override {
    return (centre_ - x).normalized();
  }
  NodeContact contact(const Eigen::Vector3d& x, Eigen::Vector3d& velocity,
                      const Eigen::Vector3d& previous_velocity, double mass,
                      double dt) const override {
    const Eigen::Vector3d to_centre = centre_ - x;
    // Most boundary nodes are far inside the socket: with d = |x - C| <= R1 the gap R1 - d is
    // at least (R1^2 - d^2)/(2 R1), and one step moves the node by at most dt |v|, so if
    // (R1^2 - d^2) > 2 R1 dt |v| the contact law would find g + dt v.n >= 0 and do nothing. The
    // test is free of square roots and returns exactly what the law would.
    const double inside = radius_ * radius_ - to_centre.squaredNorm();
    if (inside > 0 && inside * inside > 4 * radius_ * radius_ * dt * dt * velocity.squaredNorm())
      return NodeContact{};
    const double distance = to_centre.norm();
    return rigid_surface_contact(radius_ - distance, to_centre / distance, velocity,
                                 previous_velocity, mass, dt, friction_);
  }
  // cases::socket_overlap_radius at F.
  double contact_radius(const cases::Case& c, double force) const override;
  // meshes::mesh_options with the contact zone of contact_radius at Hertz's peak force (R_eff).
  meshes::MeshOptions mesh_options(const cases::Case& c, int extra_levels) const override;

 private:
  double radius_;           // R1, m
  Eigen::Vector3d centre_;  // C, m
  double friction_;         // Coulomb coefficient mu
};

// The ball's mesh in a socket, rigid or elastic: meshes::mesh_options with the conformal contact
// zone of cases::socket_overlap_radius at Hertz's peak force (the pair's E*) and the socket's
// larger limit on it (cases::socket_fem_contact_radius_limit).
meshes::MeshOptions socket_mesh_options(const cases::Case& c, int extra_levels);

}  // namespace rebound::fem
