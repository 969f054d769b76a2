// A lumped solve of a case as the commands and studies run it: solved on a given body, written
// into a folder (summary.json, history.csv, rigid_body.pvd) and kept in memory, typed.
#pragma once

#include <string>

#include "cases/case.h"
#include "cases/derived.h"
#include "observables/history.h"
#include "observables/quantities.h"

namespace rebound::studies {

struct LumpedSolution {
  cases::Derived derived;  // the body it was solved on
  observables::Summary summary;
  observables::History history;
};

// The lumped model of the case on the given body, solved and written into directory (summary.json,
// history.csv, and rigid_body.pvd when frames > 0).
LumpedSolution solve_lumped_into(const cases::Case& c, const cases::Derived& d,
                                 const std::string& directory, int frames);

}  // namespace rebound::studies
