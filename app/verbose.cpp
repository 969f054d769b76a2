#include "app/verbose.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <vector>

#include "cases/resolved.h"

namespace rebound::app {
namespace {

namespace fs = std::filesystem;

double seconds_between(std::chrono::steady_clock::time_point a,
                       std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// "solution_0012.vtu" -> "solution_*.vtu" (a numbered series); other names unchanged.
std::string series_of(const std::string& name) {
  const auto dot = name.find('.');
  const std::string stem = name.substr(0, dot);
  const std::string extension = dot == std::string::npos ? "" : name.substr(dot);
  const auto underscore = stem.rfind('_');
  if (underscore == std::string::npos || underscore + 1 == stem.size()) return name;
  for (std::size_t k = underscore + 1; k < stem.size(); ++k)
    if (!std::isdigit(static_cast<unsigned char>(stem[k]))) return name;
  return stem.substr(0, underscore + 1) + "*" + extension;
}

}  // namespace

bool launcher_rank_zero() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
    if (const char* value = std::getenv(name)) return std::string(value) == "0";
  return true;
}

std::string format_size(double bytes) {
  char text[32];
  if (bytes < 1e4)
    std::snprintf(text, sizeof text, "%.0f B", bytes);
  else if (bytes < 1e6)
    std::snprintf(text, sizeof text, "%.1f kB", bytes / 1e3);
  else
    std::snprintf(text, sizeof text, "%.1f MB", bytes / 1e6);
  return text;
}

Verbose::Verbose(const Arguments& args, std::string command)
    : on_(args.flag("--verbose")),
      root_(launcher_rank_zero()),
      prefix_("rebound " + std::move(command) + " [verbose]: "),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void Verbose::say(const std::string& text) const {
  if (!on()) return;
  std::stringstream lines(text);
  std::string out;
  for (std::string line; std::getline(lines, line);) out += prefix_ + line + "\n";
  std::fputs(out.c_str(), stderr);
}

void Verbose::resolved_case(const cases::Case& c) const {
  if (!on()) return;
  const nlohmann::json resolved = cases::resolved_json(c);
  std::string text = "case '" + c.name + "' (" + c.source + "), case_hash " +
                     cases::text_hash(resolved.dump()) +
                     "; the case as read, every default filled:\n";
  std::stringstream lines(resolved.dump(2));
  for (std::string line; std::getline(lines, line);) text += "  " + line + "\n";
  say(text);
}

void Verbose::derived(const cases::Case& c, const cases::Derived& d) const {
  if (!on()) return;
  std::string text = "derived quantities (SI, as `rebound check` prints them):\n";
  const nlohmann::json quantities = cases::to_json(c, d);
  for (const auto& [key, value] : quantities.items()) {
    if (key == "case" || key == "file" || key == "shape") continue;
    text += "  " + key + " = " + value.dump() + "\n";
  }
  say(text);
}

void Verbose::stage(const std::string& what) {
  const auto now = std::chrono::steady_clock::now();
  if (on()) {
    char text[64];
    std::snprintf(text, sizeof text, ": %.3f s", seconds_between(last_, now));
    say(what + text);
  }
  last_ = now;
}

void Verbose::file(const std::string& path) const {
  if (!on()) return;
  std::error_code error;
  const auto size = fs::file_size(path, error);
  say("  " + path + (error ? std::string("  (not written)") : "  " + format_size(double(size))));
}

void Verbose::files(const std::string& directory) const {
  if (!on()) return;
  std::error_code error;
  if (!fs::is_directory(directory, error)) {
    say("  " + directory + "/  (not written)");
    return;
  }
  struct Group {
    int count = 0;
    double bytes = 0;
  };
  std::map<std::string, Group> groups;  // relative name or series -> count, size
  for (auto it = fs::recursive_directory_iterator(directory, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (!it->is_regular_file(error)) continue;
    if (it->path().filename().string().rfind('.', 0) == 0) continue;  // the run's lock file
    const fs::path relative = fs::relative(it->path(), directory, error);
    const fs::path parent = relative.parent_path();
    const std::string name =
        (parent.empty() ? "" : parent.string() + "/") + series_of(relative.filename().string());
    Group& g = groups[name];
    ++g.count;
    g.bytes += double(it->file_size(error));
  }
  std::string text = "files in " + directory + "/:\n";
  double total = 0;
  int count = 0;
  for (const auto& [name, g] : groups) {
    text += "  " + name + "  " + format_size(g.bytes) +
            (g.count > 1 ? " (" + std::to_string(g.count) + " files)" : "") + "\n";
    total += g.bytes;
    count += g.count;
  }
  text += "  " + std::to_string(count) + " file" + (count == 1 ? "" : "s") + ", " +
          format_size(total) + "\n";
  say(text);
}

void Verbose::total() const {
  if (!on()) return;
  char text[64];
  std::snprintf(text, sizeof text, "total: %.3f s",
                seconds_between(start_, std::chrono::steady_clock::now()));
  say(text);
}

}  // namespace rebound::app
