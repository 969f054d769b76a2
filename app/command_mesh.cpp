// rebound mesh CASE [-o DIR] [--level K] : build the FEM mesh of a case (also under mpirun).
#include <deal.II/base/mpi.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>

#include "app/cli.h"
#include "app/commands.h"
#include "app/mpi_session.h"
#include "app/verbose.h"
#include "cases/case.h"
#include "cases/derived.h"
#include "fem/targets/target.h"
#include "meshes/meshes.h"
#include "observables/files.h"

namespace rebound::app {
namespace {

double relative(double value, double exact) {
  return exact != 0 ? (value - exact) / std::abs(exact) : value;
}

void print_table(const cases::Case& c, const meshes::MeshStatistics& s, const std::string& file) {
  const auto row = [](const char* label, double value, const char* unit) {
    std::printf("  %-30s %-14.6g %s\n", label, value, unit);
  };
  const auto compare = [](const char* label, double value, double exact, const char* unit) {
    std::printf("  %-30s %-14.8g exact %-14.8g (%+.3e) %s\n", label, value, exact,
                relative(value, exact), unit);
  };
  std::printf("%s  (%s)  %s mesh, %d rank%s, %.2f s\n", c.name.c_str(), c.source.c_str(),
              cases::to_string(c.body.shape), s.ranks, s.ranks == 1 ? "" : "s", s.seconds);
  std::printf(" Mesh\n");
  std::printf("  %-30s %llu (coarse %llu, global levels %d, --level %d, max level %d)\n", "cells",
              s.cells, s.coarse_cells, s.global_levels, s.extra_levels, s.max_level);
  std::printf("  %-30s %llu\n", "vertices", s.vertices);
  std::printf("  %-30s %llu (Q1) / %llu (Q2)\n", "dofs (3 components)", s.dofs_q1, s.dofs_q2);
  std::printf(" Mass distribution (MappingQ%u, Gauss)\n", s.mapping_degree);
  compare("volume", s.volume, s.volume_exact, "m^3");
  compare("mass", s.mass, s.mass_exact, "kg");
  std::printf("  %-30s (%.6g, %.6g, %.6g) exact (%.6g, %.6g, %.6g) m\n", "centroid G - P",
              s.centroid[0], s.centroid[1], s.centroid[2], s.centroid_exact[0], s.centroid_exact[1],
              s.centroid_exact[2]);
  const auto& I = s.inertia_central;
  std::printf("  %-30s [[%.5g, %.5g, %.5g], [%.5g, %.5g, %.5g], [%.5g, %.5g, %.5g]] kg m^2\n",
              "central inertia", I(0, 0), I(0, 1), I(0, 2), I(1, 0), I(1, 1), I(1, 2), I(2, 0),
              I(2, 1), I(2, 2));
  compare("I_bb (about z)", I(2, 2), s.inertia_exact(2, 2), "kg m^2");
  compare("|PG|", s.contact_offset, s.contact_offset_exact, "m");
  compare("lambda", s.lambda, s.lambda_exact, "");
  std::printf("  %-30s %-14.8g exact %-14.8g (%+.3e) rad\n", "theta", s.theta, s.theta_exact,
              s.theta - s.theta_exact);
  std::printf(" Sizes (cell diameters)\n");
  row("h_min", s.h_min, "m");
  row("h_max", s.h_max, "m");
  row("shortest edge", s.edge_min, "m");
  row("a_max (Hertz)", s.a_max, "m");
  std::printf("  %-30s %-14.6g target a_max/%g = %.6g m\n", "h_contact (cells within a_max)",
              s.h_contact, s.contact_resolution, s.h_contact_target);
  row("contact vertex snap", s.contact_vertex_shift, "m");
  std::printf(" Quality\n");
  row("min Jacobian ratio", s.min_jacobian_ratio, "(min/max det J in a cell)");
  row("  within 3 a_max of P", s.min_jacobian_ratio_contact, "");
  row("min det J", s.min_jacobian, "");
  std::printf(" Explicit dynamics (dt = cfl edge_min / (sqrt 3 p^2 c_p))\n");
  row("P-wave speed c_p", s.wave_speed, "m/s");
  row("Hertz contact duration t_c", s.contact_duration, "s");
  std::printf("  %-30s %-14.6g p=2: %.6g s\n", "stable dt estimate p=1",
              s.stable_time_step_estimate[0], s.stable_time_step_estimate[1]);
  std::printf("  %-30s %-14.6g p=2: %.6g\n", "steps per contact p=1", s.steps_for_contact[0],
              s.steps_for_contact[1]);
  std::string levels;
  for (std::size_t k = 0; k < s.time_step_levels.size(); ++k)
    levels += (k ? " " : "") + std::to_string(s.time_step_levels[k]);
  std::printf("  %-30s %s (level k: shortest edge in [2^k, 2^(k+1)) edge_min)\n",
              "cells by stable step level", levels.c_str());
  std::printf(" Output: %s\n", file.c_str());
}

// The CalculiX deck (rank 0; on several ranks from the same mesh built on rank 0 alone).
void write_inp_file(const cases::Case& c, const meshes::Mesh& mesh, const std::string& file,
                    int degree, bool root, bool print) {
  if (!root) return;
  meshes::Mesh serial;
  const bool parallel = dealii::Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD) > 1;
  if (parallel) serial = meshes::build_mesh(c, mesh.options, MPI_COMM_SELF);
  const meshes::Mesh& m = parallel ? serial : mesh;
  meshes::InpOptions options;
  options.degree = unsigned(degree);
  const meshes::InpSummary s = meshes::write_inp(c, m, options, file);
  if (!print) return;
  std::printf(" CalculiX deck (%s)\n", s.element_type.c_str());
  std::printf("  %-30s %llu\n", "nodes", s.nodes);
  std::printf("  %-30s %llu\n", "elements", s.elements);
  std::printf("  %-30s %llu (%llu *EQUATION)\n", "hanging nodes", s.hanging_nodes, s.equations);
  std::printf("  %-30s %llu faces, %llu nodes (%llu hanging), within %.6g m of P\n",
              "contact surface SCONTACT", s.contact_faces, s.contact_nodes, s.contact_hanging_nodes,
              s.contact_surface_radius);
  std::printf("  %-30s %-14.8g exact %-14.8g (%+.3e) m^3\n", "volume (written nodes)", s.volume,
              m.statistics.volume_exact, relative(s.volume, m.statistics.volume_exact));
  std::printf("  %-30s %-14.6g\n", "min det J (Gauss points)", s.min_jacobian);
  std::printf(" Output: %s\n", file.c_str());
  std::fflush(stdout);
}

}  // namespace

const char* const kMeshUsage =
    R"(Usage: rebound mesh CASE [-o DIR] [--level K] [--inp FILE [--degree 1|2]]
                   [-q|--quiet | -v|--verbose]
       mpirun -np N rebound mesh CASE [...]

Builds the hexahedral FEM mesh of a sphere or capsule case on exact curved
surfaces: fem.refinement uniform levels of the coarse mesh, then local refinement
toward the contact point P until every cell within the Hertz contact radius a_max
has diameter <= a_max / fem.contact_resolution (graded outward, 2:1 balanced).
--level K refines the finished mesh K more times uniformly (every cell halves: the
refinement study; 8^K times the cells). Writes DIR/mesh/mesh.vtu (mesh.pvtu +
mesh.<rank>.vtu under MPI) with cell data level, diameter, quality, subdomain, and
DIR/mesh/summary.json, and prints the same as a table (-q: nothing). DIR defaults
to results/<case name>. -v adds, on standard error, the case as read with every
default filled and its hash, the derived quantities, the mesher's options, each
stage's wall time and the files written with their sizes. See docs/MESHES.md.

--inp FILE also writes the mesh as a CalculiX/Abaqus input deck (model data, no
*STEP): C3D8 elements for --degree 1, C3D20 (vertices and edge midpoints as the
p = 2 FEM places them) for --degree 2 (default: the case's fem.degree), *EQUATION
constraints for the hanging nodes, the contact surface SCONTACT (boundary faces
within 2 a_max of P), the material and the case's initial velocity. See
docs/FEM.md and bench/calculix_hertz.py.
)";

int command_mesh(const std::vector<std::string>& arguments) {
  const Arguments args("mesh", arguments, {"--quiet"}, {"-o", "--level", "--inp", "--degree"},
                       kMeshUsage);
  if (args.help()) return 0;
  Verbose verbose(args, "mesh");
  const int extra_levels = args.integer("--level", 0, 4).value_or(0);
  const std::optional<std::string> inp_file = args.option("--inp");
  const std::optional<int> inp_degree = args.integer("--degree", 1, 2);
  if (inp_degree && !inp_file) throw UsageError("option --degree needs --inp FILE");
  // Everything that can reject the input happens before MPI starts (exit status 2).
  const cases::Case c = cases::load_case(args.case_file());
  cases::require_fem_target(c);  // the FEM models the rigid plane only
  verbose.resolved_case(c);
  verbose.derived(c, cases::derive(c));
  meshes::MeshOptions options;
  try {
    meshes::place_body(c);
    options = fem::mesh_options(c, extra_levels);  // what the case's target needs refined
  } catch (const std::invalid_argument& error) {
    throw cases::CaseError(c.source, "body", std::string("cannot be meshed: ") + error.what());
  }
  const std::string directory = output_directory(args.option("-o"), c.name) + "/mesh";
  {
    char text[320];
    std::snprintf(text, sizeof text,
                  "mesher options: %d global levels, --level %d, a_max %.6g m, contact "
                  "resolution %g (cells within a_max <= %.6g m), grading %g, cfl %g",
                  options.global_levels, options.extra_levels, options.contact_radius,
                  options.contact_resolution, options.contact_radius / options.contact_resolution,
                  options.grading, options.cfl);
    verbose.say(text);
  }
  verbose.stage("read the case and checked it can be meshed");

  const MpiSession mpi;
  const bool root = mpi.root();
  verbose.set_root(root);

  meshes::Mesh mesh;
  try {
    mesh = meshes::build_mesh(c, options, MPI_COMM_WORLD);
  } catch (const std::invalid_argument& error) {
    throw cases::CaseError(c.source, "body", std::string("cannot be meshed: ") + error.what());
  }
  verbose.stage("mesh built");
  const std::string file = meshes::write_vtu(mesh, directory);
  if (root) {
    nlohmann::json summary = meshes::to_json(mesh.statistics);
    summary["case"] = c.name;
    summary["file"] = c.source;
    summary["shape"] = cases::to_string(c.body.shape);
    summary["fem_refinement"] = c.fem.refinement;
    summary["mesh_file"] = file;
    observables::write_file_atomically(directory + "/summary.json", summary.dump(2) + "\n");
    if (!args.flag("--quiet")) print_table(c, mesh.statistics, directory + "/" + file);
    std::fflush(stdout);
  }
  if (inp_file)
    write_inp_file(c, mesh, *inp_file, inp_degree.value_or(c.fem.degree), root,
                   !args.flag("--quiet"));
  verbose.stage("mesh and summary written");
  verbose.files(directory);
  verbose.total();
  return 0;
}

}  // namespace rebound::app
