#include "studies/fem_run.h"

#include <deal.II/base/mpi.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "meshes/meshes.h"
#include "observables/files.h"
#include "observables/output_folder.h"

namespace rebound::studies {
namespace {

volatile std::sig_atomic_t interrupted = 0;
extern "C" void on_interrupt(int) {
  interrupted = 1;
}

// Ctrl-C on a terminal sends SIGINT; mpirun turns it into SIGTERM for the ranks (then SIGKILL
// after its grace period), and batch systems send SIGTERM too: both end the run cleanly.
class InterruptHandlers {
 public:
  InterruptHandlers()
      : previous_int_(std::signal(SIGINT, on_interrupt)),
        previous_term_(std::signal(SIGTERM, on_interrupt)) {}
  ~InterruptHandlers() {
    std::signal(SIGINT, previous_int_);
    std::signal(SIGTERM, previous_term_);
  }
  InterruptHandlers(const InterruptHandlers&) = delete;
  InterruptHandlers& operator=(const InterruptHandlers&) = delete;

 private:
  void (*previous_int_)(int);
  void (*previous_term_)(int);
};

volatile std::sig_atomic_t stop_flag = 0;

// Between the runs of a study. During a run, run_fem_into's own handlers (SIGINT and SIGTERM) end
// the run cleanly with status "interrupted", which stops the study too.
extern "C" void on_stop_signal(int) {
  stop_flag = 1;
}

using SignalHandler = void (*)(int);
SignalHandler previous_sigint = SIG_DFL, previous_sigterm = SIG_DFL;

}  // namespace

void check_meshable(const cases::Case& c, int extra_levels) {
  try {
    meshes::place_body(c);
    meshes::mesh_options(c, extra_levels);
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
  // A study already asked to stop (Ctrl-C between or during its runs): this run ends at once.
  interrupted = stop_flag ? 1 : 0;
  options.interrupt = &interrupted;
  const InterruptHandlers handlers;
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
  // A signal after the run's last check (every 16 steps) or while its files were written: the
  // run is complete, but a study running it stops before the next run.
  if (interrupted != 0) StudySignals::request_stop();
  return run;
}

StudySignals::StudySignals() {
  stop_flag = 0;
  previous_sigint = std::signal(SIGINT, on_stop_signal);
  previous_sigterm = std::signal(SIGTERM, on_stop_signal);
}

StudySignals::~StudySignals() {
  stop_flag = 0;  // a later run outside this study starts normally
  std::signal(SIGINT, previous_sigint == SIG_ERR ? SIG_DFL : previous_sigint);
  std::signal(SIGTERM, previous_sigterm == SIG_ERR ? SIG_DFL : previous_sigterm);
}

bool StudySignals::stop_requested() const {
  int initialised = 0;
  MPI_Initialized(&initialised);
  const int local = stop_flag ? 1 : 0;
  return (initialised ? dealii::Utilities::MPI::max(local, MPI_COMM_WORLD) : local) != 0;
}

const volatile std::sig_atomic_t* StudySignals::flag() {
  return &stop_flag;
}

void StudySignals::request_stop() {
  stop_flag = 1;
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
  if (run.status == "interrupted") StudySignals::request_stop();
  return run;
}

}  // namespace rebound::studies
