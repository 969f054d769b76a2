// How far local time stepping could pay on steeper-graded meshes (docs/FEM.md, "Local time
// stepping"): the default mesh of a case built with other gradings of the cell size away from
// the contact zone (meshes::MeshOptions::grading: diameter <= h_c + grading (distance - a_max),
// 1 by default; not a case key), and per grading the cells, the cells by stable-step level and
// the bound cells / sum_k n_k 2^-k on the wall-time ratio any power-of-two subcycling could
// reach (meshes/meshes.h, MeshStatistics).
//   build/bin/bench_mesh_grading [CASE] [--gradings G,G,...]
#include <deal.II/base/mpi.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "cases/case.h"
#include "meshes/meshes.h"

namespace {

constexpr const char* kUsage =
    "usage: bench_mesh_grading [CASE] [--gradings G,G,...]\n"
    "  Builds CASE's FEM mesh with each grading (default 1,2,4,8; > 0) and prints its cells,\n"
    "  cells by stable-step level and the local time stepping bound. CASE defaults to\n"
    "  cases/sphere-lai-psi2.json.\n";

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "bench_mesh_grading: %s\n%s", message.c_str(), kUsage);
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) try {
  using namespace rebound;
  dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  std::string file = std::string(REBOUND_SOURCE_DIR) + "/cases/sphere-lai-psi2.json";
  std::vector<double> gradings{1, 2, 4, 8};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::printf("%s", kUsage);
      return 0;
    } else if (a == "--gradings" && i + 1 < argc) {
      gradings.clear();
      std::stringstream in(argv[++i]);
      std::string item;
      while (std::getline(in, item, ',')) {
        char* end = nullptr;
        const double g = std::strtod(item.c_str(), &end);
        if (item.empty() || *end != '\0' || !(g > 0 && g <= 1000))
          usage_error(std::string("--gradings ") + argv[i] + ": expected numbers in (0, 1000]");
        gradings.push_back(g);
      }
      if (gradings.empty()) usage_error("--gradings: no grading given");
    } else if (!a.empty() && a[0] != '-') {
      file = a;
    } else {
      usage_error("unknown option or missing value: " + a);
    }
  }
  const cases::Case c = cases::load_case(file);
  const bool root = dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0;
  if (root) {
    std::printf("%s (contact_resolution %g, refinement %d)\n", file.c_str(),
                c.fem.contact_resolution, c.fem.refinement);
    std::printf("%8s %7s %10s  %-36s %6s\n", "grading", "cells", "Q2 dofs",
                "cells by stable-step level 0, 1, ...", "bound");
  }
  for (const double g : gradings) {
    meshes::MeshOptions options = meshes::mesh_options(c, 0);
    options.grading = g;
    const meshes::Mesh mesh = meshes::build_mesh(c, options, MPI_COMM_WORLD);
    const meshes::MeshStatistics& s = mesh.statistics;
    if (!root) continue;
    std::string levels;
    for (const auto n : s.time_step_levels)
      levels += (levels.empty() ? "" : " ") + std::to_string(n);
    std::printf("%8g %7llu %10llu  %-36s %6.3f\n", g, (unsigned long long)s.cells,
                (unsigned long long)s.dofs_q2, levels.c_str(), s.local_time_stepping_bound);
  }
  return 0;
} catch (const rebound::cases::CaseError& error) {  // bad input: exit 2, as the CLI
  std::fprintf(stderr, "bench_mesh_grading: %s\n", error.what());
  return 2;
} catch (const std::exception& error) {
  std::fprintf(stderr, "bench_mesh_grading: %s\n", error.what());
  return 1;
}
