// Local against global time stepping on one whole FEM run (docs/FEM.md, "Local time
// stepping"; docs/PERFORMANCE.md):
//   build/bin/bench_fem_local [CASE] [--scheme multirate|lts-leapfrog] [--hold H,H,...]
//                             [--max-levels L,L,...] [--end-time T] [--cfl C] [--global-cfl C]
//                             [--refinement N]
//   mpirun -np 2 build/bin/bench_fem_local cases/sphere-lai-psi2.json
// Runs CASE once with "global" and once per L with local time stepping capped at L levels
// (no cell steps more than 2^L fine steps at once; default: no cap) by one of the two schemes
// built, measured and not adopted (docs/FEM.md): "multirate", the multirate leapfrog (the
// default), or "lts-leapfrog", the leapfrog local time stepping of Diaz & Grote
// (fem/local_time_stepping.h), the latter once per contact hold H (none, normal, stick: what the
// contact holds inside the substeps; default normal). The runs go one after the other in the
// same process and on the same ranks; it prints per run: the levels' cells, the wall time of the
// time loop and its ratio to the global run's, and the rebound quantities with their
// differences from the global run (Psi2, e, J_n relative, contact duration and peak force
// relative, the energy balance error), and where the energy balance moved (steps at which the
// contact set changed, and the others); then the internal force's cost per evaluation for
// every set of levels l <= k against the global evaluation's (multirate), or of one coarse
// step's K_G u against the global evaluations it replaces (lts-leapfrog). --end-time, --cfl and
// --refinement override the case's fem.end_time, fem.cfl and fem.refinement (for both
// schemes); --global-cfl gives the global run its own cfl, so that local stepping below its
// resonance (cfl < pi/4) is compared with global stepping at the default cfl in one run.
#include <deal.II/base/mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"
#include "fem/fem.h"

namespace {

constexpr const char* kUsage =
    "usage: bench_fem_local [CASE] [--scheme multirate|lts-leapfrog] [--hold H,H,...]\n"
    "                       [--max-levels L,L,...] [--end-time T] [--cfl C] [--global-cfl C]\n"
    "                       [--refinement N]\n"
    "  (also under mpirun -np N). Runs CASE with global time stepping, then with local time\n"
    "  stepping capped at each L (default: uncapped), and prints wall time and results side\n"
    "  by side. --scheme: the multirate leapfrog (multirate, the default; unstable above cfl\n"
    "  pi/4) or the leapfrog local time stepping of Diaz & Grote (lts-leapfrog). --hold\n"
    "  (lts-leapfrog only): what the contact holds inside the substeps, none, normal (default)\n"
    "  or stick, one run per value and L. --end-time, --cfl and --refinement override the\n"
    "  case's fem.end_time, fem.cfl and fem.refinement; --global-cfl sets the global run's cfl\n"
    "  alone (default: the same as the local runs'). CASE defaults to\n"
    "  cases/sphere-lai-psi2.json.\n";

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "bench_fem_local: %s\n%s", message.c_str(), kUsage);
  std::exit(2);
}

std::vector<int> parse_levels(const std::string& text) {
  std::vector<int> levels;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    char* end = nullptr;
    const long value = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || value < 0 || value > 30)
      usage_error("--max-levels " + text + ": expected whole numbers in [0, 30], comma-separated");
    levels.push_back(int(value));
  }
  if (levels.empty()) usage_error("--max-levels: no level given");
  return levels;
}

struct Row {
  std::string label;
  rebound::fem::RunResult result;
};

}  // namespace

int main(int argc, char** argv) try {
  using namespace rebound;
  dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  std::string file = std::string(REBOUND_SOURCE_DIR) + "/cases/sphere-lai-psi2.json";
  std::vector<int> max_levels{30};
  std::string scheme = "multirate";
  std::vector<std::string> holds{"normal"};
  bool hold_given = false;
  std::optional<double> end_time, cfl, global_cfl;
  std::optional<int> refinement;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool value = i + 1 < argc;
    if (a == "--help" || a == "-h") {
      std::printf("%s", kUsage);
      return 0;
    } else if (a == "--scheme" && value) {
      scheme = argv[++i];
      if (scheme != "lts-leapfrog" && scheme != "multirate")
        usage_error("--scheme " + scheme + ": expected multirate or lts-leapfrog");
    } else if (a == "--hold" && value) {
      holds.clear();
      std::stringstream in(argv[++i]);
      std::string item;
      while (std::getline(in, item, ','))
        if (item == "none" || item == "normal" || item == "stick")
          holds.push_back(item);
        else
          usage_error("--hold " + item + ": expected none, normal or stick, comma-separated");
      if (holds.empty()) usage_error("--hold: no value given");
      hold_given = true;
    } else if (a == "--max-levels" && value) {
      max_levels = parse_levels(argv[++i]);
    } else if (a == "--end-time" && value) {
      char* end = nullptr;
      end_time = std::strtod(argv[++i], &end);
      if (*end != '\0' || !(*end_time > 0)) usage_error("--end-time: expected a time > 0 s");
    } else if (a == "--cfl" && value) {
      char* end = nullptr;
      cfl = std::strtod(argv[++i], &end);
      if (*end != '\0' || !(*cfl > 0 && *cfl <= cases::kMaxCfl))
        usage_error("--cfl: expected a number in (0, 0.95]");
    } else if (a == "--global-cfl" && value) {
      char* end = nullptr;
      global_cfl = std::strtod(argv[++i], &end);
      if (*end != '\0' || !(*global_cfl > 0 && *global_cfl <= cases::kMaxCfl))
        usage_error("--global-cfl: expected a number in (0, 0.95]");
    } else if (a == "--refinement" && value) {
      char* end = nullptr;
      const char* text = argv[++i];
      const long n = std::strtol(text, &end, 10);
      if (end == text || *end != '\0' || n < 0 || n > 8)
        usage_error("--refinement: expected a whole number in [0, 8]");
      refinement = int(n);
    } else if (!a.empty() && a[0] != '-') {
      file = a;
    } else {
      usage_error("unknown option or missing value: " + a);
    }
  }
  if (hold_given && scheme != "lts-leapfrog")
    usage_error("--hold: only with --scheme lts-leapfrog (the multirate scheme holds nothing)");
  cases::Case c = cases::load_case(file);
  if (cfl) c.fem.cfl = *cfl;
  if (refinement) c.fem.refinement = *refinement;
  cases::Case global_case = c;
  if (global_cfl) global_case.fem.cfl = *global_cfl;
  const MPI_Comm comm = MPI_COMM_WORLD;
  const bool root = dealii::Utilities::MPI::this_mpi_process(comm) == 0;
  const unsigned int ranks = dealii::Utilities::MPI::n_mpi_processes(comm);

  std::vector<Row> rows;
  auto run = [&](const std::string& stepping, int max_level, const std::string& hold) {
    fem::RunOptions options;
    options.frames = 0;
    options.end_time = end_time;
    options.solver.time_stepping = stepping;
    options.solver.max_time_step_level = max_level;
    options.solver.local_contact_hold = hold;
    Row row;
    row.label = stepping == "global" ? "global" : stepping + " L<=" + std::to_string(max_level);
    if (stepping == "lts-leapfrog") row.label += " " + hold;
    row.result = fem::run(stepping == "global" ? global_case : c, options, comm);
    if (root) {
      std::fprintf(stderr, "bench_fem_local: %s done, %s, %.2f s\n", row.label.c_str(),
                   row.result.status.c_str(), row.result.wall_time);
    }
    rows.push_back(std::move(row));
  };
  run("global", 0, "normal");
  for (const int level : max_levels)
    if (scheme == "lts-leapfrog")
      for (const std::string& hold : holds) run(scheme, level, hold);
    else
      run(scheme, level, "normal");

  if (root) {
    const auto& g = rows.front().result.summary;
    std::printf(
        "%s, p = %d, refinement %d, cfl %g (global run: %g), %llu dofs, %llu cells, %u rank%s\n",
        file.c_str(), rows.front().result.info.degree, c.fem.refinement, c.fem.cfl,
        global_case.fem.cfl, rows.front().result.info.dofs, rows.front().result.info.cells, ranks,
        ranks == 1 ? "" : "s");
    for (const Row& row : rows) {
      const fem::Info& info = row.result.info;
      if (info.time_stepping == "global") continue;
      std::printf("  %s: cells per level", row.label.c_str());
      for (const auto n : info.level_cells) std::printf(" %llu", n);
      if (info.time_stepping == "lts-leapfrog") {
        std::printf(" (cell evaluations %.3f of global: bound %.3f; H^2 1.02 lambda_G / 4 = %.3f",
                    info.local_cell_evaluations, 1 / info.local_cell_evaluations,
                    info.local_stability);
        for (std::size_t t = 0; t + 1 < info.local_stability_tried.size(); ++t)
          std::printf("; with %zu levels %.3f",
                      info.level_cells.size() + info.local_stability_tried.size() - 1 - t,
                      info.local_stability_tried[t]);
        std::printf(")");
      }
      if (info.time_stepping == "multirate") {
        // The multirate step subcycles the per-node work (kick, contact check, drift) by the
        // nodes' levels as it does the internal force by the cells': both bounds, count / sum
        // n_k 2^-k.
        const auto bound = [](const std::vector<unsigned long long>& counts) {
          double all = 0, per_fine_step = 0;
          for (std::size_t k = 0; k < counts.size(); ++k) {
            all += double(counts[k]);
            per_fine_step += std::ldexp(double(counts[k]), -int(k));
          }
          return all / per_fine_step;
        };
        std::printf(" (cell bound %.3f); nodes per level", bound(info.level_cells));
        for (const auto n : info.level_nodes) std::printf(" %llu", n);
        std::printf(" (node bound %.3f)", bound(info.level_nodes));
      }
      if (info.time_stepping == "multirate" && info.level_cells.size() == 2) {
        // Diaz & Grote's LTS leapfrog with 2 substeps evaluates per coarse step the coarse
        // cells once and the fine cells with their neighbours twice; global: every cell twice.
        const double fine = double(info.level_cells[0]), coarse = double(info.level_cells[1]);
        const double neighbours = double(info.level0_neighbour_cells);
        std::printf(" (level-1 cells touching level 0: %.0f; LTS leapfrog bound estimate %.3f)",
                    neighbours, 2 * (fine + coarse) / (coarse + 2 * (fine + neighbours)));
      }
      if (ranks > 1) {
        std::printf(";  by rank");
        for (const auto& r : info.level_cells_by_rank) {
          std::printf(" (");
          for (std::size_t k = 0; k < r.size(); ++k) std::printf(k ? " %llu" : "%llu", r[k]);
          std::printf(")");
        }
      }
      std::printf("\n");
    }
    std::printf("%-24s %8s %10s %9s %8s %10s %10s %11s %10s %10s %10s %10s %10s\n", "scheme",
                "substeps", "fine steps", "loop [s]", "speed-up", "psi2", "d psi2", "e", "d e",
                "d J_n rel", "d t_c rel", "d F_max rel", "energy err");
    const double g_loop = g["loop_wall_time"].get<double>();
    for (const Row& row : rows) {
      const auto& s = row.result.summary;
      const auto q = [&](const nlohmann::json& j, const char* key) {
        return j.contains(key) && j[key].is_number() ? j[key].get<double>() : std::nan("");
      };
      const double loop = q(s, "loop_wall_time");
      // A run compares with the global run when both ran the same span of simulated time:
      // both "completed", or both "incomplete" (--end-time cut them, or a step limit) with final
      // times less than one step() of either run apart (each stops at the first step past the
      // end time); a run the energy check stopped ("failed") has no speed-up.
      char speed[16] = "       -";
      const fem::RunResult& global = rows.front().result;
      const bool same_span = (row.result.status == "completed" && global.status == "completed") ||
                             (row.result.status == "incomplete" && global.status == "incomplete" &&
                              std::abs(row.result.final.time - global.final.time) <=
                                  std::max(row.result.info.time_step, global.info.time_step));
      if (same_span) std::snprintf(speed, sizeof speed, "%7.2fx", g_loop / loop);
      std::printf(
          "%-24s %8lld %10lld %9.2f %8s %10.6f %+10.2e %11.8f %+10.2e %+10.2e %+10.2e %+10.2e "
          "%10.2e\n",
          row.label.c_str(), row.result.info.substeps, (long long)q(s, "fine_steps"), loop, speed,
          q(s, "psi2"), q(s, "psi2") - q(g, "psi2"), q(s, "e_newton"),
          q(s, "e_newton") - q(g, "e_newton"), q(s, "normal_impulse") / q(g, "normal_impulse") - 1,
          q(s, "contact_duration") / q(g, "contact_duration") - 1,
          q(s, "peak_normal_force") / q(g, "peak_normal_force") - 1, q(s, "energy_balance_error"));
      if (row.result.status != "completed")
        std::printf("    %s: %s\n", row.result.status.c_str(), row.result.message.c_str());
      // Where the energy balance moves: B = kinetic + internal + friction + normal contact
      // loss, its change from row n-1 to row n summed over the rows n whose internal force
      // holds another set than row n-1's did, and over the others, relative to E0. Row n's
      // force K_G u_n holds the contact nodes of row n-1 (lts-leapfrog), so that set changed
      // when the number of contact nodes of row n-1 differs from that of row n-2 (the number
      // stands for the set here).
      const auto& h = row.result.history;
      double switched = 0, steady = 0;
      long long n_switched = 0, n_steady = 0;
      for (std::size_t k = 1; k < h.size(); ++k) {
        const double change = (h[k].total_energy + h[k].normal_contact_loss) -
                              (h[k - 1].total_energy + h[k - 1].normal_contact_loss);
        if (k >= 2 && h[k - 1].contact_nodes != h[k - 2].contact_nodes)
          switched += change, ++n_switched;
        else
          steady += change, ++n_steady;
      }
      if (!h.empty())
        std::printf(
            "    energy balance change / E0: %+.2e over %lld steps after the number of contact "
            "nodes changed, %+.2e over the %lld others\n",
            switched / h.front().total_energy, n_switched, steady / h.front().total_energy,
            n_steady);
    }
  }

  // What the internal force costs per set of levels (Solver::time_internal_force: 200
  // evaluations on fresh solvers, median of 3), against the share of the cells it covers: the
  // cell bounds assume a level's evaluation costs its share of the global one.
  const int applications = 200;
  const auto cost = [&](fem::Solver& solver, int up_to_level) {
    std::vector<double> t;
    for (int r = 0; r < 3; ++r) t.push_back(solver.time_internal_force(applications, up_to_level));
    std::sort(t.begin(), t.end());
    return t[1] / applications;
  };
  double global_cost = 0;
  {
    fem::SolverOptions options;
    const auto solver = fem::Solver::create(global_case, options, comm);
    global_cost = cost(*solver, -1);
    if (root)
      std::printf(
          "internal force per evaluation (%d evaluations, median of 3): global, all %llu "
          "cells: %.4f ms\n",
          applications, solver->info().cells, 1e3 * global_cost);
  }
  for (const int max_level : max_levels) {
    fem::SolverOptions options;
    options.time_stepping = scheme;
    options.max_time_step_level = max_level;
    const auto solver = fem::Solver::create(c, options, comm);
    const fem::Info& info = solver->info();
    if (scheme == "lts-leapfrog") {
      // One coarse step's K_G u against the 2^L global evaluations of the same span.
      const double seconds = cost(*solver, -1);
      const double replaced = double(info.substeps) * global_cost;
      if (root)
        std::printf(
            "  lts-leapfrog L<=%d: K_G u per coarse step (%lld fine steps): %.4f ms, %.3f of %lld "
            "global evaluations (cell evaluations %.3f)\n",
            max_level, info.substeps, 1e3 * seconds, seconds / replaced, info.substeps,
            info.local_cell_evaluations);
      continue;
    }
    double cells = 0;
    for (std::size_t level = 0; level < info.level_cells.size(); ++level) {
      cells += double(info.level_cells[level]);
      const double seconds = cost(*solver, int(level));
      if (root)
        std::printf(
            "  multirate L<=%d, levels <= %zu: %.0f cells (%.3f of all): %.4f ms, %.3f of "
            "global\n",
            max_level, level, cells, cells / double(info.cells), 1e3 * seconds,
            seconds / global_cost);
    }
  }
  return 0;
} catch (const rebound::cases::CaseError& error) {  // bad input: exit 2, as the CLI
  std::fprintf(stderr, "bench_fem_local: %s\n", error.what());
  return 2;
} catch (const std::exception& error) {
  std::fprintf(stderr, "bench_fem_local: %s\n", error.what());
  return 1;
}
