// studies::StopOnSignal: the one stop flag that SIGINT and SIGTERM set for every long loop.
#include <gtest/gtest.h>

#include <csignal>

#include "studies/stop.h"

using rebound::studies::StopOnSignal;

// A signal sets the flag instead of ending the process, for both signals a user or mpirun sends.
TEST(StopOnSignal, SigintAndSigtermSetTheFlag) {
  std::signal(SIGINT, SIG_DFL);  // as on a terminal, whatever the test runner inherited
  for (const int signal : {SIGINT, SIGTERM}) {
    const StopOnSignal stop;
    EXPECT_FALSE(StopOnSignal::requested());
    std::raise(signal);  // the handler runs before raise returns (single-threaded)
    EXPECT_TRUE(StopOnSignal::requested()) << "signal " << signal;
    EXPECT_TRUE(StopOnSignal::flag()->load());
  }
  EXPECT_FALSE(StopOnSignal::requested());  // the outermost cleared it when it ended
}

// Nested (a study, then its FEM run): the inner one neither clears a stop asked before it nor the
// one asked during it, so the study sees both; the outermost clears at its start and end.
TEST(StopOnSignal, NestedInstancesKeepTheStopForTheOuterOne) {
  StopOnSignal::request();  // left by an earlier command in this process
  {
    const StopOnSignal study;
    EXPECT_FALSE(StopOnSignal::requested());
    StopOnSignal::request();
    {
      const StopOnSignal run(StopOnSignal::SecondSignal::sets_flag_again);
      EXPECT_TRUE(StopOnSignal::requested());
    }
    EXPECT_TRUE(StopOnSignal::requested());
  }
  {
    const StopOnSignal study;
    {
      const StopOnSignal run(StopOnSignal::SecondSignal::sets_flag_again);
      std::raise(SIGTERM);
    }
    EXPECT_TRUE(StopOnSignal::requested());
  }
  EXPECT_FALSE(StopOnSignal::requested());
}

// A signal the process inherited as ignored (a script's background job ignores SIGINT) stays
// ignored: the Ctrl-C meant for the foreground job does not stop it; SIGTERM still does.
TEST(StopOnSignal, AnInheritedIgnoredSignalStaysIgnored) {
  void (*const before)(int) = std::signal(SIGINT, SIG_IGN);
  {
    const StopOnSignal stop;
    std::raise(SIGINT);
    EXPECT_FALSE(StopOnSignal::requested());
    std::raise(SIGTERM);
    EXPECT_TRUE(StopOnSignal::requested());
  }
  EXPECT_EQ(std::signal(SIGINT, before), SIG_IGN);  // given back as it was
}

// ends_process: the first signal sets the flag, the second has its default action (ends the
// process by that signal); sets_flag_again: the process survives any number of signals. The
// previous handler comes back when the instance ends (here: the test's default, which kills).
TEST(StopOnSignalDeathTest, SecondSignalEndsTheProcessOnlyWhenAskedTo) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  std::signal(SIGINT, SIG_DFL);
  EXPECT_EXIT(
      {
        const StopOnSignal stop;
        std::raise(SIGINT);
        if (!StopOnSignal::requested()) std::_Exit(3);
        std::raise(SIGINT);
        std::_Exit(4);  // not reached
      },
      testing::KilledBySignal(SIGINT), "");
  EXPECT_EXIT(
      {
        {
          const StopOnSignal run(StopOnSignal::SecondSignal::sets_flag_again);
          for (int i = 0; i < 3; ++i) std::raise(SIGTERM);
          if (!StopOnSignal::requested()) std::_Exit(3);
        }
        std::raise(SIGTERM);  // the default handler is back
        std::_Exit(4);
      },
      testing::KilledBySignal(SIGTERM), "");
}
