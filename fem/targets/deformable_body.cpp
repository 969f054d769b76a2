// What deformable target bodies share (fem/targets/deformable_body.h).
#include "fem/targets/deformable_body.h"

#include <cmath>
#include <stdexcept>

#include "cases/derived.h"

namespace rebound::fem {

DeformableBody::DeformableBody(const cases::Case& c) {
  cases::require_fem_target(c);
  deformable_.friction = c.contact.friction;
  deformable_.young_modulus = c.target.young_modulus;
  deformable_.poisson_ratio = c.target.poisson_ratio;
  deformable_.density = *c.target.density;
  deformable_.surface_radius = 2 * cases::derive(c).hertz.contact_radius;
}

NodeContact DeformableBody::contact(const Eigen::Vector3d&, Eigen::Vector3d&,
                                    const Eigen::Vector3d&, double, double) const {
  throw std::logic_error("a deformable target's contact is two_body_contact");
}

double DeformableBody::contact_radius(const cases::Case& c, double force) const {
  const cases::HertzScales h = cases::derive(c).hertz;
  return std::cbrt(3 * force * h.radius / (4 * h.contact_modulus));
}

}  // namespace rebound::fem
