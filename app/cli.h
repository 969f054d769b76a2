// Small command-line toolkit shared by the `rebound` subcommands.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rebound::app {

// Bad command-line usage: exit status 2 with the message.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A run that started and failed: exit status 1.
class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses "POSITIONAL... [--flag] [--option VALUE]" for one subcommand. Unknown options are a
// UsageError naming the subcommand and the accepted options.
class Arguments {
 public:
  Arguments(std::string command, const std::vector<std::string>& arguments,
            std::vector<std::string> flags, std::vector<std::string> options);
  bool flag(const std::string& name) const;
  std::optional<std::string> option(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }
  bool help() const { return help_; }

  // Typed option values; a malformed value is a UsageError naming the option.
  std::optional<int> integer(const std::string& name, int low, int high) const;
  std::optional<double> number(const std::string& name) const;

 private:
  std::string command_;
  std::vector<std::string> flags_given_;
  std::vector<std::pair<std::string, std::string>> options_given_;
  std::vector<std::string> positional_;
  bool help_ = false;
};

// Output folder of a case: DIR from -o, else results/<case name>.
std::string output_directory(const std::optional<std::string>& option,
                             const std::string& case_name);

// Writes text to path atomically (temporary file + rename). Throws RunError on failure.
void write_file_atomically(const std::string& path, const std::string& text);

// A summary value for humans: the number in `format`, or "-" for null/missing.
std::string format_number(const nlohmann::json& value, const char* format = "%.6g");

// The rebound quantities every summary shares (lumped and FEM: angles, Psi, restitution
// coefficients, impulses, final centre velocity and spin, energy loss), one screen section.
void print_rebound_quantities(const nlohmann::json& summary);

// "42 s", "3 min 5 s", "1 h 02 min" ("?" when not finite or negative).
std::string format_duration(double seconds);

// True when standard output is a terminal (progress bars, colours).
bool stdout_is_terminal();

// Replaces this process by build/bin/rebound-fem (next to this executable) running
// `rebound-fem COMMAND ARGUMENTS...` with the same environment (so mpirun works): how the light
// `rebound` hands over the commands that need deal.II. Returns only on failure (RunError).
[[noreturn]] void run_fem_executable(const std::string& command,
                                     const std::vector<std::string>& arguments);

}  // namespace rebound::app
