// What `rebound fem` and `rebound pair` show of a FEM run: a progress line with an ETA (redrawn in
// place on a terminal, every 10 % as plain lines otherwise or under mpirun) and the one-screen
// summary at the end.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "app/cli.h"
#include "fem/fem.h"

namespace rebound::app {

class FemProgressPrinter {
 public:
  // The callback to hand to studies::run_fem_into (called on rank 0 only).
  std::function<void(const fem::Progress&)> callback();
  // Ends the progress line.
  void finish() { line_.finish(); }

 private:
  ProgressLine line_;
};

}  // namespace rebound::app
