// rebound fem CASE [-o DIR] [--level K] [--frames N] [-q | -v] : explicit 3-D FEM of the impact
// (also under mpirun). Writes DIR/fem/summary.json, history.csv, solution.pvd + frames.
#include <deal.II/base/mpi.h>

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
#include "studies/fem_run.h"

namespace rebound::app {

const char* const kFemUsage =
    R"(Usage: rebound fem CASE [-o DIR] [--level K] [--frames N] [-q|--quiet | -v|--verbose]
       mpirun -np N rebound fem CASE [...]

Explicit 3-D FEM (deal.II, linear elasticity, FE_Q(fem.degree)) of the impact on
the rigid plane: kinematic node-to-plane contact with Coulomb friction, started from
the case's rigid-body motion; runs until the contact has ended and 0.2 Hertz
durations have passed (at most 3), or to fem.end_time. --level K adds K global
refinements to the mesh, --frames N sets the number of VTK frames (default
fem.frames). Writes into DIR/fem/ (DIR defaults to results/<case>):
  summary.json    rebound quantities (keys shared with `rebound lumped`) + run data
  history.csv     rigid-body averaged forces, impulses, velocities, energies
  solution.pvd    displacement, velocity, stress, von Mises, contact force frames
The progress line (standard error) shows the step, the simulated time, the ETA and
the DoF-steps/s. -q prints nothing but warnings and errors; -v adds, on standard
error, the case as read with every default filled and its hash, the derived
quantities, the FE space (dofs, cells, time step), each stage's wall time and the
files written with their sizes.

Exit status 0 when the contact happened and ended (status "completed"); 1 when
the run failed or stopped before the contact ended (status "incomplete": raise
fem.end_time); 130 when Ctrl-C/SIGTERM ended it (status "interrupted"). Files are
kept in every case. Warnings (cases/warnings.h) go to standard error and into
summary.json. See docs/FEM.md.
)";

int command_fem(const std::vector<std::string>& arguments) {
  const Arguments args("fem", arguments, {"--quiet"}, {"-o", "--level", "--frames"}, kFemUsage);
  if (args.help()) return 0;
  Verbose verbose(args, "fem");
  const int extra_levels = args.integer("--level", 0, 6).value_or(0);
  const cases::Case c = cases::load_case(args.case_file());
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
