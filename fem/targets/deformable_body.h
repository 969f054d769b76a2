// What every deformable target body (fem/targets/elastic_sphere.h, elastic_halfspace.h,
// elastic_plate.h, elastic_socket.h) shares: the body meets it through the solver's two-body
// contact (fem/two_body_contact.h), not a node-by-node law; its DeformableTarget (the case's
// friction, the target's own elastic material, the contact surfaces tabled within 2 a_max of P,
// where the contact stays within about a_max); and the static contact radius of the pair's Hertz
// law, a = (3 F R* / (4 E*))^(1/3).
#pragma once

#include "fem/targets/target.h"

namespace rebound::fem {

class DeformableBody : public Target {
 public:
  // Refuses a case the FEM does not take (cases::require_fem_target: an elastic sphere strikes it;
  // a block needs the target's density).
  explicit DeformableBody(const cases::Case& c);

  // Not a node-by-node law: throws std::logic_error (the solver applies two_body_contact).
  NodeContact contact(const Eigen::Vector3d& x, Eigen::Vector3d& velocity,
                      const Eigen::Vector3d& previous_velocity, double mass, double dt) const final;
  double contact_radius(const cases::Case& c, double force) const override;
  std::optional<DeformableTarget> deformable() const final { return deformable_; }

 protected:
  // A target whose face `id` is held fixed (a clamped plate's edges).
  void hold(dealii::types::boundary_id id) { deformable_.held_boundaries.push_back(id); }
  // The contact surfaces tabled within `radius` of P (instead of 2 Hertz radii), their gaps
  // measured from the exact surface (a socket's conformal zone).
  void table_surfaces(double radius, bool exact_surface_gap) {
    deformable_.surface_radius = radius;
    deformable_.exact_surface_gap = exact_surface_gap;
  }

 private:
  DeformableTarget deformable_;
};

}  // namespace rebound::fem
