// Small command-line toolkit shared by the `rebound` subcommands.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cases/case.h"

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

// Parses "POSITIONAL... [--flag] [--option VALUE]" for one subcommand; an option's value may
// also be attached with '=' (--threads=4, -o=DIR), and wherever -o is an option, --output is its
// long name (-o DIR, -o=DIR, --output DIR, --output=DIR). -q is --quiet wherever --quiet is
// accepted; -v/--verbose is accepted by every command (app/verbose.h), and -q with -v is a
// UsageError. Unknown options are a UsageError naming the accepted options (with a "did you
// mean" for a misspelling). `usage` is the command's --help text.
class Arguments {
 public:
  Arguments(std::string command, const std::vector<std::string>& arguments,
            std::vector<std::string> flags, std::vector<std::string> options, const char* usage);
  bool flag(const std::string& name) const;
  std::optional<std::string> option(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }
  // True when --help or -h was given; the usage has then been printed on standard output.
  bool help() const { return help_; }
  // The one CASE file of the commands that take exactly one (UsageError otherwise).
  const std::string& case_file() const;

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

// Prints a rejected case on standard error, one line per problem:
// "rebound COMMAND: error: FILE: KEY MESSAGE".
void print_case_error(const std::string& command, const cases::CaseError& error);

// Output folder of a case: DIR from -o, else results/<case name>.
std::string output_directory(const std::optional<std::string>& option,
                             const std::string& case_name);

// A summary's "warnings" on standard error, one "rebound COMMAND: warning: ..." line each.
void print_warnings(const nlohmann::json& summary, const std::string& command);

// Progress text of a study (studies::Report) and warnings, both on standard error; results
// (tables, summaries, --json) go to standard output.
void print_progress(const std::string& text);
void print_warning(const std::string& text);

// A progress line on standard error: redrawn in place on a terminal (at most every 0.2 s), a
// plain line at each further 10 % otherwise (a file, a pipe, or under mpirun, whose ranks get a
// pseudo-terminal even when its own output goes to a file). Nothing is shown during the first
// `silent_seconds` (a quick run prints nothing).
class ProgressLine {
 public:
  explicit ProgressLine(double silent_seconds = 0);
  ~ProgressLine() { finish(); }  // also when an error unwinds: its message starts a new line
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  bool terminal() const { return terminal_; }
  double elapsed_seconds() const;
  // Whether a line for this fraction done (in [0, 1]) is to be shown now; print it with show().
  bool due(double fraction);
  // Starts the 10 % steps again (a solve that starts over: the half-space grid enlarged).
  void restart() { last_decile_ = -1; }
  void show(const std::string& text);
  // Ends a line drawn in place (a newline), so that what follows starts on its own line.
  void finish();

 private:
  bool terminal_;
  bool drawn_ = false;
  double silent_seconds_, start_, last_print_ = -1;
  int last_decile_ = -1;
};

// Replaces this process by build/bin/rebound-fem (next to this executable) running
// `rebound-fem COMMAND ARGUMENTS...` with the same environment (so mpirun works): how the light
// `rebound` hands over the commands that need deal.II. Returns only on failure (RunError).
[[noreturn]] void run_fem_executable(const std::string& command,
                                     const std::vector<std::string>& arguments);

}  // namespace rebound::app
