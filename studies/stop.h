// The process's one stop request. Ctrl-C (SIGINT) and SIGTERM, while a StopOnSignal lives, set a
// flag instead of ending the process; every long loop polls it: the lumped solves through
// lumped::SolveControl::stop, lumped::run_sweep, the FEM time loop through fem::RunOptions::
// interrupt, and the studies between their runs. So a command stops cleanly wherever it is, says
// so, exits 130 and keeps what it had written (docs/USAGE.md, "Failure behaviour").
#pragma once

#include <atomic>

namespace rebound::studies {

// While alive: SIGINT and SIGTERM set the stop flag (a signal the process inherited as ignored
// stays ignored). The previous handlers come back at the end.
// Instances nest (a study's, then each of its FEM runs'): the outermost clears the flag when it
// starts and when it ends (a later command in the same process starts normally); inner ones keep
// it, so a stop asked before or during an inner one is seen by the outer one.
class StopOnSignal {
 public:
  // What a second signal does. ends_process: the default action comes back after the first, so a
  // second Ctrl-C ends a command whose loop does not reach its next check soon enough (a lumped
  // solve between two of its checks). sets_flag_again: the FEM runs, which check every 16 steps and
  // must not be killed while they write their summary.
  enum class SecondSignal { ends_process, sets_flag_again };

  explicit StopOnSignal(SecondSignal second = SecondSignal::ends_process);
  ~StopOnSignal();
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;

  // The flag (lock-free, set from the signal handler), for the loops that poll it.
  static const std::atomic<bool>* flag();
  static bool requested();  // in this process (StudySignals::stop_requested asks every rank)
  static void request();    // as if a signal arrived (a run that reported "interrupted")

 private:
  void (*previous_int_)(int) = nullptr;
  void (*previous_term_)(int) = nullptr;
};

}  // namespace rebound::studies
