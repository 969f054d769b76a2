// The elastic half-space as a block (fem/targets/elastic_halfspace.h).
#include "fem/targets/elastic_halfspace.h"

#include <cmath>
#include <stdexcept>

#include "cases/derived.h"

namespace rebound::fem {

double ElasticHalfspace::default_block_size(const cases::Case& c) {
  const double E = c.target.young_modulus, nu = c.target.poisson_ratio;
  const double c_p = std::sqrt(E * (1 - nu) / (*c.target.density * (1 + nu) * (1 - 2 * nu)));
  return 0.6 * c_p * cases::derive(c).hertz.duration;
}

ElasticHalfspace::ElasticHalfspace(const cases::Case& c)
    : DeformableBody(c), block_size_(c.fem.block_size ? *c.fem.block_size : default_block_size(c)) {
  const double a = cases::derive(c).hertz.contact_radius;
  // The contact zone's refinement (cells of a_max / contact_resolution out to a_max, then graded)
  // and the tabled surfaces (2 a_max) must lie well inside the block's top face.
  if (!(block_size_ >= 10 * a))
    throw cases::CaseError(c.source, "fem.block_size",
                           "is " + std::to_string(block_size_) +
                               " m; expected at least 10 Hertz contact radii, " +
                               std::to_string(10 * a) + " m, for the contact zone to fit");
}

meshes::MeshOptions ElasticHalfspace::mesh_options(const cases::Case& c, int extra_levels) const {
  meshes::MeshOptions o = meshes::mesh_options(c, extra_levels);
  o.contact_radius = cases::derive(c).hertz.contact_radius;
  o.target_block = block_size_;
  return o;
}

}  // namespace rebound::fem
