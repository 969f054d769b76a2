// The PNG plots of result folders, drawn by scripts/plots.py (matplotlib, no display needed).
#pragma once

#include <string>

#include "studies/progress.h"

namespace rebound::studies {

// Runs /usr/bin/python3 scripts/plots.py with the arguments (already quoted for the shell);
// false, after reporting "warning: plots were not drawn (...)" for `command`, when it fails.
bool run_plots_script(const std::string& arguments, const std::string& command,
                      const Report& report);

}  // namespace rebound::studies
