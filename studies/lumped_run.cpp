#include "studies/lumped_run.h"

#include "lumped/summary.h"
#include "observables/files.h"
#include "observables/rigid_body_vtk.h"

namespace rebound::studies {

LumpedSolution solve_lumped_into(const cases::Case& c, const cases::Derived& d,
                                 const std::string& directory, int frames) {
  const lumped::Outcome outcome = lumped::solve(c, d);
  LumpedSolution run{d, lumped::summary(c, d, outcome),
                     lumped::history_table(lumped::history_rows(c, d, outcome))};
  observables::write_file_atomically(directory + "/history.csv", observables::to_csv(run.history));
  observables::write_file_atomically(directory + "/summary.json",
                                     observables::to_json(run.summary).dump(2) + "\n");
  if (frames > 0) observables::write_rigid_body_frames(directory, c, d, run.history, frames);
  return run;
}

}  // namespace rebound::studies
