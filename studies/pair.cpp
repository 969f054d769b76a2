#include "studies/pair.h"

#include <deal.II/base/mpi.h>

#include <chrono>
#include <cmath>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include "cases/json_numbers.h"
#include "observables/files.h"
#include "observables/output_folder.h"
#include "observables/provenance.h"
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

// What the FEM run was: degree, size, time step, cost and energy balance, and whether its mesh is
// a quick one (below the case's default resolution) or the default, neither proven converged.
std::string fem_run_markdown(const nlohmann::json& s, const cases::Case& c) {
  auto number = [&s](const char* key, const char* pattern) {
    const double value = cases::number_or_nan(s, key);
    return std::isfinite(value) ? format(pattern, value) : std::string("—");
  };
  const double h_contact =
      s.contains("mesh") ? cases::number_or_nan(s["mesh"], "h_contact") : std::nan("");
  const double a_max =
      s.contains("hertz") ? cases::number_or_nan(s["hertz"], "contact_radius") : std::nan("");
  std::string out = "\n## The FEM run\n\n| | |\n|---|---|\n";
  out += "| degree p | " + number("degree", "%.0f") + " |\n";
  out += "| dofs / cells | " + number("dofs", "%.0f") + " / " + number("cells", "%.0f") + " |\n";
  out += "| h_contact / a_max | " +
         (std::isfinite(h_contact / a_max) ? format("%.3g", h_contact / a_max) : "—") + " |\n";
  out += "| time step / steps | " + number("time_step", "%.4g s") + " / " +
         number("steps", "%.0f") + " |\n";
  out += "| wall time | " + number("wall_time", "%.1f s") + " on " + number("mpi_ranks", "%.0f") +
         " MPI rank(s) |\n";
  out += "| energy balance error | " + number("energy_balance_error", "%.2e") + " |\n";
  out += "| status | " + (s.contains("status") ? s["status"].get<std::string>() : "—") + " |\n";
  const cases::FemOptions defaults;
  const bool below_default = c.fem.refinement < defaults.refinement ||
                             c.fem.contact_resolution < defaults.contact_resolution ||
                             c.fem.degree < defaults.degree;
  out += "\n" +
         std::string(below_default
                         ? "This mesh is coarser than the default resolution (a quick mesh): its "
                           "numbers show the method, not converged values. "
                         : "") +
         "A single FEM resolution is not a converged answer: `rebound refine` measures the "
         "observed order and a Richardson value with its error.\n";
  return out;
}

// The pair after a completed FEM run, on rank 0: the lumped solves, the comparison, report and
// plots. pair.status becomes "interrupted" when a signal stops it (its message says what is kept).
void lumped_and_comparison(const cases::Case& c, const std::string& directory,
                           const PairOptions& options, PairResult& pair,
                           observables::OutputFolder& folder) {
  const auto say = [&](const std::string& text) {
    if (options.report) options.report(text);
  };
  const auto interrupted = [&](const std::string& message) {
    pair.status = "interrupted";
    pair.message = message;
    folder.finish(pair.status);
  };
  // A signal after the FEM run's last check: the run is complete, nothing else starts.
  if (StopOnSignal::requested()) {
    interrupted("interrupted after the FEM run; no comparison written, fem/ kept");
    return;
  }

  // The lumped model on the mesh's own mass distribution (the case's lambda/theta overrides are
  // dropped: the point of the pair is the same body both ways).
  const cases::Case paired = cases::without_lumped_overrides(c);
  const cases::Derived mesh_derived =
      cases::derive(paired, pair.fem.result.info.mesh_mass_properties);
  say(format("[2/3] lumped model (%s) with the mesh's lambda = %.6g, theta = %.6g, m = %.6g kg\n",
             c.lumped.model.c_str(), mesh_derived.lambda, mesh_derived.theta,
             mesh_derived.effective_mass));
  lumped::SolveControl control;  // the half-space and MDR solves take seconds: stoppable
  control.stop = StopOnSignal::flag();
  const char* kept = "fem/";
  try {
    pair.lumped = solve_lumped_into(paired, mesh_derived, directory + "/lumped", c.lumped.frames,
                                    false, control);
    kept = "fem/ and lumped/";
    pair.lumped_exact = solve_lumped_into(paired, cases::derive(paired),
                                          directory + "/lumped-exact", 0, false, control);
  } catch (const lumped::Interrupted& stop) {
    interrupted("lumped model " + std::string(stop.what()) + "; no comparison written, " + kept +
                " kept");
    return;
  }
  if (StopOnSignal::requested()) {
    interrupted(
        "interrupted after the lumped solves; no comparison written, fem/ and lumped/ kept");
    return;
  }

  say("[3/3] comparison\n");
  // The FEM summary's lambda and theta are the case's exact geometry (its lambda_mesh and
  // theta_mesh the mesh's); the lumped model ran on the mesh's, so the mesh's are compared: the
  // same body both ways, not the mesh's error in lambda as a model difference.
  observables::Summary fem_body = pair.fem.quantities;
  fem_body.quantities.lambda = pair.fem.result.info.lambda_mesh;
  fem_body.quantities.theta = pair.fem.result.info.theta_mesh;
  pair.comparison = compare({"lumped", pair.lumped.summary, pair.lumped.history},
                            {"fem", fem_body, pair.fem.history});
  pair.comparison["case"] = c.name;
  pair.comparison["provenance"] = observables::provenance(c);
  pair.comparison["provenance"]["mpi_ranks"] = pair.fem.result.info.ranks;
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
  report += fem_run_markdown(pair.fem.summary, c);
  report += "\n## Warnings\n\n";
  std::vector<std::string> warnings;
  for (const auto& w : pair.fem.quantities.warnings) warnings.push_back("FEM: " + w);
  for (const auto& w : pair.lumped.summary.warnings) warnings.push_back("lumped: " + w);
  if (warnings.empty()) report += "None.\n";
  for (const auto& w : warnings) report += "- " + w + "\n";
  if (options.plots)
    report +=
        "\n## Plots\n\n![normal force](plots/normal_force.png)\n\n"
        "![tangential force](plots/tangential_force.png)\n\n"
        "![impulse path](plots/impulse_path.png)\n\n"
        "![tangential velocity of P](plots/tangential_velocity.png)\n\n"
        "![FEM energy budget](plots/energy_budget.png)\n";
  report +=
      "\nFiles: fem/solution.pvd (FEM fields), lumped/rigid_body.pvd (lumped rigid body), "
      "view.py (ParaView state), plots/*.png.\n\n## Origin of these results\n\n" +
      observables::provenance_markdown(pair.comparison["provenance"]);
  observables::write_file_atomically(directory + "/report.md", report);
  write_view_script(directory);
  if (options.plots)
    run_plots_script("'" + directory + "' --title '" + c.name + "'", "pair", options.warning);
  // Ctrl-C while the comparison was written or the plots drawn (the plotting process gets it too).
  if (StopOnSignal::requested()) {
    interrupted(
        "interrupted after the comparison; comparison.json and report.md are complete, plots may "
        "be missing");
    return;
  }
  folder.finish(pair.status);
}

// Rank 0's status and message to every rank. The other ranks wait here, not in MPI_Finalize:
// while they waited there (Open MPI 4.1), their SIGTERM handler was gone (/proc/PID/status SigCgt),
// so mpirun's SIGTERM on Ctrl-C killed them and mpirun then killed rank 0 before it could stop its
// lumped solve cleanly (measured: message and manifests lost). The wait polls every 10 ms instead
// of spinning on a core rank 0 and the plots need.
void share_outcome(PairResult& pair) {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised || dealii::Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD) == 1) return;
  const auto wait = [](MPI_Request& request) {
    for (int done = 0; MPI_Test(&request, &done, MPI_STATUS_IGNORE), !done;)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  };
  std::string text = pair.status + '\n' + pair.message;
  unsigned long long size = text.size();
  MPI_Request request;
  MPI_Ibcast(&size, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD, &request);
  wait(request);
  text.resize(size);
  MPI_Ibcast(text.data(), int(size), MPI_CHAR, 0, MPI_COMM_WORLD, &request);
  wait(request);
  const std::size_t newline = text.find('\n');
  pair.status = text.substr(0, newline);
  pair.message = text.substr(newline + 1);
}

}  // namespace

PairResult run_pair(const cases::Case& c, const std::string& directory,
                    const PairOptions& options) {
  cases::require_lumped_target(c);  // a plate: no lumped model to pair the FEM with
  const bool root = is_root_rank();
  const auto say = [&](const std::string& text) {
    if (root && options.report) options.report(text);
  };
  PairResult pair;
  // Ctrl-C or SIGTERM: during the FEM run it ends the run ("interrupted" at its next check), during
  // the lumped solves at their next check; either way nothing after it is written.
  const StudySignals signals;
  // The pair owns DIR: the comparison files of an earlier pair, and its lumped folders, are
  // removed before the FEM starts, so that a failed or interrupted pair leaves only its fem/.
  std::optional<observables::OutputFolder> folder = take_output_folder(
      directory,
      {"comparison.json", "report.md", "view.py", "plots/normal_force.png",
       "plots/tangential_force.png", "plots/impulse_path.png", "plots/tangential_velocity.png",
       "plots/energy_budget.png", "*.tmp.*"},
      "rebound pair of " + c.name + " (" + c.source + ")", [&] {
        for (const char* member : {"/lumped", "/lumped-exact"})
          observables::OutputFolder(directory + member, lumped_output_patterns(), "rebound pair");
      });
  say(format("[1/3] FEM of %s\n", c.name.c_str()));
  pair.fem =
      run_fem_into(c, directory + "/fem", options.extra_levels, c.fem.frames, options.fem_progress);
  pair.status = pair.fem.result.status;
  pair.message = pair.fem.result.message;
  if (root && options.fem_finished) options.fem_finished(pair.fem);
  if (pair.status != "completed") {  // every rank knows: the run is collective
    pair.message =
        "FEM " + pair.status + ": " + pair.message + "; no comparison written, fem/ kept";
    if (root) folder->finish(pair.status);
    return pair;
  }
  // An error on rank 0 (a file it cannot write) reaches the other ranks as "failed" before it is
  // thrown there: nobody waits for a rank that has left.
  std::exception_ptr error;
  if (root) {
    try {
      lumped_and_comparison(c, directory, options, pair, *folder);
    } catch (const std::exception& e) {
      error = std::current_exception();
      pair.status = "failed";
      pair.message = e.what();
    }
  }
  share_outcome(pair);
  if (error) std::rethrow_exception(error);
  return pair;
}

}  // namespace rebound::studies
