// An elastic plate (target.type "elastic_plate") of thickness h and half-width L: the square slab
// [-L, L] x [-h, 0] x [-L, L] of its own elastic material (target.material, density included) under
// P, meshed beside the body (meshes::MeshOptions::target_block = L, target_block_depth = h: coarse
// cells about h wide and one h deep, refined toward P by the body's rule and globally by
// fem.refinement, so that fem.refinement 1 puts two cells of degree fem.degree across h). Its faces
// y = 0 and y = -h are traction-free; its four edge faces |x| = L, |z| = L are traction-free
// (target.edge "free") or held fixed ("clamped": DeformableTarget::held_boundaries).
//
// The body meets it through the two-body kinematic contact (fem/two_body_contact.h), as it meets
// the half-space's block: the local contact is Hertz's with the pair's E* (R* = R, m* = m), and the
// plate bends under it. When no flexural wave returns from the edges during the contact the plate
// is Zener's (1941) infinite plate: a point force F on it moves its surface at w' = F / (8 sqrt(D
// rho h)), D = E h^3 / (12 (1 - nu^2)), the energy carried away being lost to the rebound
// (docs/FEM.md "An elastic plate"; the edge condition then does not change e). The plate's
// rigid-body motion (a free plate's, of mass rho (2L)^2 h) is not subtracted: the rebound
// quantities are the body's own, as Zener's are.
#pragma once

#include "cases/derived.h"
#include "fem/targets/deformable_body.h"

namespace rebound::fem {

class ElasticPlate final : public DeformableBody {
 public:
  // Throws cases::CaseError naming target.thickness or target.half_width when the contact zone
  // (3 a_max around P, a_max the pair's Hertz radius) does not fit in the plate.
  explicit ElasticPlate(const cases::Case& c);

  // From the undeformed surface y = 0.
  double gap(const Eigen::Vector3d& x) const override { return x.y(); }
  Eigen::Vector3d normal(const Eigen::Vector3d&) const override { return Eigen::Vector3d::UnitY(); }
  meshes::MeshOptions mesh_options(const cases::Case& c, int extra_levels) const override;
};

}  // namespace rebound::fem
