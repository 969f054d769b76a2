// One FEM run of a case as every command and study runs it: SIGINT/SIGTERM end the run cleanly
// (status "interrupted"), summary.json and history.csv are written into the directory (atomically,
// rank 0), frames there too, and the results stay in memory for the caller. Progress goes to a
// callback; nothing is printed here. MPI must be initialised by the caller; collective.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cases/case.h"
#include "fem/fem.h"
#include "observables/history.h"
#include "observables/output_folder.h"
#include "observables/quantities.h"
#include "studies/stop.h"

namespace rebound::studies {

struct FemRun {
  fem::RunResult result;
  nlohmann::json summary;           // as written to summary.json
  observables::Summary quantities;  // the same, typed
  observables::History history;     // history.csv's columns (every step)
};

// `rebound fem -v`'s lines on a run: its FE space, time step, steps and frames, and the wall time
// of each stage.
std::string fem_run_text(const FemRun& run, double cfl);

// The names a FEM run writes into its folder (observables::OutputFolder patterns).
const std::vector<std::string>& fem_output_patterns();

// The folder is locked while the run writes it (observables::FolderBusy, on every rank, when
// another run holds it), earlier results under fem_output_patterns() are removed first, and
// manifest.json lists the files with the run's status.
// Throws cases::CaseError when the case cannot be meshed (exit 2) and std::runtime_error when the
// run itself throws (exit 1). A run that fails numerically returns with result.status "failed"
// after writing what it had; an interrupted one with "interrupted".
FemRun run_fem_into(const cases::Case& c, const std::string& directory, int extra_levels,
                    int frames, const std::function<void(const fem::Progress&)>& progress = {});

// Throws cases::CaseError (exit 2) when the FEM cannot mesh the case's body.
void check_meshable(const cases::Case& c, int extra_levels);

// True on MPI rank 0 (also before MPI is initialised).
bool is_root_rank();

// A study's own folder (observables::OutputFolder: lock, earlier files under `patterns` removed,
// manifest.json by finish()), taken on rank 0 only and collectively: when rank 0 cannot take it
// (another run holds it, it cannot be created) every rank throws observables::FolderBusy with
// rank 0's message. `before` runs on rank 0 first, inside the same check (pair: its lumped
// folders). `role`: as OutputFolder's (sweep, refine). Empty on the other ranks. Also before MPI
// is initialised (then a plain OutputFolder).
std::optional<observables::OutputFolder> take_output_folder(
    const std::string& directory, const std::vector<std::string>& patterns,
    const std::string& command, const std::function<void()>& before = {},
    const std::string& role = "");

// While alive: SIGINT and SIGTERM request the study's stop (studies::StopOnSignal). During a FEM
// run, the run ends with status "interrupted" at its next check (a second signal then only asks
// again: run_fem_into's own handlers); a lumped solve given StopOnSignal::flag() ends at its next
// check, and a second signal outside a FEM run ends the process; between runs, the study sees
// stop_requested() (collective under MPI: true when any rank was asked).
class StudySignals {
 public:
  StudySignals();
  bool stop_requested() const;

 private:
  StopOnSignal handlers_;
};

// One FEM run of a study: status "completed", "failed" (numerical failure or an exception;
// message says why) or "interrupted" (which also requests the study's stop).
struct StudyFemRun {
  std::string status, message;
  nlohmann::json summary;        // summary.json (null when the run threw)
  observables::History history;  // history.csv's columns (empty when the run threw)
};
StudyFemRun run_study_fem(const cases::Case& c, const std::string& directory, int level,
                          int frames);

}  // namespace rebound::studies
