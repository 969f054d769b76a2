#include "studies/plots.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <sstream>

namespace rebound::studies {
namespace fs = std::filesystem;

namespace {

bool executable(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error) && ::access(path.c_str(), X_OK) == 0;
}

// `name` as the shell would find it: itself when it has a '/', else the first PATH entry.
std::string resolve(const std::string& name) {
  if (name.find('/') != std::string::npos) return executable(name) ? name : "";
  const char* path = std::getenv("PATH");
  std::stringstream entries(path ? path : "");
  std::string entry;
  while (std::getline(entries, entry, ':')) {
    const fs::path candidate = fs::path(entry.empty() ? "." : entry) / name;
    if (executable(candidate)) return candidate.string();
  }
  return "";
}

std::string identity(const std::string& path) {
  std::error_code error;
  const fs::path canonical = fs::canonical(path, error);
  return error ? path : canonical.string();
}

// "/usr/bin/python3", "python3 on PATH (/root/.venv/bin/python3)",
// "$REBOUND_PYTHON=/opt/py/bin/python3", "$REBOUND_PYTHON=python3.11 (/usr/bin/python3.11)".
std::string describe(const PythonCandidate& c) {
  const bool ends_with_path =
      c.name.size() >= c.path.size() &&
      c.name.compare(c.name.size() - c.path.size(), c.path.size(), c.path) == 0;
  return c.name + (ends_with_path ? "" : " (" + c.path + ")");
}

// The last non-empty line of a script's output (its error message), at most 300 characters.
std::string last_line(const std::string& output) {
  std::stringstream in(output);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  if (last.size() > 300) last = last.substr(0, 297) + "...";
  return last.empty() ? "no message" : last;
}

struct Run {
  int status = -1;  // exit status, -1 when killed by a signal or not started
  std::string output;
};

Run run(const std::string& command) {
  Run result;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int status = ::pclose(pipe);
  result.status = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

// The interpreter that drew the last plots of this process, tried first next time.
std::mutex chosen_mutex;
std::string chosen;

PlotOutcome run_quoted(std::vector<PythonCandidate> candidates, const std::string& script,
                       const std::string& quoted_arguments, bool remember) {
  const std::string script_path = (fs::path(REBOUND_SOURCE_DIR) / "scripts" / script).string();
  const std::lock_guard<std::mutex> lock(chosen_mutex);
  if (remember && !chosen.empty())
    for (std::size_t i = 0; i < candidates.size(); ++i)
      if (candidates[i].path == chosen) {
        std::rotate(candidates.begin(), candidates.begin() + long(i),
                    candidates.begin() + long(i) + 1);
        break;
      }
  PlotOutcome outcome;
  std::vector<std::pair<std::string, std::string>> refused;  // who, why
  for (const PythonCandidate& candidate : candidates) {
    if (candidate.path.empty()) {
      refused.emplace_back(candidate.name, "not found");
      continue;
    }
    const std::string command = "MPLBACKEND=Agg " + shell_quote(candidate.path) + " " +
                                shell_quote(script_path) + " " + quoted_arguments;
    const Run r = run(command);
    if (r.status == 0) {
      outcome.drawn = true;
      outcome.interpreter = candidate.path;
      if (remember) chosen = candidate.path;
      std::stringstream lines(r.output);
      std::string line;
      std::error_code error;
      while (std::getline(lines, line))
        if (line.size() > 4 && line.compare(line.size() - 4, 4, ".png") == 0 &&
            fs::is_regular_file(line, error))
          outcome.files.push_back(line);
      if (!refused.empty() && candidates.front().name.rfind("$REBOUND_PYTHON", 0) == 0 &&
          candidates.front().path != candidate.path)
        outcome.note = refused.front().first + " cannot draw the plots (" + refused.front().second +
                       "); they were drawn by " + candidate.path;
      return outcome;
    }
    // 3: no matplotlib; 126/127: the shell could not run it. Anything else is the script's
    // own failure, which another interpreter would repeat.
    if (r.status == kNoMatplotlib || r.status == 126 || r.status == 127) {
      refused.emplace_back(describe(candidate), last_line(r.output));
      continue;
    }
    outcome.problem = "`" + command + "` failed (" +
                      (r.status < 0 ? std::string("killed") : "exit " + std::to_string(r.status)) +
                      "): " + last_line(r.output);
    return outcome;
  }
  std::string tried;
  for (const auto& [who, why] : refused) tried += (tried.empty() ? "" : "; ") + who + ": " + why;
  outcome.problem = "no Python with matplotlib was found (tried " + tried +
                    "); install it (apt-get install python3-matplotlib) or set REBOUND_PYTHON to "
                    "a python3 that has it; --no-plots skips the plots";
  return outcome;
}

}  // namespace

std::vector<PythonCandidate> plot_python_candidates() {
  std::vector<PythonCandidate> all;
  if (const char* chosen_by_user = std::getenv("REBOUND_PYTHON"); chosen_by_user && *chosen_by_user)
    all.push_back({"$REBOUND_PYTHON=" + std::string(chosen_by_user), resolve(chosen_by_user)});
  all.push_back({"/usr/bin/python3", resolve("/usr/bin/python3")});
  all.push_back({"python3 on PATH", resolve("python3")});
  std::vector<PythonCandidate> unique;
  std::vector<std::string> seen;
  for (const PythonCandidate& c : all) {
    if (!c.path.empty()) {
      const std::string id = identity(c.path);
      if (std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
      seen.push_back(id);
    }
    unique.push_back(c);
  }
  return unique;
}

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

PlotOutcome run_python_plots(const std::string& script, const std::vector<std::string>& arguments) {
  std::string quoted;
  for (const std::string& argument : arguments)
    quoted += (quoted.empty() ? "" : " ") + shell_quote(argument);
  return run_quoted(plot_python_candidates(), script, quoted, true);
}

PlotOutcome run_python_plots(const std::vector<PythonCandidate>& candidates,
                             const std::string& script, const std::vector<std::string>& arguments) {
  std::string quoted;
  for (const std::string& argument : arguments)
    quoted += (quoted.empty() ? "" : " ") + shell_quote(argument);
  return run_quoted(candidates, script, quoted, false);
}

std::string plot_warnings(const PlotOutcome& outcome, const std::string& command) {
  std::string text;
  if (!outcome.drawn)
    text += "rebound " + command + ": warning: plots were not drawn: " + outcome.problem + "\n";
  if (!outcome.note.empty()) text += "rebound " + command + ": warning: " + outcome.note + "\n";
  return text;
}

bool run_plots_script(const std::string& arguments, const std::string& command,
                      const Report& report) {
  const PlotOutcome outcome = run_quoted(plot_python_candidates(), "plots.py", arguments, true);
  const std::string warnings = plot_warnings(outcome, command);
  if (report && !warnings.empty()) report(warnings);
  return outcome.drawn;
}

}  // namespace rebound::studies
