// The lumped sweep study of `rebound sweep`: one variable of a case (Psi1, incidence, friction)
// over a range, for one or several lumped models, on all cores; sweep.csv, the screen table, the
// JSON rows and the arguments of its plots. The FEM points of `--fem K` are studies/fem_sweep.h.
// Nothing here prints: the command line prints what these return.
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cases/case.h"
#include "lumped/sweep.h"
#include "studies/progress.h"

namespace rebound::studies {

// The swept models by name, each with its case.
using SweepModels = std::vector<std::pair<std::string, cases::Case>>;

// The case of each model (the base's own without names), validated as a case file is, and both
// ends of the range checked for every model before anything runs (cases::CaseError: bad input).
// `seed` (`--seed S`, an integer in [0, 2^53 - 1]) replaces lumped.seed of a case whose
// restitution is a random table (StudyInputError naming the option otherwise).
SweepModels sweep_models(const cases::Case& base, const std::vector<std::string>& names,
                         const lumped::SweepRange& range,
                         const std::optional<std::string>& seed = std::nullopt);
// "lai,mdr": the models' names, comma-separated.
std::string model_list(const SweepModels& models);

// The progress line of the lumped points: `due` says whether a line for this share done (in
// [0, 1]) is to be shown now, `show` shows it (both empty: silent); `model_solved` is called with
// each model's name once its points are solved.
struct SweepProgress {
  std::function<bool(double fraction)> due;
  Report show;
  std::function<void(const std::string& model)> model_solved;
};

// Solves every model's points, one model after the other (StopOnSignal: the caller holds the
// handlers; a stop ends the model under way and starts no other, its unfinished rows empty).
std::vector<lumped::ModelSweep> run_lumped_sweeps(const SweepModels& models,
                                                  const lumped::SweepRange& range, int threads,
                                                  const SweepProgress& progress);
// The points solved (finished or failed) and the points that failed.
std::size_t solved_points(const std::vector<lumped::ModelSweep>& sweeps);
int failed_points(const std::vector<lumped::ModelSweep>& sweeps);

// The files of DIR the sweep owns while it writes (observables::OutputFolder patterns).
const std::vector<std::string>& sweep_file_patterns();
// DIR/sweep.csv written atomically; its path.
std::string write_sweep_csv(const std::string& directory, const lumped::SweepRange& range,
                            const std::vector<lumped::ModelSweep>& sweeps);

// The percentiles (in %) of `values`, linearly interpolated between the sorted values (numpy's
// default): NaN when there are none.
std::vector<double> percentiles(std::vector<double> values, const std::vector<double>& levels);

// The screen table: a line naming the sweep, per model at most 25 evenly spread rows (the
// incidence in degrees), and where sweep.csv went; for --samples, per model the drawn R and the
// rebound quantities' mean, standard deviation and 5/25/50/75/95th percentiles.
std::string sweep_table(const cases::Case& base, const lumped::SweepRange& range,
                        const std::vector<lumped::ModelSweep>& sweeps, int threads,
                        const std::string& csv_path);
// The rows of sweep.csv as JSON for scripts (`--json`): the swept value (rad for angles) and the
// summary scalars (null where undefined), the phases, the error and the model of each point.
nlohmann::json sweep_json(const cases::Case& base, const lumped::SweepRange& range,
                          const std::vector<lumped::ModelSweep>& sweeps);

// scripts/plots.py's arguments for DIR (sweep mode, the case's name as title, the gross-slip
// line when every model has one); the caller adds --reference and --no-fem.
std::vector<std::string> sweep_plot_arguments(const std::string& directory, const cases::Case& base,
                                              const SweepModels& models,
                                              const lumped::SweepRange& range);
// A --reference FILE for the plots: a CSV with a header row naming psi1,psi2 and at least one row
// of numbers (StudyInputError naming the option otherwise).
void check_reference_points(const std::string& path);

}  // namespace rebound::studies
