// `rebound sweep` as both executables run it (app/command_sweep.cpp); the FEM points of --fem K
// are app/command_sweep_fem.cpp, in rebound-fem only. The study itself is studies/sweep.h.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/verbose.h"
#include "lumped/sweep.h"
#include "observables/output_folder.h"
#include "studies/sweep.h"

namespace rebound::app {

// The options of a sweep, read and checked.
struct SweepCommand {
  cases::Case base;
  lumped::SweepRange range;  // in radians for --incidence
  studies::SweepModels models;
  int threads = 1;
  std::string directory;
  std::string holder;  // who holds DIR while the sweep writes (observables::OutputFolder)
  bool json = false, quiet = false, plots = true;
};

// Reads the range, threads, models, case (with --fem: one the FEM can model) and DIR.
SweepCommand read_sweep(const Arguments& args, Verbose& verbose, bool fem);

// The lumped points on every model, DIR/sweep.csv, the table or --json: the exit status so far (0,
// 1 when points failed), or 130 when interrupted (nothing written, `folder` finished). Under MPI
// `stop_together` turns this rank's stop into every rank's.
int run_lumped_sweep(const SweepCommand& s, Verbose& verbose, bool root,
                     std::optional<observables::OutputFolder>& folder,
                     std::vector<lumped::ModelSweep>& sweeps,
                     const std::function<bool(bool stop)>& stop_together);

// The plots (unless --no-plots; `extra` arguments for scripts/plots.py), the files written and
// the folder finished: the exit status.
int finish_sweep(const SweepCommand& s, Verbose& verbose, bool root,
                 std::optional<observables::OutputFolder>& folder, int status,
                 const std::vector<std::string>& extra, const std::string& fem_csv);

}  // namespace rebound::app
