// The work of `rebound validate`: the sections run in order (stopping at a signal), their rows
// handed between executables as JSON (--json, --merge), and the report written: DIR/VALIDATION.md,
// DIR/images/validation/validation.json and the plots. The command line parses and prints.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "validation/validation.h"

namespace rebound::validation {

// The sections run, in order, until `stop_requested()` (asked before each); `done` is called after
// each with its result and whether the stop came while it ran (its rows then cut short).
struct SectionsRun {
  std::vector<SectionResult> results;
  bool last_interrupted = false;  // the stop came while the last section ran
};
SectionsRun run_sections(const std::vector<SectionSpec>& specs, const Options& options,
                         const std::function<bool()>& stop_requested,
                         const std::function<void(const SectionResult&, bool interrupted)>& done);

// --json FILE: the sections' rows and plot data; --merge FILE reads them back (StudyInputError
// naming the option when FILE is not such a file).
void write_sections_json(const std::string& path, const std::vector<SectionResult>& results);
std::vector<SectionResult> read_sections_json(const std::string& path);

// The report's header: the command line exactly as the process was started (argv[0] included;
// "rebound validate ARGUMENTS" when /proc/self/cmdline cannot be read), the machine (uname, cores,
// CPU model, load average) and the UTC date.
std::string command_line(const std::vector<std::string>& arguments);
std::string machine_description();
std::string utc_now();

// Writes DIR/images/validation/validation.json (the rows, not the plot data), draws the plots
// (scripts/validation_plots.py) when `draw_plots` (context.plot_problem says why not drawn;
// `warning` gets a note such as another interpreter having drawn them) and writes
// DIR/VALIDATION.md; context.total_seconds counts from `start`. Returns the report's path.
std::string write_report(const std::vector<SectionResult>& results, ReportContext& context,
                         const std::string& directory, bool draw_plots,
                         std::chrono::steady_clock::time_point start,
                         const std::function<void(const std::string&)>& warning);

}  // namespace rebound::validation
