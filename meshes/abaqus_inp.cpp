// The mesh as an Abaqus/CalculiX input deck: C3D8 / C3D20 elements, *EQUATION hanging-node
// constraints, the contact surface, material and initial velocity (meshes.h, docs/FEM.md).
#include <deal.II/base/geometry_info.h>
#include <deal.II/base/quadrature.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/fe/mapping_q.h>
#include <deal.II/grid/tria_accessor.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "cases/format.h"
#include "meshes/meshes.h"

namespace rebound::meshes {

namespace {

using dealii::GeometryInfo;
using NodeId = unsigned long long;  // 1-based
// Constraint of one hanging node: (master node, weight), sorted by master.
using Weights = std::vector<std::pair<NodeId, double>>;

// Abaqus/CalculiX hexahedron: corner k (0-based, nodes 1..8) is deal.II's lexicographic vertex
// kCornerVertex[k]: nodes 1-4 counter-clockwise on zeta = -1 seen from +zeta, 5-8 above them.
constexpr unsigned kCornerVertex[8] = {0, 1, 3, 2, 4, 5, 7, 6};
// C3D20 midside nodes 9..20 lie on the edges between these corners (0-based corner numbers).
constexpr unsigned kEdgeCorners[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                                          {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
// Abaqus face label S1..S6 of deal.II face f (S1: 1-2-3-4, S2: 5-8-7-6, S3: 1-5-6-2,
// S4: 2-6-7-3, S5: 3-7-8-4, S6: 4-8-5-1).
constexpr unsigned kFaceLabel[6] = {6, 4, 3, 5, 1, 2};

// Reference position of a node on a coarse quad face, (xi, eta) in [0, 1]^2.
struct FacePoint {
  double xi = 0, eta = 0;
};

// Shape functions of the coarse face's nodes at (xi, eta): bilinear (4 corners) or the 8-node
// serendipity quad (corners, then edge midpoints), nodes given by their reference positions.
double face_shape(const FacePoint& node, bool corner, unsigned degree, const FacePoint& at) {
  const double s = 2 * at.xi - 1, t = 2 * at.eta - 1;
  const double si = 2 * node.xi - 1, ti = 2 * node.eta - 1;
  if (degree == 1) return 0.25 * (1 + s * si) * (1 + t * ti);
  if (corner) return 0.25 * (1 + s * si) * (1 + t * ti) * (s * si + t * ti - 1);
  if (si == 0) return 0.5 * (1 - s * s) * (1 + t * ti);
  return 0.5 * (1 + s * si) * (1 - t * t);
}

// Shape functions of the coarse edge's nodes (ends at t = 0, 1; degree 2: midpoint 0.5) at t.
double edge_shape(double node, unsigned degree, double t) {
  if (degree == 1) return node == 0 ? 1 - t : t;
  if (node == 0) return 2 * (t - 0.5) * (t - 1);
  if (node == 1) return 2 * t * (t - 0.5);
  return 4 * t * (1 - t);
}

// Natural coordinates of the C3D8/C3D20 nodes (Abaqus numbering).
constexpr double kNodeXi[20][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}, {-1, -1, 1},
                                   {1, -1, 1},   {1, 1, 1},   {-1, 1, 1}, {0, -1, -1}, {1, 0, -1},
                                   {0, 1, -1},   {-1, 0, -1}, {0, -1, 1}, {1, 0, 1},   {0, 1, 1},
                                   {-1, 0, 1},   {-1, -1, 0}, {1, -1, 0}, {1, 1, 0},   {-1, 1, 0}};

// Gradient (d/dxi, d/deta, d/dzeta) of shape function a of the 8- or 20-node hexahedron.
std::array<double, 3> hex_shape_gradient(unsigned a, unsigned n_nodes, const double x[3]) {
  const double* c = kNodeXi[a];
  std::array<double, 3> g{};
  if (n_nodes == 8) {
    for (int d = 0; d < 3; ++d) {
      double v = 0.125 * c[d];
      for (int e = 0; e < 3; ++e)
        if (e != d) v *= 1 + c[e] * x[e];
      g[d] = v;
    }
    return g;
  }
  if (a < 8) {
    // N = 1/8 (1 + xi c0)(1 + eta c1)(1 + zeta c2)(xi c0 + eta c1 + zeta c2 - 2)
    const double f[3] = {1 + c[0] * x[0], 1 + c[1] * x[1], 1 + c[2] * x[2]};
    const double s = c[0] * x[0] + c[1] * x[1] + c[2] * x[2] - 2;
    for (int d = 0; d < 3; ++d) {
      const int e1 = (d + 1) % 3, e2 = (d + 2) % 3;
      g[d] = 0.125 * f[e1] * f[e2] * c[d] * (s + f[d]);
    }
    return g;
  }
  // midside: the zero coordinate m gives (1 - x_m^2), the others (1 + x c)
  int m = 0;
  while (c[m] != 0) ++m;
  const int e1 = (m + 1) % 3, e2 = (m + 2) % 3;
  const double q = 1 - x[m] * x[m], f1 = 1 + c[e1] * x[e1], f2 = 1 + c[e2] * x[e2];
  g[m] = 0.25 * (-2 * x[m]) * f1 * f2;
  g[e1] = 0.25 * q * c[e1] * f2;
  g[e2] = 0.25 * q * f1 * c[e2];
  return g;
}

// Volume and smallest det J of an element over the 3x3x3 Gauss points.
void element_volume(const std::vector<NodeId>& nodes, const std::vector<Point>& x, double& volume,
                    double& min_det) {
  const double gp[3] = {-std::sqrt(0.6), 0.0, std::sqrt(0.6)};
  const double gw[3] = {5.0 / 9, 8.0 / 9, 5.0 / 9};
  volume = 0;
  min_det = std::numeric_limits<double>::max();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) {
        const double at[3] = {gp[i], gp[j], gp[k]};
        double J[3][3] = {};
        for (unsigned a = 0; a < nodes.size(); ++a) {
          const auto g = hex_shape_gradient(a, unsigned(nodes.size()), at);
          const Point& p = x[nodes[a] - 1];
          for (int r = 0; r < 3; ++r)
            for (int d = 0; d < 3; ++d) J[r][d] += p[r] * g[d];
        }
        const double det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
                           J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
                           J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
        min_det = std::min(min_det, det);
        volume += det * gw[i] * gw[j] * gw[k];
      }
}

class InpBuilder {
 public:
  InpBuilder(const Mesh& mesh, unsigned degree) : mesh_(mesh), tria_(*mesh.triangulation) {
    degree_ = degree;
    number_vertices();
    if (degree_ == 2) number_line_midpoints();
    collect_hanging_nodes();
    place_hanging_nodes();
    build_elements();
  }

  unsigned degree_ = 1;
  std::vector<Point> x_;                    // by node id - 1
  std::map<NodeId, Weights> hanging_;       // hanging node -> masters
  std::vector<std::vector<NodeId>> cells_;  // by element id - 1, Abaqus order
  std::vector<Triangulation::active_cell_iterator> cell_of_;

  NodeId vertex_node(unsigned vertex) const { return vertex_node_.at(vertex); }
  // Node at the midpoint of a line: the vertex of its children or its own midpoint node (p = 2).
  NodeId midpoint_node(const Triangulation::line_iterator& line) const {
    if (line->has_children()) return vertex_node(line->child(0)->vertex_index(1));
    return line_node_.at(line->index());
  }
  // The nodes of a face: its vertices, for C3D20 also its edge midpoints.
  std::vector<NodeId> face_nodes(const Triangulation::face_iterator& face) const {
    std::vector<NodeId> nodes;
    for (const unsigned v : face->vertex_indices())
      nodes.push_back(vertex_node(face->vertex_index(v)));
    if (degree_ == 2)
      for (unsigned l = 0; l < GeometryInfo<2>::lines_per_cell; ++l)
        nodes.push_back(midpoint_node(face->line(l)));
    return nodes;
  }

 private:
  const Mesh& mesh_;
  const Triangulation& tria_;
  std::vector<NodeId> vertex_node_;       // by vertex index (0: not a node)
  std::map<unsigned, NodeId> line_node_;  // by line index (lines without children, p = 2)

  void number_vertices() {
    std::vector<bool> used(tria_.n_vertices(), false);
    for (const auto& cell : tria_.active_cell_iterators())
      for (const unsigned v : cell->vertex_indices()) used[cell->vertex_index(v)] = true;
    vertex_node_.assign(tria_.n_vertices(), 0);
    const std::vector<Point>& vertices = tria_.get_vertices();
    for (unsigned v = 0; v < used.size(); ++v)
      if (used[v]) {
        x_.push_back(vertices[v]);
        vertex_node_[v] = x_.size();
      }
  }

  // Edge midpoints where MappingQ(2) puts its support points (it interpolates them, so the
  // mapping at the reference edge midpoint is the support point).
  void number_line_midpoints() {
    std::vector<Point> unit(GeometryInfo<3>::lines_per_cell);
    for (unsigned l = 0; l < unit.size(); ++l)
      unit[l] = Point(
          0.5 * (GeometryInfo<3>::unit_cell_vertex(GeometryInfo<3>::line_to_cell_vertices(l, 0)) +
                 GeometryInfo<3>::unit_cell_vertex(GeometryInfo<3>::line_to_cell_vertices(l, 1))));
    const dealii::MappingQ<3> mapping(2);
    const dealii::FE_Q<3> fe(1);
    dealii::FEValues<3> values(mapping, fe, dealii::Quadrature<3>(unit),
                               dealii::update_quadrature_points);
    for (const auto& cell : tria_.active_cell_iterators()) {
      bool needed = false;
      for (unsigned l = 0; l < unit.size(); ++l)
        needed |= !cell->line(l)->has_children() && !line_node_.count(cell->line(l)->index());
      if (!needed) continue;
      values.reinit(cell);
      for (unsigned l = 0; l < unit.size(); ++l) {
        const auto line = cell->line(l);
        if (line->has_children() || line_node_.count(line->index())) continue;
        x_.push_back(values.quadrature_point(l));
        line_node_[line->index()] = x_.size();
      }
    }
  }

  void add_constraint(NodeId node, Weights weights) {
    Weights clean;
    for (const auto& [master, w] : weights)
      if (std::abs(w) > 1e-14) clean.emplace_back(master, w);
    std::sort(clean.begin(), clean.end());
    const auto [it, inserted] = hanging_.emplace(node, clean);
    if (inserted) return;
    bool same = it->second.size() == clean.size();
    for (std::size_t i = 0; same && i < clean.size(); ++i)
      same = it->second[i].first == clean[i].first &&
             std::abs(it->second[i].second - clean[i].second) < 1e-12;
    if (!same)
      throw std::runtime_error("meshes::write_inp: node " + std::to_string(node) +
                               " gets two different hanging-node constraints");
  }

  // A coarse face of an active cell whose neighbour is refined: every node of the children that
  // is not a node of the coarse face is constrained to the coarse face's shape functions.
  void constrain_face(const Triangulation::face_iterator& face) {
    if (face->n_children() != 4)
      throw std::runtime_error("meshes::write_inp: anisotropic face refinement");
    std::map<NodeId, FacePoint> at;               // reference position of every node on the face
    std::vector<std::pair<NodeId, bool>> coarse;  // coarse nodes, corner?
    std::map<unsigned, FacePoint> vertex_at;      // by vertex index
    for (const unsigned k : face->vertex_indices())
      vertex_at[face->vertex_index(k)] = FacePoint{double(k % 2), double(k / 2)};
    const auto mid = [](const FacePoint& a, const FacePoint& b) {
      return FacePoint{0.5 * (a.xi + b.xi), 0.5 * (a.eta + b.eta)};
    };
    for (const unsigned k : face->vertex_indices()) {
      const NodeId n = vertex_node(face->vertex_index(k));
      coarse.emplace_back(n, true);
      at[n] = vertex_at[face->vertex_index(k)];
    }
    for (unsigned l = 0; l < GeometryInfo<2>::lines_per_cell; ++l) {
      const auto line = face->line(l);
      if (!line->has_children())
        throw std::runtime_error("meshes::write_inp: refined face with an unrefined edge");
      const FacePoint p =
          mid(vertex_at.at(line->vertex_index(0)), vertex_at.at(line->vertex_index(1)));
      vertex_at[line->child(0)->vertex_index(1)] = p;
      if (degree_ == 2) {
        const NodeId n = midpoint_node(line);
        coarse.emplace_back(n, false);
        at[n] = p;
      }
    }
    // the centre: the one child vertex not yet placed
    for (unsigned c = 0; c < 4; ++c)
      for (const unsigned k : face->child(c)->vertex_indices())
        if (!vertex_at.count(face->child(c)->vertex_index(k)))
          vertex_at[face->child(c)->vertex_index(k)] = FacePoint{0.5, 0.5};
    if (vertex_at.size() != 9)
      throw std::runtime_error("meshes::write_inp: unexpected vertices on a refined face");
    std::map<NodeId, FacePoint> fine;
    for (unsigned c = 0; c < 4; ++c) {
      const auto child = face->child(c);
      for (const unsigned k : child->vertex_indices())
        fine[vertex_node(child->vertex_index(k))] = vertex_at.at(child->vertex_index(k));
      if (degree_ == 2)
        for (unsigned l = 0; l < GeometryInfo<2>::lines_per_cell; ++l) {
          const auto line = child->line(l);
          if (line->has_children())
            throw std::runtime_error("meshes::write_inp: more than one level across a face");
          fine[midpoint_node(line)] =
              mid(vertex_at.at(line->vertex_index(0)), vertex_at.at(line->vertex_index(1)));
        }
    }
    for (const auto& [node, p] : fine) {
      if (at.count(node)) continue;  // a node of the coarse face
      Weights w;
      for (const auto& [master, corner] : coarse)
        w.emplace_back(master, face_shape(at.at(master), corner, degree_, p));
      add_constraint(node, w);
    }
  }

  // A refined edge of an active cell (its neighbour across the edge is refined).
  void constrain_line(const Triangulation::line_iterator& line) {
    std::vector<std::pair<NodeId, double>> coarse = {{vertex_node(line->vertex_index(0)), 0.0},
                                                     {vertex_node(line->vertex_index(1)), 1.0}};
    const NodeId centre = vertex_node(line->child(0)->vertex_index(1));
    if (degree_ == 2) coarse.emplace_back(centre, 0.5);
    std::vector<std::pair<NodeId, double>> fine;
    if (degree_ == 1) fine.emplace_back(centre, 0.5);
    if (degree_ == 2)
      for (unsigned c = 0; c < 2; ++c) {
        const auto child = line->child(c);
        if (child->has_children())
          throw std::runtime_error("meshes::write_inp: more than one level across an edge");
        // its midpoint's t is the mean of its ends' (0 or 1 for the coarse ends, 0.5 the centre)
        const auto t_of = [&](unsigned vertex) {
          return vertex == line->vertex_index(0)   ? 0.0
                 : vertex == line->vertex_index(1) ? 1.0
                                                   : 0.5;
        };
        fine.emplace_back(midpoint_node(child),
                          0.5 * (t_of(child->vertex_index(0)) + t_of(child->vertex_index(1))));
      }
    for (const auto& [node, t] : fine) {
      Weights w;
      for (const auto& [master, tm] : coarse) w.emplace_back(master, edge_shape(tm, degree_, t));
      add_constraint(node, w);
    }
  }

  void collect_hanging_nodes() {
    for (const auto& cell : tria_.active_cell_iterators()) {
      for (const unsigned f : cell->face_indices())
        if (!cell->at_boundary(f) && cell->face(f)->has_children()) constrain_face(cell->face(f));
      for (unsigned l = 0; l < GeometryInfo<3>::lines_per_cell; ++l)
        if (cell->line(l)->has_children()) constrain_line(cell->line(l));
    }
    for (const auto& [node, weights] : hanging_)
      for (const auto& [master, w] : weights)
        if (hanging_.count(master))
          throw std::runtime_error("meshes::write_inp: hanging node " + std::to_string(node) +
                                   " depends on hanging node " + std::to_string(master));
  }

  void place_hanging_nodes() {
    for (const auto& [node, weights] : hanging_) {
      Point p;
      for (const auto& [master, w] : weights) p += w * x_[master - 1];
      x_[node - 1] = p;
    }
  }

  void build_elements() {
    for (const auto& cell : tria_.active_cell_iterators()) {
      std::vector<NodeId> nodes;
      for (const unsigned v : kCornerVertex) nodes.push_back(vertex_node(cell->vertex_index(v)));
      if (degree_ == 2)
        for (const auto& edge : kEdgeCorners) {
          const unsigned a = cell->vertex_index(kCornerVertex[edge[0]]);
          const unsigned b = cell->vertex_index(kCornerVertex[edge[1]]);
          bool found = false;
          for (unsigned l = 0; l < GeometryInfo<3>::lines_per_cell && !found; ++l) {
            const auto line = cell->line(l);
            const unsigned p = line->vertex_index(0), q = line->vertex_index(1);
            if ((p == a && q == b) || (p == b && q == a)) {
              nodes.push_back(midpoint_node(line));
              found = true;
            }
          }
          if (!found) throw std::runtime_error("meshes::write_inp: cell edge not found");
        }
      cells_.push_back(nodes);
      cell_of_.push_back(cell);
    }
  }
};

// Writes numbers n per line, comma separated.
void write_list(std::ostream& out, const std::vector<NodeId>& ids, unsigned per_line = 16) {
  for (std::size_t i = 0; i < ids.size(); ++i)
    out << ids[i] << ((i + 1) % per_line == 0 || i + 1 == ids.size() ? ",\n" : ", ");
}

// CalculiX reads numbers as Fortran f20.0: at most 20 characters, so 14 significant digits (with
// sign and a two-digit exponent: "-1.2345678901234e-15"; 1e-14 relative).
std::string number(double v) {
  return cases::format_number(v, "%.14g");
}

}  // namespace

InpSummary write_inp(const cases::Case& c, const Mesh& mesh, const InpOptions& options,
                     std::ostream& out) {
  if (options.degree != 1 && options.degree != 2)
    throw std::invalid_argument("meshes::write_inp: degree must be 1 (C3D8) or 2 (C3D20)");
  if (dealii::Utilities::MPI::n_mpi_processes(mesh.triangulation->get_communicator()) != 1)
    throw std::invalid_argument("meshes::write_inp: the mesh must live on one MPI rank");
  const InpBuilder b(mesh, options.degree);
  const cases::Derived d = cases::derive(c);
  const Placement& placement = mesh.placement;
  const double R = placement.radius;

  InpSummary s;
  s.degree = options.degree;
  s.element_type = options.degree == 1 ? "C3D8" : "C3D20";
  s.nodes = b.x_.size();
  s.elements = b.cells_.size();
  s.hanging_nodes = b.hanging_.size();
  s.equations = 3 * s.hanging_nodes;
  s.contact_surface_radius = options.contact_surface_radius > 0 ? options.contact_surface_radius
                                                                : 2 * d.hertz.contact_radius;

  s.min_jacobian = std::numeric_limits<double>::max();
  for (std::size_t e = 0; e < b.cells_.size(); ++e) {
    double volume = 0, min_det = 0;
    element_volume(b.cells_[e], b.x_, volume, min_det);
    if (!(min_det > 0))
      throw std::runtime_error("meshes::write_inp: element " + std::to_string(e + 1) +
                               " has det J = " + number(min_det) + " at a Gauss point");
    s.volume += volume;
    s.min_jacobian = std::min(s.min_jacobian, min_det);
  }

  // contact surface: boundary faces of the touching cap near P
  std::vector<std::pair<NodeId, unsigned>> contact_faces;  // element, label
  std::set<NodeId> contact_nodes;
  for (std::size_t e = 0; e < b.cell_of_.size(); ++e) {
    const auto& cell = b.cell_of_[e];
    for (const unsigned f : cell->face_indices()) {
      if (!cell->at_boundary(f) || cell->face(f)->boundary_id() != boundary_ids::contact_cap)
        continue;
      if (cell->face(f)->center().distance(placement.contact_point) > s.contact_surface_radius)
        continue;
      contact_faces.emplace_back(e + 1, kFaceLabel[f]);
      for (const NodeId n : b.face_nodes(cell->face(f))) contact_nodes.insert(n);
    }
  }
  s.contact_faces = contact_faces.size();
  s.contact_nodes = contact_nodes.size();
  for (const NodeId n : contact_nodes) s.contact_hanging_nodes += b.hanging_.count(n);

  NodeId contact_node = 0;
  for (NodeId n = 1; n <= b.x_.size(); ++n)
    if (b.x_[n - 1].distance(placement.contact_point) <= 1e-12 * R) contact_node = n;

  // rigid-body velocity of the FEM's start: v_G + omega z x (x - G)
  const Eigen::Vector3d& G = d.body.centre_of_mass;
  const Eigen::Vector3d vG(d.centre_velocity.x(), d.centre_velocity.y(), 0);
  const double omega = d.spin;

  // comment lines stay within CalculiX's 132 characters
  out << "** rebound mesh export (meshes::write_inp): " << s.element_type << ", degree " << s.degree
      << "\n** case " << c.name << "\n** " << s.nodes << " nodes (1.." << s.nodes << "), "
      << s.elements << " elements (1.." << s.elements << ")\n** " << s.hanging_nodes
      << " hanging nodes (" << s.equations << " *EQUATION)\n** SCONTACT: " << s.contact_faces
      << " boundary faces within " << number(s.contact_surface_radius) << " m of P\n"
      << "** frame: x = t, y = n (into the body), z = b; P at the origin; the plane is y = 0\n"
      << "** units: SI (m, kg, s, N, Pa)\n";
  out << "*NODE, NSET=NALL\n";
  for (NodeId n = 1; n <= b.x_.size(); ++n) {
    const Point& p = b.x_[n - 1];
    out << n << ", " << number(p[0]) << ", " << number(p[1]) << ", " << number(p[2]) << "\n";
  }
  out << "*ELEMENT, TYPE=" << s.element_type << ", ELSET=EALL\n";
  for (std::size_t e = 0; e < b.cells_.size(); ++e) {
    const auto& nodes = b.cells_[e];
    out << e + 1;
    for (std::size_t i = 0; i < nodes.size(); ++i) out << (i == 10 ? ",\n" : ", ") << nodes[i];
    out << "\n";
  }
  if (!b.hanging_.empty()) {
    std::vector<NodeId> hanging;
    for (const auto& h : b.hanging_) hanging.push_back(h.first);
    out << "*NSET, NSET=NHANG\n";
    write_list(out, hanging);
    out << "** hanging nodes: u = sum of w u_master over the coarse face's (or edge's) nodes\n"
        << "*EQUATION\n";
    for (const auto& [node, weights] : b.hanging_)
      for (int dof = 1; dof <= 3; ++dof) {
        out << weights.size() + 1 << "\n" << node << ", " << dof << ", 1.";
        for (std::size_t i = 0; i < weights.size(); ++i)
          out << ((i + 1) % 4 == 0 ? ",\n" : ", ") << weights[i].first << ", " << dof << ", "
              << number(-weights[i].second);
        out << "\n";
      }
  }
  if (contact_node) out << "*NSET, NSET=NP\n" << contact_node << ",\n";
  out << "*NSET, NSET=NCONTACT\n";
  write_list(out, std::vector<NodeId>(contact_nodes.begin(), contact_nodes.end()));
  out << "*SURFACE, NAME=SCONTACT, TYPE=ELEMENT\n";
  for (const auto& [element, label] : contact_faces) out << element << ", S" << label << "\n";
  out << "*MATERIAL, NAME=BODY\n*ELASTIC\n"
      << number(c.material.young_modulus) << ", " << number(c.material.poisson_ratio) << "\n"
      << "*DENSITY\n"
      << number(c.material.density) << "\n"
      << "*SOLID SECTION, ELSET=EALL, MATERIAL=BODY\n";
  out << "*INITIAL CONDITIONS, TYPE=VELOCITY\n";
  if (omega == 0) {
    for (int dof = 0; dof < 3; ++dof) out << "NALL, " << dof + 1 << ", " << number(vG[dof]) << "\n";
  } else {
    for (NodeId n = 1; n <= b.x_.size(); ++n) {
      const Point& p = b.x_[n - 1];
      const Eigen::Vector3d r(p[0] - G[0], p[1] - G[1], p[2] - G[2]);
      const Eigen::Vector3d v = vG + Eigen::Vector3d(0, 0, omega).cross(r);
      for (int dof = 0; dof < 3; ++dof)
        out << n << ", " << dof + 1 << ", " << number(v[dof]) << "\n";
    }
  }
  if (!out) throw std::runtime_error("meshes::write_inp: write failed");
  return s;
}

InpSummary write_inp(const cases::Case& c, const Mesh& mesh, const InpOptions& options,
                     const std::string& file) {
  const std::filesystem::path path(file);
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  const std::string temporary = file + ".tmp";
  InpSummary s;
  {
    std::ofstream out(temporary);
    if (!out) throw std::runtime_error("cannot write " + temporary);
    s = write_inp(c, mesh, options, out);
    out.close();
    if (!out) throw std::runtime_error("cannot write " + temporary);
  }
  std::filesystem::rename(temporary, file);
  return s;
}

}  // namespace rebound::meshes
