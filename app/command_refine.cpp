// rebound refine CASE [--levels A..B] [--refinements A..B] [--contact-resolutions LIST] [-o DIR]
// [--resume] : the FEM mesh-refinement study (refinement.csv/json, observed orders, Richardson
// values, plots).
#include <deal.II/base/mpi.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "app/cli.h"
#include "app/commands.h"
#include "app/mpi_session.h"
#include "app/refinement.h"
#include "cases/case.h"

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

}  // namespace

int command_refine(const std::vector<std::string>& arguments) {
  const Arguments args("refine", arguments, {"--quiet", "--resume", "--no-plots"},
                       {"--levels", "--refinements", "--contact-resolutions", "-o", "--frames"});
  if (args.help()) {
    std::cout
        << "Usage: rebound refine CASE [--levels A..B] [--refinements A..B]\n"
           "                      [--contact-resolutions LIST] [-o DIR] [--resume] [--frames N]\n"
           "                      [--quiet] [--no-plots]\n"
           "       mpirun -np N rebound refine CASE [...]\n\n"
           "Mesh-refinement study of the FEM: runs `rebound fem` at every combination of\n"
           "  --levels A..B               extra uniform refinements of the finished mesh, as\n"
           "                              `rebound fem --level K`, in [0, 6]: each halves every\n"
           "                              cell and the time step (~16x the work); default 0\n"
           "  --refinements A..B          values of fem.refinement, in [0, 8]: global levels of\n"
           "                              the coarse mesh before the contact refinement, i.e.\n"
           "                              the cells away from P (~2x the work each on coarse\n"
           "                              meshes); default: the case's value\n"
           "  --contact-resolutions LIST  values of fem.contact_resolution, increasing, in\n"
           "                              [1, 64], e.g. 2,4,8: cells within a_max of P have\n"
           "                              diameter <= a_max / value; default: the case's value\n"
           "(at least one of the three), cheapest first, the rest of the case unchanged. Writes\n"
           "into DIR (default results/<case name>):\n"
           "  refinement.csv    one row per finished run, rewritten after each run: level,\n"
           "                    refinement, contact_resolution, dofs, cells, h_contact, h_max,\n"
           "                    time_step, steps, wall_time, psi2, e_newton, normal_impulse,\n"
           "                    tangential_impulse, peak_normal_force, contact_duration,\n"
           "                    tangential_cor, spin_final, kinetic_energy_loss_fraction,\n"
           "                    status, energy_balance_error, degree, mpi_ranks, case,\n"
           "                    case_hash, directory, message\n"
           "  refinement.json   the runs, the references and, for each series (the runs along\n"
           "                    one option, the others fixed) and quantity, the observed order\n"
           "                    p = log((q1-q2)/(q2-q3))/log(r) from the last three runs (r the\n"
           "                    ratio of h: h_contact, or h_max along --refinements; uneven\n"
           "                    ratios are solved exactly), the Richardson value\n"
           "                    q_R = q3 + (q3-q2)/(r^p-1) and its error estimate |q_R - q3|\n"
           "  refine/refR_levelL_resS/      each run's summary.json and history.csv\n"
           "  plots/refinement_<quantity>.png   the quantity vs h (log), with the lumped\n"
           "                    model's value, Hertz's (normal impacts) and Richardson's\n"
           "References: the case's lumped model (exact geometry) and, for normal or frictionless\n"
           "impacts with theta = 0, Hertz's contact duration and peak force.\n"
           "One line per finished run (with an ETA), then the tables. A failed run is recorded\n"
           "(status failed) and the study goes on (exit status 1 at the end). Ctrl-C or\n"
           "SIGTERM stops after writing the finished rows (exit status 130); --resume reuses\n"
           "the rows of DIR/refinement.csv with the same case description (case_hash), level,\n"
           "refinement and resolution. --frames N: VTK frames per run (default 0).\n"
           "See docs/PAIR.md.\n";
    return 0;
  }
  if (args.positional().size() != 1) throw UsageError("needs exactly one CASE file");
  const auto levels_text = args.option("--levels");
  const auto refinements_text = args.option("--refinements");
  const auto resolutions_text = args.option("--contact-resolutions");
  if (!levels_text && !refinements_text && !resolutions_text)
    throw UsageError(
        "needs --levels A..B, --refinements A..B and/or --contact-resolutions LIST (e.g. "
        "--levels 0..2)");
  RefinementOptions options;
  if (levels_text) options.levels = parse_levels("--levels", *levels_text, 0, 6);
  if (refinements_text)
    options.refinements = parse_levels("--refinements", *refinements_text, 0, 8);
  if (resolutions_text) options.contact_resolutions = parse_resolutions(*resolutions_text);
  options.frames = args.integer("--frames", 0, 100000).value_or(0);
  options.resume = args.flag("--resume");
  options.quiet = args.flag("--quiet");
  const cases::Case c = cases::load_case(args.positional().front());
  options.directory = output_directory(args.option("-o"), c.name);

  const MpiSession mpi;
  const bool root = mpi.root();
  const RefinementStudy study = run_refinement_study(c, options);
  if (!root) return study.interrupted ? 130 : (study.failed > 0 ? 1 : 0);
  if (!options.quiet) {
    print_refinement_study(study);
    std::printf("\n  written to %s/refinement.csv, refinement.json\n", options.directory.c_str());
  }
  if (study.interrupted) {
    std::size_t finished = 0;
    for (const auto& run : study.runs) finished += !run.status.empty();
    std::cerr << "rebound refine: interrupted; " << finished << " of " << study.runs.size()
              << " runs are in " << options.directory
              << "/refinement.csv (rerun with --resume to continue)\n";
    return 130;
  }
  if (!args.flag("--no-plots") && draw_refinement_plots(options.directory, c.name) &&
      !options.quiet)
    std::printf("  plots in %s/plots/refinement_*.png\n", options.directory.c_str());
  if (study.failed > 0) {
    std::cerr << "rebound refine: " << study.failed << " of " << study.runs.size()
              << " FEM runs failed (see the status and message columns of " << options.directory
              << "/refinement.csv)\n";
    return 1;
  }
  return 0;
}

}  // namespace rebound::app
