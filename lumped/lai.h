// Lai's coupled-conservative contact model (Lai 1999, sec. 5.1; docs/THEORY.md §5): a rigid body on
// a Hertz normal spring and a coupled tangential spring with Coulomb friction, integrated in
// non-dimensional form with the stick/slip/separation switching surfaces located as events. The
// integration variable is s with dtau/ds = sqrt(-delta_n), in which the equations are polynomial
// and smooth through first touch and separation (see lai.cpp).
#pragma once

#include "lumped/outcome.h"

namespace rebound::lumped {

struct LaiOptions {
  // Fill Outcome::history (off for sweeps and benchmarks). The solve takes the same steps and gives
  // the same results either way (only peak_normal_force also sees the history samples).
  bool record_history = true;
  double history_spacing = 0.01;  // tau between history samples (plus every event)
};

// Solves one impact. configuration.normal_law selects the normal spring (Hertz by default; a
// dissipative law replaces the (4/3) x^{3/2} term and keeps Lai's coupling term).
Outcome solve_lai(const Configuration& configuration, const LaiOptions& options = {});

// Statistics of the last solve_lai() call on this thread (steps, evaluations), for the
// accuracy/cost table.
struct LaiStatistics {
  long steps = 0;
  long rejected = 0;
  long evaluations = 0;
  int events = 0;
};
LaiStatistics last_lai_statistics();

}  // namespace rebound::lumped
