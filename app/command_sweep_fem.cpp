// rebound sweep --fem K (rebound-fem only; the light `rebound` hands it over): the lumped sweep of
// app/command_sweep.cpp, then the FEM at K of its points (studies/fem_sweep.h), also under mpirun.
#include <deal.II/base/mpi.h>

#include <filesystem>
#include <iostream>
#include <optional>

#include "app/commands.h"
#include "app/mpi_session.h"
#include "app/sweep.h"
#include "studies/fem_run.h"
#include "studies/fem_sweep.h"

namespace rebound::app {

int command_sweep_fem(const std::vector<std::string>&, const Arguments& args, Verbose& verbose) {
  const SweepCommand s = read_sweep(args, verbose, true);
  studies::FemSweepOptions fem_options;
  fem_options.count = *args.integer("--fem", 0, s.range.count);
  fem_options.level = args.integer("--level", 0, 6).value_or(0);
  fem_options.frames = args.integer("--frames", 0, 100000).value_or(0);
  fem_options.resume = args.flag("--resume");
  if (!s.quiet) fem_options.report = print_progress;
  fem_options.directory = s.directory;
  for (const int i : studies::fem_sweep_indices(s.range.count, fem_options.count))
    studies::check_meshable(lumped::case_at(s.base, s.range.variable, s.range.value(i)),
                            fem_options.level);
  const std::optional<std::string> reference = args.option("--reference");
  if (reference) studies::check_reference_points(*reference);
  const MpiSession mpi;
  const bool root = mpi.root();
  verbose.set_root(root);
  // sweep_fem.csv and sweep_fem/ are the FEM study's, kept for --resume; a sweep_fem.csv of
  // another case is refused first (exit 2, nothing touched).
  studies::check_fem_sweep_resume(s.base, s.range, fem_options);
  std::optional<observables::OutputFolder> folder = studies::take_output_folder(
      s.directory, studies::sweep_file_patterns(), s.holder, {}, "sweep");
  std::vector<lumped::ModelSweep> sweeps;
  int status = run_lumped_sweep(s, verbose, root, folder, sweeps, [](bool stop) {
    return dealii::Utilities::MPI::max(int(stop), MPI_COMM_WORLD) != 0;
  });
  if (status == 130) return status;
  if (fem_options.count > 0) {
    // The FEM points once, whatever the models; their lines show the first model's Psi2.
    const studies::FemSweepResult points =
        studies::run_fem_sweep(s.base, s.range, sweeps.front().rows, fem_options);
    verbose.stage("FEM runs at " + std::to_string(points.total) + " points");
    if (points.interrupted) {
      if (root)
        std::cerr << "rebound sweep: interrupted; " << points.finished << " of " << points.total
                  << " FEM runs are in " << points.path << " (rerun with --resume to continue)\n";
      if (folder) folder->finish("interrupted");
      return 130;
    }
    if (points.failed > 0) {
      if (root)
        std::cerr << "rebound sweep: " << points.failed << " of " << points.total
                  << " FEM runs failed (see the status and error columns of " << points.path
                  << ")\n";
      status = 1;
    }
  }
  std::vector<std::string> extra;
  if (reference) extra = {"--reference", *reference};
  return finish_sweep(s, verbose, root, folder, status, extra,
                      (std::filesystem::path(s.directory) / "sweep_fem.csv").string());
}

}  // namespace rebound::app
