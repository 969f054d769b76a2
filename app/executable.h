// What the two executables do differently, defined once in each by the one file compiled into it
// alone: app/executable_light.cpp (`rebound`) and app/executable_fem.cpp (`rebound-fem`, with
// deal.II). Every other file of app/ is compiled once (app/CMakeLists.txt) and means the same in
// both.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/commands.h"
#include "app/verbose.h"
#include "validation/validation.h"

namespace rebound::app {

// Whether the FEM commands exist: rebound-fem, or a rebound built beside it.
bool fem_available();
// The FEM command of this name (mesh, fem, pair, refine, validate) in rebound-fem; in rebound
// none: main() hands the command over to rebound-fem.
Command fem_command(const std::string& name);
// `rebound sweep --fem K` after its options were checked: the FEM sweep in rebound-fem; rebound
// hands it over, or says that this build lacks the FEM (exit 2).
int command_sweep_fem(const std::vector<std::string>& arguments, const Arguments& args,
                      Verbose& verbose);
// The FEM halves of the validation sections (none in rebound).
std::vector<validation::SectionSpec> fem_validation_sections();

// A study every rank runs under mpirun (validate), for its lifetime: MPI in rebound-fem (started
// after the input was checked, so that bad input exits 2 without it) and the Ctrl-C/SIGTERM
// handlers.
class StudySession {
 public:
  virtual ~StudySession() = default;
  virtual bool root() const = 0;
  virtual int ranks() const = 0;
  // Whether a stop was asked for (in rebound-fem by any rank: collective).
  virtual bool stop_requested() const = 0;
};
std::unique_ptr<StudySession> start_study_session();

}  // namespace rebound::app
