// Mesh statistics (mass distribution with a MappingQ, sizes, quality, dofs, time step) and the
// VTU output of a mesh.
#include <deal.II/base/mpi.h>
#include <deal.II/base/quadrature_lib.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_system.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/fe/mapping_q.h>
#include <deal.II/fe/mapping_q_cache.h>
#include <deal.II/grid/tria_accessor.h>
#include <deal.II/lac/vector.h>
#include <deal.II/numerics/data_out.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "meshes/meshes.h"

namespace rebound::meshes {

namespace {

// Vertices and Gauss points of the reference cell (weights unused).
dealii::Quadrature<3> quality_points(unsigned int gauss) {
  const dealii::QTrapezoid<3> vertices;
  const dealii::QGauss<3> interior(gauss);
  std::vector<dealii::Point<3>> points = vertices.get_points();
  points.insert(points.end(), interior.get_points().begin(), interior.get_points().end());
  return dealii::Quadrature<3>(points, std::vector<double>(points.size(), 1.0 / points.size()));
}

unsigned long long vector_dofs(const Triangulation& triangulation, unsigned int degree) {
  dealii::DoFHandler<3> dofs(triangulation);
  dofs.distribute_dofs(dealii::FESystem<3>(dealii::FE_Q<3>(degree), 3));
  return dofs.n_dofs();
}

void write_text(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + temporary);
  }
  std::filesystem::rename(temporary, path);
}

}  // namespace

std::vector<double> jacobian_ratios(const dealii::Mapping<3>& mapping,
                                    const Triangulation& triangulation, double* min_jacobian) {
  const dealii::FE_Q<3> fe(1);
  dealii::FEValues<3> values(mapping, fe, quality_points(3), dealii::update_jacobians);
  std::vector<double> ratio(triangulation.n_active_cells(), 0.0);
  double smallest = std::numeric_limits<double>::max();
  for (const auto& cell : triangulation.active_cell_iterators()) {
    if (!cell->is_locally_owned()) continue;
    values.reinit(cell);
    double low = std::numeric_limits<double>::max(), high = -low;
    for (const unsigned q : values.quadrature_point_indices()) {
      const double det = dealii::determinant(dealii::Tensor<2, 3>(values.jacobian(q)));
      low = std::min(low, det);
      high = std::max(high, det);
    }
    smallest = std::min(smallest, low);
    ratio[cell->active_cell_index()] = high > 0 ? low / high : low;
  }
  if (min_jacobian)
    *min_jacobian = dealii::Utilities::MPI::min(smallest, triangulation.get_communicator());
  return ratio;
}

MeshStatistics compute_statistics(const cases::Case& c, const Placement& placement,
                                  const MeshOptions& options, const Triangulation& triangulation,
                                  unsigned int mapping_degree, std::vector<double>* cell_quality) {
  MPI_Comm comm = triangulation.get_communicator();
  MeshStatistics s;
  const cases::Derived exact = cases::derive(c);
  s.cells = triangulation.n_global_active_cells();
  s.coarse_cells = triangulation.n_cells(0);
  s.global_levels = options.global_levels;
  s.extra_levels = options.extra_levels;
  s.max_level = int(triangulation.n_global_levels()) - 1;
  s.ranks = int(dealii::Utilities::MPI::n_mpi_processes(comm));
  s.mapping_degree = mapping_degree;

  // Mass distribution: integrals of 1, x and (x-g0)(x-g0)^T about the exact centroid g0, summed
  // over the locally owned cells of all ranks.
  // The support points of MappingQ (through the transfinite manifold: a Newton solve per point)
  // are computed once for both passes.
  dealii::MappingQCache<3> mapping(mapping_degree);
  mapping.initialize(dealii::MappingQ<3>(mapping_degree), triangulation);
  const dealii::FE_Q<3> fe(1);
  dealii::FEValues<3> values(mapping, fe, dealii::QGauss<3>(mapping_degree + 2),
                             dealii::update_quadrature_points | dealii::update_JxW_values);
  const Eigen::Vector3d g0 = exact.body.centre_of_mass;
  std::array<double, 13> moments{};  // volume, first moments (3), second moments (9)
  double h_min = std::numeric_limits<double>::max(), h_max = 0, h_contact = 0;
  double edge_min = std::numeric_limits<double>::max(), lowest = edge_min;
  for (const auto& cell : triangulation.active_cell_iterators()) {
    if (!cell->is_locally_owned()) continue;
    const double h = cell->diameter();
    h_min = std::min(h_min, h);
    h_max = std::max(h_max, h);
    edge_min = std::min(edge_min, cell->minimum_vertex_distance());
    if (distance_to_contact(placement, cell) <= options.contact_radius)
      h_contact = std::max(h_contact, h);
    // The mass distribution is the body's (a target body's cells only size the mesh).
    if (cell->material_id() != body_ids::body) continue;
    values.reinit(cell);
    for (const unsigned q : values.quadrature_point_indices()) {
      const auto& x = values.quadrature_point(q);
      const Eigen::Vector3d r = Eigen::Vector3d(x[0], x[1], x[2]) - g0;
      const double w = values.JxW(q);
      moments[0] += w;
      for (int i = 0; i < 3; ++i) {
        moments[1 + i] += w * r[i];
        for (int j = 0; j < 3; ++j) moments[4 + 3 * i + j] += w * r[i] * r[j];
      }
    }
    for (const unsigned v : cell->vertex_indices()) lowest = std::min(lowest, cell->vertex(v)[1]);
  }
  dealii::Utilities::MPI::sum(dealii::ArrayView<const double>(moments.data(), moments.size()), comm,
                              dealii::ArrayView<double>(moments.data(), moments.size()));
  s.h_min = dealii::Utilities::MPI::min(h_min, comm);
  s.edge_min = dealii::Utilities::MPI::min(edge_min, comm);
  s.h_max = dealii::Utilities::MPI::max(h_max, comm);
  s.h_contact = dealii::Utilities::MPI::max(h_contact, comm);
  s.lowest_vertex = dealii::Utilities::MPI::min(lowest, comm);

  const double rho = c.material.density;
  s.volume = moments[0];
  s.mass = rho * s.volume;
  const Eigen::Vector3d shift = Eigen::Vector3d(moments[1], moments[2], moments[3]) / s.volume;
  s.centroid = g0 + shift;
  Eigen::Matrix3d second;  // about g0, per unit density
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) second(i, j) = moments[4 + 3 * i + j];
  // about the mesh's own centroid (parallel axis theorem)
  second -= s.volume * shift * shift.transpose();
  s.inertia_central = rho * (second.trace() * Eigen::Matrix3d::Identity() - second);

  // Planar inertia from the mesh (THEORY §2): m_B, k about b = z, |PG| and its angle.
  const Eigen::Vector3d& g = s.centroid;  // G - P, P at the origin
  s.contact_offset = std::hypot(g[0], g[1]);
  const double angle = std::atan2(-g[0], g[1]);
  s.radius_of_gyration = std::sqrt(s.inertia_central(2, 2) / s.mass);
  const cases::PlanarInertia planar = cases::planar_inertia(
      cases::inverse_inertia_generalized(s.mass, s.radius_of_gyration, s.contact_offset, angle));
  s.lambda = planar.lambda;
  s.theta = planar.theta;

  s.volume_exact = exact.body.volume;
  s.mass_exact = exact.body.mass;
  s.centroid_exact = exact.body.centre_of_mass;
  s.inertia_exact = exact.body.central_inertia;
  s.lambda_exact = exact.geometry.lambda;
  s.theta_exact = exact.geometry.theta;
  s.contact_offset_exact = exact.body.contact_offset;
  s.radius_of_gyration_exact = exact.body.radius_of_gyration;

  s.a_max = options.contact_radius;
  s.contact_resolution = options.contact_resolution;
  s.h_contact_target = options.contact_radius / options.contact_resolution;

  {
    const std::vector<double> ratio = jacobian_ratios(mapping, triangulation, &s.min_jacobian);
    double low = std::numeric_limits<double>::max();
    for (const auto& cell : triangulation.active_cell_iterators())
      if (cell->is_locally_owned()) low = std::min(low, ratio[cell->active_cell_index()]);
    s.min_jacobian_ratio = dealii::Utilities::MPI::min(low, comm);
    double low_contact = 1.0;  // cells within 3 a_max of P
    for (const auto& cell : triangulation.active_cell_iterators())
      if (cell->is_locally_owned() &&
          distance_to_contact(placement, cell) <= 3.0 * options.contact_radius)
        low_contact = std::min(low_contact, ratio[cell->active_cell_index()]);
    s.min_jacobian_ratio_contact = dealii::Utilities::MPI::min(low_contact, comm);
    if (cell_quality) *cell_quality = ratio;
  }

  s.dofs_q1 = vector_dofs(triangulation, 1);
  s.dofs_q2 = vector_dofs(triangulation, 2);
  s.vertices = s.dofs_q1 / 3;  // one Q1 node per vertex, hanging vertices included

  // Explicit central differences with a lumped mass: dt_crit ~ h_edge / (sqrt(3) c_p) for Q1
  // hexahedra, and ~1/p^2 of it for degree p (a conservative estimate; the FEM should confirm
  // with the largest eigenvalue of M^-1 K).
  const double E = c.material.young_modulus, nu = c.material.poisson_ratio;
  s.wave_speed = std::sqrt(E * (1 - nu) / (rho * (1 + nu) * (1 - 2 * nu)));
  s.contact_duration = exact.hertz.duration;
  s.cfl = options.cfl;
  {
    std::vector<unsigned long long> levels(64, 0);
    int top = 0;
    for (const auto& cell : triangulation.active_cell_iterators()) {
      if (!cell->is_locally_owned()) continue;
      const double ratio = cell->minimum_vertex_distance() / s.edge_min;
      const int k = std::clamp(int(std::floor(std::log2(ratio))), 0, 63);
      levels[k] += 1;
      top = std::max(top, k);
    }
    top = dealii::Utilities::MPI::max(top, comm);
    levels.resize(std::size_t(top) + 1);
    dealii::Utilities::MPI::sum(dealii::ArrayView<const unsigned long long>(levels), comm,
                                dealii::ArrayView<unsigned long long>(levels));
    s.time_step_levels = levels;
  }
  for (int p = 1; p <= 2; ++p) {
    s.stable_time_step_estimate[p - 1] =
        options.cfl * s.edge_min / (std::sqrt(3.0) * p * p * s.wave_speed);
    s.steps_for_contact[p - 1] = s.contact_duration / s.stable_time_step_estimate[p - 1];
  }
  return s;
}

std::string write_vtu(const Mesh& mesh, const std::string& directory) {
  namespace fs = std::filesystem;
  const Triangulation& tria = *mesh.triangulation;
  MPI_Comm comm = tria.get_communicator();
  const unsigned rank = dealii::Utilities::MPI::this_mpi_process(comm);
  const unsigned ranks = dealii::Utilities::MPI::n_mpi_processes(comm);
  if (rank == 0) {
    fs::create_directories(directory);
    // stale files of the other variant (serial <-> parallel) or of more ranks
    const std::regex piece(R"(mesh\.(\d+)\.vtu)");
    for (const auto& entry : fs::directory_iterator(directory)) {
      const std::string name = entry.path().filename().string();
      std::smatch match;
      const bool is_piece = std::regex_match(name, match, piece);
      const bool stale =
          ranks == 1 ? (name == "mesh.pvtu" || is_piece)
                     : (name == "mesh.vtu" || (is_piece && std::stoul(match[1].str()) >= ranks));
      if (stale) fs::remove(entry.path());
    }
  }
  MPI_Barrier(comm);

  const std::vector<double> ratio =
      mesh.cell_quality.size() == tria.n_active_cells()
          ? mesh.cell_quality
          : jacobian_ratios(dealii::MappingQ<3>(mesh.statistics.mapping_degree), tria);
  dealii::Vector<float> level(tria.n_active_cells()), diameter(tria.n_active_cells()),
      quality(tria.n_active_cells()), subdomain(tria.n_active_cells());
  for (const auto& cell : tria.active_cell_iterators()) {
    if (!cell->is_locally_owned()) continue;
    const auto i = cell->active_cell_index();
    level[i] = float(cell->level());
    diameter[i] = float(cell->diameter());
    quality[i] = float(ratio[i]);
    subdomain[i] = float(cell->subdomain_id());
  }
  dealii::DataOut<3> out;
  out.attach_triangulation(tria);
  out.add_data_vector(level, "level", dealii::DataOut<3>::type_cell_data);
  out.add_data_vector(diameter, "diameter", dealii::DataOut<3>::type_cell_data);
  out.add_data_vector(quality, "quality", dealii::DataOut<3>::type_cell_data);
  out.add_data_vector(subdomain, "subdomain", dealii::DataOut<3>::type_cell_data);
  out.build_patches();

  std::ostringstream text;
  if (ranks == 1) {
    out.write_vtu(text);
    write_text((fs::path(directory) / "mesh.vtu").string(), text.str());
    return "mesh.vtu";
  }
  out.write_vtu(text);
  write_text((fs::path(directory) / ("mesh." + std::to_string(rank) + ".vtu")).string(),
             text.str());
  if (rank == 0) {
    std::vector<std::string> pieces;
    for (unsigned r = 0; r < ranks; ++r) pieces.push_back("mesh." + std::to_string(r) + ".vtu");
    std::ostringstream record;
    out.write_pvtu_record(record, pieces);
    write_text((fs::path(directory) / "mesh.pvtu").string(), record.str());
  }
  MPI_Barrier(comm);
  return "mesh.pvtu";
}

namespace {
nlohmann::json vector_json(const Eigen::Vector3d& v) {
  return {v[0], v[1], v[2]};
}
nlohmann::json matrix_json(const Eigen::Matrix3d& m) {
  nlohmann::json rows = nlohmann::json::array();
  for (int i = 0; i < 3; ++i) rows.push_back({m(i, 0), m(i, 1), m(i, 2)});
  return rows;
}
}  // namespace

nlohmann::json to_json(const MeshStatistics& s) {
  nlohmann::json j;
  j["cells"] = s.cells;
  j["vertices"] = s.vertices;
  j["coarse_cells"] = s.coarse_cells;
  j["global_levels"] = s.global_levels;
  j["extra_levels"] = s.extra_levels;
  j["max_level"] = s.max_level;
  j["dofs_q1"] = s.dofs_q1;
  j["dofs_q2"] = s.dofs_q2;
  j["mapping_degree"] = s.mapping_degree;
  j["volume"] = s.volume;
  j["volume_exact"] = s.volume_exact;
  j["mass"] = s.mass;
  j["mass_exact"] = s.mass_exact;
  j["centroid"] = vector_json(s.centroid);
  j["centroid_exact"] = vector_json(s.centroid_exact);
  j["inertia_central"] = matrix_json(s.inertia_central);
  j["inertia_central_exact"] = matrix_json(s.inertia_exact);
  j["lambda"] = s.lambda;
  j["theta"] = s.theta;
  j["lambda_exact"] = s.lambda_exact;
  j["theta_exact"] = s.theta_exact;
  j["contact_offset"] = s.contact_offset;
  j["contact_offset_exact"] = s.contact_offset_exact;
  j["radius_of_gyration"] = s.radius_of_gyration;
  j["radius_of_gyration_exact"] = s.radius_of_gyration_exact;
  j["h_min"] = s.h_min;
  j["h_max"] = s.h_max;
  j["h_contact"] = s.h_contact;
  j["h_contact_target"] = s.h_contact_target;
  j["edge_min"] = s.edge_min;
  j["a_max"] = s.a_max;
  j["contact_resolution"] = s.contact_resolution;
  j["contact_vertex_shift"] = s.contact_vertex_shift;
  j["lowest_vertex"] = s.lowest_vertex;
  j["min_jacobian_ratio"] = s.min_jacobian_ratio;
  j["min_jacobian_ratio_contact"] = s.min_jacobian_ratio_contact;
  j["min_jacobian"] = s.min_jacobian;
  j["wave_speed"] = s.wave_speed;
  j["contact_duration"] = s.contact_duration;
  j["cfl"] = s.cfl;
  j["stable_time_step_estimate"] = {{"p1", s.stable_time_step_estimate[0]},
                                    {"p2", s.stable_time_step_estimate[1]}};
  j["steps_for_contact"] = {{"p1", s.steps_for_contact[0]}, {"p2", s.steps_for_contact[1]}};
  j["time_step_levels"] = s.time_step_levels;
  j["ranks"] = s.ranks;
  j["seconds"] = s.seconds;
  return j;
}

cases::MassProperties mass_properties(const MeshStatistics& s, const Placement& placement) {
  cases::MassProperties m;
  m.volume = s.volume;
  m.mass = s.mass;
  m.radius_of_gyration = s.radius_of_gyration;
  m.contact_offset = s.contact_offset;
  m.contact_radius = placement.radius;
  m.centre_of_mass = s.centroid;
  m.central_inertia = s.inertia_central;
  m.body_axis = placement.shape == cases::Shape::capsule
                    ? Eigen::Vector3d(placement.axis[0], placement.axis[1], placement.axis[2])
                    : Eigen::Vector3d::UnitZ();
  return m;
}

}  // namespace rebound::meshes
