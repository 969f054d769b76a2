#include "studies/stop.h"

#include <csignal>

namespace rebound::studies {
namespace {

std::atomic<bool> stop_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free);  // safe to set in a signal handler
int alive = 0;  // StopOnSignal instances (made and ended on the main thread)

extern "C" void stop_and_restore_default(int signal) {
  stop_requested = true;
  std::signal(signal, SIG_DFL);
}

extern "C" void stop(int) {
  stop_requested = true;
}

}  // namespace

StopOnSignal::StopOnSignal(SecondSignal second) {
  if (alive++ == 0) stop_requested = false;  // before the handlers: a signal from now on is kept
  void (*handler)(int) = second == SecondSignal::ends_process ? stop_and_restore_default : stop;
  previous_int_ = std::signal(SIGINT, handler);
  previous_term_ = std::signal(SIGTERM, handler);
  // A signal the process was started ignoring stays ignored: `rebound pair ... &` from a script
  // (the shell ignores SIGINT for its background jobs) is not stopped by the Ctrl-C meant for the
  // job in the foreground.
  if (previous_int_ == SIG_IGN) std::signal(SIGINT, SIG_IGN);
  if (previous_term_ == SIG_IGN) std::signal(SIGTERM, SIG_IGN);
}

StopOnSignal::~StopOnSignal() {
  std::signal(SIGINT, previous_int_ == SIG_ERR ? SIG_DFL : previous_int_);
  std::signal(SIGTERM, previous_term_ == SIG_ERR ? SIG_DFL : previous_term_);
  if (--alive == 0) stop_requested = false;
}

const std::atomic<bool>* StopOnSignal::flag() {
  return &stop_requested;
}

bool StopOnSignal::requested() {
  return stop_requested;
}

void StopOnSignal::request() {
  stop_requested = true;
}

}  // namespace rebound::studies
