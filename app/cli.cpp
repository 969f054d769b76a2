#include "app/cli.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "cases/spelling.h"

namespace rebound::app {

Arguments::Arguments(std::string command, const std::vector<std::string>& arguments,
                     std::vector<std::string> flags, std::vector<std::string> options,
                     const char* usage)
    : command_(std::move(command)) {
  // -v/--verbose is accepted by every command (app/verbose.h).
  flags.push_back("--verbose");
  auto known = [](const std::vector<std::string>& list, const std::string& name) {
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  // --output is the long name of -o wherever -o is accepted.
  const bool has_output = known(options, "-o");
  auto canonical = [has_output](const std::string& name) {
    return has_output && name == "--output" ? std::string("-o") : name;
  };
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& word = arguments[i];
    // NAME=VALUE for options (-o=DIR, --output=DIR, --threads=4).
    const auto equals = word.find('=');
    const bool option_like = word.size() > 1 && word[0] == '-';
    if (option_like && equals != std::string::npos) {
      const std::string name = canonical(word.substr(0, equals));
      if (known(options, name)) {
        options_given_.emplace_back(name, word.substr(equals + 1));
        continue;
      }
      if (known(flags, name)) throw UsageError("option " + name + " takes no value");
    }
    if (word == "--help" || word == "-h") {
      help_ = true;
    } else if (word == "-q" && known(flags, "--quiet")) {
      flags_given_.push_back("--quiet");  // -q is --quiet wherever --quiet is accepted
    } else if (word == "-v") {
      flags_given_.push_back("--verbose");
    } else if (known(flags, word)) {
      flags_given_.push_back(word);
    } else if (known(options, canonical(word))) {
      if (i + 1 >= arguments.size()) throw UsageError("option " + word + " needs a value");
      options_given_.emplace_back(canonical(word), arguments[++i]);
    } else if (option_like && !std::isdigit(static_cast<unsigned char>(word[1])) &&
               word[1] != '.') {
      std::string accepted;
      std::vector<std::string> names = flags;
      for (const auto& f : flags) accepted += " " + f;
      for (const auto& o : options) accepted += " " + o + " VALUE", names.push_back(o);
      if (has_output) accepted += " --output VALUE", names.push_back("--output");
      names.push_back("--help");
      const std::string name = word.substr(0, equals);
      throw UsageError("unknown option '" + word + "'" + cases::did_you_mean(name, names) +
                       " (accepted:" + accepted + " --help)");
    } else {
      positional_.push_back(word);
    }
  }
  if (flag("--quiet") && flag("--verbose"))
    throw UsageError(
        "options -q/--quiet and -v/--verbose exclude each other; give at most one of them");
  if (help_) std::fputs(usage, stdout);
}

const std::string& Arguments::case_file() const {
  if (positional_.size() != 1) throw UsageError("needs exactly one CASE file");
  return positional_.front();
}

bool Arguments::flag(const std::string& name) const {
  return std::find(flags_given_.begin(), flags_given_.end(), name) != flags_given_.end();
}

std::optional<std::string> Arguments::option(const std::string& name) const {
  std::optional<std::string> value;
  for (const auto& [key, given] : options_given_)
    if (key == name) value = given;  // the last one wins, as in most tools
  return value;
}

std::optional<int> Arguments::integer(const std::string& name, int low, int high) const {
  const auto text = option(name);
  if (!text) return std::nullopt;
  try {
    std::size_t used = 0;
    const long value = std::stol(*text, &used);
    if (used == text->size() && value >= low && value <= high) return int(value);
  } catch (const std::exception&) {
  }
  throw UsageError("option " + name + " is '" + *text + "'; expected an integer in [" +
                   std::to_string(low) + ", " + std::to_string(high) + "]");
}

std::optional<double> Arguments::number(const std::string& name) const {
  const auto text = option(name);
  if (!text) return std::nullopt;
  try {
    std::size_t used = 0;
    const double value = std::stod(*text, &used);
    if (used == text->size() && std::isfinite(value)) return value;
  } catch (const std::exception&) {
  }
  throw UsageError("option " + name + " is '" + *text + "'; expected a finite number");
}

void print_case_error(const std::string& command, const cases::CaseError& error) {
  for (const cases::Problem& problem : error.problems())
    std::fprintf(stderr, "rebound %s: error: %s: %s %s\n", command.c_str(), error.file().c_str(),
                 problem.key.c_str(), problem.message.c_str());
}

std::string output_directory(const std::optional<std::string>& option,
                             const std::string& case_name) {
  return option ? *option : "results/" + case_name;
}

void print_warnings(const nlohmann::json& summary, const std::string& command) {
  if (!summary.contains("warnings")) return;
  for (const auto& warning : summary["warnings"])
    std::cerr << "rebound " << command << ": warning: " << warning.get<std::string>() << "\n";
}

[[noreturn]] void run_fem_executable(const std::string& command,
                                     const std::vector<std::string>& arguments) {
  char self[PATH_MAX];
  const ssize_t length = ::readlink("/proc/self/exe", self, sizeof self - 1);
  std::string heavy = "rebound-fem";
  if (length > 0) {
    self[length] = '\0';
    const std::string path(self);
    heavy = path.substr(0, path.find_last_of('/') + 1) + "rebound-fem";
  }
  std::vector<std::string> words = {heavy, command};
  words.insert(words.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (auto& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  ::execv(heavy.c_str(), argv.data());
  throw RunError("cannot run " + heavy + ": " + std::strerror(errno));
}

void print_progress(const std::string& text) {
  // Progress on standard error after the results written so far (no line split in one file).
  std::fflush(stdout), std::fputs(text.c_str(), stderr);
}

void print_warning(const std::string& text) {
  std::fputs(text.c_str(), stderr);
}

namespace {

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Open MPI gives the ranks a pseudo-terminal even when mpirun's own output goes to a file, so
// isatty() cannot tell; under a launcher the progress is written as plain lines.
bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

}  // namespace

ProgressLine::ProgressLine(double silent_seconds)
    : terminal_(::isatty(2) == 1 && !launched_by_mpi()),
      silent_seconds_(silent_seconds),
      start_(steady_seconds()) {}

double ProgressLine::elapsed_seconds() const {
  return steady_seconds() - start_;
}

bool ProgressLine::due(double fraction) {
  const double now = elapsed_seconds();
  if (now < silent_seconds_) return false;
  if (terminal_) {
    if (now - last_print_ < 0.2) return false;
    last_print_ = now;
    return true;
  }
  const int decile = int(10 * std::clamp(fraction, 0.0, 1.0));
  if (decile <= last_decile_) return false;
  last_decile_ = decile;
  return true;
}

void ProgressLine::show(const std::string& text) {
  if (terminal_) {
    std::fprintf(stderr, "\r\033[K%s", text.c_str());  // \033[K: clears the longer line before
    drawn_ = true;
  } else {
    std::fprintf(stderr, "%s\n", text.c_str());
  }
}

void ProgressLine::finish() {
  if (drawn_) std::fputc('\n', stderr);
  drawn_ = false;
}

}  // namespace rebound::app
