// A lumped solve of a case as the commands and studies run it: solved on a given body, written
// into a folder (summary.json, history.csv, rigid_body.pvd, plots/*.png) and kept in memory, typed.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/outcome.h"
#include "observables/history.h"
#include "observables/quantities.h"
#include "studies/plots.h"

namespace rebound::studies {

struct LumpedSolution {
  cases::Derived derived;  // the body it was solved on
  observables::Summary summary;
  observables::History history;
  bool plots_requested = false;
  PlotOutcome plots;  // when requested: drawn or not, the files, the interpreter, the problem
  // Wall seconds of the stages, in order: "solve", "write" (summary, history, frames), "plots".
  std::vector<std::pair<std::string, double>> stage_seconds;
};

// The names a lumped solve writes into its folder (observables::OutputFolder patterns).
const std::vector<std::string>& lumped_output_patterns();

// The lumped model of the case on the given body, solved and written into directory (summary.json,
// history.csv, rigid_body.pvd when frames > 0, with `plots` plots/*.png by scripts/plots.py
// --mode lumped when the history has rows, and manifest.json). The folder is locked while it is
// written (observables::FolderBusy when another run holds it) and earlier results in it under
// these names (plots included) are removed first. Plots that cannot be drawn do not fail the
// solve (LumpedSolution::plots says why). Throws lumped::SolveError when the solve fails (the
// manifest then says "failed"), lumped::Interrupted when `control` stops it (manifest
// "interrupted"; nothing else written).
LumpedSolution solve_lumped_into(const cases::Case& c, const cases::Derived& d,
                                 const std::string& directory, int frames, bool plots = false,
                                 const lumped::SolveControl& control = {});

}  // namespace rebound::studies
