#include "studies/lumped_run.h"

#include "lumped/summary.h"
#include "observables/files.h"
#include "observables/output_folder.h"
#include "observables/rigid_body_vtk.h"

namespace rebound::studies {

const std::vector<std::string>& lumped_output_patterns() {
  static const std::vector<std::string> patterns = {"summary.json", "history.csv", "rigid_body.pvd",
                                                    "rigid_body_*.vtp", "*.tmp.*"};
  return patterns;
}

LumpedSolution solve_lumped_into(const cases::Case& c, const cases::Derived& d,
                                 const std::string& directory, int frames) {
  // The folder is this run's while it writes: locked, earlier results under these names removed,
  // a manifest at the end (also when the solve fails).
  observables::OutputFolder folder(directory, lumped_output_patterns(),
                                   "rebound lumped solve of " + c.name + " (" + c.source + ")");
  lumped::Outcome outcome;
  try {
    outcome = lumped::solve(c, d);
  } catch (const std::exception&) {
    folder.finish("failed");
    throw;
  }
  LumpedSolution run{d, lumped::summary(c, d, outcome),
                     lumped::history_table(lumped::history_rows(c, d, outcome))};
  observables::write_file_atomically(directory + "/history.csv", observables::to_csv(run.history));
  observables::write_file_atomically(directory + "/summary.json",
                                     observables::to_json(run.summary).dump(2) + "\n");
  if (frames > 0) observables::write_rigid_body_frames(directory, c, d, run.history, frames);
  folder.finish(run.summary.status);
  return run;
}

}  // namespace rebound::studies
