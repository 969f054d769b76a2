// rebound lumped CASE [-o DIR] [--no-plots] : solve a case with a lumped model and write summary,
// history, ParaView frames and PNG plots into DIR/lumped/.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

#include "app/cli.h"
#include "app/commands.h"
#include "app/verbose.h"
#include "cases/case.h"
#include "cases/derived.h"
#include "cases/format.h"
#include "lumped/summary.h"
#include "observables/summary_text.h"
#include "studies/lumped_run.h"
#include "studies/progress.h"
#include "studies/stop.h"

namespace rebound::app {
namespace {

void print_plots(const studies::PlotOutcome& plots, const std::string& directory) {
  if (!plots.drawn || plots.files.empty()) return;
  std::string names;
  for (const std::string& file : plots.files)
    names += (names.empty() ? "" : ", ") + std::filesystem::path(file).filename().string();
  std::printf("  plots in %s/plots/ (%s; drawn by %s)\n", directory.c_str(), names.c_str(),
              plots.interpreter.c_str());
}
}  // namespace

const char* const kLumpedUsage =
    R"(Usage: rebound lumped CASE [-o DIR] [-q|--quiet | -v|--verbose] [--no-plots] [--json]

Solves the case with the lumped model of its "lumped" section (default: Lai's
coupled-conservative model) and writes into DIR/lumped/ (default DIR:
results/<case name>):
  summary.json    rebound quantities (SI), the keys shared with the FEM
  history.csv     forces, impulses, rigid-body velocity/displacement of P, ...
  rigid_body.pvd  the body moved by the lumped motion, for ParaView
  plots/forces.png, impulses.png, velocity_of_P.png   vs time (stick phases
                  shaded), plots/stick_fraction.png for mdr and halfspace; none
                  for the rigid-body laws (no history)
The plots are drawn by scripts/plots.py with the first of $REBOUND_PYTHON,
/usr/bin/python3 and python3 on PATH that has matplotlib (about a second);
without one the run still succeeds, with a warning. --no-plots skips them.
--json prints summary.json on standard output instead of the table (for scripts);
warnings always go to standard error. -q prints nothing but warnings and errors;
-v adds, on standard error, the case as read with every default filled and its
hash, the derived quantities, each stage's wall time and the files written with
their sizes.
)";

int command_lumped(const std::vector<std::string>& arguments) {
  const Arguments args("lumped", arguments, {"--quiet", "--no-plots", "--json"}, {"-o"},
                       kLumpedUsage);
  if (args.help()) return 0;
  Verbose verbose(args, "lumped");
  const cases::Case c = cases::load_case(args.case_file());
  cases::require_lumped_target(c);  // a plate: refused before DIR is touched
  verbose.resolved_case(c);
  const cases::Derived d = cases::derive(c);
  verbose.derived(c, d);
  verbose.stage("read the case and derived its quantities");
  const std::string directory =
      (std::filesystem::path(output_directory(args.option("-o"), c.name)) / "lumped").string();
  // The half-space grid, a large MDR bed or a small Euler step can take minutes: a progress line
  // after the first 2 s, and Ctrl-C or SIGTERM stop the solve (exit 130, nothing written but a
  // manifest saying "interrupted").
  const studies::StopOnSignal handlers;
  ProgressLine progress(2.0);
  // The half-space solve starts over on a larger grid when the contact reaches the grid's edge:
  // its contact time falls back, and the time left is measured from the attempt's start.
  struct Attempt {
    int number = 1;
    double start = 0;
  } attempt;
  lumped::SolveControl control;
  control.stop = studies::StopOnSignal::flag();
  control.started_over = [&progress, &attempt] {
    ++attempt.number;
    attempt.start = progress.elapsed_seconds();
    progress.restart();
  };
  if (!args.flag("--quiet"))
    control.progress = [&progress, &c, &attempt](double fraction) {
      if (!progress.due(fraction)) return;
      const double elapsed = progress.elapsed_seconds();
      std::string text = studies::format("  %s: contact time %.0f %% of Hertz's",
                                         c.lumped.model.c_str(), 100 * fraction);
      if (attempt.number > 1)
        text += studies::format(" (attempt %d: the grid was enlarged)", attempt.number);
      text += ", " + studies::format_duration(elapsed) + " elapsed";
      if (fraction > 0.05 && fraction < 1)
        text += ", about " +
                studies::format_duration((elapsed - attempt.start) * (1 / fraction - 1)) + " left";
      progress.show(text);
    };
  std::optional<studies::LumpedSolution> solved;
  try {
    solved = studies::solve_lumped_into(c, d, directory, c.lumped.frames, !args.flag("--no-plots"),
                                        control);
  } catch (const lumped::Interrupted& stop) {
    progress.finish();
    std::cerr << "rebound lumped: " << stop.what()
              << (attempt.number > 1
                      ? " (of attempt " + std::to_string(attempt.number) + ", on an enlarged grid)"
                      : std::string())
              << "; nothing written but " << directory << "/manifest.json\n";
    return 130;
  }
  progress.finish();
  const studies::LumpedSolution& solution = *solved;
  verbose.stage("model " + c.lumped.model + " (normal law " + c.lumped.normal_law +
                "): solved, written and plotted");
  for (const auto& [stage, seconds] : solution.stage_seconds)
    verbose.say("  " + stage + ": " + cases::format_number(seconds, "%.3g") + " s");
  if (solution.plots_requested)
    verbose.say("plots: " + (solution.plots.drawn ? "drawn by " + solution.plots.interpreter
                                                  : "not drawn: " + solution.plots.problem));
  const nlohmann::json summary = observables::to_json(solution.summary);
  if (args.flag("--json")) {
    std::cout << summary.dump(2) << "\n";
  } else if (!args.flag("--quiet")) {
    std::fputs(observables::lumped_summary_text(summary, directory, c.lumped.frames > 0).c_str(),
               stdout);
    print_plots(solution.plots, directory);
    std::fflush(stdout);
  }
  print_warnings(summary, "lumped");
  if (solution.plots_requested) print_warning(studies::plot_warnings(solution.plots, "lumped"));
  verbose.files(directory);
  verbose.total();
  // A signal after the solve: its files are complete, frames or plots may be missing.
  if (studies::StopOnSignal::requested()) {
    std::cerr << "rebound lumped: interrupted after the solve; summary.json and history.csv in "
              << directory << " are complete (frames or plots may be missing)\n";
    return 130;
  }
  return 0;
}

}  // namespace rebound::app
