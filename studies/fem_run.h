// One FEM run of a case as every command and study runs it: SIGINT/SIGTERM end the run cleanly
// (status "interrupted"), summary.json and history.csv are written into the directory (atomically,
// rank 0), frames there too, and the results stay in memory for the caller. Progress goes to a
// callback; nothing is printed here. MPI must be initialised by the caller; collective.
#pragma once

#include <csignal>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cases/case.h"
#include "fem/fem.h"
#include "observables/history.h"
#include "observables/quantities.h"

namespace rebound::studies {

struct FemRun {
  fem::RunResult result;
  nlohmann::json summary;           // as written to summary.json
  observables::Summary quantities;  // the same, typed
  observables::History history;     // history.csv's columns (every step)
};

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

// While alive: SIGINT and SIGTERM between the FEM runs of a study request a stop (during a run,
// run_fem_into ends the run with status "interrupted"; run_study_fem then requests the stop).
// stop_requested() is collective under MPI.
class StudySignals {
 public:
  StudySignals();
  ~StudySignals();
  StudySignals(const StudySignals&) = delete;
  StudySignals& operator=(const StudySignals&) = delete;
  bool stop_requested() const;
  static void request_stop();  // as if a signal arrived (used when a run reports "interrupted")
  // The flag the signals set, for fem::RunOptions::interrupt of runs made outside run_fem_into
  // (validation): such a run ends as "interrupted" at its next check once a stop is requested.
  static const volatile std::sig_atomic_t* flag();
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
