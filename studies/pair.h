// The paired simulation of `rebound pair`: the same impact solved by the FEM and by the case's
// lumped model, the lumped model on the FE body's own mass distribution (and, for reference, on
// the exact geometry), compared in memory. Writes into DIR:
//   fem/ (summary.json, history.csv, solution.pvd), lumped/ (with rigid_body.pvd),
//   lumped-exact/, comparison.json, report.md, view.py (ParaView state), plots/*.png.
// MPI must be initialised by the caller; collective (rank 0 writes the lumped and comparison
// files).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "cases/case.h"
#include "cases/derived.h"
#include "observables/history.h"
#include "observables/quantities.h"
#include "studies/fem_run.h"
#include "studies/lumped_run.h"
#include "studies/progress.h"

namespace rebound::studies {

struct PairOptions {
  int extra_levels = 0;  // global levels added to the FEM mesh
  bool plots = true;     // plots/*.png through scripts/plots.py
  Report report;         // progress lines (rank 0); empty: silent
  Report warning;        // what went wrong without failing the pair (plots not drawn)
  std::function<void(const fem::Progress&)> fem_progress;  // the FEM run's own progress
  std::function<void(const FemRun&)> fem_finished;         // once the FEM run has ended (rank 0)
};

struct PairResult {
  // "completed"; the FEM's "failed" / "interrupted" (then nothing but fem/ was written and the
  // other members are empty); or "interrupted" by a signal after the FEM run (during the lumped
  // solves: nothing but fem/ and the lumped folders' manifests; after the comparison: everything
  // but perhaps the plots).
  std::string status;
  std::string message;  // what stopped the pair and what it kept ("FEM failed: ...; ...")
  FemRun fem;
  LumpedSolution lumped;        // on the FE body's lambda, theta and mass
  LumpedSolution lumped_exact;  // on the exact geometry's
  nlohmann::json comparison;    // comparison.json
  std::string report;           // report.md
};

PairResult run_pair(const cases::Case& c, const std::string& directory, const PairOptions& options);

}  // namespace rebound::studies
