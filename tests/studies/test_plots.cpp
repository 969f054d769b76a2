// studies/plots: which interpreter draws the plots, and what is said when none can.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "studies/plots.h"

namespace fs = std::filesystem;
using rebound::studies::PlotOutcome;
using rebound::studies::PythonCandidate;

namespace {

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() /
                       ("rebound-test-studies-plots-" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// An executable that says it has no matplotlib and exits like plots.py does then.
std::string fake_python(const fs::path& dir) {
  const fs::path path = dir / "python-without-matplotlib";
  std::ofstream(path) << "#!/bin/sh\necho \"plots.py: $0 cannot import matplotlib: "
                         "ModuleNotFoundError: No module named 'matplotlib'\" >&2\nexit 3\n";
  fs::permissions(path, fs::perms::owner_all);
  return path.string();
}

bool has_matplotlib(const std::string& python) {
  return std::system(("'" + python + "' -c 'import matplotlib' > /dev/null 2>&1").c_str()) == 0;
}

}  // namespace

// No candidate can draw: not drawn, every candidate named with its reason, and what to do.
TEST(PlotInterpreter, NoInterpreterWithMatplotlibIsExplained) {
  const fs::path dir = scratch("none");
  const std::string fake = fake_python(dir);
  const PlotOutcome outcome = rebound::studies::run_python_plots(
      {{"$REBOUND_PYTHON=" + fake, fake}, {"python3 on PATH", ""}}, "plots.py",
      {dir.string(), "--mode", "lumped"});
  EXPECT_FALSE(outcome.drawn);
  EXPECT_TRUE(outcome.files.empty());
  EXPECT_TRUE(outcome.interpreter.empty());
  EXPECT_EQ(outcome.problem,
            "no Python with matplotlib was found (tried $REBOUND_PYTHON=" + fake +
                ": plots.py: " + fake +
                " cannot import matplotlib: ModuleNotFoundError: No module named 'matplotlib'; "
                "python3 on PATH: not found); install it (apt-get install python3-matplotlib) or "
                "set REBOUND_PYTHON to a python3 that has it; --no-plots skips the plots");
  EXPECT_EQ(rebound::studies::plot_warnings(outcome, "lumped"),
            "rebound lumped: warning: plots were not drawn: " + outcome.problem + "\n");
}

// A failure of the script itself (here a bad --mode) is not blamed on the interpreter: the next
// candidate is not tried and the command with its exit status is reported.
TEST(PlotInterpreter, ScriptFailureIsReportedWithItsExitStatus) {
  if (!has_matplotlib("/usr/bin/python3")) GTEST_SKIP() << "/usr/bin/python3 has no matplotlib";
  const fs::path dir = scratch("failure");
  const std::string fake = fake_python(dir);
  const PlotOutcome outcome =
      rebound::studies::run_python_plots({{"/usr/bin/python3", "/usr/bin/python3"}, {"fake", fake}},
                                         "plots.py", {dir.string(), "--mode", "no-such-mode"});
  EXPECT_FALSE(outcome.drawn);
  EXPECT_NE(outcome.problem.find("/usr/bin/python3' '"), std::string::npos) << outcome.problem;
  EXPECT_NE(outcome.problem.find("failed (exit 2): "), std::string::npos) << outcome.problem;
  EXPECT_NE(outcome.problem.find("invalid choice: 'no-such-mode'"), std::string::npos)
      << outcome.problem;
  EXPECT_EQ(outcome.problem.find("python-without-matplotlib"), std::string::npos)
      << outcome.problem;
}

// The first candidate that can draw does; the files it printed are returned; an earlier
// $REBOUND_PYTHON that could not is named in the note.
TEST(PlotInterpreter, FirstInterpreterThatCanDrawIsUsed) {
  if (!has_matplotlib("/usr/bin/python3")) GTEST_SKIP() << "/usr/bin/python3 has no matplotlib";
  const fs::path dir = scratch("drawn");
  std::ofstream(dir / "history.csv")
      << "time_s,normal_force_N,tangential_force_N,normal_impulse_N_s,tangential_impulse_N_s,"
         "normal_velocity_m_per_s,tangential_velocity_m_per_s,mode,stick_fraction\n"
         "0,0,0,0,0,-1,0.5,slip,nan\n1e-4,10,-1,5e-4,-5e-5,0,0.2,stick,nan\n"
         "2e-4,0,0,1e-3,-1e-4,1,0.1,separated,nan\n";
  const std::string fake = fake_python(dir);
  const PlotOutcome outcome = rebound::studies::run_python_plots(
      {{"$REBOUND_PYTHON=" + fake, fake}, {"/usr/bin/python3", "/usr/bin/python3"}}, "plots.py",
      {dir.string(), "--mode", "lumped", "--title", "it's a title"});
  ASSERT_TRUE(outcome.drawn) << outcome.problem;
  EXPECT_EQ(outcome.interpreter, "/usr/bin/python3");
  ASSERT_EQ(outcome.files.size(), 3u);
  EXPECT_EQ(outcome.files[0], (dir / "plots" / "forces.png").string());
  for (const std::string& file : outcome.files) EXPECT_GT(fs::file_size(file), 10000u) << file;
  EXPECT_FALSE(fs::exists(dir / "plots" / "stick_fraction.png"));  // all nan
  EXPECT_EQ(outcome.note, "$REBOUND_PYTHON=" + fake + " cannot draw the plots (plots.py: " + fake +
                              " cannot import matplotlib: ModuleNotFoundError: No module named "
                              "'matplotlib'); they were drawn by /usr/bin/python3");
  EXPECT_EQ(rebound::studies::plot_warnings(outcome, "sweep"),
            "rebound sweep: warning: " + outcome.note + "\n");
}

// The candidates: $REBOUND_PYTHON first when set, one entry per executable.
TEST(PlotInterpreter, CandidatesInOrderWithoutDuplicates) {
  ::setenv("REBOUND_PYTHON", "/usr/bin/python3", 1);
  const auto with = rebound::studies::plot_python_candidates();
  ::unsetenv("REBOUND_PYTHON");
  const auto without = rebound::studies::plot_python_candidates();
  ASSERT_FALSE(with.empty());
  EXPECT_EQ(with.front().name, "$REBOUND_PYTHON=/usr/bin/python3");
  ASSERT_FALSE(without.empty());
  EXPECT_EQ(without.front().name, "/usr/bin/python3");
  if (fs::exists("/usr/bin/python3")) {
    // /usr/bin/python3 once: as $REBOUND_PYTHON, not again under its own name.
    for (std::size_t i = 1; i < with.size(); ++i) EXPECT_NE(with[i].name, "/usr/bin/python3");
    EXPECT_EQ(with.size(), without.size());
  }
}

// Arguments reach the script unchanged, quotes and spaces included.
TEST(PlotInterpreter, ShellQuoteKeepsEveryCharacter) {
  EXPECT_EQ(rebound::studies::shell_quote("it's a b"), "'it'\\''s a b'");
  const std::string text = "a 'b' \"c\" $d `e` \\f";
  FILE* pipe = ::popen(("printf %s " + rebound::studies::shell_quote(text)).c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char buffer[256] = {0};
  const std::size_t n = std::fread(buffer, 1, sizeof buffer - 1, pipe);
  ::pclose(pipe);
  EXPECT_EQ(std::string(buffer, n), text);
}
