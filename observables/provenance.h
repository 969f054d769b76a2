// Where a result came from, written into every summary.json, comparison.json and report.md:
// rebound's version and git commit, the date (UTC), the host, the command line and MPI ranks of
// the process, the case file and the case as the solvers read it (every default filled,
// cases/resolved.h) with its hash.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "cases/case.h"

namespace rebound::observables {

// What the process was started with; set once by the command line (app/), read by provenance().
// A library caller (Python, tests) that never sets it gets an empty command line and 1 rank.
struct Invocation {
  std::string command_line;
  int mpi_ranks = 1;
};
void set_invocation(const Invocation& invocation);
const Invocation& invocation();

// {"rebound_version", "git_commit", "date", "host", "command_line", "mpi_ranks", "case_file",
//  "case_hash", "case"}.
nlohmann::json provenance(const cases::Case& c);

// The provenance as Markdown lines (for report.md).
std::string provenance_markdown(const nlohmann::json& provenance);

}  // namespace rebound::observables
