// Coarse capsule/sphere mesh, manifolds, refinement toward P and the contact-vertex snap.
#include <deal.II/base/mpi.h>
#include <deal.II/base/timer.h>
#include <deal.II/grid/grid_tools.h>
#include <deal.II/grid/manifold_lib.h>
#include <deal.II/grid/tria_accessor.h>
#include <deal.II/grid/tria_description.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "meshes/meshes.h"

namespace rebound::meshes {

using dealii::Tensor;

double Placement::surface_distance(const Point& p) const {
  const Tensor<1, 3> r = p - contact_cap_centre;
  const double t = std::clamp(r * axis, 0.0, length);
  return (r - t * axis).norm() - radius;
}

Placement place_body(const cases::Case& c) {
  if (c.body.shape != cases::Shape::sphere && c.body.shape != cases::Shape::capsule)
    throw std::invalid_argument(std::string("no mesh generator for shape \"") +
                                cases::to_string(c.body.shape) + "\" (supported: sphere, capsule)");
  Placement p;
  p.shape = c.body.shape;
  p.radius = c.body.radius;
  p.length = c.body.shape == cases::Shape::capsule ? c.body.length : 0.0;
  p.contact_point = Point(0, 0, 0);
  p.contact_cap_centre = Point(0, p.radius, 0);
  if (p.shape == cases::Shape::sphere) {
    p.axis_angle = 0;
    p.axis = Tensor<1, 3>({0.0, 1.0, 0.0});
    p.lateral = Tensor<1, 3>({1.0, 0.0, 0.0});
  } else {
    // P on the touching cap, PG at angle theta to n (Lai 1999, eqs. 5.76-5.78, the same axis as
    // cases::mass_properties).
    p.axis_angle = cases::capsule_axis_angle(p.radius, p.length, c.impact.theta);
    if (!(std::abs(p.axis_angle) < cases::kMeshMaxAxisAngle))
      throw std::invalid_argument(
          "the capsule's axis makes " + std::to_string(p.axis_angle) +
          " rad with n: P is not on a cap (needs |phi| < 0.45 pi for the contact mesh)");
    const double s = std::sin(p.axis_angle), co = std::cos(p.axis_angle);
    p.axis = Tensor<1, 3>({-s, co, 0.0});
    p.lateral = Tensor<1, 3>({co, s, 0.0});
  }
  p.far_cap_centre = p.contact_cap_centre + p.length * p.axis;
  return p;
}

Placement place_target_sphere(double radius) {
  Placement p;
  p.shape = cases::Shape::sphere;
  p.radius = radius;
  p.length = 0;
  p.contact_point = Point(0, 0, 0);
  p.contact_cap_centre = Point(0, -radius, 0);
  p.axis = Tensor<1, 3>({0.0, -1.0, 0.0});
  p.lateral = Tensor<1, 3>({1.0, 0.0, 0.0});
  p.far_cap_centre = p.contact_cap_centre;
  return p;
}

MeshOptions mesh_options(const cases::Case& c, int extra_levels) {
  MeshOptions o;
  o.global_levels = c.fem.refinement;
  o.extra_levels = extra_levels;
  // An elastic-plastic body's contact outgrows Hertz's above the yield speed: its zone is
  // Thornton's (cases::ThorntonScales::contact_zone_radius; Hertz's a_max below V_y).
  const cases::Derived d = cases::derive(c);
  o.contact_radius = c.material.model == cases::MaterialModel::elastic_plastic
                         ? d.thornton.contact_zone_radius
                         : d.hertz.contact_radius;
  o.contact_resolution = c.fem.contact_resolution;
  o.cfl = c.fem.cfl;
  return o;
}

std::unique_ptr<Triangulation> make_triangulation(MPI_Comm communicator) {
  return std::make_unique<Triangulation>(
      communicator, dealii::Triangulation<3>::limit_level_difference_at_vertices);
}

namespace {

// Local frame of the body: origin at the touching cap's centre C1, e_z along the axis, e_x the
// lateral direction, e_y = e_z x e_x (right-handed). The touching cap is z <= 0, the cylinder
// 0 <= z <= L, the far cap z >= L.
Point to_global(const Placement& p, double x, double y, double z) {
  const Tensor<1, 3> e_y = dealii::cross_product_3d(p.axis, p.lateral);
  return p.contact_cap_centre + x * p.lateral + y * e_y + z * p.axis;
}

}  // namespace

namespace {

enum class Surface { none, contact_cap, far_cap, cylinder };

// The exact surface point "above" x: radial projection from the cap centre (caps) or from the
// axis (cylinder).
Point project(const Placement& p, Surface surface, const Point& x) {
  switch (surface) {
    case Surface::contact_cap:
      return p.contact_cap_centre +
             p.radius * (x - p.contact_cap_centre) / (x - p.contact_cap_centre).norm();
    case Surface::far_cap:
      return p.far_cap_centre + p.radius * (x - p.far_cap_centre) / (x - p.far_cap_centre).norm();
    case Surface::cylinder: {
      const Tensor<1, 3> r = x - p.contact_cap_centre;
      const Tensor<1, 3> radial = r - (r * p.axis) * p.axis;
      return x + (p.radius / radial.norm() - 1.0) * radial;
    }
    case Surface::none:
      break;
  }
  return x;
}

// A hexahedral block given by its 8 corners (lexicographic in xi, eta, zeta), split into
// n[0] x n[1] x n[2] cells. With a curved surface, the face xi = 1 lies on it: points are
// interpolated linearly between the face xi = 0 and the projection of the face xi = 1.
struct Block {
  std::array<Point, 8> corner;
  std::array<int, 3> n;
  Surface surface = Surface::none;
  bool core = false;  // all faces flat and inside the body
};

Point block_point(const Placement& p, const Block& b, double xi, double eta, double zeta) {
  const auto bilinear = [&](int face_xi) {
    const auto& c = b.corner;
    const int o = face_xi;
    return Point((1 - eta) * (1 - zeta) * c[o] + eta * (1 - zeta) * c[o + 2] +
                 (1 - eta) * zeta * c[o + 4] + eta * zeta * c[o + 6]);
  };
  const Point inner = bilinear(0);
  const Point outer = b.surface == Surface::none ? bilinear(1) : project(p, b.surface, bilinear(1));
  if (xi == 0) return inner;
  if (xi == 1) return outer;
  return Point((1 - xi) * inner + xi * outer);
}

}  // namespace

namespace {

// The coarse cells of one body: vertices (duplicates merged within the body only, so that two
// bodies touching at P keep their own vertices there) and cells, material_id 1 for the core cells
// whose faces are all flat and interior, 0 otherwise.
struct CoarseCells {
  std::vector<Point> vertices;
  std::vector<dealii::CellData<3>> cells;
};

CoarseCells coarse_cells(const Placement& p) {
  const double R = p.radius, L = p.length;
  // Two half-balls and the cylinder between them, all cut from the same 12-cell disc: an inner
  // square of half-width d split 2 x 2 and 8 cells to the circle. Each half-ball is half of
  // the 32-cell ball of GridGenerator::hyper_ball_balanced's layout: the 7-cell ball (inner
  // cube of half-width d = R/(1+sqrt 3), polar corners at R(+-1, +-1, +-1)/sqrt 3) with the
  // inner cube split 2 x 2 x 2 and each outer cell split 2 x 2 tangentially, so that the outer
  // cells are nearly cubic. The pole of the touching cap (P when phi = 0) is a coarse vertex.
  const double d = R / (1.0 + std::sqrt(3.0));
  const double corner = R / std::sqrt(2.0), polar = R / std::sqrt(3.0);
  const int layers = L > 0 ? std::max(1, int(std::ceil(L / (0.6 * R) - 1e-9))) : 0;
  const double cx[4] = {-1, 1, -1, 1}, cy[4] = {-1, -1, 1, 1};
  const int side[4][2] = {{0, 2}, {1, 3}, {0, 1}, {2, 3}};  // sides of the square
  const auto at = [&](double x, double y, double z) { return to_global(p, x, y, z); };

  std::vector<Block> blocks;
  // a radial block over one side of the square: inner (low z, high z), outer (low z, high z)
  const auto add_sides = [&](auto inner_lo, auto outer_lo, auto inner_hi, auto outer_hi,
                             Surface surface) {
    for (const auto& sd : side) {
      const int a = sd[0], b = sd[1];
      blocks.push_back(Block{{{inner_lo(a), outer_lo(a), inner_lo(b), outer_lo(b), inner_hi(a),
                               outer_hi(a), inner_hi(b), outer_hi(b)}},
                             {{1, 2, 1}},
                             surface,
                             false});
    }
  };
  for (int j = 0; j < layers; ++j) {
    const double z0 = L * j / layers, z1 = L * (j + 1) / layers;
    const auto inner = [&](double z) {
      return [&, z](int k) { return at(d * cx[k], d * cy[k], z); };
    };
    const auto outer = [&](double z) {
      return [&, z](int k) { return at(corner * cx[k], corner * cy[k], z); };
    };
    blocks.push_back(Block{{{inner(z0)(0), inner(z0)(1), inner(z0)(2), inner(z0)(3), inner(z1)(0),
                             inner(z1)(1), inner(z1)(2), inner(z1)(3)}},
                           {{2, 2, 1}},
                           Surface::none,
                           true});
    add_sides(inner(z0), outer(z0), inner(z1), outer(z1), Surface::cylinder);
  }
  for (int cap = 0; cap < 2; ++cap) {
    const double s = cap == 0 ? -1.0 : 1.0, z0 = cap == 0 ? 0.0 : L;
    const Surface surface = cap == 0 ? Surface::contact_cap : Surface::far_cap;
    const auto ring_inner = [&](int k) { return at(d * cx[k], d * cy[k], z0); };
    const auto ring_outer = [&](int k) { return at(corner * cx[k], corner * cy[k], z0); };
    const auto box = [&](int k) { return at(d * cx[k], d * cy[k], z0 + s * d); };
    const auto pole = [&](int k) { return at(polar * cx[k], polar * cy[k], z0 + s * polar); };
    // half of the inner cube
    blocks.push_back(Block{{{box(0), box(1), box(2), box(3), ring_inner(0), ring_inner(1),
                             ring_inner(2), ring_inner(3)}},
                           {{2, 2, 1}},
                           Surface::none,
                           true});
    // polar block: xi from the cube's face to the cap
    blocks.push_back(Block{{{box(0), pole(0), box(1), pole(1), box(2), pole(2), box(3), pole(3)}},
                           {{1, 2, 2}},
                           surface,
                           false});
    if (cap == 0)
      add_sides(box, pole, ring_inner, ring_outer, surface);
    else
      add_sides(ring_inner, ring_outer, box, pole, surface);
  }

  // Cells of all blocks, with duplicated vertices merged afterwards.
  CoarseCells result;
  std::vector<Point>& vertices = result.vertices;
  std::vector<dealii::CellData<3>>& cells = result.cells;
  for (const Block& b : blocks) {
    for (int i = 0; i < b.n[0]; ++i)
      for (int j = 0; j < b.n[1]; ++j)
        for (int k = 0; k < b.n[2]; ++k) {
          dealii::CellData<3> cell;
          cell.vertices.resize(8);
          for (unsigned v = 0; v < 8; ++v) {
            const double xi = double(i + (v & 1)) / b.n[0];
            const double eta = double(j + ((v >> 1) & 1)) / b.n[1];
            const double zeta = double(k + ((v >> 2) & 1)) / b.n[2];
            cell.vertices[v] = unsigned(vertices.size());
            vertices.push_back(block_point(p, b, xi, eta, zeta));
          }
          // right-handed (xi, eta, zeta): mirror xi otherwise
          const auto& x = vertices;
          const auto& c = cell.vertices;
          const double orientation =
              dealii::cross_product_3d(x[c[1]] - x[c[0]], x[c[2]] - x[c[0]]) * (x[c[4]] - x[c[0]]);
          if (orientation < 0)
            for (unsigned v = 0; v < 8; v += 2) std::swap(cell.vertices[v], cell.vertices[v + 1]);
          cell.material_id = b.core ? 1 : 0;  // remembered through the reordering below
          cells.push_back(cell);
        }
  }
  dealii::SubCellData no_subcell_data;
  std::vector<unsigned int> all_vertices;
  dealii::GridTools::delete_duplicated_vertices(vertices, cells, no_subcell_data, all_vertices,
                                                1e-9 * R);
  dealii::GridTools::delete_unused_vertices(vertices, cells, no_subcell_data);
  return result;
}

// A target block of half-width L and depth D under the plane y = 0: 2n x 1 x 2n cells of width
// w = L/n, n = max(1, round(L/D)) (about cubes), P a vertex of its top face, every cell flat
// (material_id 1, as the core cells).
CoarseCells block_cells(double L, double D) {
  const int n = std::max(1, int(std::lround(L / D))), m = 2 * n + 1;  // vertices per row
  const double w = L / n;
  CoarseCells result;
  for (int k = 0; k < m; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < m; ++i)
        result.vertices.emplace_back((i - n) * w, (j - 1) * D, (k - n) * w);
  for (int k = 0; k < 2 * n; ++k)
    for (int i = 0; i < 2 * n; ++i) {
      dealii::CellData<3> cell;
      cell.vertices.resize(8);
      for (unsigned v = 0; v < 8; ++v)
        cell.vertices[v] =
            unsigned((k + ((v >> 2) & 1)) * 2 * m + ((v >> 1) & 1) * m + i + (v & 1));
      cell.material_id = 1;
      result.cells.push_back(cell);
    }
  return result;
}

// A thick spherical shell: the six faces of the cube [-1, 1]^3, each split 2 x 2, projected from
// the centre onto the spheres of n_r + 1 radii from R1 to R_o, n_r = max(1, round((R_o - R1) /
// (R1 pi / 4))) (the radial layers about as thick as a cell is wide at R1). The inner surface's
// pole (0, -1, 0), P, is a vertex. Every cell curved (material_id 0).
CoarseCells shell_cells(const Shell& shell) {
  const double R1 = shell.inner_radius, Ro = shell.outer_radius;
  const int layers = std::max(1, int(std::lround((Ro - R1) / (R1 * M_PI / 4))));
  CoarseCells result;
  for (int axis = 0; axis < 3; ++axis)
    for (const double side : {-1.0, 1.0})
      for (int a = 0; a < 2; ++a)
        for (int b = 0; b < 2; ++b)
          for (int k = 0; k < layers; ++k) {
            dealii::CellData<3> cell;
            cell.vertices.resize(8);
            for (unsigned v = 0; v < 8; ++v) {
              const double u = a + double(v & 1) - 1, w = b + double((v >> 1) & 1) - 1;
              const double r = R1 + (Ro - R1) * double(k + ((v >> 2) & 1)) / layers;
              Tensor<1, 3> direction;
              direction[axis] = side;
              direction[(axis + 1) % 3] = u;
              direction[(axis + 2) % 3] = w;
              cell.vertices[v] = unsigned(result.vertices.size());
              result.vertices.push_back(shell.centre + r * direction / direction.norm());
            }
            const auto& x = result.vertices;
            const auto& c = cell.vertices;
            if (dealii::cross_product_3d(x[c[1]] - x[c[0]], x[c[2]] - x[c[0]]) *
                    (x[c[4]] - x[c[0]]) <
                0)
              for (unsigned v = 0; v < 8; v += 2) std::swap(cell.vertices[v], cell.vertices[v + 1]);
            cell.material_id = 0;
            result.cells.push_back(cell);
          }
  dealii::SubCellData no_subcell_data;
  std::vector<unsigned int> all_vertices;
  dealii::GridTools::delete_duplicated_vertices(result.vertices, result.cells, no_subcell_data,
                                                all_vertices, 1e-9 * R1);
  dealii::GridTools::delete_unused_vertices(result.vertices, result.cells, no_subcell_data);
  return result;
}

// The surface ids of a boundary face of the body placed at p, by where its centre lies.
void set_surface_ids(const Placement& p,
                     const dealii::TriaIterator<dealii::TriaAccessor<2, 3, 3>>& face, bool target) {
  const double R = p.radius, L = p.length;
  const double z = (face->center() - p.contact_cap_centre) * p.axis;
  if (z < -1e-9 * R) {
    face->set_all_manifold_ids(target ? manifold_ids::target_contact_cap
                                      : manifold_ids::contact_cap);
    face->set_boundary_id(target ? boundary_ids::target_contact_cap : boundary_ids::contact_cap);
  } else if (z > L + 1e-9 * R) {
    face->set_all_manifold_ids(target ? manifold_ids::target_far_cap : manifold_ids::far_cap);
    face->set_boundary_id(target ? boundary_ids::target_far_cap : boundary_ids::far_cap);
  } else {
    face->set_all_manifold_ids(manifold_ids::cylinder);
    face->set_boundary_id(boundary_ids::cylinder);
  }
}

}  // namespace

// Local frame of the body: origin at the touching cap's centre C1, e_z along the axis, e_x the
// lateral direction, e_y = e_z x e_x (right-handed). The touching cap is z <= 0, the cylinder
// 0 <= z <= L, the far cap z >= L.
void make_coarse_mesh(const Placement& p, Triangulation& triangulation) {
  make_coarse_mesh(p, MeshOptions{}, triangulation);
}

void make_coarse_mesh(const Placement& p, const MeshOptions& options,
                      Triangulation& triangulation) {
  const Placement* target = options.target_body ? &*options.target_body : nullptr;
  const Shell* shell = options.target_shell ? &*options.target_shell : nullptr;
  if (int(target != nullptr) + int(options.target_block > 0) + int(shell != nullptr) > 1)
    throw std::invalid_argument("meshes: one target body, block or shell, not several");
  if (shell && !(shell->inner_radius > 0 && shell->outer_radius > shell->inner_radius))
    throw std::invalid_argument(
        "meshes: a target shell needs 0 < R1 < R_o; R1 = " + std::to_string(shell->inner_radius) +
        " m, R_o = " + std::to_string(shell->outer_radius) + " m");
  CoarseCells all = coarse_cells(p);
  if (target && target->shape != cases::Shape::sphere)
    throw std::invalid_argument("meshes: a target body must be a sphere");
  if (target || shell || options.target_block > 0) {
    const double depth =
        options.target_block_depth > 0 ? options.target_block_depth : options.target_block;
    const CoarseCells second = target  ? coarse_cells(*target)
                               : shell ? shell_cells(*shell)
                                       : block_cells(options.target_block, depth);
    const unsigned offset = unsigned(all.vertices.size());
    all.vertices.insert(all.vertices.end(), second.vertices.begin(), second.vertices.end());
    for (dealii::CellData<3> cell : second.cells) {
      for (unsigned& v : cell.vertices) v += offset;
      cell.material_id += 2;  // 2: the target's, 3: its core (flat)
      all.cells.push_back(cell);
    }
  }
  dealii::GridTools::consistently_order_cells(all.cells);
  triangulation.create_triangulation(all.vertices, all.cells, dealii::SubCellData());

  // Manifold ids: everything transfinite, then the core cells (and so their faces) flat, then
  // the surface by region. Boundary ids name the surface region. The material id is then the
  // body's (body_ids), inherited by every refinement.
  triangulation.set_all_manifold_ids(manifold_ids::interior);
  for (const auto& cell : triangulation.active_cell_iterators())
    if (cell->material_id() % 2 == 1) cell->set_all_manifold_ids(dealii::numbers::flat_manifold_id);
  for (const auto& cell : triangulation.active_cell_iterators()) {
    const bool on_target = cell->material_id() >= 2;
    cell->set_material_id(on_target ? body_ids::target : body_ids::body);
    for (const auto& face : cell->face_iterators()) {
      if (!face->at_boundary()) continue;
      if (on_target && shell) {  // the shell's inner and outer spheres
        const double r = (face->center() - shell->centre).norm();
        face->set_boundary_id(r < 0.5 * (shell->inner_radius + shell->outer_radius)
                                  ? boundary_ids::target_shell_inner
                                  : boundary_ids::target_shell_outer);
      } else if (on_target && !target) {  // the block's flat faces: top, bottom, the four edges
        const double y = face->center()[1], tolerance = 1e-9 * options.target_block;
        face->set_boundary_id(std::abs(y) < tolerance ? boundary_ids::target_block_surface
                              : std::abs(face->center()[0]) < options.target_block - tolerance &&
                                      std::abs(face->center()[2]) < options.target_block - tolerance
                                  ? boundary_ids::target_block_bottom
                                  : boundary_ids::target_block_edges);
      } else {
        set_surface_ids(on_target ? *target : p, face, on_target);
      }
    }
  }
  triangulation.set_manifold(manifold_ids::contact_cap,
                             dealii::SphericalManifold<3>(p.contact_cap_centre));
  triangulation.set_manifold(manifold_ids::far_cap, dealii::SphericalManifold<3>(p.far_cap_centre));
  if (p.length > 0)
    triangulation.set_manifold(manifold_ids::cylinder,
                               dealii::CylindricalManifold<3>(p.axis, p.contact_cap_centre));
  if (shell) {
    for (const auto& cell : triangulation.active_cell_iterators())
      if (cell->material_id() == body_ids::target)
        cell->set_all_manifold_ids(manifold_ids::target_shell);
    triangulation.set_manifold(manifold_ids::target_shell,
                               dealii::SphericalManifold<3>(shell->centre));
  }
  if (target) {
    triangulation.set_manifold(manifold_ids::target_contact_cap,
                               dealii::SphericalManifold<3>(target->contact_cap_centre));
    triangulation.set_manifold(manifold_ids::target_far_cap,
                               dealii::SphericalManifold<3>(target->far_cap_centre));
  }
  dealii::TransfiniteInterpolationManifold<3> transfinite;
  transfinite.initialize(triangulation);
  triangulation.set_manifold(manifold_ids::interior, transfinite);
}

double distance_to_contact(const Placement& placement, const Triangulation::cell_iterator& cell) {
  const Point centre = cell->center();
  double radius = 0;
  for (const unsigned v : cell->vertex_indices())
    radius = std::max(radius, centre.distance(cell->vertex(v)));
  return std::max(0.0, centre.distance(placement.contact_point) - radius);
}

double target_diameter(const MeshOptions& o, double distance) {
  const double h_c = o.contact_radius / o.contact_resolution;
  return h_c + o.grading * std::max(0.0, distance - o.contact_radius);
}

int refine_toward_contact(const Placement& placement, const MeshOptions& options,
                          Triangulation& triangulation) {
  for (int cycle = 0; cycle < 60; ++cycle) {
    int flagged = 0;
    for (const auto& cell : triangulation.active_cell_iterators()) {
      if (!cell->is_locally_owned()) continue;
      if (cell->diameter() > target_diameter(options, distance_to_contact(placement, cell))) {
        cell->set_refine_flag();
        ++flagged;
      }
    }
    if (dealii::Utilities::MPI::sum(flagged, triangulation.get_communicator()) == 0) return cycle;
    triangulation.execute_coarsening_and_refinement();
  }
  throw std::runtime_error("meshes: contact refinement did not converge in 60 cycles");
}

double contact_cell_diameter(const Placement& placement, const Triangulation& triangulation) {
  double h = 0;
  for (const auto& cell : triangulation.active_cell_iterators())
    if (cell->is_locally_owned() && distance_to_contact(placement, cell) == 0)
      h = std::max(h, cell->diameter());
  return dealii::Utilities::MPI::max(h, triangulation.get_communicator());
}

double snap_contact_vertex(const Placement& p, double support_radius,
                           Triangulation& triangulation) {
  // Nearest vertex of the touching cap's surface to P over all ranks.
  double best = std::numeric_limits<double>::max();
  Point nearest;
  for (const auto& cell : triangulation.active_cell_iterators()) {
    if (cell->is_artificial()) continue;
    for (const auto& face : cell->face_iterators()) {
      if (!face->at_boundary() || face->boundary_id() != boundary_ids::contact_cap)
        continue;  // the body's
      for (const unsigned v : face->vertex_indices()) {
        const double r = face->vertex(v).distance(p.contact_point);
        if (r < best) best = r, nearest = face->vertex(v);
      }
    }
  }
  MPI_Comm comm = triangulation.get_communicator();
  const int ranks = dealii::Utilities::MPI::n_mpi_processes(comm);
  const double mine[4] = {best, nearest[0], nearest[1], nearest[2]};
  std::vector<double> all(4 * std::size_t(ranks));
  MPI_Allgather(mine, 4, MPI_DOUBLE, all.data(), 4, MPI_DOUBLE, comm);
  int winner = 0;
  for (int r = 1; r < ranks; ++r)
    if (all[4 * r] < all[4 * winner]) winner = r;
  const Point Q(all[4 * winner + 1], all[4 * winner + 2], all[4 * winner + 3]);
  const double shift = all[4 * winner];
  const double R = p.radius;
  if (shift > 0.25 * support_radius)
    throw std::runtime_error("meshes: the vertex nearest to P is too far from it to snap");

  // Rotation about the cap centre C through the axis (C->Q) x (C->P), by w(|x-Q|) * omega.
  const Tensor<1, 3> q = Q - p.contact_cap_centre, target = p.contact_point - p.contact_cap_centre;
  Tensor<1, 3> k = dealii::cross_product_3d(q, target);
  const double k_norm = k.norm();
  const double omega = std::atan2(k_norm, q * target);
  if (k_norm > 0) k /= k_norm;
  std::vector<bool> done(triangulation.n_vertices(), false);
  for (const auto& cell : triangulation.active_cell_iterators()) {
    if (cell->material_id() != body_ids::body) continue;  // a target body stays where it is
    for (const unsigned v : cell->vertex_indices()) {
      const unsigned index = cell->vertex_index(v);
      if (done[index]) continue;
      done[index] = true;
      Point& x = cell->vertex(v);
      const double r = x.distance(Q);
      if (r <= 1e-12 * R) {
        x = p.contact_point;
        continue;
      }
      if (r >= support_radius || k_norm == 0) continue;
      const double t = r / support_radius;
      const double angle = omega * (1 - t * t) * (1 - t * t);
      const Tensor<1, 3> u = x - p.contact_cap_centre;
      const double c = std::cos(angle), s = std::sin(angle);
      x = p.contact_cap_centre + c * u + s * dealii::cross_product_3d(k, u) + (1 - c) * (k * u) * k;
    }
  }
  // The transfinite manifold pulls points back into the coarse cells' charts, which moved
  // vertices may have left: cells (all levels) touching the support use straight interior
  // lines and faces instead (MappingQ still interpolates their curved boundary faces), and the
  // boundary faces keep their exact manifold. Two passes, so that no surface line ends flat.
  if (k_norm > 0) {
    const auto touches = [&](const Triangulation::cell_iterator& cell) {
      if (cell->material_id() != body_ids::body) return false;
      for (const unsigned v : cell->vertex_indices())
        if (cell->vertex(v).distance(p.contact_point) < support_radius + shift) return true;
      return false;
    };
    for (const auto& cell : triangulation.cell_iterators())
      if (touches(cell)) cell->set_all_manifold_ids(dealii::numbers::flat_manifold_id);
    for (const auto& cell : triangulation.cell_iterators()) {
      if (!touches(cell)) continue;
      for (const auto& face : cell->face_iterators()) {
        if (!face->at_boundary()) continue;
        const auto id = face->boundary_id();
        face->set_all_manifold_ids(id == boundary_ids::contact_cap ? manifold_ids::contact_cap
                                   : id == boundary_ids::far_cap   ? manifold_ids::far_cap
                                                                   : manifold_ids::cylinder);
      }
    }
  }
  return shift;
}

Mesh build_mesh(const cases::Case& c, int extra_levels, MPI_Comm communicator) {
  return build_mesh(c, mesh_options(c, extra_levels), communicator);
}

Mesh build_mesh(const cases::Case& c, const MeshOptions& options, MPI_Comm communicator) {
  dealii::Timer timer(communicator);  // synchronised start
  Mesh mesh;
  mesh.placement = place_body(c);
  mesh.options = options;
  const Placement& p = mesh.placement;
  const double a = mesh.options.contact_radius;
  // The refined zone and the snap must stay on the touching cap.
  const double limit = mesh.options.contact_radius_limit > 0
                           ? mesh.options.contact_radius_limit
                           : cases::mesh_contact_radius_limit(p.radius, p.axis_angle);
  if (a > limit)
    throw std::invalid_argument("the contact zone (radius " + std::to_string(a) +
                                " m) exceeds the largest the body's mesh takes, " +
                                std::to_string(limit) + " m");
  mesh.triangulation = make_triangulation(communicator);
  Triangulation& tria = *mesh.triangulation;
  make_coarse_mesh(p, mesh.options, tria);
  if (mesh.options.global_levels > 0) tria.refine_global(unsigned(mesh.options.global_levels));
  refine_toward_contact(p, mesh.options, tria);
  if (mesh.options.extra_levels > 0) tria.refine_global(unsigned(mesh.options.extra_levels));
  double shift = 0;
  if (mesh.options.snap_contact_vertex)
    shift = snap_contact_vertex(p, 3.0 * contact_cell_diameter(p, tria), tria);
  mesh.statistics = compute_statistics(c, p, mesh.options, tria, 2, &mesh.cell_quality);
  mesh.statistics.contact_vertex_shift = shift;
  mesh.statistics.seconds = dealii::Utilities::MPI::max(timer.wall_time(), communicator);
  return mesh;
}

}  // namespace rebound::meshes
