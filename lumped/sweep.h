// Parameter sweeps of a lumped model over Psi1, incidence angle or friction, on all cores.
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cases/case.h"
#include "lumped/random_restitution.h"

namespace rebound::lumped {

// `sample`: the case itself at every point, impact number `value` of lumped.seed's draws (the
// Monte Carlo of a random restitution table, `rebound sweep --samples N`; Michalczyk 2008,
// sec. 4).
enum class SweepVariable { psi1, incidence_angle, friction, sample };

struct SweepRange {
  SweepVariable variable = SweepVariable::psi1;
  double start = 0, stop = 0;
  int count = 0;
  double value(int i) const {
    return count == 1 ? start : start + (stop - start) * i / (count - 1);
  }
};
// START:STOP:COUNT (COUNT an integer in [1, 10^7]); std::invalid_argument saying what is
// expected otherwise.
SweepRange parse_sweep_range(const std::string& text);
// The N samples 0, 1, ..., N - 1 (N in [1, 10^7]) of a Monte Carlo sweep.
SweepRange sample_range(long samples);

// The case with the swept variable set to `value` (the approach speed |v_P| is kept for the
// incidence sweep, the normal speed for the Psi1 sweep, the velocity for the friction sweep; a
// sample leaves the case as it is). Throws cases::CaseError when the value is outside the case's
// valid range (a sample: not an integer >= 0, or a case without a random restitution table).
cases::Case case_at(const cases::Case& base, SweepVariable variable, double value);
// The same, in place on a copy the caller owns (the swept fields are overwritten).
void set_swept_value(cases::Case& c, const cases::Case& base, SweepVariable variable, double value);

// One point of a sweep: the summary scalars (summary_scalar_keys() order), the stick/slip
// sequence and the non-dimensional impulses; `error` is set when the point failed.
struct SweepPoint {
  double value = 0;
  std::vector<double> scalars;
  std::string phases;  // e.g. "slip-stick-slip"
  double gamma_t = 0, gamma_n = 0;
  std::string error;
  // The restitution of the point's impact when the case's lumped.restitution is a table (and its
  // model takes it): impact `value` of the seed for a sample sweep, the point's index otherwise.
  std::optional<RestitutionDraw> draw;
  // A free target (target.type "sphere"): its centre velocity (t, n) and spin after the impact, in
  // the columns kFreeTargetColumns (m/s, m/s, rad/s); empty for a fixed target.
  std::optional<std::array<double, 3>> free_target;
};

// The columns a sweep of a case with a free target adds (sweep.csv, sweep_fem.csv, --json, the
// Python module's sweep): summary.json's target_center_velocity_final (t, n) and
// target_spin_final.
inline constexpr std::array<const char*, 3> kFreeTargetColumns = {
    {"target_center_velocity_final_t", "target_center_velocity_final_n", "target_spin_final"}};

// The most worker threads a sweep takes (`rebound sweep --threads N`, rebound.sweep's threads).
constexpr int kMaxSweepThreads = 256;

// Solves every point with `threads` worker threads, in order. When `stop` is given and becomes
// true (a signal), the workers take no new point and the points being solved end at their next
// check (SolveControl): the rows not finished keep an empty `scalars` and `error`. `progress`,
// when given, is called (from the worker threads, one call at a time) with the points done: those
// finished plus, for the models that report it (the half-space, MDR and Euler solves), the share
// of each point being solved (its contact time over Hertz's duration, at most 0.99, reported in
// steps of 0.01); an integer after each point.
std::vector<SweepPoint> run_sweep(const cases::Case& base, const SweepRange& range, int threads,
                                  const std::atomic<bool>* stop = nullptr,
                                  const std::function<void(double points_done)>& progress = {});
// The same at given values of the variable (any order, any spacing; the Python module's sweep):
// row i is values[i], solved exactly as the range's point of that value.
std::vector<SweepPoint> run_sweep(const cases::Case& base, SweepVariable variable,
                                  const std::vector<double>& values, int threads,
                                  const std::atomic<bool>* stop = nullptr,
                                  const std::function<void(double points_done)>& progress = {});

// The model names of a sweep over several models (`rebound sweep --models`, rebound.sweep's
// models=): every lumped.model (cases::lumped_model_names()) and "halfspace-beta0", the half-space
// model with lumped.dundurs_coupling false (Dundurs' beta = 0, as Maw and the MDR assume).
const std::vector<std::string>& sweep_model_names();
// The case with its lumped model set to `model` (one of sweep_model_names()) and validated again
// as a case file is (cases::CaseError naming the key, e.g. a normal law the MDR bed lacks). The
// options of other models (cases::kModelOptions: springs, cells, ...) are dropped from the
// lumped section, and "halfspace" has the Dundurs coupling whatever the base says (the names tell
// it). Throws std::invalid_argument listing sweep_model_names() for an unknown name.
cases::Case case_with_model(const cases::Case& base, const std::string& model);
// The name in sweep_model_names() of a case's own model: lumped.model, or halfspace-beta0 for
// the half-space model without the Dundurs coupling (case_with_model(c, model_name(c)) is c).
std::string model_name(const cases::Case& c);
// Splits a comma-separated list ("lai,mdr,halfspace-beta0") into model names; throws
// std::invalid_argument naming an unknown or repeated one with the list of known names.
std::vector<std::string> parse_model_list(const std::string& list);

// One model's rows of a sweep over several models.
struct ModelSweep {
  std::string model;  // as named in sweep_model_names()
  std::vector<SweepPoint> rows;
};

// sweep.csv: the swept value then summary_scalar_keys(), phases, error and model (last, so that
// the columns of the files written before it keep their places); the header names carry their
// units (observables::csv_column: sweep_incidence_angle_rad, spin_final_rad_per_s, ...). One
// block of rows per model, in the order given. When a row has a restitution draw (a table in
// Phi), four columns follow the model: energy_flux_density_J_per_m3, restitution_mean,
// restitution_std and restitution (the R of that impact).
std::string sweep_csv(const SweepRange& range, const std::vector<ModelSweep>& sweeps);

const char* to_string(SweepVariable variable);

}  // namespace rebound::lumped
