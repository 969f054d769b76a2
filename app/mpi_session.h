// MPI for the deal.II commands (mesh, fem, pair): initialised when the command starts (after its
// input was validated, so bad input exits 2 without MPI) and finalised when it returns. One
// thread per rank.
#pragma once

#include <deal.II/base/mpi.h>

namespace rebound::app {

class MpiSession {
 public:
  MpiSession() : mpi_(argc_, argv_, 1) {}
  bool root() const { return dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0; }

 private:
  int argc_ = 1;
  char program_[8] = "rebound";
  char* argv_storage_[2] = {program_, nullptr};
  char** argv_ = argv_storage_;
  dealii::Utilities::MPI::MPI_InitFinalize mpi_;
};

}  // namespace rebound::app
