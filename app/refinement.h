// Studies made of many FEM runs of one case: the mesh-refinement study of `rebound refine`
// (observed order of convergence, Richardson extrapolation, lumped and Hertz references) and the
// resumable, interruptible run table it shares with `rebound sweep --fem`.
//
// run_refinement_study() is the entry point for other commands (e.g. a validation command): it
// runs the FEM at every requested (level, contact resolution), writes DIR/refinement.csv after
// each finished run and DIR/refinement.json at the end, and returns the rows and the analysis.
// MPI must be initialised by the caller (app/mpi_session.h); the study is collective and only
// rank 0 writes files and prints.
//
// The convergence arithmetic (observed_convergence) is header-only and needs no deal.II, so it
// can be tested on its own.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cases/case.h"

namespace rebound::app {

// ---- Observed order of convergence and Richardson extrapolation ----------------------------

struct Convergence {
  // "ok": order and extrapolation computed (order > 0);
  // "too few runs": fewer than three runs with a value;
  // "undefined": a value is missing (null/NaN) in the last three runs;
  // "h unchanged": h_contact did not decrease between the last three runs;
  // "unchanged": the last values agree to round-off (extrapolated = finest, error 0);
  // "oscillating": the last two differences change sign (no order);
  // "differences grow": |q2 - q3| >= |q1 - q2| scaled by the ratios (order <= 0): not (yet) in
  // the asymptotic range, no extrapolation.
  std::string status;
  double order = std::numeric_limits<double>::quiet_NaN();
  double extrapolated = std::numeric_limits<double>::quiet_NaN();    // Richardson q_R
  double error_estimate = std::numeric_limits<double>::quiet_NaN();  // |q_R - q_finest|
  double finest = std::numeric_limits<double>::quiet_NaN();          // q of the finest run
  double ratio = std::numeric_limits<double>::quiet_NaN();           // h2 / h3 (last refinement)
};

// From the values q of one quantity on meshes of sizes h, ordered coarse to fine (h decreasing),
// the last three (h1 > h2 > h3): the observed order p solving
//   (q1 - q2) / (q2 - q3) = r2^p (r1^p - 1) / (r2^p - 1),   r1 = h1/h2, r2 = h2/h3,
// which is p = log((q1 - q2)/(q2 - q3)) / log(r) for a constant ratio r, and the Richardson value
//   q_R = q3 + (q3 - q2) / (r2^p - 1)   with the error estimate |q_R - q3|.
// Differences below `noise` (absolute) or 1e-12 |q| count as zero (round-off).
inline Convergence observed_convergence(const std::vector<double>& h, const std::vector<double>& q,
                                        double noise = 0) {
  Convergence c;
  const std::size_t n = std::min(h.size(), q.size());
  if (n < 3) {
    c.status = "too few runs";
    if (n > 0) c.finest = q[n - 1];
    return c;
  }
  const double h1 = h[n - 3], h2 = h[n - 2], h3 = h[n - 1];
  const double q1 = q[n - 3], q2 = q[n - 2], q3 = q[n - 1];
  c.finest = q3;
  if (!std::isfinite(q1) || !std::isfinite(q2) || !std::isfinite(q3)) {
    c.status = "undefined";
    return c;
  }
  if (!(h1 > 0 && h2 > 0 && h3 > 0) || !(h1 > h2 * (1 + 1e-9)) || !(h2 > h3 * (1 + 1e-9))) {
    c.status = "h unchanged";
    return c;
  }
  const double r1 = h1 / h2, r2 = h2 / h3;
  c.ratio = r2;
  const double d1 = q1 - q2, d2 = q2 - q3;
  const double scale = std::max({std::abs(q1), std::abs(q2), std::abs(q3)});
  const double round_off = std::max(1e-12 * scale, noise);
  if (scale == 0 || std::abs(d2) <= round_off) {
    c.status = "unchanged";
    c.extrapolated = q3;
    c.error_estimate = std::abs(d2);
    return c;
  }
  if (std::abs(d1) <= round_off || d1 / d2 < 0) {
    c.status = "oscillating";
    return c;
  }
  const double ratio = d1 / d2;
  // g(p) = r2^p (r1^p - 1) / (r2^p - 1): increasing, g(0) = ln r1 / ln r2, g(-inf) = 0.
  const auto g = [&](double p) {
    return std::pow(r2, p) * (std::pow(r1, p) - 1) / (std::pow(r2, p) - 1);
  };
  double p = std::numeric_limits<double>::quiet_NaN();
  if (std::abs(r1 / r2 - 1) < 1e-6) {
    p = std::log(ratio) / std::log(r2);
  } else {
    const double g0 = std::log(r1) / std::log(r2);
    double lo = ratio > g0 ? 1e-9 : -30.0, hi = ratio > g0 ? 30.0 : -1e-9;
    if ((g(lo) - ratio) * (g(hi) - ratio) <= 0) {
      for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        ((g(mid) - ratio) * (g(lo) - ratio) <= 0 ? hi : lo) = mid;
      }
      p = 0.5 * (lo + hi);
    } else {
      p = ratio > g0 ? 30.0 : -30.0;  // beyond the bracket: reported as such
    }
  }
  c.order = p;
  if (!(p > 0)) {
    c.status = "differences grow";
    return c;
  }
  c.status = "ok";
  c.extrapolated = q3 - d2 / (std::pow(r2, p) - 1);
  c.error_estimate = std::abs(c.extrapolated - q3);
  return c;
}

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
  bool quiet = false;  // no progress lines
  int frames = 0;      // VTK frames per run (0: summary.json and history.csv only)
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

// Runs the study (see the top of this file). Throws UsageError for bad options or a refinement.csv
// of another case under `resume`, cases::CaseError when the case cannot be meshed.
RefinementStudy run_refinement_study(const cases::Case& c, const RefinementOptions& options);

// The tables printed by `rebound refine`: the runs, then the convergence of every series.
void print_refinement_study(const RefinementStudy& study);

// ---- Building blocks shared with `rebound sweep --fem` -------------------------------------

// While alive: SIGINT and SIGTERM between FEM runs request a stop (during a run, run_fem_into
// ends the run with status "interrupted"; run_study_fem then requests the stop).
// stop_requested() is collective under MPI.
class StudySignals {
 public:
  StudySignals();
  ~StudySignals();
  StudySignals(const StudySignals&) = delete;
  StudySignals& operator=(const StudySignals&) = delete;
  bool stop_requested() const;
  static void request_stop();  // as if a signal arrived (used when a run reports "interrupted")
};

// One FEM run of a study: run_fem_into without its per-run screen output. status "completed",
// "failed" (numerical failure or an exception; message says why) or "interrupted".
struct StudyFemRun {
  std::string status, message;
  nlohmann::json summary;  // summary.json (null when the run threw)
};
StudyFemRun run_study_fem(const cases::Case& c, const std::string& directory, int level,
                          int frames);

// A stable fingerprint (16 hex digits) of a case description, without its free-text description:
// rows of a resumable CSV are reused only for the same fingerprint.
std::string case_fingerprint(const cases::Case& c);

// A CSV of text cells with a header row (no quoting: cells never hold commas or newlines).
struct TextTable {
  std::vector<std::string> columns;
  std::vector<std::map<std::string, std::string>> rows;
};
TextTable read_text_csv(const std::string& path);  // empty when the file does not exist
std::string text_csv(const TextTable& table);
std::string csv_number(double value);    // "%.10g", empty when not finite
std::string csv_text(std::string text);  // commas, quotes and newlines replaced by spaces
double csv_value(const std::map<std::string, std::string>& row, const std::string& column);
bool csv_equals(const std::string& cell, double value);  // same number to 1e-9 (relative)

// Throws cases::CaseError (exit 2) when the FEM cannot mesh the case's body.
void check_meshable(const cases::Case& c, int extra_levels);

// Runs /usr/bin/python3 scripts/plots.py with the arguments (already quoted for the shell);
// false, after a warning naming `command`, when it fails.
bool run_plots_script(const std::string& arguments, const std::string& command);

// DIR/plots/refinement_<quantity>.png from DIR/refinement.json (plots.py --mode refinement).
bool draw_refinement_plots(const std::string& directory, const std::string& title);

// True on MPI rank 0.
bool is_root_rank();

}  // namespace rebound::app
