// rebound sweep CASE --psi1 START:STOP:COUNT | --incidence DEG... | --friction ... [-o DIR]
//                    [--models LIST] [--fem K [--level L] [--reference FILE] [--resume]]
// The lumped sweep runs in the light `rebound` and draws DIR/plots/ (unless --no-plots); with
// --fem the whole command is handed over to rebound-fem, which adds FEM runs at K of the points
// (sweep_fem.csv) and draws them into the same plots.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <thread>

#include "app/commands.h"
#include "app/executable.h"
#include "app/sweep.h"
#include "cases/derived.h"
#include "cases/format.h"
#include "studies/plots.h"
#include "studies/stop.h"

namespace rebound::app {
const char* const kSweepUsage =
    R"(Usage: rebound sweep CASE (--psi1 | --incidence | --friction) START:STOP:COUNT
                     | --samples N [--seed S]
                     [--models LIST] [-o DIR] [--threads N] [-q|--quiet | -v|--verbose]
                     [--no-plots] [--json]
                     [--fem K [--level L] [--frames N] [--reference FILE]
                      [--resume]]

Runs the case's lumped model at COUNT evenly spaced values of one variable (the
rest of the case unchanged: the normal speed is kept for --psi1, the approach
speed for --incidence, the velocity for --friction) on all cores, writes
DIR/sweep.csv (default DIR: results/<case name>; -o DIR, -o=DIR, --output DIR)
and prints a table (--json: the rows as JSON on standard output instead; -q:
nothing; -v: also, on standard error, the case as read with every default filled
and its hash, the derived quantities, the values swept, each stage's wall time
and the files written with their sizes). This redraws the Psi2-Psi1 figures of
Lai (1999), ch. 5-6.
  --psi1        Maw's Psi1 (>= 0)
  --incidence   incidence angle in DEGREES, in [0, 90) (there is no radian
                form of this option); sweep.csv's sweep_incidence_angle_rad and
                incidence_angle_rad columns are in radians, like every angle in
                the outputs
  --friction    Coulomb mu (>= 0)
  --samples N   Monte Carlo of a random restitution (lumped.restitution a table
                with std, Michalczyk 2008 sec. 4): the case itself N times, sample
                k drawing impact k of the seed (--seed S overrides lumped.seed);
                sweep.csv's rows with each R drawn, percentiles on screen and
                plots/*_histogram.png (docs/USAGE.md)
  --models LIST  comma-separated lumped models to sweep one after the other
                (default: the case's lumped.model), e.g. lai,mdr,halfspace,
                halfspace-beta0: any lumped.model (lai, uncoupled,
                uncoupled-euler, mdr, halfspace, newton, poisson, stronge,
                smith, brach; halfspace with the Dundurs coupling) and
                halfspace-beta0, the half-space model with dundurs_coupling
                false (Dundurs' beta = 0); each is set into the case (other
                models' options dropped) and validated as a case file is (an
                unknown name: exit 2 with the list). sweep.csv has one
                block of rows per model, named in its column "model"; the
                table, --json and the plots show every model
and draws (scripts/plots.py with the first of $REBOUND_PYTHON, /usr/bin/python3
and python3 on PATH that has matplotlib; a warning without one):
  plots/psi2_vs_psi1.png     Psi2 vs Psi1: one lumped curve per model (and FEM
                     points, reference points), the gross-slip line Psi2 =
                     Psi1 - G of an elastic normal contact (G as `rebound
                     check` prints it; 4 chi at theta = 0), drawn when every
                     model has one (not for a dissipative normal_law or a
                     rigid-body law, whose line depends on the e_N achieved)
  plots/e_vs_<variable>.png  e_newton, e_poisson, e_stronge and the tangential
                     coefficient vs the swept variable (psi1, incidence_angle in
                     degrees, friction); with several models, e_newton and the
                     tangential coefficient per model
  with --incidence also
  plots/tangential_cor_vs_incidence.png  the tangential coefficient of the
                     centre's velocity vs the incidence angle (degrees), per model
  plots/spin_vs_incidence.png  the final spin vs the incidence angle
                     (degrees), per model
  --no-plots         no PNG

With --fem K (0 <= K <= COUNT) the FEM (as `rebound fem`, also under mpirun) then
runs at K of the points, evenly spread (first and last included; K = 1: the middle
point), once whatever --models says (the FEM has no lumped model; each finished
run's line shows the first model's Psi2 beside it), one after the other with a
line per finished run and an ETA (a case the FEM does not take is refused up
front, naming the key: `rebound check` says which models take it):
  --level L          extra uniform refinements of the FEM mesh (default 0)
  --frames N         VTK frames per FEM run (default 0)
  --reference FILE   CSV with columns psi1,psi2 (header row): reference points for
                     the plot (e.g. digitised from a paper)
  --resume           reuse the rows of DIR/sweep_fem.csv with the same case
                     description, swept value and level
and writes
  sweep_fem.csv      the columns of sweep.csv up to error (phases empty, no model)
                     + status, level, dofs, cells, h_contact, time_step, steps,
                     wall_time, ...; rewritten
                     after every run, so Ctrl-C/SIGTERM (exit 130) keeps the
                     finished runs
  sweep_fem/<variable>_<value>/   each run's summary.json and history.csv
and adds the completed FEM runs to both plots as points.
A failed FEM run is recorded (status failed; exit status 1 at the end).
See docs/PAIR.md.
)";

int command_sweep(const std::vector<std::string>& arguments) {
  const Arguments args("sweep", arguments, {"--quiet", "--resume", "--no-plots", "--json"},
                       {"--psi1", "--incidence", "--friction", "--samples", "--seed", "-o",
                        "--threads", "--fem", "--level", "--frames", "--reference", "--models"},
                       kSweepUsage);
  if (args.help()) return 0;
  Verbose verbose(args, "sweep");
  const bool fem = args.option("--fem").has_value();
  if (!fem)
    for (const char* option : {"--level", "--frames", "--reference"})
      if (args.option(option)) throw UsageError(std::string("option ") + option + " needs --fem K");
  if (!fem && args.flag("--resume")) throw UsageError("option --resume needs --fem K");
  if (fem) return command_sweep_fem(arguments, args, verbose);
  const SweepCommand s = read_sweep(args, verbose, false);
  verbose.set_root(true);
  // The sweep owns its files in DIR while it writes (a second sweep into it is refused; its
  // earlier sweep.csv and sweep plots are removed first; manifest-sweep.json at the end, "failed"
  // if an exception ends it).
  std::optional<observables::OutputFolder> folder(
      std::in_place, s.directory, studies::sweep_file_patterns(), s.holder, "sweep");
  std::vector<lumped::ModelSweep> sweeps;
  const int status = run_lumped_sweep(s, verbose, true, folder, sweeps, {});
  if (status == 130) return status;
  return finish_sweep(s, verbose, true, folder, status, {"--no-fem"}, "");
}

SweepCommand read_sweep(const Arguments& args, Verbose& verbose, bool fem) {
  SweepCommand s;
  int given = 0;
  for (const auto& [option, variable] :
       {std::pair{"--psi1", lumped::SweepVariable::psi1},
        std::pair{"--incidence", lumped::SweepVariable::incidence_angle},
        std::pair{"--friction", lumped::SweepVariable::friction}}) {
    if (const auto text = args.option(option)) try {
        s.range = lumped::parse_sweep_range(*text);
        s.range.variable = variable;
        ++given;
      } catch (const std::invalid_argument& error) {
        throw UsageError("option " + std::string(option) + " is '" + *text + "'; " + error.what());
      }
  }
  if (const auto samples = args.integer("--samples", 1, 10'000'000)) {
    s.range = lumped::sample_range(*samples);
    ++given;
  }
  if (given != 1)
    throw UsageError("needs exactly one of --psi1, --incidence, --friction, --samples");
  if (fem && s.range.variable == lumped::SweepVariable::sample)
    throw UsageError("option --samples draws a lumped restitution; the FEM (--fem) has none");
  // --incidence is in degrees; the sweep (and its CSV) works in radians.
  if (s.range.variable == lumped::SweepVariable::incidence_angle) {
    const std::string text = *args.option("--incidence");
    for (const double end : {s.range.start, s.range.stop})
      if (!(end >= 0 && end < 90))
        throw UsageError("option --incidence is '" + text +
                         "'; expected incidence angles in degrees in [0, 90)");
    s.range.start *= M_PI / 180;
    s.range.stop *= M_PI / 180;
  }
  s.threads = args.integer("--threads", 1, lumped::kMaxSweepThreads)
                  .value_or(std::max(1, int(std::thread::hardware_concurrency())));
  std::vector<std::string> model_names;
  if (const auto list = args.option("--models")) {
    try {
      model_names = lumped::parse_model_list(*list);
    } catch (const std::invalid_argument& error) {
      throw UsageError(std::string("option --models is ") + error.what());
    }
  }
  s.base = cases::load_case(args.case_file());
  if (cases::require_lumped_target(s.base); fem) cases::require_fem_target(s.base);  // first
  verbose.resolved_case(s.base);
  verbose.derived(s.base, cases::derive(s.base));
  s.models = studies::sweep_models(s.base, model_names, s.range, args.option("--seed"));
  s.directory = output_directory(args.option("-o"), s.base.name);
  s.holder = "rebound sweep of " + s.base.name + " (" + s.base.source + ")";
  s.json = args.flag("--json");
  s.quiet = args.flag("--quiet") || s.json;
  s.plots = !args.flag("--no-plots");
  return s;
}

int run_lumped_sweep(const SweepCommand& s, Verbose& verbose, bool root,
                     std::optional<observables::OutputFolder>& folder,
                     std::vector<lumped::ModelSweep>& sweeps,
                     const std::function<bool(bool stop)>& stop_together) {
  const lumped::SweepRange& range = s.range;
  const bool degrees = range.variable == lumped::SweepVariable::incidence_angle;
  verbose.say(cases::format_number(range.count, "%.0f") + " values of " +
              lumped::to_string(range.variable) + " from " +
              cases::format_number(range.start, "%.10g") + " to " +
              cases::format_number(range.stop, "%.10g") + (degrees ? " rad" : "") + ", models " +
              studies::model_list(s.models) + " (normal law " + s.base.lumped.normal_law + "), " +
              std::to_string(s.threads) + " threads");
  verbose.stage("read the case and checked the range");
  {
    // Ctrl-C or SIGTERM during the lumped points: no new point is started, the points being
    // solved end at their next step, nothing is written (sweep.csv holds only complete sweeps),
    // exit 130.
    const studies::StopOnSignal handlers;
    // A sweep of the half-space model takes seconds to minutes per point: a progress line after
    // 2 s, counting the share of the points being solved.
    ProgressLine line(2.0);
    studies::SweepProgress progress;
    if (root && !s.quiet) {
      progress.due = [&line](double fraction) { return line.due(fraction); };
      progress.show = [&line](const std::string& text) { line.show(text); };
    }
    progress.model_solved = [&verbose](const std::string& model) {
      verbose.stage("lumped sweep solved for model " + model);
    };
    sweeps = studies::run_lumped_sweeps(s.models, range, s.threads, progress);
    line.finish();
    bool stop = studies::StopOnSignal::requested();
    // Under mpirun every rank sweeps; they stop together or not at all (the FEM runs that follow
    // are collective).
    if (stop_together) stop = stop_together(stop);
    if (stop) {
      if (root)
        std::cerr << "rebound sweep: interrupted after " << studies::solved_points(sweeps) << " of "
                  << std::size_t(range.count) * s.models.size()
                  << " lumped points; nothing written (sweep.csv is written for a complete sweep "
                     "only)\n";
      if (folder) folder->finish("interrupted");
      return 130;
    }
  }
  const std::string path = (std::filesystem::path(s.directory) / "sweep.csv").string();
  if (root) studies::write_sweep_csv(s.directory, range, sweeps);
  verbose.stage("sweep.csv written");
  const int failures = studies::failed_points(sweeps);
  if (root && !s.quiet) {
    std::fputs(studies::sweep_table(s.base, range, sweeps, s.threads, path).c_str(), stdout);
    std::fflush(stdout);
  }
  if (root && s.json) std::cout << studies::sweep_json(s.base, range, sweeps).dump(2) << "\n";
  if (root && failures > 0)
    std::fprintf(stderr, "rebound sweep: %d of %d points failed (see the error column)\n", failures,
                 range.count * int(sweeps.size()));
  return failures > 0 ? 1 : 0;
}

int finish_sweep(const SweepCommand& s, Verbose& verbose, bool root,
                 std::optional<observables::OutputFolder>& folder, int status,
                 const std::vector<std::string>& extra, const std::string& fem_csv) {
  if (root && s.plots) {
    std::vector<std::string> plot_arguments =
        studies::sweep_plot_arguments(s.directory, s.base, s.models, s.range);
    plot_arguments.insert(plot_arguments.end(), extra.begin(), extra.end());
    const studies::PlotOutcome plots = studies::run_python_plots("plots.py", plot_arguments);
    if (plots.drawn && !s.quiet) {
      std::string names;
      for (const std::string& file : plots.files)
        names += (names.empty() ? "" : ", ") + std::filesystem::path(file).filename().string();
      std::printf("  plots in %s/plots/ (%s; drawn by %s)\n", s.directory.c_str(), names.c_str(),
                  plots.interpreter.c_str());
      std::fflush(stdout);
    }
    print_warning(studies::plot_warnings(plots, "sweep"));
    verbose.stage(plots.drawn ? "plots drawn by " + plots.interpreter
                              : "plots not drawn: " + plots.problem);
  }
  verbose.say("files written:");
  verbose.file((std::filesystem::path(s.directory) / "sweep.csv").string());
  if (!fem_csv.empty()) verbose.file(fem_csv);
  if (s.plots) verbose.files((std::filesystem::path(s.directory) / "plots").string());
  if (folder) folder->finish(status == 0 ? "completed" : "failed");
  verbose.total();
  return status;
}

}  // namespace rebound::app
