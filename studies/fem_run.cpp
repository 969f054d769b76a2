#include "studies/fem_run.h"

#include <deal.II/base/mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "cases/format.h"
#include "cases/json_numbers.h"
#include "fem/targets/target.h"
#include "meshes/meshes.h"
#include "observables/files.h"
#include "observables/output_folder.h"

namespace rebound::studies {
void check_meshable(const cases::Case& c, int extra_levels) {
  try {
    meshes::place_body(c);
    fem::mesh_options(c, extra_levels);
  } catch (const std::invalid_argument& error) {
    throw cases::CaseError(c.source, "body", std::string("cannot be meshed: ") + error.what());
  }
}

const std::vector<std::string>& fem_output_patterns() {
  static const std::vector<std::string> patterns = {"summary.json",    "history.csv",
                                                    "solution.pvd",    "solution_*.vtu",
                                                    "solution_*.pvtu", "*.tmp.*"};
  return patterns;
}

bool is_root_rank() {
  int initialised = 0;
  MPI_Initialized(&initialised);
  return !initialised || dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0;
}

std::optional<observables::OutputFolder> take_output_folder(
    const std::string& directory, const std::vector<std::string>& patterns,
    const std::string& command, const std::function<void()>& before, const std::string& role) {
  std::optional<observables::OutputFolder> folder;
  std::string problem;
  const bool root = is_root_rank();
  if (root) {
    try {
      if (before) before();
      folder.emplace(directory, patterns, command, role);
    } catch (const std::exception& error) {
      problem = error.what();
    }
  }
  int initialised = 0;
  MPI_Initialized(&initialised);
  const bool failed = initialised
                          ? dealii::Utilities::MPI::max(int(!problem.empty()), MPI_COMM_WORLD) != 0
                          : !problem.empty();
  if (failed)
    throw observables::FolderBusy(problem.empty() ? directory + ": rank 0 could not take the folder"
                                                  : problem);
  return folder;
}

FemRun run_fem_into(const cases::Case& c, const std::string& directory, int extra_levels,
                    int frames, const std::function<void(const fem::Progress&)>& progress) {
  check_meshable(c, extra_levels);
  const bool root = dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0;
  // Rank 0 takes the folder (lock, earlier results removed); every rank learns if it could not.
  std::optional<observables::OutputFolder> folder;
  std::string problem;
  if (root) {
    try {
      folder.emplace(directory, fem_output_patterns(),
                     "rebound fem run of " + c.name + " (" + c.source + ")");
    } catch (const std::exception& error) {
      problem = error.what();
    }
  }
  if (dealii::Utilities::MPI::max(int(!problem.empty()), MPI_COMM_WORLD) != 0)
    throw observables::FolderBusy(problem.empty() ? directory + ": rank 0 could not take the folder"
                                                  : problem);

  fem::RunOptions options;
  options.solver.extra_levels = extra_levels;
  options.frames = frames;
  options.output_directory = directory;
  // Ctrl-C on a terminal sends SIGINT; mpirun turns it into SIGTERM for the ranks (then SIGKILL
  // after its grace period), and batch systems send SIGTERM too: both end the run cleanly at its
  // next check. A study already asked to stop (the flag is the study's too): the run ends at once.
  const StopOnSignal handlers(StopOnSignal::SecondSignal::sets_flag_again);
  options.interrupt = StopOnSignal::flag();
  if (root) options.progress = progress;
  FemRun run;
  try {
    run.result = fem::run(c, options, MPI_COMM_WORLD);
  } catch (const cases::CaseError&) {
    throw;
  } catch (const std::invalid_argument& error) {
    throw cases::CaseError(c.source, "body", std::string("cannot be meshed: ") + error.what());
  } catch (const std::exception& error) {
    throw std::runtime_error(std::string("fem: ") + error.what());
  }
  run.summary = run.result.summary;
  run.summary["file"] = c.source;
  run.summary["extra_levels"] = extra_levels;
  observables::list_units(run.summary);
  run.quantities = fem::summary(c, cases::derive(c), run.result);
  run.quantities.details = run.summary;
  run.history = fem::history_table(run.result.history);
  if (root) {
    try {
      observables::write_file_atomically(directory + "/history.csv",
                                         fem::history_csv(run.result.history));
      observables::write_file_atomically(directory + "/summary.json", run.summary.dump(2) + "\n");
    } catch (const observables::FileError& error) {
      // A run that failed on a write (a frame on a full disk) fails its summary too: the message
      // names the first failure, then this one.
      if (run.result.status == "completed" || run.result.message.empty()) throw;
      throw observables::FileError(run.result.message + "; then " + error.what());
    }
    folder->finish(run.result.status);
  }
  // A signal after the run's last check (every 16 steps) or while its files were written leaves
  // the flag set: the run is complete, and a study running it stops before its next run.
  return run;
}

StudySignals::StudySignals() : handlers_(StopOnSignal::SecondSignal::ends_process) {}

bool StudySignals::stop_requested() const {
  int initialised = 0;
  MPI_Initialized(&initialised);
  const int local = StopOnSignal::requested() ? 1 : 0;
  return (initialised ? dealii::Utilities::MPI::max(local, MPI_COMM_WORLD) : local) != 0;
}

StudyFemRun run_study_fem(const cases::Case& c, const std::string& directory, int level,
                          int frames) {
  StudyFemRun run;
  try {
    const FemRun fem = run_fem_into(c, directory, level, frames);
    run.status = fem.result.status;
    run.message = fem.result.message;
    run.summary = fem.summary;
    run.history = fem.history;
  } catch (const cases::CaseError&) {
    throw;
  } catch (const std::exception& error) {
    run.status = "failed";
    run.message = error.what();
  }
  if (run.status == "interrupted") StopOnSignal::request();
  return run;
}

std::string fem_run_text(const FemRun& run, double cfl) {
  const fem::Info& info = run.result.info;
  return cases::format(
             "FE space: FE_Q(%d), %llu dofs (%llu constrained), %llu cells, %llu nodes, %d "
             "rank%s; time step %.6g s (lambda_max %.6g 1/s^2, cfl %g); %lld steps, end at "
             "%.6g s, %zu frames\n",
             info.degree, info.dofs, info.constrained_dofs, info.cells, info.nodes, info.ranks,
             info.ranks == 1 ? "" : "s", info.time_step, info.lambda_max, cfl,
             run.result.final.step, run.result.final.time, run.result.frames.size()) +
         cases::format(
             "stages of the run: mesh %.3f s, FE space, mass and time step %.3f s, time loop "
             "%.3f s (%.3g DoF-steps/s), whole run %.3f s\n",
             info.mesh_seconds, info.setup_seconds,
             cases::number_or_nan(run.summary, "loop_wall_time"),
             cases::number_or_nan(run.summary, "dof_steps_per_second"), run.result.wall_time);
}

}  // namespace rebound::studies
