// rebound sweep CASE --psi1 START:STOP:COUNT | --incidence DEG... | --friction ... [-o DIR]
//                    [--models LIST] [--fem K [--level L] [--reference FILE] [--resume]]
// The lumped sweep runs in the light `rebound` and draws DIR/plots/ (unless --no-plots); with
// --fem the whole command is handed over to rebound-fem, which adds FEM runs at K of the points
// (sweep_fem.csv) and draws them into the same plots.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include "app/cli.h"
#include "app/commands.h"
#include "app/verbose.h"
#include "cases/derived.h"
#include "lumped/solve.h"
#include "lumped/summary.h"
#include "lumped/sweep.h"
#include "observables/files.h"
#include "observables/history.h"
#include "observables/output_folder.h"
#include "observables/quantities.h"
#include "studies/plots.h"
#include "studies/progress.h"
#include "studies/run_table.h"
#include "studies/stop.h"

#if defined(REBOUND_HEAVY)
#include "app/mpi_session.h"
#include "studies/fem_run.h"
#include "studies/fem_sweep.h"
#endif

namespace rebound::app {
namespace {

lumped::SweepRange parse_range(const std::string& option, const std::string& text) {
  lumped::SweepRange range;
  std::stringstream in(text);
  std::string a, b, c;
  const std::string expected = "expected START:STOP:COUNT, e.g. 0:8:81";
  if (!std::getline(in, a, ':') || !std::getline(in, b, ':') || !std::getline(in, c) ||
      in.rdbuf()->in_avail() > 0)
    throw UsageError("option " + option + " is '" + text + "'; " + expected);
  try {
    std::size_t used_a = 0, used_b = 0, used_c = 0;
    range.start = std::stod(a, &used_a);
    range.stop = std::stod(b, &used_b);
    const long count = std::stol(c, &used_c);
    if (used_a != a.size() || used_b != b.size() || used_c != c.size())
      throw std::invalid_argument("");
    if (count < 1 || count > 10'000'000) throw std::out_of_range("");
    range.count = int(count);
  } catch (const std::exception&) {
    throw UsageError("option " + option + " is '" + text + "'; " + expected +
                     " (COUNT an integer in [1, 10000000])");
  }
  return range;
}

}  // namespace

const char* const kSweepUsage =
    R"(Usage: rebound sweep CASE (--psi1 | --incidence | --friction) START:STOP:COUNT
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
  --models LIST  comma-separated lumped models to sweep one after the other
                (default: the case's lumped.model), e.g. lai,mdr,halfspace,
                halfspace-beta0: any lumped.model (lai, uncoupled,
                uncoupled-euler, mdr, halfspace, newton, poisson, stronge,
                smith, brach; halfspace with the Dundurs coupling) and
                halfspace-beta0, the half-space model with dundurs_coupling
                false (Dundurs' beta = 0); each is set into the case (other
                models' options dropped) and validated as a case file is (an
                unknown name: exit 2 with the list). sweep.csv has one
                block of rows per model, named in its last column "model"; the
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
line per finished run and an ETA (a case with an elastic target is refused: the
FEM models the rigid plane only):
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
                       {"--psi1", "--incidence", "--friction", "-o", "--threads", "--fem",
                        "--level", "--frames", "--reference", "--models"},
                       kSweepUsage);
  if (args.help()) return 0;
  Verbose verbose(args, "sweep");
  const bool fem = args.option("--fem").has_value();
  if (!fem)
    for (const char* option : {"--level", "--frames", "--reference"})
      if (args.option(option)) throw UsageError(std::string("option ") + option + " needs --fem K");
  if (!fem && args.flag("--resume")) throw UsageError("option --resume needs --fem K");
#if !defined(REBOUND_HEAVY)
  if (fem) {
#if defined(REBOUND_HEAVY_AVAILABLE)
    run_fem_executable("sweep", arguments);
#else
    throw UsageError("option --fem needs the FEM, which this build lacks (deal.II not found)");
#endif
  }
#endif
  int given = 0;
  lumped::SweepRange range;
  for (const auto& [option, variable] :
       {std::pair{"--psi1", lumped::SweepVariable::psi1},
        std::pair{"--incidence", lumped::SweepVariable::incidence_angle},
        std::pair{"--friction", lumped::SweepVariable::friction}}) {
    if (const auto text = args.option(option)) {
      range = parse_range(option, *text);
      range.variable = variable;
      ++given;
    }
  }
  if (given != 1) throw UsageError("needs exactly one of --psi1, --incidence, --friction");
  // --incidence is in degrees; the sweep (and its CSV) works in radians.
  const bool degrees = range.variable == lumped::SweepVariable::incidence_angle;
  if (degrees) {
    const std::string text = *args.option("--incidence");
    for (const double end : {range.start, range.stop})
      if (!(end >= 0 && end < 90))
        throw UsageError("option --incidence is '" + text +
                         "'; expected incidence angles in degrees in [0, 90)");
    range.start *= M_PI / 180;
    range.stop *= M_PI / 180;
  }
  // The swept value as shown on screen: degrees for the incidence.
  const auto shown_value = [degrees](double value) { return degrees ? value * 180 / M_PI : value; };
  const char* unit = degrees ? " (deg)" : "";
  const int threads = args.integer("--threads", 1, lumped::kMaxSweepThreads)
                          .value_or(std::max(1, int(std::thread::hardware_concurrency())));
  std::vector<std::string> model_names;
  if (const auto list = args.option("--models")) {
    try {
      model_names = lumped::parse_model_list(*list);
    } catch (const std::invalid_argument& error) {
      throw UsageError(std::string("option --models is ") + error.what());
    }
  }
  const cases::Case base = cases::load_case(args.case_file());
  if (fem) cases::require_fem_target(base);  // the FEM models the rigid plane only
  verbose.resolved_case(base);
  verbose.derived(base, cases::derive(base));
  // The case of each model (the case's own without --models), validated as a case file is.
  std::vector<std::pair<std::string, cases::Case>> models;
  if (model_names.empty()) models.emplace_back(lumped::model_name(base), base);
  for (const std::string& name : model_names)
    models.emplace_back(name, lumped::case_with_model(base, name));
  // Validate both ends before running (bad ranges are bad input, exit 2).
  for (const auto& [name, c] : models) {
    lumped::case_at(c, range.variable, range.start);
    lumped::case_at(c, range.variable, range.stop);
  }
  std::string model_list;
  for (const auto& [name, c] : models) model_list += (model_list.empty() ? "" : ",") + name;
  const std::string directory = output_directory(args.option("-o"), base.name);
  const bool json = args.flag("--json");
  const bool quiet = args.flag("--quiet") || json;

#if defined(REBOUND_HEAVY)
  studies::FemSweepOptions fem_options;
  std::optional<std::string> reference;
  if (fem) {
    fem_options.count = *args.integer("--fem", 0, range.count);
    fem_options.level = args.integer("--level", 0, 6).value_or(0);
    fem_options.frames = args.integer("--frames", 0, 100000).value_or(0);
    fem_options.resume = args.flag("--resume");
    if (!quiet) fem_options.report = print_progress;
    fem_options.directory = directory;
    for (const int i : studies::fem_sweep_indices(range.count, fem_options.count))
      studies::check_meshable(lumped::case_at(base, range.variable, range.value(i)),
                              fem_options.level);
    reference = args.option("--reference");
    if (reference) {
      observables::History table;
      try {
        table = observables::read_history_csv(*reference);
      } catch (const std::exception& error) {
        throw UsageError("option --reference is '" + *reference + "': " + error.what() +
                         "; expected a CSV file with the columns psi1,psi2");
      }
      std::size_t points = 0;
      if (table.values.count("psi1") && table.values.count("psi2"))
        for (std::size_t i = 0; i < table.rows(); ++i)
          points +=
              std::isfinite(table.values["psi1"][i]) && std::isfinite(table.values["psi2"][i]);
      if (points == 0)
        throw UsageError("option --reference is '" + *reference +
                         "'; expected a CSV file with a header row naming the columns psi1,psi2 "
                         "and at least one row of numbers");
    }
  }
  std::optional<MpiSession> mpi;
  if (fem) mpi.emplace();
  const bool root = !mpi || mpi->root();
#else
  const bool root = true;
#endif

  verbose.set_root(root);
  // The sweep owns its files in DIR while it writes (a second sweep into it is refused; its
  // earlier sweep.csv and sweep plots are removed first; manifest-sweep.json at the end, "failed"
  // if an exception ends it). sweep_fem.csv and sweep_fem/ are the FEM study's, kept for --resume;
  // a sweep_fem.csv of another case is refused first (exit 2, nothing touched).
#if defined(REBOUND_HEAVY)
  if (fem) studies::check_fem_sweep_resume(base, range, fem_options);
#endif
  const std::vector<std::string> patterns = {"sweep.csv",
                                             "plots/psi2_vs_psi1.png",
                                             "plots/e_vs_*.png",
                                             "plots/tangential_cor_vs_incidence.png",
                                             "plots/spin_vs_incidence.png",
                                             "*.tmp.*"};
  const std::string holder = "rebound sweep of " + base.name + " (" + base.source + ")";
#if defined(REBOUND_HEAVY)
  std::optional<observables::OutputFolder> folder =
      studies::take_output_folder(directory, patterns, holder, {}, "sweep");
#else
  std::optional<observables::OutputFolder> folder(std::in_place, directory, patterns, holder,
                                                  "sweep");
#endif
  verbose.say(format_number(range.count, "%.0f") + " values of " +
              lumped::to_string(range.variable) + " from " + format_number(range.start, "%.10g") +
              " to " + format_number(range.stop, "%.10g") + (degrees ? " rad" : "") + ", models " +
              model_list + " (normal law " + base.lumped.normal_law + "), " +
              std::to_string(threads) + " threads");
  verbose.stage("read the case and checked the range");
  std::vector<lumped::ModelSweep> sweeps;
  {
    // Ctrl-C or SIGTERM during the lumped points: no new point is started, the points being
    // solved end at their next step, nothing is written (sweep.csv holds only complete sweeps),
    // exit 130.
    const studies::StopOnSignal handlers;
    // A sweep of the half-space model takes seconds to minutes per point: a progress line after
    // 2 s, counting the share of the points being solved.
    ProgressLine progress(2.0);
    const int total = range.count * int(models.size());
    for (const auto& [name, c] : models) {
      const int before = range.count * int(sweeps.size());
      const std::string model = name;
      const double model_start = progress.elapsed_seconds();
      const int points = range.count;
      std::function<void(double)> solved;
      // The models' costs differ by orders of magnitude (lai: microseconds, halfspace: seconds),
      // so the time left is the current model's, from its own rate.
      if (root && !quiet)
        solved = [&progress, before, total, points, model, model_start](double done) {
          if (!progress.due((before + done) / total)) return;
          const double elapsed = progress.elapsed_seconds();
          const std::string left =
              done > 0.05
                  ? ", about " +
                        studies::format_duration((elapsed - model_start) / done * (points - done)) +
                        " left"
                  : "";
          // "3 of 8" when whole points are done, "3.4 of 8" while some are being solved
          const std::string model_done = done == std::floor(done) ? studies::format("%d", int(done))
                                                                  : studies::format("%.1f", done);
          progress.show(
              studies::format("  %d of %d lumped points done (model %s: %s of %d%s), %s elapsed",
                              before + int(done), total, model.c_str(), model_done.c_str(), points,
                              left.c_str(), studies::format_duration(elapsed).c_str()));
        };
      sweeps.push_back(
          {name, lumped::run_sweep(c, range, threads, studies::StopOnSignal::flag(), solved)});
      verbose.stage("lumped sweep solved for model " + name);
      if (studies::StopOnSignal::requested()) break;
    }
    progress.finish();
    bool stop = studies::StopOnSignal::requested();
#if defined(REBOUND_HEAVY)
    // Under mpirun every rank sweeps; they stop together or not at all (the FEM runs that follow
    // are collective).
    if (mpi) stop = dealii::Utilities::MPI::max(int(stop), MPI_COMM_WORLD) != 0;
#endif
    if (stop) {
      std::size_t solved = 0;
      for (const auto& sweep : sweeps)
        for (const auto& row : sweep.rows) solved += !row.scalars.empty() || !row.error.empty();
      if (root)
        std::cerr << "rebound sweep: interrupted after " << solved << " of "
                  << std::size_t(range.count) * models.size()
                  << " lumped points; nothing written (sweep.csv is written for a complete sweep "
                     "only)\n";
      if (folder) folder->finish("interrupted");
      return 130;
    }
  }
  const std::string path = (std::filesystem::path(directory) / "sweep.csv").string();
  if (root) observables::write_file_atomically(path, lumped::sweep_csv(range, sweeps));
  verbose.stage("sweep.csv written");
  int failures = 0;
  for (const auto& sweep : sweeps)
    for (const auto& row : sweep.rows) failures += !row.error.empty();
  const int points_total = range.count * int(sweeps.size());
  if (root && !quiet) {
    std::printf("%s: %s sweep from %g to %g%s, %d points, model%s %s, %d threads\n",
                base.name.c_str(), lumped::to_string(range.variable), shown_value(range.start),
                shown_value(range.stop), degrees ? " degrees" : "", range.count,
                sweeps.size() > 1 ? "s" : "", model_list.c_str(), threads);
    const std::string column =
        std::string(degrees ? "incidence" : lumped::to_string(range.variable)) + unit;
    // The tangential coefficient and the final spin: summary_scalar_keys() by name.
    const auto& keys = observables::summary_scalar_keys();
    const auto index = [&keys](const char* key) {
      return std::size_t(std::find(keys.begin(), keys.end(), key) - keys.begin());
    };
    const std::size_t psi1 = index("psi1"), psi2 = index("psi2"), e = index("e_newton"),
                      cor = index("tangential_cor"), spin = index("spin_final");
    const auto scalar = [](const lumped::SweepPoint& row, std::size_t k) {
      return k < row.scalars.size() ? row.scalars[k] : NAN;
    };
    for (const auto& sweep : sweeps) {
      if (sweeps.size() > 1) std::printf(" model %s\n", sweep.model.c_str());
      std::printf("  %16s %10s %10s %10s %10s %12s %12s %12s %s\n", column.c_str(), "Psi1", "Psi2",
                  "e", "e_t", "spin (rad/s)", "gamma_t", "gamma_n", "phases");
      const int shown = std::min(range.count, 25);
      for (int k = 0; k < shown; ++k) {
        const int i =
            shown == 1 ? 0 : int(std::lround(double(k) * (range.count - 1) / (shown - 1)));
        const auto& row = sweep.rows[i];
        if (!row.error.empty()) {
          std::printf("  %16.6g  error: %s\n", shown_value(row.value), row.error.c_str());
          continue;
        }
        std::printf("  %16.6g %10.5f %10.5f %10.6f %10.6f %12.6g %12.6g %12.6g %s\n",
                    shown_value(row.value), scalar(row, psi1), scalar(row, psi2), scalar(row, e),
                    scalar(row, cor), scalar(row, spin), row.gamma_t, row.gamma_n,
                    row.phases.c_str());
      }
      if (shown < range.count) std::printf("  (%d of %d rows shown)\n", shown, range.count);
    }
    std::printf("  written to %s%s\n", path.c_str(), degrees ? " (angles in radians)" : "");
    std::fflush(stdout);
  }
  if (root && json) {
    // The rows of sweep.csv as JSON for scripts: the swept value (rad for angles) and the summary
    // scalars (null where undefined), the phases, the error and the model of each point.
    nlohmann::json points = nlohmann::json::array();
    nlohmann::json names = nlohmann::json::array();
    const auto& keys = observables::summary_scalar_keys();
    for (const auto& sweep : sweeps) {
      names.push_back(sweep.model);
      for (const auto& row : sweep.rows) {
        nlohmann::json point = {{lumped::to_string(range.variable), row.value}};
        for (std::size_t k = 0; k < keys.size() && k < row.scalars.size(); ++k)
          point[keys[k]] = observables::finite_or_null(row.scalars[k]);
        point["phases"] = row.phases;
        point["error"] = row.error;
        point["model"] = sweep.model;
        points.push_back(point);
      }
    }
    std::cout << nlohmann::json{{"case", base.name},
                                {"variable", lumped::to_string(range.variable)},
                                {"models", names},
                                {"points", points}}
                     .dump(2)
              << "\n";
  }
  if (root && failures > 0)
    std::fprintf(stderr, "rebound sweep: %d of %d points failed (see the error column)\n", failures,
                 points_total);
  int status = failures > 0 ? 1 : 0;

#if defined(REBOUND_HEAVY)
  if (fem) {
    if (fem_options.count > 0) {
      // The FEM points once, whatever the models; their lines show the first model's Psi2.
      const studies::FemSweepResult points =
          studies::run_fem_sweep(base, range, sweeps.front().rows, fem_options);
      verbose.stage("FEM runs at " + std::to_string(points.total) + " points");
      if (points.interrupted) {
        if (root)
          std::cerr << "rebound sweep: interrupted; " << points.finished << " of " << points.total
                    << " FEM runs are in " << points.path << " (rerun with --resume to continue)\n";
        if (folder) folder->finish("interrupted");
        return 130;
      }
      if (points.failed > 0) {
        if (root)
          std::cerr << "rebound sweep: " << points.failed << " of " << points.total
                    << " FEM runs failed (see the status and error columns of " << points.path
                    << ")\n";
        status = 1;
      }
    }
  }
#endif
  if (root && !args.flag("--no-plots")) {
    std::vector<std::string> plot_arguments = {directory, "--mode", "sweep", "--title", base.name};
    // The gross-slip line Psi2 = Psi1 - G holds for an elastic normal contact (e_N = 1); with a
    // dissipative law or a rigid-body law among the models its slope and offset depend on the
    // e_N each achieves, so no line is drawn.
    bool elastic = true;
    for (const auto& [name, c] : models) elastic = elastic && lumped::elastic_normal_contact(c);
    // G depends on mu at theta != 0: one line serves a friction sweep only at theta = 0.
    const cases::Derived derived = cases::derive(base);
    if (range.variable == lumped::SweepVariable::friction && derived.theta != 0) elastic = false;
    if (const double g = derived.gross_slip_offset; elastic && std::isfinite(g))
      plot_arguments.insert(plot_arguments.end(), {"--gross-slip", studies::csv_number(g)});
#if defined(REBOUND_HEAVY)
    if (reference) plot_arguments.insert(plot_arguments.end(), {"--reference", *reference});
    if (!fem) plot_arguments.push_back("--no-fem");  // a sweep_fem.csv there is another run's
#else
    plot_arguments.push_back("--no-fem");
#endif
    const studies::PlotOutcome plots = studies::run_python_plots("plots.py", plot_arguments);
    if (plots.drawn && !quiet) {
      std::string names;
      for (const std::string& file : plots.files)
        names += (names.empty() ? "" : ", ") + std::filesystem::path(file).filename().string();
      std::printf("  plots in %s/plots/ (%s; drawn by %s)\n", directory.c_str(), names.c_str(),
                  plots.interpreter.c_str());
      std::fflush(stdout);
    }
    print_warning(studies::plot_warnings(plots, "sweep"));
    verbose.stage(plots.drawn ? "plots drawn by " + plots.interpreter
                              : "plots not drawn: " + plots.problem);
  }
  verbose.say("files written:");
  verbose.file(path);
#if defined(REBOUND_HEAVY)
  if (fem) verbose.file((std::filesystem::path(directory) / "sweep_fem.csv").string());
#endif
  if (!args.flag("--no-plots"))
    verbose.files((std::filesystem::path(directory) / "plots").string());
  if (folder) folder->finish(status == 0 ? "completed" : "failed");
  verbose.total();
  return status;
}

}  // namespace rebound::app
