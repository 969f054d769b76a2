// How far local time stepping could pay on the meshes a case can have (docs/FEM.md, "Local time
// stepping"): the case's mesh built along three axes, one at a time, the others at the case's
// values: the grading of the cell size away from the contact zone (meshes::MeshOptions::grading:
// diameter <= h_c + grading (distance - a_max), 1 by default; not a case key), the contact
// resolution (fem.contact_resolution, the contact-zone series of `rebound refine`) and the
// uniform refinements of the coarse mesh before the contact refinement (fem.refinement, the
// h_max series). Per mesh: the cells, the cells by stable-step level and the bound
// cells / sum_k n_k 2^-k on the ratio by which any power-of-two subcycling could cut the
// internal force's work (meshes/meshes.h, MeshStatistics).
//   build/bin/bench_mesh_grading [CASE] [--gradings G,...] [--resolutions R,...]
//                                [--refinements N,...]
#include <deal.II/base/mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "cases/case.h"
#include "meshes/meshes.h"

namespace {

constexpr const char* kUsage =
    "usage: bench_mesh_grading [CASE] [--gradings G,...] [--resolutions R,...]\n"
    "                          [--refinements N,...]\n"
    "  Builds CASE's FEM mesh with each grading (default 1,2,4,8; in (0, 1000]), each\n"
    "  fem.contact_resolution (default 3,6,12; in [1, 64]) and each fem.refinement (default\n"
    "  0,1,2,3,4; in [0, 8]), one axis at a time, and prints per mesh its cells, cells by\n"
    "  stable-step level and the local time stepping bound. An empty list (\"\") skips an\n"
    "  axis. CASE defaults to cases/sphere-lai-psi2.json.\n";

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "bench_mesh_grading: %s\n%s", message.c_str(), kUsage);
  std::exit(2);
}

// A comma-separated list of numbers in [lo, hi] (lo excluded unless lo_included; whole numbers
// if whole); the empty string gives the empty list.
std::vector<double> parse_list(const std::string& option, const std::string& text, double lo,
                               double hi, bool lo_included, bool whole) {
  std::vector<double> values;
  if (!text.empty() && text.back() == ',') usage_error(option + " " + text + ": trailing comma");
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    const bool in_range = (lo_included ? v >= lo : v > lo) && v <= hi;
    if (item.empty() || *end != '\0' || !in_range || (whole && v != std::floor(v))) {
      char expected[96];
      std::snprintf(expected, sizeof expected, ": expected %s in %c%g, %g]",
                    whole ? "whole numbers" : "numbers", lo_included ? '[' : '(', lo, hi);
      usage_error(option + " " + text + expected);
    }
    values.push_back(v);
  }
  return values;
}

}  // namespace

int main(int argc, char** argv) try {
  using namespace rebound;
  dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  std::string file = std::string(REBOUND_SOURCE_DIR) + "/cases/sphere-lai-psi2.json";
  std::vector<double> gradings{1, 2, 4, 8}, resolutions{3, 6, 12}, refinements{0, 1, 2, 3, 4};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::printf("%s", kUsage);
      return 0;
    } else if (a == "--gradings" && i + 1 < argc) {
      gradings = parse_list(a, argv[++i], 0, 1000, false, false);
    } else if (a == "--resolutions" && i + 1 < argc) {
      resolutions = parse_list(a, argv[++i], 1, 64, true, false);
    } else if (a == "--refinements" && i + 1 < argc) {
      refinements = parse_list(a, argv[++i], 0, 8, true, true);
    } else if (!a.empty() && a[0] != '-') {
      file = a;
    } else {
      usage_error("unknown option or missing value: " + a);
    }
  }
  const cases::Case c = cases::load_case(file);
  const bool root = dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0;
  if (root)
    std::printf("%s (grading 1, contact_resolution %g, refinement %d)\n", file.c_str(),
                c.fem.contact_resolution, c.fem.refinement);
  // One mesh per value of one axis; `set` puts the value into the options.
  const auto series = [&](const char* axis, const std::vector<double>& values,
                          void (*set)(meshes::MeshOptions&, double)) {
    if (values.empty()) return;
    if (root)
      std::printf("%-18s %7s %10s  %-44s %6s\n", axis, "cells", "Q2 dofs",
                  "cells by stable-step level 0, 1, ...", "bound");
    for (const double v : values) {
      meshes::MeshOptions options = meshes::mesh_options(c, 0);
      set(options, v);
      const meshes::Mesh mesh = meshes::build_mesh(c, options, MPI_COMM_WORLD);
      const meshes::MeshStatistics& s = mesh.statistics;
      if (!root) continue;
      // The bound of power-of-two subcycling on this mesh: subcycled, the cells of level k are
      // updated 2^-k as often as with the global step, so the element work falls from cells to
      // sum_k n_k 2^-k (docs/PERFORMANCE.md, "Local time stepping (not adopted)").
      std::string levels;
      double work = 0;
      for (std::size_t k = 0; k < s.time_step_levels.size(); ++k) {
        levels += (levels.empty() ? "" : " ") + std::to_string(s.time_step_levels[k]);
        work += double(s.time_step_levels[k]) * std::ldexp(1.0, -int(k));
      }
      std::printf("%18g %7llu %10llu  %-44s %6.3f\n", v, (unsigned long long)s.cells,
                  (unsigned long long)s.dofs_q2, levels.c_str(), double(s.cells) / work);
    }
  };
  series("grading", gradings, [](meshes::MeshOptions& o, double v) { o.grading = v; });
  series("contact_resolution", resolutions,
         [](meshes::MeshOptions& o, double v) { o.contact_resolution = v; });
  series("refinement", refinements,
         [](meshes::MeshOptions& o, double v) { o.global_levels = int(v); });
  return 0;
} catch (const rebound::cases::CaseError& error) {  // bad input: exit 2, as the CLI
  std::fprintf(stderr, "bench_mesh_grading: %s\n", error.what());
  return 2;
} catch (const std::exception& error) {
  std::fprintf(stderr, "bench_mesh_grading: %s\n", error.what());
  return 1;
}
