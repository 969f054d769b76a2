// The rigid plane y = 0 (the n = 0 plane of the case's frame), the body above it: the gap of a
// point is its height y, the normal is +y, the contact law is the kinematic Coulomb contact of
// fem/contact.h with the case's friction coefficient, and the mesh is refined over Hertz's contact
// radius a_max (meshes::mesh_options).
#pragma once

#include <cmath>

#include "cases/derived.h"
#include "fem/targets/target.h"

namespace rebound::fem {

class RigidPlane final : public Target {
 public:
  explicit RigidPlane(double friction) : friction_(friction) {}

  double gap(const Eigen::Vector3d& x) const override { return x.y(); }
  Eigen::Vector3d normal(const Eigen::Vector3d&) const override { return Eigen::Vector3d::UnitY(); }
  NodeContact contact(const Eigen::Vector3d& x, Eigen::Vector3d& velocity,
                      const Eigen::Vector3d& previous_velocity, double mass,
                      double dt) const override {
    return rigid_plane_contact(x.y(), velocity, previous_velocity, mass, dt, friction_);
  }
  // Hertz's a = (3 F R / (4 E*))^(1/3).
  double contact_radius(const cases::Case& c, double force) const override {
    const cases::HertzScales h = cases::derive(c).hertz;
    return std::cbrt(3 * force * h.radius / (4 * h.contact_modulus));
  }
  meshes::MeshOptions mesh_options(const cases::Case& c, int extra_levels) const override {
    return meshes::mesh_options(c, extra_levels);
  }

 private:
  double friction_;  // Coulomb coefficient mu
};

}  // namespace rebound::fem
