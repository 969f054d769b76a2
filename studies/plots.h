// The PNG plots of result folders, drawn by scripts/plots.py and scripts/validation_plots.py
// (matplotlib's Agg backend, no display needed).
//
// The interpreter: the first of these that can import matplotlib draws the plots, and is then
// kept for the rest of the process:
//   1. $REBOUND_PYTHON, when set (a path, or a name looked up on PATH);
//   2. /usr/bin/python3 (Debian's, with python3-matplotlib);
//   3. the python3 first on PATH (e.g. a pyenv or venv interpreter).
// The scripts exit with status 3 (kNoMatplotlib) when their interpreter cannot import
// matplotlib; the next candidate is then tried. When none can, the plots are not drawn and the
// outcome says which interpreters were tried and why each failed (a warning, never a failure of
// the run).
#pragma once

#include <string>
#include <vector>

#include "studies/progress.h"

namespace rebound::studies {

// The exit status of scripts/plots.py and scripts/validation_plots.py when their interpreter has
// no working matplotlib.
constexpr int kNoMatplotlib = 3;

// One interpreter to try: how it was named (e.g. "$REBOUND_PYTHON=/opt/py/bin/python3",
// "/usr/bin/python3", "python3 on PATH") and the executable it resolved to (empty when it does
// not exist).
struct PythonCandidate {
  std::string name;
  std::string path;
};

// The candidates in order, those resolving to the same file (e.g. python3 on PATH being
// /usr/bin/python3) listed once.
std::vector<PythonCandidate> plot_python_candidates();

struct PlotOutcome {
  bool drawn = false;
  std::string interpreter;         // the executable that ran the script (empty when none could)
  std::vector<std::string> files;  // the PNG files the script wrote (the paths it printed)
  std::string problem;             // why not drawn, one line; empty when drawn
  std::string note;                // e.g. $REBOUND_PYTHON could not draw and another one did
};

// Runs scripts/<script> (REBOUND_SOURCE_DIR) with the arguments (each one argument, quoted here
// for the shell) under the first candidate that can draw; MPLBACKEND=Agg.
PlotOutcome run_python_plots(const std::string& script, const std::vector<std::string>& arguments);
// The same with the given candidates, in this order (tests; nothing remembered).
PlotOutcome run_python_plots(const std::vector<PythonCandidate>& candidates,
                             const std::string& script, const std::vector<std::string>& arguments);

// Quoted for /bin/sh: 'text' with every ' written as '\''.
std::string shell_quote(const std::string& text);

// scripts/plots.py with the arguments (already quoted for the shell); false, after reporting
// "rebound COMMAND: warning: plots were not drawn (...)" through `report`, when it fails. A note
// (another interpreter than $REBOUND_PYTHON drew them) is reported too.
bool run_plots_script(const std::string& arguments, const std::string& command,
                      const Report& report);

// The warning lines (each ending in '\n') of an outcome for `rebound COMMAND`: the problem when
// the plots were not drawn, and the note. Empty when there is nothing to say.
std::string plot_warnings(const PlotOutcome& outcome, const std::string& command);

}  // namespace rebound::studies
