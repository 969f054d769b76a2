#include "studies/plots.h"

#include <cstdlib>
#include <filesystem>

namespace rebound::studies {

bool run_plots_script(const std::string& arguments, const std::string& command,
                      const Report& report) {
  const std::string script = (std::filesystem::path(REBOUND_SOURCE_DIR) / "scripts" / "plots.py");
  const std::string line = "/usr/bin/python3 '" + script + "' " + arguments + " > /dev/null";
  if (std::system(line.c_str()) == 0) return true;
  if (report) report("rebound " + command + ": warning: plots were not drawn (" + line + ")\n");
  return false;
}

}  // namespace rebound::studies
