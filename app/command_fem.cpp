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
#include "studies/fem_quasi_static.h"
#include "studies/fem_run.h"
#include "studies/progress.h"

namespace rebound::app {

const char* const kFemUsage =
    R"(Usage: rebound fem CASE [-o DIR] [--level K] [--frames N] [-q|--quiet | -v|--verbose]
                   [--estimate [--json]]
       mpirun -np N rebound fem CASE [...]
       rebound fem CASE --quasi-static [-o DIR] [--level K] [-q]

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

--quasi-static solves, instead of the impact, the FE body's frictionless contact
law without inertia (one process, a sparse direct solver): the body under the
uniform body force of a deceleration b, pressed on the plane at the explicit
run's contact nodes, for 40 forces m b from 0.001 to 1.3 of Hertz's peak; the
approach of the centroid against the force, beside Hertz's; then the normal impact
integrated on that law (duration and peak force, against Hertz's). The same mesh,
elements and contact as the explicit run, without waves or the contact region's
inertia: its difference from the explicit run is the inertia's, its difference
from Hertz the discrete body's and the finite contact's. Writes DIR/fem-quasi-static/
static_law.csv and summary.json (nothing when it fails or Ctrl-C/SIGTERM stops it:
exit 1 or 130). It costs more than the explicit run: the glass bead at 60,000 dofs
(p = 2) took 4 min and 1.6 GB; a progress line shows the influence solves.

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
  if (!quiet) {
    const fem::StaticLaw& law = r.law;
    const nlohmann::json& s = r.summary;
    std::printf(
        "%s  quasi-static contact law of the FE body (FE_Q(%d), %llu dofs, %llu cells, "
        "h_contact %.3g m; %d candidate nodes within %.3g m of P)\n",
        c.name.c_str(), law.degree, law.dofs, law.cells, law.h_contact, law.candidates,
        law.candidate_radius);
    std::printf(
        "  mesh, K and its factorisation %.1f s, influence of the candidates %.1f s, law %.2f s\n",
        law.setup_seconds, law.influence_seconds, law.law_seconds);
    std::printf("  %12s %14s %14s %12s %8s %12s\n", "F [N]", "approach [m]", "Hertz's [m]",
                "F/F_Hertz", "nodes", "radius [m]");
    for (std::size_t k = 0; k < law.points.size(); k += 3) {
      const fem::StaticLawPoint& p = law.points[k];
      std::printf("  %12.6g %14.6g %14.6g %12.6f %8d %12.4g\n", p.force, p.approach,
                  p.hertz_approach, std::pow(p.hertz_approach / p.approach, 1.5), p.contact_nodes,
                  p.contact_radius);
    }
    const auto percent = [](double value, double reference) {
      return 100 * (value / reference - 1);
    };
    std::printf(" Quasi-static impact at %.6g m/s on this law (m = %.8g kg, the FE body's):\n",
                double(s["normal_speed"]), law.mass);
    std::printf(
        "  contact duration  %.6g s   Hertz %.6g s (%+.3f %%), on the FE body's mass %+.3f %%\n",
        r.impact.contact_duration, double(s["hertz_contact_duration"]),
        percent(r.impact.contact_duration, s["hertz_contact_duration"]),
        percent(r.impact.contact_duration, s["hertz_contact_duration_body_mass"]));
    std::printf(
        "  peak force        %.6g N   Hertz %.6g N (%+.3f %%), on the FE body's mass %+.3f %%\n",
        r.impact.peak_force, double(s["hertz_peak_force"]),
        percent(r.impact.peak_force, s["hertz_peak_force"]),
        percent(r.impact.peak_force, s["hertz_peak_force_body_mass"]));
    std::printf("  written to %s, %s\n", r.law_file.c_str(), r.summary_file.c_str());
  }
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
