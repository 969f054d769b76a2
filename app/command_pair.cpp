// rebound pair CASE [-o DIR] [--level K] : the same impact solved by the FEM and the lumped
// model, side by side (comparison.json, report.md, plots/, view.py).
#include <deal.II/base/mpi.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "app/cli.h"
#include "app/commands.h"
#include "app/comparison.h"
#include "app/fem_run.h"
#include "app/mpi_session.h"
#include "app/rigid_body_vtk.h"
#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/summary.h"

namespace rebound::app {
namespace {

struct LumpedRun {
  nlohmann::json summary;
  Table history;
};

// Solves the lumped model with the given derived quantities and writes its files into dir.
LumpedRun run_lumped(const cases::Case& c, const cases::Derived& d, const std::string& dir,
                     bool frames) {
  const lumped::Outcome outcome = lumped::solve(c, d);
  LumpedRun run;
  run.summary = lumped::summary_json(c, d, outcome);
  const auto rows = lumped::history_rows(c, d, outcome);
  write_file_atomically(dir + "/history.csv", lumped::history_csv(rows));
  write_file_atomically(dir + "/summary.json", run.summary.dump(2) + "\n");
  if (frames) write_rigid_body_frames(dir, c, d, rows, c.lumped.frames);
  run.history = read_csv(dir + "/history.csv");
  return run;
}

}  // namespace

int command_pair(const std::vector<std::string>& arguments) {
  const Arguments args("pair", arguments, {"--quiet", "--no-plots"}, {"-o", "--level"});
  if (args.help()) {
    std::cout
        << "Usage: rebound pair CASE [-o DIR] [--level K] [--quiet] [--no-plots]\n\n"
           "Solves the case with the FEM (as `rebound fem`) and with the lumped model, the\n"
           "lumped model taking lambda, theta and the mass from the FEM mesh's own mass\n"
           "distribution (and, for reference, from the exact geometry). Writes into DIR\n"
           "(default results/<case name>):\n"
           "  fem/             the FEM run (summary.json, history.csv, solution.pvd)\n"
           "  lumped/          the lumped run with the mesh's lambda, theta, m (rigid_body.pvd)\n"
           "  lumped-exact/    the lumped run with the exact geometry's lambda, theta, m\n"
           "  comparison.json  every shared summary key: both values, difference, relative\n"
           "                   difference; both histories on t / contact duration with L2 and\n"
           "                   max differences\n"
           "  report.md        the table printed at the end\n"
           "  plots/*.png      forces, impulse path, tangential velocity of P, FEM energies\n"
           "  view.py          ParaView state: paraview --script=DIR/view.py (Debian 12 without\n"
           "                   python3-paraview: scripts/paraview-python.sh --gui DIR/view.py,\n"
           "                   docs/PARAVIEW.md)\n";
    return 0;
  }
  if (args.positional().size() != 1) throw UsageError("needs exactly one CASE file");
  const int extra_levels = args.integer("--level", 0, 6).value_or(0);
  const bool quiet = args.flag("--quiet");
  const cases::Case c = cases::load_case(args.positional().front());
  const std::string directory = output_directory(args.option("-o"), c.name);

  const MpiSession mpi;
  const bool root = mpi.root();

  if (root && !quiet) std::printf("[1/3] FEM of %s\n", c.name.c_str());
  const FemRun fem = run_fem_into(c, directory + "/fem", extra_levels, c.fem.frames, quiet);
  if (fem.result.status == "failed") {
    if (root) std::cerr << "rebound pair: FEM failed: " << fem.result.message << "\n";
    return 1;
  }
  if (!root) return 0;

  // The lumped model on the mesh's own mass distribution (the case's lambda/theta overrides are
  // dropped: the point of the pair is the same body both ways).
  const cases::Case paired = cases::without_lumped_overrides(c);
  const cases::Derived mesh_derived = cases::derive(paired, fem.result.info.mesh_mass_properties);
  const cases::Derived exact_derived = cases::derive(paired);
  if (!quiet)
    std::printf(
        "[2/3] lumped model (%s) with the mesh's lambda = %.6g, theta = %.6g, m = %.6g kg\n",
        c.lumped.model.c_str(), mesh_derived.lambda, mesh_derived.theta,
        mesh_derived.effective_mass);
  const LumpedRun lumped_mesh = run_lumped(paired, mesh_derived, directory + "/lumped", true);
  const LumpedRun lumped_exact =
      run_lumped(paired, exact_derived, directory + "/lumped-exact", false);

  if (!quiet) std::printf("[3/3] comparison\n");
  const Table fem_history = read_csv(directory + "/fem/history.csv");
  nlohmann::json comparison =
      compare("lumped", lumped_mesh.summary, lumped_mesh.history, "fem", fem.summary, fem_history);
  comparison["case"] = c.name;
  comparison["geometry"] = compare("exact", lumped_exact.summary, lumped_exact.history, "mesh",
                                   lumped_mesh.summary, lumped_mesh.history)["summary"];
  write_file_atomically(directory + "/comparison.json", comparison.dump(2) + "\n");
  std::string report = report_markdown(comparison, "rebound pair: " + c.name);
  report +=
      "\nThe lumped model uses the FEM mesh's own lambda, theta and mass. With the exact "
      "geometry instead:\n\n| quantity | exact geometry | mesh | difference |\n|---|---|---|---|\n";
  for (const char* key : {"lambda", "theta", "psi2", "e_newton", "normal_impulse",
                          "tangential_impulse", "contact_duration"}) {
    if (!comparison["geometry"].contains(key)) continue;
    const auto& row = comparison["geometry"][key];
    char line[256];
    std::snprintf(line, sizeof line, "| %s | %.6g | %.6g | %+.3g |\n", key,
                  row["exact"].get<double>(), row["mesh"].get<double>(),
                  row["difference"].get<double>());
    report += line;
  }
  report +=
      "\nFiles: fem/solution.pvd (FEM fields), lumped/rigid_body.pvd (lumped rigid body), "
      "view.py (ParaView state), plots/*.png.\n";
  write_file_atomically(directory + "/report.md", report);

  // View script (with the result folder written in: ParaView's GUI runs `--script` files
  // without __file__) and plots.
  const std::filesystem::path source(REBOUND_SOURCE_DIR);
  {
    std::ifstream in(source / "scripts" / "paraview_view.py");
    std::stringstream text;
    text << in.rdbuf();
    std::string script = text.str();
    const std::string marker = "RESULT_DIRECTORY = None";
    const auto at = script.find(marker);
    if (!in || at == std::string::npos)
      throw RunError("cannot read the view script template " +
                     (source / "scripts" / "paraview_view.py").string());
    script.replace(at, marker.size(),
                   "RESULT_DIRECTORY = " +
                       nlohmann::json(std::filesystem::absolute(directory).string()).dump());
    write_file_atomically(directory + "/view.py", script);
  }
  if (!args.flag("--no-plots")) {
    const std::string command = "/usr/bin/python3 '" + (source / "scripts" / "plots.py").string() +
                                "' '" + directory + "' --title '" + c.name + "' > /dev/null";
    if (std::system(command.c_str()) != 0)
      std::cerr << "rebound pair: warning: plots were not drawn (" << command << ")\n";
  }
  if (!quiet) {
    std::cout
        << "\n"
        << report << "\nOpen in ParaView: paraview --script=" << directory
        << "/view.py\n(on Debian 12 without python3-paraview: scripts/paraview-python.sh --gui "
        << directory << "/view.py; docs/PARAVIEW.md)\n";
  }
  return 0;
}

}  // namespace rebound::app
