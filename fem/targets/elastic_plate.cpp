// The elastic plate as a slab (fem/targets/elastic_plate.h).
#include "fem/targets/elastic_plate.h"

#include "cases/derived.h"
#include "cases/format.h"

namespace rebound::fem {

ElasticPlate::ElasticPlate(const cases::Case& c) : DeformableBody(c) {
  const double a = cases::derive(c).hertz.contact_radius;
  // The refined contact zone (cells of a_max / contact_resolution out to a_max, then graded) and
  // the tabled surfaces (2 a_max) must lie inside the plate: across its thickness and its width.
  if (!(c.target.thickness >= 3 * a))
    throw cases::CaseError(c.source, "target.thickness",
                           "is " + cases::format_number(c.target.thickness) +
                               " m; expected at least 3 Hertz contact radii, " +
                               cases::format_number(3 * a) +
                               " m, for the FEM's contact zone to fit across the plate");
  if (!(c.target.half_width >= 10 * a))
    throw cases::CaseError(c.source, "target.half_width",
                           "is " + cases::format_number(c.target.half_width) +
                               " m; expected at least 10 Hertz contact radii, " +
                               cases::format_number(10 * a) + " m, for the contact zone to fit");
  if (c.target.edge == cases::PlateEdge::clamped) hold(meshes::boundary_ids::target_block_edges);
}

meshes::MeshOptions ElasticPlate::mesh_options(const cases::Case& c, int extra_levels) const {
  meshes::MeshOptions o = meshes::mesh_options(c, extra_levels);
  o.contact_radius = cases::derive(c).hertz.contact_radius;
  o.target_block = c.target.half_width;
  o.target_block_depth = c.target.thickness;
  return o;
}

}  // namespace rebound::fem
