// The CalculiX/Abaqus export (meshes::write_inp): the written file is read back here with a parser
// and shape functions of its own, and compared with deal.II's view of the same mesh.
#include <deal.II/base/quadrature_lib.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_system.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/fe/mapping_q.h>
#include <deal.II/fe/mapping_q_cache.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/vector.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"
#include "meshes/meshes.h"

namespace {

using namespace rebound;

cases::Case load(const std::string& name, int refinement, double resolution) {
  cases::Case c = cases::load_case(std::string(REBOUND_SOURCE_DIR) + "/cases/" + name + ".json");
  nlohmann::json document = c.raw;
  document["fem"]["refinement"] = refinement;
  document["fem"]["contact_resolution"] = resolution;
  return cases::parse_case(document, c.source);
}

// What the test reads back from the deck.
struct Deck {
  std::string element_type;
  std::map<long, std::array<double, 3>> nodes;
  std::vector<std::vector<long>> elements;
  struct Equation {
    std::vector<long> node;
    std::vector<int> dof;
    std::vector<double> coefficient;
  };
  std::vector<Equation> equations;
  std::map<std::string, std::vector<long>> node_sets;
  std::vector<std::pair<long, int>> contact_faces;  // element, face number
  std::vector<std::string> velocity_lines;
};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  std::string field;
  while (std::getline(in, field, ',')) {
    const auto b = field.find_first_not_of(" \t"), e = field.find_last_not_of(" \t\r");
    if (b != std::string::npos) fields.push_back(field.substr(b, e - b + 1));
  }
  return fields;
}

Deck parse(const std::string& text) {
  Deck deck;
  std::stringstream in(text);
  std::string line, keyword, set_name;
  std::vector<long> pending;  // element data continued over lines
  int equation_terms = 0;
  while (std::getline(in, line)) {
    if (line.rfind("**", 0) == 0) continue;
    if (line.rfind("*", 0) == 0) {
      const auto fields = split(line);
      keyword = fields[0];
      for (const auto& f : fields) {
        if (f.rfind("TYPE=", 0) == 0 && keyword == "*ELEMENT") deck.element_type = f.substr(5);
        if (f.rfind("NSET=", 0) == 0) set_name = f.substr(5);
      }
      continue;
    }
    const auto fields = split(line);
    if (keyword == "*NODE") {
      deck.nodes[std::stol(fields[0])] = {
          {std::stod(fields[1]), std::stod(fields[2]), std::stod(fields[3])}};
    } else if (keyword == "*ELEMENT") {
      for (const auto& f : fields) pending.push_back(std::stol(f));
      const std::size_t n = deck.element_type == "C3D8" ? 9 : 21;
      if (pending.size() == n) {
        deck.elements.emplace_back(pending.begin() + 1, pending.end());
        pending.clear();
      }
    } else if (keyword == "*NSET") {
      for (const auto& f : fields) deck.node_sets[set_name].push_back(std::stol(f));
    } else if (keyword == "*EQUATION") {
      if (equation_terms == 0) {
        equation_terms = std::stoi(fields[0]);
        deck.equations.emplace_back();
        continue;
      }
      auto& eq = deck.equations.back();
      for (std::size_t i = 0; i + 2 < fields.size(); i += 3) {
        eq.node.push_back(std::stol(fields[i]));
        eq.dof.push_back(std::stoi(fields[i + 1]));
        eq.coefficient.push_back(std::stod(fields[i + 2]));
        --equation_terms;
      }
    } else if (keyword == "*SURFACE") {
      deck.contact_faces.emplace_back(std::stol(fields[0]), std::stoi(fields[1].substr(1)));
    } else if (keyword == "*INITIAL CONDITIONS") {
      deck.velocity_lines.push_back(line);
    }
  }
  return deck;
}

// Natural coordinates of the Abaqus C3D8/C3D20 nodes and their shape function gradients, written
// out independently of meshes/abaqus_inp.cpp.
const double kXi[20][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}, {-1, -1, 1},
                           {1, -1, 1},   {1, 1, 1},   {-1, 1, 1}, {0, -1, -1}, {1, 0, -1},
                           {0, 1, -1},   {-1, 0, -1}, {0, -1, 1}, {1, 0, 1},   {0, 1, 1},
                           {-1, 0, 1},   {-1, -1, 0}, {1, -1, 0}, {1, 1, 0},   {-1, 1, 0}};

// d N_a / d x_d, by the product rule on N = prod_e f_e(x_e) (times the corner factor for C3D20).
double shape_derivative(unsigned a, unsigned n, int d, const double x[3]) {
  const double* c = kXi[a];
  double f[3], df[3];
  for (int e = 0; e < 3; ++e) {
    if (n == 20 && a >= 8 && c[e] == 0) {
      f[e] = 1 - x[e] * x[e], df[e] = -2 * x[e];
    } else {
      f[e] = 1 + c[e] * x[e], df[e] = c[e];
    }
  }
  const int e1 = (d + 1) % 3, e2 = (d + 2) % 3;
  if (n == 8) return 0.125 * df[d] * f[e1] * f[e2];
  if (a >= 8) return 0.25 * df[d] * f[e1] * f[e2];
  const double s = c[0] * x[0] + c[1] * x[1] + c[2] * x[2] - 2;
  return 0.125 * (df[d] * f[e1] * f[e2] * s + f[d] * f[e1] * f[e2] * c[d]);
}

double det_j(const Deck& deck, const std::vector<long>& element, const double x[3]) {
  double J[3][3] = {};
  for (unsigned a = 0; a < element.size(); ++a) {
    const auto& p = deck.nodes.at(element[a]);
    for (int d = 0; d < 3; ++d) {
      const double g = shape_derivative(a, unsigned(element.size()), d, x);
      for (int r = 0; r < 3; ++r) J[r][d] += p[r] * g;
    }
  }
  return J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
         J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
         J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
}

// Volume of the FEM's own geometry at degree p: MappingQCache(p) on the MappingQ(p) support
// points with the hanging-node constraints distributed (as fem/solver.cpp builds it).
double fem_volume(const meshes::Mesh& mesh, unsigned p) {
  const dealii::FESystem<3> fe(dealii::FE_Q<3>(p), 3);
  dealii::DoFHandler<3> dofs(*mesh.triangulation);
  dofs.distribute_dofs(fe);
  dealii::AffineConstraints<double> constraints;
  dealii::DoFTools::make_hanging_node_constraints(dofs, constraints);
  constraints.close();
  dealii::Vector<double> positions(dofs.n_dofs());
  const dealii::MappingQ<3> mapping(p);
  dealii::FEValues<3> support(mapping, fe, dealii::Quadrature<3>(fe.get_unit_support_points()),
                              dealii::update_quadrature_points);
  std::vector<dealii::types::global_dof_index> indices(fe.n_dofs_per_cell());
  for (const auto& cell : dofs.active_cell_iterators()) {
    support.reinit(cell);
    cell->get_dof_indices(indices);
    for (unsigned i = 0; i < indices.size(); ++i)
      positions(indices[i]) = support.quadrature_point(i)[fe.system_to_component_index(i).first];
  }
  constraints.distribute(positions);
  dealii::MappingQCache<3> cache(p);
  cache.initialize(mapping, dofs, positions, false);
  // A new FEValues for every cell: reusing one across cells lets deal.II 9.4's cell-similarity
  // shortcut copy the Jacobians of the previous cell when the two cells' *triangulation* vertices
  // are translates, which with MappingQCache's moved hanging points gives wrong volumes (measured
  // on rod-lai-a, refinement 0: 4 of 2506 cells, +2.1e-4 of the total volume at p = 1).
  double volume = 0;
  for (const auto& cell : dofs.active_cell_iterators()) {
    dealii::FEValues<3> values(cache, fe, dealii::QGauss<3>(p + 2), dealii::update_JxW_values);
    values.reinit(cell);
    for (unsigned q = 0; q < values.n_quadrature_points; ++q) volume += values.JxW(q);
  }
  return volume;
}

// Hanging nodes of the C3D8/C3D20 mesh counted from deal.II's FE_Q(p) hanging-node constraints:
// the constrained vertex and line dofs, except those constrained to equal one coarse line dof
// (for p = 2 the fine vertex at a coarse edge's midpoint, which C3D20 shares with the coarse
// element as its edge node).
std::size_t dealii_hanging_nodes(const meshes::Mesh& mesh, unsigned p) {
  const dealii::FE_Q<3> fe(p);
  dealii::DoFHandler<3> dofs(*mesh.triangulation);
  dofs.distribute_dofs(fe);
  dealii::AffineConstraints<double> constraints;
  dealii::DoFTools::make_hanging_node_constraints(dofs, constraints);
  constraints.close();
  std::set<dealii::types::global_dof_index> vertex_dofs, line_dofs;
  for (const auto& cell : dofs.active_cell_iterators()) {
    for (const unsigned v : cell->vertex_indices())
      vertex_dofs.insert(cell->vertex_dof_index(v, 0));
    if (p == 2)
      for (unsigned l = 0; l < 12; ++l) line_dofs.insert(cell->line(l)->dof_index(0));
  }
  std::size_t count = 0;
  for (const auto& set : {vertex_dofs, line_dofs})
    for (const auto dof : set) {
      if (!constraints.is_constrained(dof)) continue;
      const auto* entries = constraints.get_constraint_entries(dof);
      const bool same_as_coarse_line = entries->size() == 1 && (*entries)[0].second == 1.0 &&
                                       line_dofs.count((*entries)[0].first);
      if (!same_as_coarse_line) ++count;
    }
  return count;
}

void check_deck(const std::string& name, int refinement, double resolution, unsigned degree,
                double volume_tolerance) {
  const cases::Case c = load(name, refinement, resolution);
  const meshes::Mesh mesh = meshes::build_mesh(c, 0, MPI_COMM_SELF);
  meshes::InpOptions options;
  options.degree = degree;
  std::stringstream out;
  const meshes::InpSummary s = meshes::write_inp(c, mesh, options, out);
  const Deck deck = parse(out.str());
  // CalculiX reads at most 132 characters a line and 20 a number (Fortran f20.0)
  {
    std::stringstream lines(out.str());
    std::string line;
    while (std::getline(lines, line)) {
      ASSERT_LE(line.size(), 132u) << line;
      if (line[0] == '*') continue;
      for (const auto& field : split(line)) ASSERT_LE(field.size(), 20u) << line;
    }
  }
  const auto& tria = *mesh.triangulation;
  const double R = c.body.radius;
  SCOPED_TRACE(name + " degree " + std::to_string(degree) + ": " +
               std::to_string(deck.elements.size()) + " elements");

  // counts
  EXPECT_EQ(deck.element_type, degree == 1 ? "C3D8" : "C3D20");
  const std::size_t expected_nodes =
      tria.n_used_vertices() + (degree == 2 ? tria.n_active_lines() : 0);
  EXPECT_EQ(deck.nodes.size(), expected_nodes);
  EXPECT_EQ(deck.nodes.rbegin()->first, long(expected_nodes));  // numbered 1..N
  EXPECT_EQ(deck.elements.size(), tria.n_active_cells());
  EXPECT_EQ(s.nodes, expected_nodes);
  EXPECT_EQ(s.elements, tria.n_active_cells());

  // every element right-handed at all 27 Gauss points, volumes summing to the FEM's
  const double g[3] = {-std::sqrt(0.6), 0.0, std::sqrt(0.6)}, w[3] = {5.0 / 9, 8.0 / 9, 5.0 / 9};
  double volume = 0, min_det = INFINITY;
  for (const auto& element : deck.elements) {
    ASSERT_EQ(element.size(), degree == 1 ? 8u : 20u);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) {
          const double x[3] = {g[i], g[j], g[k]};
          const double det = det_j(deck, element, x);
          min_det = std::min(min_det, det);
          volume += det * w[i] * w[j] * w[k];
        }
  }
  EXPECT_GT(min_det, 0.0);
  const double reference = fem_volume(mesh, degree);
  EXPECT_LT(std::abs(volume - reference) / reference, volume_tolerance)
      << "deck " << volume << " FEM " << reference;
  EXPECT_NEAR(s.volume, volume, 1e-9 * reference);
  std::printf(
      "  %s p=%u: %zu nodes, %zu elements, %zu equations, volume %.12g, FEM %.12g "
      "(%+.2e), exact %.12g\n",
      name.c_str(), degree, deck.nodes.size(), deck.elements.size(), deck.equations.size(), volume,
      reference, (volume - reference) / reference, mesh.statistics.volume_exact);

  // hanging nodes: 3 equations each; each a partition of unity that places the node
  const std::size_t hanging = dealii_hanging_nodes(mesh, degree);
  EXPECT_GT(hanging, 0u) << "the test mesh should have hanging nodes";
  EXPECT_EQ(deck.equations.size(), 3 * hanging);
  EXPECT_EQ(s.hanging_nodes, hanging);
  std::set<long> dependent;
  for (const auto& eq : deck.equations) {
    ASSERT_GE(eq.node.size(), 3u);
    EXPECT_EQ(eq.coefficient[0], 1.0);
    dependent.insert(eq.node[0]);
    double sum = 0;
    std::array<double, 3> x{};
    for (std::size_t t = 1; t < eq.node.size(); ++t) {
      EXPECT_EQ(eq.dof[t], eq.dof[0]);
      EXPECT_NE(eq.node[t], eq.node[0]);
      sum -= eq.coefficient[t];
      for (int d = 0; d < 3; ++d) x[d] -= eq.coefficient[t] * deck.nodes.at(eq.node[t])[d];
    }
    EXPECT_NEAR(sum, 1.0, 1e-14);
    // the coordinates are written with 14 significant digits
    for (int d = 0; d < 3; ++d) EXPECT_NEAR(x[d], deck.nodes.at(eq.node[0])[d], 1e-13 * R);
  }
  EXPECT_EQ(dependent.size(), hanging);
  EXPECT_EQ(deck.node_sets.at("NHANG").size(), hanging);
  for (const auto& eq : deck.equations)
    for (std::size_t t = 1; t < eq.node.size(); ++t) EXPECT_EQ(dependent.count(eq.node[t]), 0u);

  // contact surface: Abaqus faces S1: 1-2-3-4, S2: 5-8-7-6, S3: 1-5-6-2, S4: 2-6-7-3,
  // S5: 3-7-8-4, S6: 4-8-5-1 (numbered so that the right-hand normal points into the element).
  // A face of SCONTACT must lie on the sphere (its 4 corners on the cap, the element's other 4
  // inside) and near P.
  const int faces[6][4] = {{0, 1, 2, 3}, {4, 7, 6, 5}, {0, 4, 5, 1},
                           {1, 5, 6, 2}, {2, 6, 7, 3}, {3, 7, 4, 0}};
  ASSERT_GT(deck.contact_faces.size(), 0u);
  EXPECT_EQ(deck.contact_faces.size(), s.contact_faces);
  const std::vector<long>& contact_nodes = deck.node_sets.at("NCONTACT");
  const std::set<long> contact_set(contact_nodes.begin(), contact_nodes.end());
  const auto& C = mesh.placement.contact_cap_centre;
  const auto radius = [&](long node) {
    const auto& x = deck.nodes.at(node);
    return std::hypot(x[0] - C[0], x[1] - C[1], x[2] - C[2]);
  };
  for (const auto& [element, label] : deck.contact_faces) {
    SCOPED_TRACE("element " + std::to_string(element) + " S" + std::to_string(label));
    const auto& e = deck.elements.at(element - 1);
    std::set<int> on_face;
    std::array<std::array<double, 3>, 4> p;
    std::array<double, 3> centre{}, centroid{};
    for (int k = 0; k < 4; ++k) {
      const long node = e[faces[label - 1][k]];
      on_face.insert(faces[label - 1][k]);
      p[k] = deck.nodes.at(node);
      EXPECT_EQ(contact_set.count(node), 1u);
      // a hanging node lies on its coarse face's chord (sag below 1e-3 R on these meshes)
      EXPECT_NEAR(radius(node), R, (dependent.count(node) ? 1e-3 : 1e-12) * R) << "node " << node;
      for (int d = 0; d < 3; ++d) centre[d] += 0.25 * p[k][d];
    }
    for (int k = 0; k < 8; ++k) {
      if (!on_face.count(k)) {
        EXPECT_LT(radius(e[k]), R * (1 - 1e-6));
      }
      for (int d = 0; d < 3; ++d) centroid[d] += 0.125 * deck.nodes.at(e[k])[d];
    }
    std::array<double, 3> a{}, b{};
    for (int d = 0; d < 3; ++d) a[d] = p[2][d] - p[0][d], b[d] = p[3][d] - p[1][d];
    const std::array<double, 3> n = {
        {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}};
    EXPECT_GT(n[0] * (centroid[0] - centre[0]) + n[1] * (centroid[1] - centre[1]) +
                  n[2] * (centroid[2] - centre[2]),
              0.0);
    EXPECT_LT(std::hypot(centre[0], centre[1], centre[2]), s.contact_surface_radius * (1 + 1e-9));
  }
  ASSERT_EQ(deck.node_sets.at("NP").size(), 1u);
  const auto& P = deck.nodes.at(deck.node_sets.at("NP")[0]);
  EXPECT_EQ(std::hypot(P[0], P[1], P[2]), 0.0);

  // the case's rigid-body start v_G + omega z x (x - G): one line per component without spin,
  // else per node and component
  const cases::Derived d = cases::derive(c);
  if (d.spin == 0) {
    ASSERT_EQ(deck.velocity_lines.size(), 3u);
    EXPECT_EQ(std::stod(split(deck.velocity_lines[1])[2]), d.centre_velocity.y());
  } else {
    ASSERT_EQ(deck.velocity_lines.size(), 3 * deck.nodes.size());
    const auto& G = d.body.centre_of_mass;
    for (std::size_t i = 0; i < deck.velocity_lines.size(); ++i) {
      const auto fields = split(deck.velocity_lines[i]);
      const auto& x = deck.nodes.at(std::stol(fields[0]));
      const int dof = std::stoi(fields[1]);
      const double v = dof == 1   ? d.centre_velocity.x() - d.spin * (x[1] - G[1])
                       : dof == 2 ? d.centre_velocity.y() + d.spin * (x[0] - G[0])
                                  : 0.0;
      EXPECT_NEAR(std::stod(fields[2]), v, 1e-12 * std::abs(d.approach_speed));
    }
  }
}

// C3D8 is the p = 1 FEM's geometry exactly. C3D20 has no face or cell centre node: its geometry
// is the serendipity interpolant of the Q2 FEM's, which differs on large curved cells (measured:
// -5.2e-5 of the volume on the small Hertz mesh, -1.5e-3 on the coarse rod).
TEST(AbaqusInp, SmallHertzC3D8) {
  check_deck("hertz-steel-sphere", 2, 2, 1, 1e-12);
}
TEST(AbaqusInp, SmallHertzC3D20) {
  check_deck("hertz-steel-sphere", 2, 2, 2, 1e-4);
}
// the snapped contact vertex and the cylinder of a capsule
TEST(AbaqusInp, RodC3D8) {
  check_deck("rod-lai-a", 0, 2, 1, 1e-12);
}
TEST(AbaqusInp, RodC3D20) {
  check_deck("rod-lai-a", 0, 2, 2, 2e-3);
}

TEST(AbaqusInp, RejectsBadDegree) {
  const cases::Case c = load("hertz-steel-sphere", 0, 1);
  const meshes::Mesh mesh = meshes::build_mesh(c, 0, MPI_COMM_SELF);
  meshes::InpOptions options;
  options.degree = 3;
  std::stringstream out;
  EXPECT_THROW(meshes::write_inp(c, mesh, options, out), std::invalid_argument);
}

}  // namespace
