// rebound validate [--quick | --full] [-o DIR] : runs the validation sections (app/validation.h),
// draws their plots and writes DIR/VALIDATION.md (default: the source tree's docs/).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>

#include "app/cli.h"
#include "app/commands.h"
#include "app/executable.h"
#include "app/verbose.h"
#include "cases/format.h"
#include "rebound/version.h"
#include "studies/progress.h"
#include "studies/stop.h"
#include "validation/run.h"

namespace rebound::app {
namespace {

namespace fs = std::filesystem;

// Seconds the plots take on the project's 2-core machine (matplotlib start-up and ~12 PNGs).
constexpr double kEstimatedPlotSeconds = 20;

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
  if (!args.flag("--no-fem"))
    for (auto& spec : fem_validation_sections()) specs.push_back(std::move(spec));
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
  const std::unique_ptr<StudySession> session = start_study_session();
  const bool root = session->root();
  if (!args.option("--threads")) options.threads = std::max(1, options.threads / session->ranks());
  // Ctrl-C / SIGTERM: the FEM run under way ends as "interrupted", the lumped solve under way at
  // its next check, no further section starts, and nothing is written (a half report must not
  // replace docs/VALIDATION.md); exit 130.
  const auto stop_requested = [&session] { return session->stop_requested(); };
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

  const auto section_done = [&](const validation::SectionResult& r, bool interrupted) {
    const validation::Counts c = validation::count(r);
    if (!quiet && interrupted) {
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
  };
  validation::SectionsRun run =
      validation::run_sections(selected, options, stop_requested, section_done);
  std::vector<validation::SectionResult>& results = run.results;

  // Collective under MPI (every rank asks), before any rank leaves or writes.
  if (stop_requested()) {
    // The section under way ended at its solve's next check: it counts as not run.
    const std::size_t complete = results.size() - (run.last_interrupted ? 1 : 0);
    if (root)
      std::cerr << "rebound validate: interrupted after " << complete << " of " << selected.size()
                << " sections; nothing written (" << directory << "/VALIDATION.md unchanged)\n";
    return 130;
  }
  if (!root) return validation::count(results).failed > 0 ? 1 : 0;  // rank 0 reports

  if (const auto path = args.option("--json")) {
    validation::write_sections_json(*path, results);
    verbose.file(*path);
    verbose.total();
    return validation::count(results).failed > 0 ? 1 : 0;
  }
  if (const auto path = args.option("--merge")) {
    const std::vector<validation::SectionResult> merged = validation::read_sections_json(*path);
    results.insert(results.end(), merged.begin(), merged.end());
    if (!quiet) std::printf("  merged %zu sections from %s\n", merged.size(), path->c_str());
  }

  validation::ReportContext context;
  context.command = validation::command_line(arguments);
  context.machine = validation::machine_description();
  context.date = validation::utc_now();
  context.version = REBOUND_VERSION;
  context.depth = options.depth;
  // The note goes out also under -q: it prints warnings and errors.
  const std::string report_path = validation::write_report(
      results, context, directory, !args.flag("--no-plots"), start,
      [](const std::string& note) { print_warning("rebound validate: warning: " + note + "\n"); });

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
                  : "plots: " + cases::format_number(context.plot_seconds, "%.1f") + " s" +
                        (context.plot_problem.empty() ? "" : " (" + context.plot_problem + ")"));
  verbose.say("files written:");
  verbose.file(report_path);
  verbose.files(image_directory.string());
  verbose.total();
  return total.failed > 0 || plots_failed ? 1 : 0;
}

}  // namespace rebound::app
