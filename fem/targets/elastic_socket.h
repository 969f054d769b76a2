// An elastic spherical socket (target.type "spherical_socket" with target.material; Wang & Gao
// 2023's steel socket): the thick spherical shell R1 <= |x - C| <= R_o of its own elastic material
// around the ball of radius R2 < R1, C = (0, R1, 0), so that the ball touches its inner surface at
// P, the origin, as in the rigid socket (fem/targets/spherical_socket.h). Its outer surface
// r = R_o is held fixed (a socket in a rigid housing): the shell is meshed beside the ball
// (meshes::MeshOptions::target_shell) and its outer surface's nodes are held
// (DeformableTarget::held_boundaries).
//
// The ball meets it through the two-body kinematic contact (fem/two_body_contact.h) over the
// conformal contact zone the rigid socket's mesh refines (cases::socket_overlap_radius at Hertz's
// peak force with the pair's E* and R_eff = R1 R2 / dR), with the contact surfaces tabled within
// twice it. The gap is measured from the socket's exact inner sphere, R1 - |x - C| at the facet
// point's reference position (DeformableTarget::exact_surface_gap): the facets of the concave
// surface are chords standing into the cavity by more than the conformal gap. At light load the
// impact is two-body Hertz with R_eff and the pair's E* (Johnson 1985, sec. 4.2); in a tight
// socket it is the conformal contact of Wang & Gao's laws (cases/socket.h) with the pair's E*.
#pragma once

#include "fem/targets/deformable_body.h"

namespace rebound::fem {

class ElasticSocket final : public DeformableBody {
 public:
  explicit ElasticSocket(const cases::Case& c);

  // From the undeformed inner surface: R1 - |x - C| (positive inside the socket).
  double gap(const Eigen::Vector3d& x) const override { return radius_ - (x - centre_).norm(); }
  Eigen::Vector3d normal(const Eigen::Vector3d& x) const override {
    return (centre_ - x).normalized();
  }
  // cases::socket_overlap_radius at F (the pair's E*).
  double contact_radius(const cases::Case& c, double force) const override;
  meshes::MeshOptions mesh_options(const cases::Case& c, int extra_levels) const override;

 private:
  double radius_;           // R1, m
  Eigen::Vector3d centre_;  // C, m
};

}  // namespace rebound::fem
