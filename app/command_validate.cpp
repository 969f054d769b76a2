// rebound validate [--quick | --full] [-o DIR] : runs the validation sections (app/validation.h),
// draws their plots and writes DIR/VALIDATION.md (default: the source tree's docs/).
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "app/cli.h"
#include "app/commands.h"
#include "app/verbose.h"
#if defined(REBOUND_HEAVY)
#include "app/mpi_session.h"
#include "studies/fem_run.h"
#endif
#include "observables/files.h"
#include "rebound/version.h"
#include "studies/plots.h"
#include "studies/progress.h"
#include "studies/stop.h"
#include "validation/validation.h"

namespace rebound::app {
namespace {

namespace fs = std::filesystem;

// Seconds the plots take on the project's 2-core machine (matplotlib start-up and ~12 PNGs).
constexpr double kEstimatedPlotSeconds = 20;

std::string quoted_if_needed(const std::string& word) {
  if (!word.empty() && word.find_first_of(" \t'\"$\\") == std::string::npos) return word;
  std::string out = "'";
  for (char ch : word) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

// The command line exactly as the process was started (argv[0] included).
std::string command_line(const std::vector<std::string>& arguments) {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string out;
  std::size_t start = 0;
  while (start < raw.size()) {
    const std::size_t end = raw.find('\0', start);
    const std::string word = raw.substr(start, end == std::string::npos ? end : end - start);
    out += (out.empty() ? "" : " ") + quoted_if_needed(word);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  if (!out.empty()) return out;
  out = "rebound validate";
  for (const auto& word : arguments) out += " " + quoted_if_needed(word);
  return out;
}

std::string machine_description() {
  std::string out;
  struct utsname name;
  if (::uname(&name) == 0)
    out = std::string(name.sysname) + " " + name.release + " " + name.machine;
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, model;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 1);
      model.erase(0, model.find_first_not_of(' '));
      break;
    }
  out += ", " + std::to_string(std::thread::hardware_concurrency()) + " cores";
  if (!model.empty()) out += " (" + model + ")";
  double load[3];
  if (::getloadavg(load, 3) == 3) {
    char text[96];
    std::snprintf(text, sizeof text, ", load average %.2f at the start", load[0]);
    out += text;
  }
  return out;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char text[64];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &utc);
  return text;
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace

int command_validate(const std::vector<std::string>& arguments) {
  const Arguments args("validate", arguments,
                       {"--quick", "--full", "--no-plots", "--quiet", "--no-fem"},
                       {"-o", "--sections", "--threads", "--cases", "--json", "--merge"},
                       "");  // the usage lists the sections: printed below
  std::vector<validation::SectionSpec> specs = validation::lumped_sections();
#if defined(REBOUND_HEAVY)
  if (!args.flag("--no-fem"))
    for (auto& spec : validation::fem_sections()) specs.push_back(std::move(spec));
#endif
  if (args.help()) {
    double quick = kEstimatedPlotSeconds, full = kEstimatedPlotSeconds;
    for (const auto& spec : specs)
      quick += spec.estimated_seconds_quick, full += spec.estimated_seconds_full;
    std::cout
        << "Usage: rebound validate [--quick | --full] [-o DIR] [--sections 1,2,...]\n"
           "                        [--threads N] [--cases DIR] [--no-plots]\n"
           "                        [-q|--quiet | -v|--verbose]\n\n"
           "Runs the validation checks (each a value against a reference with a stated\n"
           "tolerance, or a \"compare\" row where the publications give only figures), draws\n"
           "the plots\n"
           "with matplotlib (scripts/validation_plots.py; the first of $REBOUND_PYTHON,\n"
           "/usr/bin/python3 and python3 on PATH that has it) and writes\n"
           "  DIR/VALIDATION.md                      the report (default DIR: "
        << REBOUND_SOURCE_DIR
        << "/docs)\n"
           "  DIR/images/validation/*.png            its plots\n"
           "  DIR/images/validation/validation.json  every row, machine-readable\n\n"
           "Sections (lumped halves; with the FEM built, sections 1-3 also have FEM halves):\n";
    for (std::size_t k = 0; k < specs.size(); ++k) {
      bool listed = false;
      for (std::size_t j = 0; j < k; ++j) listed = listed || specs[j].id == specs[k].id;
      if (listed) continue;
      std::string parts;
      for (const auto& spec : specs)
        if (spec.id == specs[k].id) parts += (parts.empty() ? "" : " + ") + spec.part;
      std::cout << "  " << specs[k].id << "  " << specs[k].title << " (" << parts << ")\n";
    }
    char estimate[512];
    std::snprintf(estimate, sizeof estimate,
                  "\n  --quick   the default: about %.0f min (FEM on test-sized "
                  "meshes; the lumped\n            halves take about a second, section 7's "
                  "partial-slip sweeps\n            about 20 s)\n"
                  "  --full    FEM at the default resolution, p = 1 and 2, the rod study to\n"
                  "            fem.refinement 3; lumped sweeps with 10x the points: about %.1f h\n"
                  "  (serial estimates; `mpirun -np 2 rebound validate ...` runs the FEM on 2\n"
                  "  ranks, rank 0 writes the report)\n",
                  quick / 60, full / 3600);
    std::cout << estimate
              << "  --sections 2,4  run only these sections (the report then has only them)\n"
                 "  --threads N     sweep threads (default: all cores)\n"
                 "  --cases DIR     the shipped case files (default: "
              << REBOUND_SOURCE_DIR
              << "/cases)\n"
                 "  --no-plots      do not redraw the PNGs\n"
                 "  --no-fem        only the lumped halves (seconds instead of minutes)\n"
                 "  --json FILE     only run the sections and write their rows and plot data to\n"
                 "                  FILE (no report, no plots): how another executable's\n"
                 "                  sections (rebound-fem's FEM halves) are handed over\n"
                 "  --merge FILE    add the sections of a --json FILE to the report\n"
                 "  -q, --quiet     print nothing but warnings and errors\n"
                 "  -v, --verbose   also on standard error: the options, each section's rows\n"
                 "                  and wall time, the files written with their sizes\n\n"
                 "Exit status: 0 every check passed; 1 a check failed (the report lists it), a\n"
                 "section could not run or the plots could not be drawn; 2 bad usage.\n";
    return 0;
  }
  if (!args.positional().empty()) throw UsageError("takes no positional arguments");
  if (args.flag("--quick") && args.flag("--full"))
    throw UsageError("--quick and --full exclude each other");
  const auto start = std::chrono::steady_clock::now();
  Verbose verbose(args, "validate");

  validation::Options options;
  options.depth = args.flag("--full") ? validation::Depth::full : validation::Depth::quick;
  options.cases_directory = args.option("--cases").value_or(REBOUND_SOURCE_DIR "/cases");
  options.threads = args.integer("--threads", 1, 256)
                        .value_or(std::max(1, int(std::thread::hardware_concurrency())));
  if (!fs::is_directory(options.cases_directory))
    throw UsageError("--cases " + options.cases_directory + " is not a folder");
  const std::string directory = args.option("-o").value_or(REBOUND_SOURCE_DIR "/docs");
  const fs::path image_directory = fs::path(directory) / "images" / "validation";

  std::vector<validation::SectionSpec> selected;
  if (const auto list = args.option("--sections")) {
    for (const std::string& id : split(*list)) {
      bool found = false;
      for (const auto& spec : specs)
        if (spec.id == id) selected.push_back(spec), found = true;
      if (!found) throw UsageError("--sections: no section '" + id + "'");
    }
  } else {
    selected = specs;
  }

  // Under mpirun every rank runs every section (the FEM runs are collective and every rank gets
  // the same results; the lumped halves are cheap and repeated, their sweep threads shared out);
  // rank 0 alone prints, writes the report and draws the plots.
  bool root = true;
#if defined(REBOUND_HEAVY)
  const MpiSession mpi;
  root = mpi.root();
  const int ranks = int(dealii::Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD));
  if (!args.option("--threads")) options.threads = std::max(1, options.threads / ranks);
  // Ctrl-C / SIGTERM: the FEM run under way ends as "interrupted" (stop_requested() asks every
  // rank), the lumped solve under way at its next check, no further section starts, and nothing is
  // written (a half report must not replace docs/VALIDATION.md); exit 130.
  const studies::StudySignals signals;
  const auto stop_requested = [&signals] { return signals.stop_requested(); };
#else
  const studies::StopOnSignal handlers;
  const auto stop_requested = [] { return studies::StopOnSignal::requested(); };
#endif
  options.stop = studies::StopOnSignal::flag();
  verbose.set_root(root);
  const bool quiet = args.flag("--quiet") || !root;
  if (!quiet) options.report = print_progress;
  const bool full = options.depth == validation::Depth::full;
  double estimate = args.flag("--no-plots") ? 0 : kEstimatedPlotSeconds;
  for (const auto& spec : selected)
    estimate += full ? spec.estimated_seconds_full : spec.estimated_seconds_quick;
  if (!quiet)
    std::printf(
        "rebound validate (%s): %zu section%s, estimated time %s on one core (FEM runs "
        "are parallel under mpirun)\n",
        full ? "full" : "quick", selected.size(), selected.size() == 1 ? "" : "s",
        studies::format_duration(estimate).c_str());
  std::fflush(stdout);
  {
    std::string ids;
    for (const auto& spec : selected) ids += (ids.empty() ? "" : ",") + spec.id + spec.part;
    verbose.say(std::string("depth ") + (full ? "full" : "quick") + ", sections " + ids + ", " +
                std::to_string(options.threads) + " sweep threads, cases from " +
                options.cases_directory + ", report into " + directory);
  }
  verbose.stage("options read");

  std::vector<validation::SectionResult> results;
  bool last_interrupted = false;  // the stop came while the last section ran
  for (const auto& spec : selected) {
    if (stop_requested()) break;
    results.push_back(validation::run_section(spec, options));
    const auto& r = results.back();
    const validation::Counts c = validation::count(r);
    // Asked before the section started, the loop would have stopped: a stop seen now came while it
    // ran, and its rows (solves and sweeps cut short) are not checks that failed.
    last_interrupted = studies::StopOnSignal::requested();
    if (!quiet && last_interrupted) {
      // "interrupted at 50.0 % of Hertz's contact duration, after 2.04 s" (the solve's words)
      const std::string what = r.error.rfind("interrupted", 0) == 0 ? r.error : "interrupted";
      std::printf("  section %-2s %-7s %-48s %s, after %.2f s\n", r.id.c_str(), r.part.c_str(),
                  r.title.c_str(), what.c_str(), r.wall_seconds);
      std::fflush(stdout);
    } else if (!quiet) {
      std::printf(
          "  section %-2s %-7s %-48s %3d checks %3d passed %3d failed %3d compare  %.2f s\n",
          r.id.c_str(), r.part.c_str(), r.title.c_str(), c.checks, c.passed, c.failed, c.compared,
          r.wall_seconds);
      if (!r.error.empty()) std::printf("    did not run: %s\n", r.error.c_str());
      std::fflush(stdout);
    }
    verbose.stage("section " + r.id + " (" + r.part + ", " + std::to_string(r.rows.size()) +
                  " rows)");
  }

  // Collective under MPI (every rank asks), before any rank leaves or writes.
  if (stop_requested()) {
    // The section under way ended at its solve's next check: it counts as not run.
    const std::size_t complete = results.size() - (last_interrupted ? 1 : 0);
    if (root)
      std::cerr << "rebound validate: interrupted after " << complete << " of " << selected.size()
                << " sections; nothing written (" << directory << "/VALIDATION.md unchanged)\n";
    return 130;
  }
  if (!root) return validation::count(results).failed > 0 ? 1 : 0;  // rank 0 reports

  if (const auto path = args.option("--json")) {
    nlohmann::json data = {{"sections", nlohmann::json::array()}};
    for (const auto& r : results) data["sections"].push_back(validation::to_json(r));
    observables::write_file_atomically(*path, data.dump() + "\n");
    verbose.file(*path);
    verbose.total();
    return validation::count(results).failed > 0 ? 1 : 0;
  }
  if (const auto path = args.option("--merge")) {
    std::ifstream in(*path);
    nlohmann::json data;
    try {
      data = nlohmann::json::parse(in);
      for (const auto& section : data.at("sections"))
        results.push_back(validation::section_from_json(section));
    } catch (const std::exception& error) {
      throw UsageError("--merge " + *path + ": not a `rebound validate --json` file (" +
                       error.what() + ")");
    }
    if (!quiet)
      std::printf("  merged %zu sections from %s\n", data["sections"].size(), path->c_str());
  }

  // The rows of every section, machine-readable (validation::section_from_json reads them back;
  // the plot data, megabytes in --full, is not kept).
  nlohmann::json rows = {{"sections", nlohmann::json::array()}};
  for (const auto& r : results) {
    nlohmann::json section = validation::to_json(r);
    section.erase("plots");
    rows["sections"].push_back(section);
  }
  observables::write_file_atomically((image_directory / "validation.json").string(),
                                     rows.dump(1) + "\n");

  validation::ReportContext context;
  context.command = command_line(arguments);
  context.machine = machine_description();
  context.date = utc_now();
  context.version = REBOUND_VERSION;
  context.depth = options.depth;
  if (args.flag("--no-plots")) {
    context.plot_problem = "not redrawn (--no-plots); the pictures may be from an earlier run";
  } else {
    const auto plot_start = std::chrono::steady_clock::now();
    const std::string data_path =
        (fs::temp_directory_path() / ("rebound-validate-" + std::to_string(::getpid()) + ".json"))
            .string();
    observables::write_file_atomically(data_path, validation::plots_json(results).dump() + "\n");
    const studies::PlotOutcome plots =
        studies::run_python_plots("validation_plots.py", {data_path, image_directory.string()});
    std::error_code ignored;
    fs::remove(data_path, ignored);
    if (!plots.drawn) context.plot_problem = plots.problem;
    if (!plots.note.empty() && root)  // also under -q: it prints warnings and errors
      print_warning("rebound validate: warning: " + plots.note + "\n");
    context.plot_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - plot_start).count();
  }
  context.total_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string report_path = (fs::path(directory) / "VALIDATION.md").string();
  observables::write_file_atomically(report_path, validation::markdown_report(results, context));

  const validation::Counts total = validation::count(results);
  const bool plots_failed = !context.plot_problem.empty() && !args.flag("--no-plots");
  if (!quiet) {
    std::printf("total: %d checks, %d passed, %d failed, %d compare rows; %.1f s (plots %.1f s)\n",
                total.checks, total.passed, total.failed, total.compared, context.total_seconds,
                context.plot_seconds);
    for (const auto& r : results)
      for (const auto& row : r.rows)
        if (row.verdict == validation::Verdict::fail)
          std::printf(
              "  FAIL section %s, %s, %s: %s vs %s (%s)\n", r.id.c_str(), row.case_name.c_str(),
              row.quantity.c_str(), validation::format_value(row.value).c_str(),
              validation::format_value(row.reference).c_str(), row.tolerance.describe().c_str());
    std::printf("written: %s, %s/*.png\n", report_path.c_str(), image_directory.c_str());
  }
  if (plots_failed) std::fprintf(stderr, "rebound validate: %s\n", context.plot_problem.c_str());
  verbose.say(args.flag("--no-plots")
                  ? std::string("plots: not redrawn (--no-plots)")
                  : "plots: " + format_number(context.plot_seconds, "%.1f") + " s" +
                        (context.plot_problem.empty() ? "" : " (" + context.plot_problem + ")"));
  verbose.say("files written:");
  verbose.file(report_path);
  verbose.files(image_directory.string());
  verbose.total();
  return total.failed > 0 || plots_failed ? 1 : 0;
}

}  // namespace rebound::app
