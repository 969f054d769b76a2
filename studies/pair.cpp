#include "studies/pair.h"

#include <deal.II/base/mpi.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "observables/files.h"
#include "observables/output_folder.h"
#include "studies/comparison.h"
#include "studies/plots.h"

namespace rebound::studies {
namespace {

// The ParaView state of a pair folder: scripts/paraview_view.py with the folder written in
// (ParaView's GUI runs `--script` files without __file__).
void write_view_script(const std::string& directory) {
  const std::filesystem::path source(REBOUND_SOURCE_DIR);
  const std::filesystem::path template_path = source / "scripts" / "paraview_view.py";
  std::ifstream in(template_path);
  std::stringstream text;
  text << in.rdbuf();
  std::string script = text.str();
  const std::string marker = "RESULT_DIRECTORY = None";
  const auto at = script.find(marker);
  if (!in || at == std::string::npos)
    throw observables::FileError("cannot read the view script template " + template_path.string());
  script.replace(
      at, marker.size(),
      "RESULT_DIRECTORY = " + nlohmann::json(std::filesystem::absolute(directory).string()).dump());
  observables::write_file_atomically(directory + "/view.py", script);
}

}  // namespace

PairResult run_pair(const cases::Case& c, const std::string& directory,
                    const PairOptions& options) {
  const bool root = is_root_rank();
  const auto say = [&](const std::string& text) {
    if (root && options.report) options.report(text);
  };
  PairResult pair;
  // The pair owns DIR: the comparison files of an earlier pair, and its lumped folders, are
  // removed before the FEM starts, so that a failed or interrupted pair leaves only its fem/.
  std::optional<observables::OutputFolder> folder;
  std::string problem;
  if (root) {
    try {
      for (const char* member : {"/lumped", "/lumped-exact"})
        observables::OutputFolder(directory + member, lumped_output_patterns(), "rebound pair");
      folder.emplace(directory,
                     std::vector<std::string>{"comparison.json", "report.md", "view.py",
                                              "plots/*.png", "*.tmp.*"},
                     "rebound pair of " + c.name + " (" + c.source + ")");
    } catch (const std::exception& error) {
      problem = error.what();
    }
  }
  if (dealii::Utilities::MPI::max(int(!problem.empty()), MPI_COMM_WORLD) != 0)
    throw observables::FolderBusy(problem.empty() ? directory + ": rank 0 could not take the folder"
                                                  : problem);
  say(format("[1/3] FEM of %s\n", c.name.c_str()));
  pair.fem =
      run_fem_into(c, directory + "/fem", options.extra_levels, c.fem.frames, options.fem_progress);
  pair.status = pair.fem.result.status;
  pair.message = pair.fem.result.message;
  if (root && options.fem_finished) options.fem_finished(pair.fem);
  if (pair.status != "completed" || !root) {
    if (root) folder->finish(pair.status);
    return pair;
  }

  // The lumped model on the mesh's own mass distribution (the case's lambda/theta overrides are
  // dropped: the point of the pair is the same body both ways).
  const cases::Case paired = cases::without_lumped_overrides(c);
  const cases::Derived mesh_derived =
      cases::derive(paired, pair.fem.result.info.mesh_mass_properties);
  say(format("[2/3] lumped model (%s) with the mesh's lambda = %.6g, theta = %.6g, m = %.6g kg\n",
             c.lumped.model.c_str(), mesh_derived.lambda, mesh_derived.theta,
             mesh_derived.effective_mass));
  pair.lumped = solve_lumped_into(paired, mesh_derived, directory + "/lumped", c.lumped.frames);
  pair.lumped_exact =
      solve_lumped_into(paired, cases::derive(paired), directory + "/lumped-exact", 0);

  say("[3/3] comparison\n");
  pair.comparison = compare({"lumped", pair.lumped.summary, pair.lumped.history},
                            {"fem", pair.fem.quantities, pair.fem.history});
  pair.comparison["case"] = c.name;
  pair.comparison["geometry"] =
      compare({"exact", pair.lumped_exact.summary, pair.lumped_exact.history},
              {"mesh", pair.lumped.summary, pair.lumped.history})["summary"];
  observables::write_file_atomically(directory + "/comparison.json",
                                     pair.comparison.dump(2) + "\n");
  std::string& report = pair.report;
  report = report_markdown(pair.comparison, "rebound pair: " + c.name);
  report +=
      "\nThe lumped model uses the FEM mesh's own lambda, theta and mass. With the exact "
      "geometry instead:\n\n| quantity | exact geometry | mesh | difference |\n|---|---|---|---|\n";
  for (const char* key : {"lambda", "theta", "psi2", "e_newton", "normal_impulse",
                          "tangential_impulse", "contact_duration"}) {
    if (!pair.comparison["geometry"].contains(key)) continue;
    const auto& row = pair.comparison["geometry"][key];
    report += format("| %s | %.6g | %.6g | %+.3g |\n", key, row["exact"].get<double>(),
                     row["mesh"].get<double>(), row["difference"].get<double>());
  }
  report +=
      "\nFiles: fem/solution.pvd (FEM fields), lumped/rigid_body.pvd (lumped rigid body), "
      "view.py (ParaView state), plots/*.png.\n";
  observables::write_file_atomically(directory + "/report.md", report);
  write_view_script(directory);
  if (options.plots)
    run_plots_script("'" + directory + "' --title '" + c.name + "'", "pair", options.warning);
  folder->finish(pair.status);
  return pair;
}

}  // namespace rebound::studies
