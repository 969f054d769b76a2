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
#include "observables/files.h"

namespace rebound::app {
namespace {

namespace fs = std::filesystem;

double seconds_between(std::chrono::steady_clock::time_point a,
                       std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

}  // namespace

bool launcher_rank_zero() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
    if (const char* value = std::getenv(name)) return std::string(value) == "0";
  return true;
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
  say("  " + path +
      (error ? std::string("  (not written)") : "  " + observables::format_size(double(size))));
}

void Verbose::files(const std::string& directory) const {
  if (on()) say(observables::folder_listing(directory));
}

void Verbose::total() const {
  if (!on()) return;
  char text[64];
  std::snprintf(text, sizeof text, "total: %.3f s",
                seconds_between(start_, std::chrono::steady_clock::now()));
  say(text);
}

}  // namespace rebound::app
