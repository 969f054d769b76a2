// rebound fem CASE [-o DIR] [--level K] [--frames N] [-q | -v] [--estimate [--json]] : explicit
// 3-D FEM of the impact (also under mpirun). Writes DIR/fem/summary.json, history.csv,
// solution.pvd + frames; --estimate prints the run's cost instead (studies/fem_estimate.h).
#include <deal.II/base/mpi.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "app/cli.h"
#include "app/commands.h"
#include "app/fem_progress.h"
#include "app/mpi_session.h"
#include "app/verbose.h"
#include "cases/case.h"
#include "cases/derived.h"
#include "cases/json_numbers.h"
#include "studies/fem_estimate.h"
#include "studies/fem_run.h"
#include "studies/progress.h"

namespace rebound::app {

const char* const kFemUsage =
    R"(Usage: rebound fem CASE [-o DIR] [--level K] [--frames N] [-q|--quiet | -v|--verbose]
                   [--estimate [--json]]
       mpirun -np N rebound fem CASE [...]

Explicit 3-D FEM (deal.II, linear elasticity, FE_Q(fem.degree)) of the impact on
the rigid plane: kinematic node-to-plane contact with Coulomb friction, started from
the case's rigid-body motion; runs until the contact has ended and 0.2 Hertz
durations have passed (at most 3), or to fem.end_time. --level K adds K global
refinements to the mesh, --frames N sets the number of VTK frames (default
fem.frames; 0 writes none, and no solution.pvd). Writes into DIR/fem/ (DIR
defaults to results/<case>):
  summary.json    rebound quantities (keys shared with `rebound lumped`) + run data
  history.csv     rigid-body averaged forces, impulses, velocities, energies
  solution.pvd    displacement, velocity, stress, von Mises, contact force frames
The progress line (standard error) shows the step, the simulated time, the ETA and
the DoF-steps/s. -q prints nothing but warnings and errors; -v adds, on standard
error, the case as read with every default filled and its hash, the derived
quantities, the FE space (dofs, cells, time step), each stage's wall time and the
files written with their sizes.

--estimate builds the mesh and the FE space as the run would (also under mpirun),
runs a short burst of real time steps (50 to 1000, about 2 s) from the initial
state and prints, without running the impact: dofs, cells, the time step, the
steps the end rule implies (fem.end_time, else the contact duration of the
case's lumped model lai plus 0.2 Hertz durations), the measured DoF-steps/s and
the estimated wall time of the run and of its frames (one frame is written into
a temporary folder and removed). Nothing is written into DIR; --json prints the
estimate as JSON on standard output.

Exit status 0 when the contact happened and ended (status "completed"); 1 when
the run failed or stopped before the contact ended (status "incomplete": raise
fem.end_time); 130 when Ctrl-C/SIGTERM ended it (status "interrupted"). Files are
kept in every case. Warnings (cases/warnings.h) go to standard error and into
summary.json. See docs/FEM.md.
)";

namespace {

void print_estimate(const studies::FemEstimate& e, const std::string& case_name) {
  // Three digits under a minute (a frame takes milliseconds), minutes and hours beyond.
  const auto duration = [](double seconds) {
    char text[32];
    if (std::isfinite(seconds) && seconds >= 0 && seconds < 60) {
      std::snprintf(text, sizeof text, "%.3g s", seconds);
      return std::string(text);
    }
    return studies::format_duration(seconds);
  };
  std::printf("%s  FEM run estimate (p = %d, %d rank%s; nothing run, nothing written)\n",
              case_name.c_str(), e.degree, e.ranks, e.ranks == 1 ? "" : "s");
  std::printf("  dofs                %llu\n", e.dofs);
  std::printf("  cells               %llu\n", e.cells);
  std::printf("  time step           %.6g s\n", e.time_step);
  if (e.end_rule == "fem.end_time")
    std::printf("  end time            %.6g s (fem.end_time)\n", e.end_time);
  else
    std::printf("  end time            %.6g s (contact %.6g s from the %s + settle 0.2 x %.6g s)\n",
                e.end_time, e.contact_duration, e.contact_duration_from.c_str(), e.hertz_duration);
  std::printf("  steps               %lld\n", e.steps);
  std::printf("  measured            %.3g DoF-steps/s (%d steps in %.2f s, %.3g s per step)\n",
              e.dof_steps_per_second, e.burst_steps, e.burst_seconds, e.seconds_per_step);
  std::printf("  setup               %s (mesh %s)\n", duration(e.setup_seconds).c_str(),
              duration(e.mesh_seconds).c_str());
  std::printf("  time loop           %s\n", duration(e.loop_seconds).c_str());
  if (e.frames > 0)
    std::printf("  frames              %s (%d frames, %s each)\n",
                duration(e.frames_seconds).c_str(), e.frames,
                std::isfinite(e.frame_seconds) ? duration(e.frame_seconds).c_str() : "-");
  else
    std::printf("  frames              none (--frames 0)\n");
  std::printf("  estimated wall time %s (this estimate took %s)\n",
              duration(e.total_seconds).c_str(), duration(e.estimate_seconds).c_str());
}

}  // namespace

int command_fem(const std::vector<std::string>& arguments) {
  const Arguments args("fem", arguments, {"--quiet", "--estimate", "--json"},
                       {"-o", "--level", "--frames"}, kFemUsage);
  if (args.help()) return 0;
  if (args.flag("--json") && !args.flag("--estimate"))
    throw UsageError("option --json needs --estimate (the run writes DIR/fem/summary.json)");
  Verbose verbose(args, "fem");
  const int extra_levels = args.integer("--level", 0, 6).value_or(0);
  const cases::Case c = cases::load_case(args.case_file());
  cases::require_fem_target(c);  // the FEM models the rigid plane only
  const int frames = args.integer("--frames", 0, 100000).value_or(c.fem.frames);
  const std::string directory =
      (std::filesystem::path(output_directory(args.option("-o"), c.name)) / "fem").string();
  verbose.resolved_case(c);
  verbose.derived(c, cases::derive(c));
  verbose.stage("read the case");

  const MpiSession mpi;
  const bool root = mpi.root();
  verbose.set_root(root);
  const bool quiet = args.flag("--quiet");

  if (args.flag("--estimate")) {
    studies::FemEstimateOptions options;
    options.extra_levels = extra_levels;
    options.frames = frames;
    const studies::FemEstimate estimate = studies::estimate_fem_run(c, options, MPI_COMM_WORLD);
    verbose.stage("mesh, FE space and " + std::to_string(estimate.burst_steps) + " measured steps");
    if (root && args.flag("--json"))
      std::cout << studies::to_json(estimate).dump(2) << "\n";
    else if (root && !quiet)
      print_estimate(estimate, c.name);
    std::fflush(stdout);
    verbose.total();
    return 0;
  }

  FemProgressPrinter progress;
  const studies::FemRun run = studies::run_fem_into(c, directory, extra_levels, frames,
                                                    quiet ? nullptr : progress.callback());
  progress.finish();
  if (verbose.on()) {
    const fem::Info& info = run.result.info;
    char text[512];
    std::snprintf(text, sizeof text,
                  "FE space: FE_Q(%d), %llu dofs (%llu constrained), %llu cells, %llu nodes, %d "
                  "rank%s; time step %.6g s (lambda_max %.6g 1/s^2, cfl %g); %lld steps, end at "
                  "%.6g s, %zu frames",
                  info.degree, info.dofs, info.constrained_dofs, info.cells, info.nodes, info.ranks,
                  info.ranks == 1 ? "" : "s", info.time_step, info.lambda_max, c.fem.cfl,
                  run.result.final.step, run.result.final.time, run.result.frames.size());
    verbose.say(text);
    std::snprintf(text, sizeof text,
                  "stages of the run: mesh %.3f s, FE space, mass and time step %.3f s, time loop "
                  "%.3f s (%.3g DoF-steps/s), whole run %.3f s",
                  info.mesh_seconds, info.setup_seconds,
                  cases::number_or_nan(run.summary, "loop_wall_time"),
                  cases::number_or_nan(run.summary, "dof_steps_per_second"), run.result.wall_time);
    verbose.say(text);
  }
  verbose.stage("FEM run, history, summary and frames written");
  if (root && !quiet) print_fem_summary(run.summary, directory);
  if (root) print_warnings(run.summary, "fem");
  verbose.files(directory);
  verbose.total();
  if (run.result.status == "failed" || run.result.status == "incomplete") {
    if (root)
      std::cerr << "rebound fem: error: run " << run.result.status << ": " << run.result.message
                << " (history and frames kept in " << directory << ")\n";
    return 1;
  }
  return run.result.status == "interrupted" ? 130 : 0;
}

}  // namespace rebound::app
