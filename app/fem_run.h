// A FEM run of a case with the command-line behaviour users see in `rebound fem` and
// `rebound pair`: progress on the terminal (plain lines when not a terminal), Ctrl-C ends the run
// cleanly, summary.json (atomically) and history.csv written into the directory, frames there too.
// MPI must be initialised by the caller; collective.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "cases/case.h"
#include "fem/fem.h"

namespace rebound::app {

struct FemRun {
  fem::RunResult result;
  nlohmann::json summary;  // as written to summary.json
};

// Throws cases::CaseError when the case cannot be meshed or asks for what the FEM lacks (exit 2)
// and RunError when the run itself throws (exit 1). A run that fails numerically returns with
// result.status == "failed" after writing what it had.
FemRun run_fem_into(const cases::Case& c, const std::string& directory, int extra_levels,
                    int frames, bool quiet);

// The one-screen summary of a FEM run.
void print_fem_summary(const nlohmann::json& summary, const std::string& directory);

}  // namespace rebound::app
