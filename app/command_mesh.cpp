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
  std::fputs(meshes::inp_table(s, m.statistics.volume_exact, file).c_str(), stdout);
  std::fflush(stdout);
}

}  // namespace

const char* const kMeshUsage =
    R"(Usage: rebound mesh CASE [-o DIR] [--level K] [--inp FILE [--degree 1|2]]
                   [-q|--quiet | -v|--verbose]
       mpirun -np N rebound mesh CASE [...]

Builds the hexahedral FEM mesh of a sphere or capsule case on exact curved
surfaces (and a deformable target's block or sphere): fem.refinement uniform
levels of the coarse mesh, then local refinement toward the contact point P until
every cell within the Hertz contact radius a_max has diameter <= a_max /
fem.contact_resolution (graded outward, 2:1 balanced).
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
within 2 a_max of P), the material and the case's initial velocity (the body
only: a rigid target's case). See docs/FEM.md and bench/calculix_hertz.py.
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
  cases::require_fem_target(c);       // a target the FEM models (fem_target_problem)
  if (inp_file && !c.target.rigid())  // meshes::write_inp writes the body's cells only
    throw cases::CaseError(c.source, c.target.socket() ? "target.material" : "target.type",
                           std::string(c.target.socket() ? "is given" : "is not rigid") +
                               ": a deformable target; --inp writes a rigid target's body only");
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
    if (!args.flag("--quiet"))
      std::fputs(meshes::mesh_table(c, mesh.statistics, directory + "/" + file).c_str(), stdout);
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
