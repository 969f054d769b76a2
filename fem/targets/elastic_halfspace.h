// An elastic half-space (target.type "elastic_halfspace") as the FEM meshes it: a free block of its
// own elastic material (target.material, density included) under the plane y = 0, [-L, L] x [-L, 0]
// x [-L, L] with L = fem.block_size, touching the body at P (meshes::MeshOptions::target_block; its
// cells have material id meshes::body_ids::target). Its faces are traction-free. The block stands
// for the half-space as long as no wave reflected from its faces returns to the contact before the
// bodies separate: the default L = 0.6 c_p t_c, with c_p = sqrt(E (1 - nu) / (rho (1 + nu) (1 - 2
// nu))) the block's P-wave speed and t_c the Hertz contact duration of the pair, puts the first
// reflection (the P wave's, from the nearest face) back at P after 1.2 t_c. What the contact
// radiates into the block then stays there (Hunter 1957: the fraction 1.04 (V/c_0)^(3/5), c_0 =
// sqrt(E/rho), of the impact energy for a sphere on a half-space of the same material; docs/FEM.md
// "An elastic half-space").
//
// The body meets the block through the two-body kinematic contact (fem/two_body_contact.h) on the
// tables of both contact surfaces, as it meets a target sphere (fem/targets/elastic_sphere.h), and
// the mesh is refined toward P over the pair's Hertz contact radius a_max (R* = R, m* = m and the
// pair's 1/E* = (1 - nu1^2)/E1 + (1 - nu2^2)/E2). The block's rigid-body motion stands for none:
// the half-space is immovable, so the rebound quantities are the body's own
// (fem::relative_contact_point_velocity).
#pragma once

#include "cases/derived.h"
#include "fem/targets/deformable_body.h"

namespace rebound::fem {

class ElasticHalfspace final : public DeformableBody {
 public:
  explicit ElasticHalfspace(const cases::Case& c);

  // From the undeformed surface y = 0.
  double gap(const Eigen::Vector3d& x) const override { return x.y(); }
  Eigen::Vector3d normal(const Eigen::Vector3d&) const override { return Eigen::Vector3d::UnitY(); }
  meshes::MeshOptions mesh_options(const cases::Case& c, int extra_levels) const override;

  // The block's half-width and depth L, m (fem.block_size or the default above).
  double block_size() const { return block_size_; }
  // The default: 0.6 c_p t_c, c_p the half-space's P-wave speed, t_c the pair's Hertz duration.
  static double default_block_size(const cases::Case& c);

 private:
  double block_size_;
};

}  // namespace rebound::fem
