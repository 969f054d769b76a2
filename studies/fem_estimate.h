// What a FEM run of a case will cost, before running it (`rebound fem --estimate`): the mesh and
// the FE space are built exactly as `rebound fem` builds them (also under mpirun), a short burst
// of real time steps from the initial state measures the step rate on this machine, and the end
// rule gives the number of steps. Nothing is written into the case's output folder. MPI must be
// initialised by the caller; collective (every rank returns the same estimate).
#pragma once

#include <mpi.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cases/case.h"

namespace rebound::studies {

struct FemEstimateOptions {
  int extra_levels = 0;  // --level K, as for the run
  int frames = 0;        // VTK frames of the run (fem.frames or --frames)
  // The burst: at least min_steps and until burst_seconds have passed, at most max_steps (never
  // more than the run itself would take).
  int min_steps = 50;
  int max_steps = 1000;
  double burst_seconds = 2.0;
};

struct FemEstimate {
  // The FE space, as the run would have it.
  int degree = 0, ranks = 1;
  unsigned long long dofs = 0, cells = 0;
  double time_step = 0;      // s
  double setup_seconds = 0;  // mesh, FE space, mass matrix and time step (measured)
  double mesh_seconds = 0;   // of which the mesh
  // The end rule: fem.end_time when the case gives one, else the contact duration expected from
  // the case's geometry (the lumped model `lai` of the case; Hertz's when it cannot be solved)
  // plus the settle time 0.2 t_Hertz, at most 3 t_Hertz (fem/run.cpp).
  std::string end_rule;               // "fem.end_time" or "contact + settle"
  double end_time = 0;                // s
  double contact_duration = 0;        // s, expected (NaN with fem.end_time)
  std::string contact_duration_from;  // "lumped model lai" or "Hertz"
  double hertz_duration = 0;          // s
  long long steps = 0;                // end_time / time_step
  // The burst of real steps.
  int burst_steps = 0;
  double burst_seconds = 0;
  double dof_steps_per_second = 0;
  double seconds_per_step = 0;
  // Frames: one written into a temporary folder (removed) and timed; NaN when frames == 0.
  int frames = 0;               // the number the run would write
  double frame_seconds = 0;     // one frame
  double frames_seconds = 0;    // all of them
  double loop_seconds = 0;      // steps * seconds_per_step
  double total_seconds = 0;     // setup + loop + frames: the run's wall time
  double estimate_seconds = 0;  // what this estimate took
};

// Throws cases::CaseError when the case cannot be meshed (exit 2), std::runtime_error when the
// burst became unstable (non-finite state).
FemEstimate estimate_fem_run(const cases::Case& c, const FemEstimateOptions& options,
                             MPI_Comm communicator);

nlohmann::json to_json(const FemEstimate& estimate);
// The estimate as `rebound fem --estimate` prints it: dofs, cells, step, steps, the measured
// rate and the estimated times of the set-up, the time loop, the frames and the whole run.
std::string estimate_text(const FemEstimate& estimate, const std::string& case_name);

}  // namespace rebound::studies
