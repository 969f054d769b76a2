// The elastic spherical socket as a held shell (fem/targets/elastic_socket.h).
#include "fem/targets/elastic_socket.h"

#include "cases/derived.h"
#include "cases/socket.h"
#include "fem/targets/spherical_socket.h"

namespace rebound::fem {

ElasticSocket::ElasticSocket(const cases::Case& c)
    : DeformableBody(c), radius_(c.target.radius), centre_(0, c.target.radius, 0) {
  table_surfaces(2 * contact_radius(c, cases::derive(c).hertz.peak_force), true);
  hold(meshes::boundary_ids::target_shell_outer);
}

double ElasticSocket::contact_radius(const cases::Case& c, double force) const {
  return cases::socket_overlap_radius(c, force);
}

meshes::MeshOptions ElasticSocket::mesh_options(const cases::Case& c, int extra_levels) const {
  meshes::MeshOptions o = socket_mesh_options(c, extra_levels);  // the rigid socket's ball mesh
  o.target_shell =
      meshes::Shell{meshes::Point(0, c.target.radius, 0), c.target.radius, c.target.outer_radius};
  return o;
}

}  // namespace rebound::fem
