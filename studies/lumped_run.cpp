#include "studies/lumped_run.h"

#include <chrono>

#include "lumped/solve.h"
#include "lumped/summary.h"
#include "observables/files.h"
#include "observables/output_folder.h"
#include "observables/rigid_body_vtk.h"

namespace rebound::studies {

const std::vector<std::string>& lumped_output_patterns() {
  static const std::vector<std::string> patterns = {"summary.json",   "history.csv",
                                                    "rigid_body.pvd", "rigid_body_*.vtp",
                                                    "*.tmp.*",        "plots/*.png"};
  return patterns;
}

LumpedSolution solve_lumped_into(const cases::Case& c, const cases::Derived& d,
                                 const std::string& directory, int frames, bool plots,
                                 const lumped::SolveControl& control) {
  // The folder is this run's while it writes: locked, earlier results under these names removed,
  // a manifest at the end (also when the solve fails).
  observables::OutputFolder folder(directory, lumped_output_patterns(),
                                   "rebound lumped solve of " + c.name + " (" + c.source + ")");
  auto mark = std::chrono::steady_clock::now();
  std::vector<std::pair<std::string, double>> stages;
  const auto stage = [&](const char* name) {
    const auto now = std::chrono::steady_clock::now();
    stages.emplace_back(name, std::chrono::duration<double>(now - mark).count());
    mark = now;
  };
  lumped::Outcome outcome;
  try {
    outcome = lumped::solve(c, d, true, control);
  } catch (const lumped::Interrupted&) {
    folder.finish("interrupted");
    throw;
  } catch (const std::exception&) {
    folder.finish("failed");
    throw;
  }
  stage("solve");
  LumpedSolution run;
  run.derived = d;
  run.summary = lumped::summary(c, d, outcome);
  run.history = lumped::history_table(lumped::history_rows(c, d, outcome));
  observables::write_file_atomically(directory + "/history.csv", observables::to_csv(run.history));
  observables::write_file_atomically(directory + "/summary.json",
                                     observables::to_json(run.summary).dump(2) + "\n");
  if (frames > 0) observables::write_rigid_body_frames(directory, c, d, run.history, frames);
  stage("write");
  // A rigid-body law has an empty history (an instantaneous impulse): nothing to plot.
  run.plots_requested = plots && run.history.rows() > 0;
  if (run.plots_requested)
    run.plots = run_python_plots("plots.py", {directory, "--mode", "lumped", "--title", c.name});
  if (run.plots_requested) stage("plots");
  run.stage_seconds = std::move(stages);
  folder.finish(run.summary.status);
  return run;
}

}  // namespace rebound::studies
