// The FE body's quasi-static contact law as the command runs it (`rebound fem CASE
// --quasi-static`, fem/quasi_static.h): the law, the impact on it, Hertz's on the FE body's own
// mass, written into the folder it owns (observables::OutputFolder: lock, earlier files removed,
// manifest.json with the status). Serial (one process); nothing is printed here.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "cases/case.h"
#include "fem/quasi_static.h"

namespace rebound::studies {

struct FemQuasiStatic {
  fem::StaticLaw law;
  fem::QuasiStaticImpact impact;
  nlohmann::json summary;  // as written to summary.json
  std::string law_file, summary_file;
};

// Writes DIR/static_law.csv (one row per body force: force, approach, Hertz's approach, F over
// Hertz's force at that approach, contact nodes and radius, load offset, penetration, balance
// error, active-set steps; SI units in the header) and DIR/summary.json (the impact, Hertz's
// values, the discretisation, wall times; "units"). Ctrl-C/SIGTERM (studies::StopOnSignal) stops
// the influence solves: fem::QuasiStaticInterrupted is thrown after the manifest says
// "interrupted" and nothing else was written; another exception leaves it "failed".
FemQuasiStatic run_quasi_static_into(const cases::Case& c, const std::string& directory,
                                     int extra_levels,
                                     const std::function<void(int, int)>& progress = {});

// The law and its impact as `rebound fem --quasi-static` prints them: the FE space, the wall
// times, every third point of the law beside Hertz's, the impact's duration and peak force
// against Hertz's (also on the FE body's mass), and the files written.
std::string quasi_static_text(const FemQuasiStatic& result, const std::string& case_name);

}  // namespace rebound::studies
