// A second elastic sphere, free and at rest before the impact (target.type "sphere"): the body
// strikes it at P, the origin, where the sphere of radius R2 touches it from below, its centre at
// C2 = (0, -R2, 0). Both spheres are meshed in one triangulation (meshes::MeshOptions::
// target_body; the target's cells have material id meshes::body_ids::target), move under the same
// explicit step, and meet through the two-body kinematic contact of fem/two_body_contact.h on the
// tables of their contact surfaces (all boundary faces within surface_radius() of P). The mesh is
// refined over the pair's Hertz contact radius a_max (cases::derive's two-body Hertz: R* = R1 R2 /
// (R1 + R2), 1/E* = (1 - nu1^2)/E1 + (1 - nu2^2)/E2, m* = m1 m2/(m1 + m2); Johnson 1985,
// sec. 11.4). The FE target sphere has its own elastic material (target.material: the internal
// force takes it on the target's cells, fem/internal_force.h); the body must be an elastic sphere
// (cases::require_fem_target).
#pragma once

#include "cases/derived.h"
#include "fem/targets/deformable_body.h"

namespace rebound::fem {

class ElasticSphere final : public DeformableBody {
 public:
  explicit ElasticSphere(const cases::Case& c);

  // From the undeformed target sphere's surface: |x - C2| - R2.
  double gap(const Eigen::Vector3d& x) const override { return (x - centre_).norm() - radius_; }
  Eigen::Vector3d normal(const Eigen::Vector3d& x) const override {
    return (x - centre_).normalized();
  }
  meshes::MeshOptions mesh_options(const cases::Case& c, int extra_levels) const override;

 private:
  double radius_;
  Eigen::Vector3d centre_;
};

}  // namespace rebound::fem
