// The second elastic sphere (fem/targets/elastic_sphere.h).
#include "fem/targets/elastic_sphere.h"

#include <cmath>
#include <stdexcept>

#include "cases/derived.h"

namespace rebound::fem {

ElasticSphere::ElasticSphere(const cases::Case& c)
    : radius_(c.target.radius), centre_(0, -c.target.radius, 0) {
  cases::require_fem_target(c);  // struck by an elastic sphere
  deformable_.friction = c.contact.friction;
  deformable_.young_modulus = c.target.young_modulus;
  deformable_.poisson_ratio = c.target.poisson_ratio;
  deformable_.density = *c.target.density;
  // The tables hold the boundary within 2 a_max of P; the contact stays within about a_max.
  deformable_.surface_radius = 2 * cases::derive(c).hertz.contact_radius;
}

NodeContact ElasticSphere::contact(const Eigen::Vector3d&, Eigen::Vector3d&, const Eigen::Vector3d&,
                                   double, double) const {
  throw std::logic_error(
      "ElasticSphere::contact: a deformable target's contact is two_body_contact");
}

double ElasticSphere::contact_radius(const cases::Case& c, double force) const {
  const cases::HertzScales h = cases::derive(c).hertz;
  return std::cbrt(3 * force * h.radius / (4 * h.contact_modulus));
}

meshes::MeshOptions ElasticSphere::mesh_options(const cases::Case& c, int extra_levels) const {
  meshes::MeshOptions o = meshes::mesh_options(c, extra_levels);
  o.contact_radius = cases::derive(c).hertz.contact_radius;
  o.target_body = meshes::place_target_sphere(c.target.radius);
  return o;
}

}  // namespace rebound::fem
