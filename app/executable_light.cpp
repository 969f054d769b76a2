// The light `rebound` (no deal.II): the FEM commands are rebound-fem's (handed over when it was
// built beside this one, REBOUND_HEAVY_AVAILABLE), the validation has its lumped halves only.
#include "app/executable.h"
#include "studies/stop.h"

namespace rebound::app {

bool fem_available() {
#if defined(REBOUND_HEAVY_AVAILABLE)
  return true;
#else
  return false;
#endif
}

Command fem_command(const std::string&) {
  return nullptr;
}

int command_sweep_fem(const std::vector<std::string>& arguments, const Arguments&, Verbose&) {
  if (fem_available()) run_fem_executable("sweep", arguments);
  throw UsageError("option --fem needs the FEM, which this build lacks (deal.II not found)");
}

std::vector<validation::SectionSpec> fem_validation_sections() {
  return {};
}

namespace {

class LightSession : public StudySession {
 public:
  bool root() const override { return true; }
  int ranks() const override { return 1; }
  bool stop_requested() const override { return studies::StopOnSignal::requested(); }

 private:
  const studies::StopOnSignal handlers_;
};

}  // namespace

std::unique_ptr<StudySession> start_study_session() {
  return std::make_unique<LightSession>();
}

}  // namespace rebound::app
