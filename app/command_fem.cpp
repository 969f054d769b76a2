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
#include "observables/summary_text.h"
#include "studies/fem_estimate.h"
#include "studies/fem_quasi_static.h"
#include "studies/fem_run.h"
#include "studies/progress.h"

namespace rebound::app {

const char* const kFemUsage =
    R"(Usage: rebound fem CASE [-o DIR] [--level K] [--frames N] [-q|--quiet | -v|--verbose]
                   [--estimate [--json]]
       mpirun -np N rebound fem CASE [...]
       rebound fem CASE --quasi-static [-o DIR] [--level K] [-q]

Explicit 3-D FEM (deal.II, FE_Q(fem.degree), small strain; material.model elastic,
elastic-plastic or viscoelastic) of the impact on the case's target: a rigid plane
or socket, or an elastic half-space (a block), sphere, plate or socket; contact with
Coulomb friction, started from the case's rigid-body motion; runs until the
contact has ended and 0.2 Hertz durations have passed (at most 3), or to
fem.end_time. --level K adds K global refinements to the mesh, --frames N sets
the number of VTK frames (default fem.frames; 0 writes none, no solution.pvd).
Writes into DIR/fem/ (DIR defaults to results/<case>):
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

--quasi-static solves, instead of the impact, the FE body's frictionless contact
law without inertia (one process, a sparse direct solver): the body under the
uniform body force of a deceleration b, pressed on its rigid target (plane or
socket) at the explicit run's contact nodes, for 40 forces m b from 0.001 to 1.3
of Hertz's peak; the approach of the centroid against the force, beside Hertz's;
then the normal impact integrated on that law (duration and peak force, against
Hertz's). The same mesh, elements and contact as the explicit run, without waves
or the contact region's inertia: its difference from the explicit run is the
inertia's, its difference from Hertz the discrete body's and the finite
contact's. Writes DIR/fem-quasi-static/static_law.csv and summary.json (nothing
when it fails or Ctrl-C/SIGTERM stops it: exit 1 or 130). It costs more than the
explicit run: the glass bead at 60,000 dofs (p = 2) took 4 min and 1.6 GB; a
progress line shows the influence solves.

Exit status 0 when the contact happened and ended (status "completed"); 1 when
the run failed or stopped before the contact ended (status "incomplete": raise
fem.end_time); 130 when Ctrl-C/SIGTERM ended it (status "interrupted"). Files are
kept in every case. Warnings (cases/warnings.h) go to standard error and into
summary.json. See docs/FEM.md.
)";

namespace {

// rebound fem CASE --quasi-static: the FE body's contact law without inertia and the impact on it
// (studies/fem_quasi_static.h), printed; the files are written by the study.
int quasi_static(const cases::Case& c, int extra_levels, const std::string& directory, bool quiet,
                 Verbose& verbose) {
  if (c.contact.friction != 0 && !quiet)
    std::cerr << "rebound fem: note: --quasi-static solves the frictionless normal contact; "
                 "contact.friction = "
              << c.contact.friction << " is not used\n";
  // Minutes of influence solves: a progress line after 2 s; Ctrl-C/SIGTERM ends them.
  ProgressLine line(2.0);
  double solves_start = 0;  // elapsed seconds when the first solve began (the mesh and K before)
  const auto progress = [&](int done, int total) {
    if (done == 0) solves_start = line.elapsed_seconds();
    const double fraction = double(done) / total;
    if (quiet || !line.due(fraction)) return;
    const double elapsed = line.elapsed_seconds();
    const double rate = done > 0 ? (elapsed - solves_start) / done : 0;
    line.show(
        "quasi-static: influence solve " + std::to_string(done) + " of " + std::to_string(total) +
        ", " + studies::format_duration(elapsed) + " elapsed" +
        (done > 0 ? ", about " + studies::format_duration(rate * (total - done)) + " left" : ""));
  };
  studies::FemQuasiStatic r;
  try {
    r = studies::run_quasi_static_into(c, directory, extra_levels, progress);
  } catch (const fem::QuasiStaticInterrupted& stopped) {
    line.finish();
    std::cerr << "rebound fem: " << stopped.what() << "; nothing written but " << directory
              << "/manifest.json\n";
    return 130;
  }
  line.finish();
  verbose.stage("quasi-static contact law and its impact");
  if (!quiet) std::fputs(studies::quasi_static_text(r, c.name).c_str(), stdout);
  verbose.files(directory);
  verbose.total();
  return 0;
}

}  // namespace

int command_fem(const std::vector<std::string>& arguments) {
  const Arguments args("fem", arguments, {"--quiet", "--estimate", "--json", "--quasi-static"},
                       {"-o", "--level", "--frames"}, kFemUsage);
  if (args.help()) return 0;
  if (args.flag("--json") && !args.flag("--estimate"))
    throw UsageError("option --json needs --estimate (the run writes DIR/fem/summary.json)");
  Verbose verbose(args, "fem");
  const int extra_levels = args.integer("--level", 0, 6).value_or(0);
  const cases::Case c = cases::load_case(args.case_file());
  cases::require_fem_target(c);  // a target the FEM models (fem_target_problem)
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

  if (args.flag("--quasi-static")) {
    if (args.flag("--estimate"))
      throw UsageError("--quasi-static and --estimate exclude each other");
    if (args.option("--frames")) throw UsageError("--quasi-static writes no frames (no --frames)");
    if (dealii::Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD) > 1)
      throw UsageError(
          "--quasi-static runs on one process (a serial direct solver): run it without mpirun");
    return quasi_static(
        c, extra_levels,
        (std::filesystem::path(output_directory(args.option("-o"), c.name)) / "fem-quasi-static")
            .string(),
        quiet, verbose);
  }

  if (args.flag("--estimate")) {
    studies::FemEstimateOptions options;
    options.extra_levels = extra_levels;
    options.frames = frames;
    const studies::FemEstimate estimate = studies::estimate_fem_run(c, options, MPI_COMM_WORLD);
    verbose.stage("mesh, FE space and " + std::to_string(estimate.burst_steps) + " measured steps");
    if (root && args.flag("--json"))
      std::cout << studies::to_json(estimate).dump(2) << "\n";
    else if (root && !quiet)
      std::fputs(studies::estimate_text(estimate, c.name).c_str(), stdout);
    std::fflush(stdout);
    verbose.total();
    return 0;
  }

  FemProgressPrinter progress;
  const studies::FemRun run = studies::run_fem_into(c, directory, extra_levels, frames,
                                                    quiet ? nullptr : progress.callback());
  progress.finish();
  if (verbose.on()) verbose.say(studies::fem_run_text(run, c.fem.cfl));
  verbose.stage("FEM run, history, summary and frames written");
  if (root && !quiet)
    std::fputs(observables::fem_summary_text(run.summary, directory).c_str(), stdout);
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
