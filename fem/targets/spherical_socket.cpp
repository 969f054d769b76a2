// The rigid spherical socket's contact zone (fem/targets/spherical_socket.h).
#include "fem/targets/spherical_socket.h"

#include "cases/derived.h"
#include "cases/socket.h"

namespace rebound::fem {

double SphericalSocket::contact_radius(const cases::Case& c, double force) const {
  return cases::socket_overlap_radius(c, force);
}

meshes::MeshOptions SphericalSocket::mesh_options(const cases::Case& c, int extra_levels) const {
  return socket_mesh_options(c, extra_levels);
}

meshes::MeshOptions socket_mesh_options(const cases::Case& c, int extra_levels) {
  meshes::MeshOptions o = meshes::mesh_options(c, extra_levels);
  o.contact_radius = cases::socket_overlap_radius(c, cases::derive(c).hertz.peak_force);
  o.contact_radius_limit = cases::socket_fem_contact_radius_limit(c);
  return o;
}

}  // namespace rebound::fem
