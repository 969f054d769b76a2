// The mesh-refinement study of `rebound refine`: the FEM at every requested (level,
// fem.refinement, contact resolution), the observed order of convergence and the Richardson
// value of every quantity along each series (studies/convergence.h), with the lumped model and
// Hertz as references. Resumable (studies/run_table.h) and interruptible (SIGINT/SIGTERM).
//
// run_refinement_study() writes DIR/refinement.csv after each finished run and
// DIR/refinement.json at the end, and returns the rows and the analysis. MPI must be initialised
// by the caller; the study is collective and only rank 0 writes files and reports.
#pragma once

#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cases/case.h"
#include "observables/history.h"
#include "studies/convergence.h"
#include "studies/progress.h"

namespace rebound::studies {

// ---- The refinement study ------------------------------------------------------------------

// The quantities recorded and analysed (summary.json keys of the FEM and the lumped models).
const std::vector<std::string>& refinement_quantities();

// The runs are every combination of the three lists (cheapest first). A series is the runs along
// one list with the other two fixed; its cell size h is h_contact (the largest cell within a_max
// of P) for levels and contact resolutions, h_max (the largest cell) for fem.refinement, which
// refines the mesh away from the contact zone only.
struct RefinementOptions {
  std::vector<int> levels;                  // extra uniform refinements (`rebound fem --level`);
                                            // empty: {0}
  std::vector<int> refinements;             // fem.refinement values; empty: the case's
  std::vector<double> contact_resolutions;  // fem.contact_resolution values; empty: the case's
  std::string directory;                    // refinement.csv/json, refine/<run>/, plots/
  // Reuse the rows of DIR/refinement.csv with the same case, level, refinement, resolution.
  bool resume = false;
  int frames = 0;  // VTK frames per run (0: summary.json and history.csv only)
  Report report;   // progress lines (rank 0); empty: silent
};

struct RefinementRun {
  int level = 0;       // extra uniform refinements
  int refinement = 0;  // fem.refinement
  double contact_resolution = 0;
  std::string status;   // "completed" or "failed" (a run interrupted is not recorded)
  std::string message;  // why it failed
  bool reused = false;  // taken from an existing refinement.csv (--resume)
  std::string directory;
  double dofs = NAN, cells = NAN, h_contact = NAN, h_max = NAN, time_step = NAN, steps = NAN;
  double wall_time = NAN;
  double energy_balance_error = NAN;
  std::map<std::string, double> values;  // refinement_quantities() -> value (NaN: null)
  // The run's summary.json and history, in memory for the runs made by this study (empty for
  // the reused ones, whose files are in `directory`).
  nlohmann::json summary;
  observables::History history;
};

struct RefinementSeries {
  std::string varied;               // "level", "refinement" or "contact_resolution"
  std::string h_measure;            // "h_contact" or "h_max" (refinement series)
  int level = -1, refinement = -1;  // the fixed values (-1 for the varied one)
  double contact_resolution = 0;    // the fixed value (0 when varied)
  std::vector<std::size_t> runs;    // indices into RefinementStudy::runs, coarse to fine
  std::map<std::string, Convergence> convergence;  // per quantity, from the completed runs
};

struct RefinementStudy {
  std::string case_name, case_hash;
  std::vector<RefinementRun> runs;  // the requested runs, in the order run
  std::vector<RefinementSeries> series;
  std::map<std::string, double> lumped;  // the case's lumped model (exact geometry)
  std::map<std::string, double> hertz;   // analytic Hertz values (normal frictionless impacts)
  std::string lumped_model, lumped_error;
  bool interrupted = false;  // Ctrl-C / SIGTERM: unfinished runs were not recorded
  int failed = 0;            // runs with status "failed"
  nlohmann::json json;       // refinement.json
};

// Runs the study (see the top of this file). Throws StudyInputError for bad options or a
// refinement.csv of another case under `resume`, cases::CaseError when the case cannot be meshed.
RefinementStudy run_refinement_study(const cases::Case& c, const RefinementOptions& options);
// With options.resume, throws StudyInputError (exit 2) when DIR/refinement.csv holds runs of
// another case description or table, as the study would, but before anything is written.
void check_refinement_resume(const cases::Case& c, const RefinementOptions& options);

// DIR/plots/refinement_<quantity>.png from DIR/refinement.json (scripts/plots.py --mode
// refinement); false, after reporting why, when they could not be drawn.
bool draw_refinement_plots(const std::string& directory, const std::string& title,
                           const Report& report);

// The study as a screen table: one row per run (level, refinement, resolution, dofs, h, step,
// wall time, the quantities, status) and, per series, each quantity's finest value, observed
// order, Richardson value and error estimate beside the lumped model's and Hertz's.
std::string refinement_table(const RefinementStudy& study);
// `rebound refine -v`'s line per run: level, refinement, resolution, status, dofs, cells, steps,
// wall time.
std::string refinement_runs_text(const RefinementStudy& study);

}  // namespace rebound::studies
