// rebound pair CASE [-o DIR] [--level K] : the same impact solved by the FEM and the lumped
// model, side by side (comparison.json, report.md, plots/, view.py).
#include <deal.II/base/mpi.h>

#include <cstdio>
#include <iostream>

#include "app/cli.h"
#include "app/commands.h"
#include "app/fem_progress.h"
#include "app/mpi_session.h"
#include "app/verbose.h"
#include "cases/case.h"
#include "cases/derived.h"
#include "observables/summary_text.h"
#include "studies/pair.h"

namespace rebound::app {

const char* const kPairUsage =
    R"(Usage: rebound pair CASE [-o DIR] [--level K] [-q|--quiet | -v|--verbose] [--no-plots]
                    [--json]

Solves the case with the FEM (as `rebound fem`) and with the lumped model, the
lumped model taking lambda, theta and the mass from the FEM mesh's own mass
distribution (and, for reference, from the exact geometry). Writes into DIR
(default results/<case name>):
  fem/             the FEM run (summary.json, history.csv, solution.pvd)
  lumped/          the lumped run with the mesh's lambda, theta, m (rigid_body.pvd)
  lumped-exact/    the lumped run with the exact geometry's lambda, theta, m
  comparison.json  every shared summary key: both values, difference, relative
                   difference; both histories on t / contact duration with L2 and
                   max differences
  report.md        the table printed at the end
  plots/*.png      forces, impulse path, tangential velocity of P, FEM energies
  view.py          ParaView state: paraview --script=DIR/view.py (Debian 12 without
                   python3-paraview: scripts/paraview-python.sh --gui DIR/view.py,
                   docs/PARAVIEW.md)
Progress and warnings go to standard error, the report to standard output;
--json prints comparison.json (with its provenance) instead of the report; -q
prints nothing but warnings and errors; -v adds, on standard error, the case as
read with every default filled and its hash, the derived quantities, the FE
space, each stage's wall time and the files written with their sizes.
Exit status 1 when the FEM run failed or ended inside the contact, 130 when
interrupted: then only fem/ is written.
)";

int command_pair(const std::vector<std::string>& arguments) {
  const Arguments args("pair", arguments, {"--quiet", "--no-plots", "--json"}, {"-o", "--level"},
                       kPairUsage);
  if (args.help()) return 0;
  const int extra_levels = args.integer("--level", 0, 6).value_or(0);
  const bool json = args.flag("--json");
  const bool quiet = args.flag("--quiet") || json;
  Verbose verbose(args, "pair");
  const cases::Case c = cases::load_case(args.case_file());
  cases::require_fem_target(c);  // a target the FEM models (fem_target_problem)
  verbose.resolved_case(c);
  verbose.derived(c, cases::derive(c));
  verbose.stage("read the case");
  const std::string directory = output_directory(args.option("-o"), c.name);

  const MpiSession mpi;
  const bool root = mpi.root();
  verbose.set_root(root);
  FemProgressPrinter progress;
  studies::PairOptions options;
  options.extra_levels = extra_levels;
  options.plots = !args.flag("--no-plots");
  options.warning = print_warning;
  if (!quiet) {
    options.report = [&](const std::string& text) {
      progress.finish();
      print_progress(text);
    };
    options.fem_progress = progress.callback();
    options.fem_finished = [&](const studies::FemRun& fem) {
      progress.finish();
      std::fputs(observables::fem_summary_text(fem.summary, directory + "/fem").c_str(), stdout);
    };
  }
  // -v: each stage of the pair ([1/3] FEM, [2/3] lumped, [3/3] comparison) with its wall time.
  std::string stage = "start-up (MPI, case)";
  if (verbose.on()) {
    const auto report = options.report;
    options.report = [&, report](const std::string& text) {
      if (report) report(text);
      verbose.stage(stage);
      stage = text.substr(0, text.find_last_not_of(" \n") + 1);
    };
    const auto finished = options.fem_finished;
    options.fem_finished = [&, finished](const studies::FemRun& fem) {
      if (finished) finished(fem);
      const fem::Info& info = fem.result.info;
      char text[320];
      std::snprintf(text, sizeof text,
                    "FE space: FE_Q(%d), %llu dofs, %llu cells, time step %.6g s, %lld steps; mesh "
                    "%.3f s, setup %.3f s, whole FEM run %.3f s",
                    info.degree, info.dofs, info.cells, info.time_step, fem.result.final.step,
                    info.mesh_seconds, info.setup_seconds, fem.result.wall_time);
      verbose.say(text);
    };
  }
  const studies::PairResult pair = studies::run_pair(c, directory, options);
  progress.finish();
  verbose.stage(stage + " (with the report and plots)");
  verbose.files(directory + "/fem");
  verbose.files(directory + "/lumped");
  verbose.files(directory + "/lumped-exact");
  for (const char* name : {"comparison.json", "report.md", "view.py"})
    verbose.file(directory + "/" + name);
  if (!args.flag("--no-plots")) verbose.files(directory + "/plots");
  verbose.total();
  if (pair.status != "completed") {
    // A half run is not compared (exit 130 interrupted, 1 failed); the message says what is kept.
    if (root) std::cerr << "rebound pair: " << pair.message << " (in " << directory << ")\n";
    return pair.status == "interrupted" ? 130 : 1;
  }
  if (!root) return 0;
  if (json) std::cout << pair.comparison.dump(2) << "\n";
  if (!quiet) {
    std::cout
        << "\n"
        << pair.report << "\nOpen in ParaView: paraview --script=" << directory
        << "/view.py\n(on Debian 12 without python3-paraview: scripts/paraview-python.sh --gui "
        << directory << "/view.py; docs/PARAVIEW.md)\n";
  }
  return 0;
}

}  // namespace rebound::app
