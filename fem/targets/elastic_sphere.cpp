// The second elastic sphere (fem/targets/elastic_sphere.h).
#include "fem/targets/elastic_sphere.h"

#include "cases/derived.h"

namespace rebound::fem {

ElasticSphere::ElasticSphere(const cases::Case& c)
    : DeformableBody(c), radius_(c.target.radius), centre_(0, -c.target.radius, 0) {}

meshes::MeshOptions ElasticSphere::mesh_options(const cases::Case& c, int extra_levels) const {
  meshes::MeshOptions o = meshes::mesh_options(c, extra_levels);
  o.contact_radius = cases::derive(c).hertz.contact_radius;
  o.target_body = meshes::place_target_sphere(c.target.radius);
  return o;
}

}  // namespace rebound::fem
