// rebound refine CASE [--levels A..B] [--refinements A..B] [--contact-resolutions LIST] [-o DIR]
// [--resume] : the FEM mesh-refinement study (refinement.csv/json, observed orders, Richardson
// values, plots).
#include <deal.II/base/mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>

#include "app/cli.h"
#include "app/commands.h"
#include "app/mpi_session.h"
#include "app/verbose.h"
#include "cases/case.h"
#include "cases/derived.h"
#include "studies/fem_run.h"
#include "studies/refinement.h"

namespace rebound::app {
namespace {

// "A..B" (low <= A <= B <= high) or "K".
std::vector<int> parse_levels(const std::string& option, const std::string& text, int low,
                              int high) {
  const std::string expected = "option " + option + " is '" + text +
                               "'; expected A..B with integers " + std::to_string(low) +
                               " <= A <= B <= " + std::to_string(high) + " (e.g. 0..2)";
  const auto integer = [&](const std::string& word) {
    std::size_t used = 0;
    int value = -1;
    try {
      value = std::stoi(word, &used);
    } catch (const std::exception&) {
      throw UsageError(expected);
    }
    if (used != word.size() || word.empty() || value < low || value > high)
      throw UsageError(expected);
    return value;
  };
  const std::size_t dots = text.find("..");
  const int first = integer(dots == std::string::npos ? text : text.substr(0, dots));
  const int last = dots == std::string::npos ? first : integer(text.substr(dots + 2));
  if (last < first) throw UsageError(expected);
  std::vector<int> levels;
  for (int level = first; level <= last; ++level) levels.push_back(level);
  return levels;
}

// "2,4,8": increasing numbers in [1, 64].
std::vector<double> parse_resolutions(const std::string& text) {
  const std::string expected = "option --contact-resolutions is '" + text +
                               "'; expected increasing numbers in [1, 64] separated by commas "
                               "(e.g. 2,4,8)";
  std::vector<double> values;
  std::stringstream in(text);
  for (std::string word; std::getline(in, word, ',');) {
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(word, &used);
    } catch (const std::exception&) {
      throw UsageError(expected);
    }
    if (used != word.size() || !(value >= 1 && value <= 64) ||
        (!values.empty() && value <= values.back()))
      throw UsageError(expected);
    values.push_back(value);
  }
  if (values.empty() || text.back() == ',') throw UsageError(expected);
  return values;
}

// The tables printed by `rebound refine`: the runs, then the convergence of every series.
}  // namespace

const char* const kRefineUsage = R"(Usage: rebound refine CASE [--levels A..B] [--refinements A..B]
                      [--contact-resolutions LIST] [-o DIR] [--resume] [--frames N]
                      [-q|--quiet | -v|--verbose] [--no-plots]
       mpirun -np N rebound refine CASE [...]

Mesh-refinement study of the FEM: runs `rebound fem` at every combination of
  --levels A..B               extra uniform refinements of the finished mesh, as
                              `rebound fem --level K`, in [0, 6]: each halves every
                              cell and the time step (~16x the work); default 0
  --refinements A..B          values of fem.refinement, in [0, 8]: global levels of
                              the coarse mesh before the contact refinement, i.e.
                              the cells away from P (~2x the work each on coarse
                              meshes); default: the case's value
  --contact-resolutions LIST  values of fem.contact_resolution, increasing, in
                              [1, 64], e.g. 2,4,8: cells within a of P have
                              diameter <= a / value (a: Hertz's a_max, Thornton's
                              zone for an elastic-plastic body); default: the case's value
(at least one of the three), cheapest first, the rest of the case unchanged. Writes
into DIR (default results/<case name>):
  refinement.csv    one row per finished run, rewritten after each run: level,
                    refinement, contact_resolution, dofs, cells, h_contact_m,
                    h_max_m, time_step_s, steps, wall_time_s, psi2, e_newton,
                    normal_impulse_N_s, tangential_impulse_N_s,
                    peak_normal_force_N, contact_duration_s, tangential_cor,
                    spin_final_rad_per_s, kinetic_energy_loss_fraction, status,
                    energy_balance_error, degree, mpi_ranks, case, case_hash,
                    directory, message (each header with its SI unit)
  refinement.json   the runs, the references and, for each series (the runs along
                    one option, the others fixed) and quantity, the observed order
                    p = log((q1-q2)/(q2-q3))/log(r) from the last three runs (r the
                    ratio of h: h_contact, or h_max along --refinements; uneven
                    ratios are solved exactly), the Richardson value
                    q_R = q3 + (q3-q2)/(r^p-1) and its error estimate |q_R - q3|
  refine/refR_levelL_resS/      each run's summary.json and history.csv
  plots/refinement_<quantity>.png   the quantity vs h (log), with the lumped
                    model's value, Hertz's (normal impacts) and Richardson's
References: the case's lumped model (exact geometry) and, for normal or frictionless
impacts with theta = 0, Hertz's contact duration and peak force.
One line per finished run (with an ETA), then the tables. A failed run is recorded
(status failed) and the study goes on (exit status 1 at the end). Ctrl-C or
SIGTERM stops after writing the finished rows (exit status 130); --resume reuses
the rows of DIR/refinement.csv with the same case description (case_hash), level,
refinement and resolution. --frames N: VTK frames per run (default 0). -q prints
nothing but warnings and errors; -v adds, on standard error, the case as read with
every default filled and its hash, the derived quantities, each stage's wall time
and the files written with their sizes. See docs/PAIR.md.
)";

int command_refine(const std::vector<std::string>& arguments) {
  const Arguments args("refine", arguments, {"--quiet", "--resume", "--no-plots"},
                       {"--levels", "--refinements", "--contact-resolutions", "-o", "--frames"},
                       kRefineUsage);
  if (args.help()) return 0;
  const auto levels_text = args.option("--levels");
  const auto refinements_text = args.option("--refinements");
  const auto resolutions_text = args.option("--contact-resolutions");
  if (!levels_text && !refinements_text && !resolutions_text)
    throw UsageError(
        "needs --levels A..B, --refinements A..B and/or --contact-resolutions LIST (e.g. "
        "--levels 0..2)");
  studies::RefinementOptions options;
  if (levels_text) options.levels = parse_levels("--levels", *levels_text, 0, 6);
  if (refinements_text)
    options.refinements = parse_levels("--refinements", *refinements_text, 0, 8);
  if (resolutions_text) options.contact_resolutions = parse_resolutions(*resolutions_text);
  options.frames = args.integer("--frames", 0, 100000).value_or(0);
  options.resume = args.flag("--resume");
  const bool quiet = args.flag("--quiet");
  if (!quiet) options.report = print_progress;
  Verbose verbose(args, "refine");
  const cases::Case c = cases::load_case(args.case_file());
  cases::require_fem_target(c);  // a target the FEM models (fem_target_problem)
  verbose.resolved_case(c);
  verbose.derived(c, cases::derive(c));
  options.directory = output_directory(args.option("-o"), c.name);
  verbose.stage("read the case and the study's options");

  const MpiSession mpi;
  const bool root = mpi.root();
  verbose.set_root(root);
  // The study owns its files in DIR while it runs (a second refine into it is refused; an
  // earlier refinement.json and refinement plots are removed first; manifest-refine.json at the
  // end, "failed" if an exception ends it). refinement.csv and refine/ are kept for --resume.
  studies::check_refinement_resume(c, options);  // a table of another case: exit 2, untouched
  std::optional<observables::OutputFolder> folder = studies::take_output_folder(
      options.directory, {"refinement.json", "plots/refinement_*.png", "*.tmp.*"},
      "rebound refine of " + c.name + " (" + c.source + ")", {}, "refine");
  const studies::RefinementStudy study = studies::run_refinement_study(c, options);
  if (verbose.on()) verbose.say(studies::refinement_runs_text(study));
  verbose.stage("the study's FEM runs and analysis");
  if (!root) return study.interrupted ? 130 : (study.failed > 0 ? 1 : 0);
  if (!quiet) {
    std::fputs(studies::refinement_table(study).c_str(), stdout);
    std::printf("\n  written to %s/refinement.csv, refinement.json\n", options.directory.c_str());
  }
  if (study.interrupted) {
    std::size_t finished = 0;
    for (const auto& run : study.runs) finished += !run.status.empty();
    std::cerr << "rebound refine: interrupted; " << finished << " of " << study.runs.size()
              << " runs are in " << options.directory
              << "/refinement.csv (rerun with --resume to continue)\n";
    folder->finish("interrupted");
    return 130;
  }
  if (!args.flag("--no-plots") &&
      studies::draw_refinement_plots(options.directory, c.name, print_warning) && !quiet)
    std::printf("  plots in %s/plots/refinement_*.png\n", options.directory.c_str());
  verbose.stage("plots");
  verbose.say("files written:");
  verbose.file(options.directory + "/refinement.csv");
  verbose.file(options.directory + "/refinement.json");
  verbose.files(options.directory + "/refine");
  if (!args.flag("--no-plots")) verbose.files(options.directory + "/plots");
  folder->finish(study.failed > 0 ? "failed" : "completed");
  verbose.total();
  if (study.failed > 0) {
    std::cerr << "rebound refine: " << study.failed << " of " << study.runs.size()
              << " FEM runs failed (see the status and message columns of " << options.directory
              << "/refinement.csv)\n";
    return 1;
  }
  return 0;
}

}  // namespace rebound::app
