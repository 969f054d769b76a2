// The FEM's targets by the case's target.type.
#include "fem/targets/target.h"

#include <stdexcept>

#include "fem/targets/elastic_halfspace.h"
#include "fem/targets/elastic_plate.h"
#include "fem/targets/elastic_socket.h"
#include "fem/targets/elastic_sphere.h"
#include "fem/targets/rigid_plane.h"
#include "fem/targets/spherical_socket.h"

namespace rebound::fem {

std::unique_ptr<Target> make_target(const cases::Case& c) {
  switch (c.target.type) {
    case cases::TargetType::rigid_plane:
      return std::make_unique<RigidPlane>(c.contact.friction);
    case cases::TargetType::spherical_socket:
      if (!c.target.rigid()) return std::make_unique<ElasticSocket>(c);
      cases::require_fem_target(c);  // its contact zone fits on the mesh's touching cap
      return std::make_unique<SphericalSocket>(c.target.radius, c.contact.friction);
    case cases::TargetType::sphere:
      return std::make_unique<ElasticSphere>(c);
    case cases::TargetType::elastic_halfspace:
      return std::make_unique<ElasticHalfspace>(c);
    case cases::TargetType::elastic_plate:
      return std::make_unique<ElasticPlate>(c);
  }
  throw std::logic_error("make_target: a target type without its class");
}

meshes::MeshOptions mesh_options(const cases::Case& c, int extra_levels) {
  return make_target(c)->mesh_options(c, extra_levels);
}

}  // namespace rebound::fem
