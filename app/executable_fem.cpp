// rebound-fem (with deal.II): every command, the FEM sweep and the FEM validation sections, also
// under mpirun.
#include <deal.II/base/mpi.h>

#include "app/executable.h"
#include "app/mpi_session.h"
#include "studies/fem_run.h"

namespace rebound::app {

bool fem_available() {
  return true;
}

Command fem_command(const std::string& name) {
  if (name == "mesh") return command_mesh;
  if (name == "fem") return command_fem;
  if (name == "pair") return command_pair;
  if (name == "refine") return command_refine;
  if (name == "validate") return command_validate;
  return nullptr;
}

std::vector<validation::SectionSpec> fem_validation_sections() {
  return validation::fem_sections();
}

namespace {

// Ctrl-C / SIGTERM: the FEM run under way ends as "interrupted" (stop_requested() asks every
// rank), the lumped solve under way at its next check.
class MpiStudySession : public StudySession {
 public:
  bool root() const override { return mpi_.root(); }
  int ranks() const override {
    return int(dealii::Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD));
  }
  bool stop_requested() const override { return signals_.stop_requested(); }

 private:
  const MpiSession mpi_;
  const studies::StudySignals signals_;
};

}  // namespace

std::unique_ptr<StudySession> start_study_session() {
  return std::make_unique<MpiStudySession>();
}

}  // namespace rebound::app
