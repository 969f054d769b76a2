// -v/--verbose, accepted by every command: what a user debugging a run wants to see, on standard
// error, each line prefixed "rebound COMMAND [verbose]: ": the case as the solvers read it (every
// default filled) and its hash, the derived quantities they use, each stage with its wall time,
// and the files written with their sizes. Off by default; -q and -v together are a usage error
// (Arguments). Under MPI only rank 0 prints (its rank is read from the launcher's environment
// before MPI starts, set_root() once it has).
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "app/cli.h"
#include "cases/case.h"
#include "cases/derived.h"

namespace rebound::app {

class Verbose {
 public:
  Verbose(const Arguments& args, std::string command);
  bool on() const { return on_ && root_; }
  void set_root(bool root) { root_ = root; }

  // Lines of text (a trailing newline is added when missing), each prefixed.
  void say(const std::string& text) const;
  // "case NAME (FILE), hash H" and the case as read with every default filled
  // (cases::resolved_json), indented.
  void resolved_case(const cases::Case& c) const;
  // What `rebound check --json` lists: mass properties, m, lambda, theta, Psi1, Lai's and Hertz's
  // scales, one "key = value" line each.
  void derived(const cases::Case& c, const cases::Derived& d) const;
  // "WHAT: S s": the wall time since the previous stage (or since the command started).
  void stage(const std::string& what);
  // One file with its size (or "not written" when absent).
  void file(const std::string& path) const;
  // Every file under a folder, recursively, with its size; numbered series (solution_0000.vtu,
  // ...) as one line with their count and total size.
  void files(const std::string& directory) const;
  // "total: S s" since the command started.
  void total() const;

 private:
  bool on_;
  bool root_;
  std::string prefix_;
  std::chrono::steady_clock::time_point start_, last_;
};

// False on the ranks other than 0 of an MPI launcher (Open MPI, MPICH, PMIx environment), true
// otherwise: who prints before MPI_Init.
bool launcher_rank_zero();

}  // namespace rebound::app
