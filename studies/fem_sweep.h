// The FEM points of `rebound sweep --fem K`: the FEM at K of a lumped sweep's points, one after
// the other, into DIR/sweep_fem.csv (rewritten after each run; resumable, studies/run_table.h)
// and DIR/sweep_fem/<variable>_<value>/. MPI must be initialised by the caller; collective.
#pragma once

#include <string>
#include <vector>

#include "cases/case.h"
#include "lumped/sweep.h"
#include "studies/progress.h"

namespace rebound::studies {

// The K sweep indices of the FEM runs, evenly spread (first and last; K = 1: the middle point).
std::vector<int> fem_sweep_indices(int count, int k);

struct FemSweepOptions {
  int count = 0, level = 0, frames = 0;
  bool resume = false;
  std::string directory;
  Report report;  // progress lines (rank 0); empty: silent
};

struct FemSweepResult {
  int total = 0;     // FEM points asked for
  int finished = 0;  // rows in sweep_fem.csv (completed, failed or reused)
  int failed = 0;
  bool interrupted = false;
  std::string path;  // sweep_fem.csv
};

// With o.resume, throws StudyInputError (exit 2) when DIR/sweep_fem.csv holds runs of another
// case description or table, as run_fem_sweep would, but before anything is written.
void check_fem_sweep_resume(const cases::Case& base, const lumped::SweepRange& range,
                            const FemSweepOptions& o);
// Runs the FEM points. `lumped_rows` are the lumped sweep's points (shown beside each FEM run).
// Throws StudyInputError for a sweep_fem.csv of another case under resume.
FemSweepResult run_fem_sweep(const cases::Case& base, const lumped::SweepRange& range,
                             const std::vector<lumped::SweepPoint>& lumped_rows,
                             const FemSweepOptions& options);

}  // namespace rebound::studies
