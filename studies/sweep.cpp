#include "studies/sweep.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

#include "cases/derived.h"
#include "cases/format.h"
#include "lumped/solve.h"
#include "lumped/summary.h"
#include "observables/files.h"
#include "observables/history.h"
#include "observables/quantities.h"
#include "studies/errors.h"
#include "studies/run_table.h"
#include "studies/stop.h"

namespace rebound::studies {

SweepModels sweep_models(const cases::Case& base, const std::vector<std::string>& names,
                         const lumped::SweepRange& range) {
  SweepModels models;
  if (names.empty()) models.emplace_back(lumped::model_name(base), base);
  for (const std::string& name : names)
    models.emplace_back(name, lumped::case_with_model(base, name));
  // Both ends validated before running (bad ranges are bad input, exit 2).
  for (const auto& [name, c] : models) {
    lumped::case_at(c, range.variable, range.start);
    lumped::case_at(c, range.variable, range.stop);
  }
  return models;
}

std::string model_list(const SweepModels& models) {
  std::string list;
  for (const auto& [name, c] : models) list += (list.empty() ? "" : ",") + name;
  return list;
}

std::vector<lumped::ModelSweep> run_lumped_sweeps(const SweepModels& models,
                                                  const lumped::SweepRange& range, int threads,
                                                  const SweepProgress& progress) {
  std::vector<lumped::ModelSweep> sweeps;
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed_seconds = [start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const int total = range.count * int(models.size());
  for (const auto& [name, c] : models) {
    const int before = range.count * int(sweeps.size());
    const std::string model = name;
    const double model_start = elapsed_seconds();
    const int points = range.count;
    std::function<void(double)> solved;
    // The models' costs differ by orders of magnitude (lai: microseconds, halfspace: seconds), so
    // the time left is the current model's, from its own rate.
    if (progress.due && progress.show)
      solved = [&progress, &elapsed_seconds, before, total, points, model,
                model_start](double done) {
        if (!progress.due((before + done) / total)) return;
        const double elapsed = elapsed_seconds();
        const std::string left =
            done > 0.05
                ? ", about " + format_duration((elapsed - model_start) / done * (points - done)) +
                      " left"
                : "";
        // "3 of 8" when whole points are done, "3.4 of 8" while some are being solved
        const std::string model_done =
            done == std::floor(done) ? format("%d", int(done)) : format("%.1f", done);
        progress.show(format("  %d of %d lumped points done (model %s: %s of %d%s), %s elapsed",
                             before + int(done), total, model.c_str(), model_done.c_str(), points,
                             left.c_str(), format_duration(elapsed).c_str()));
      };
    sweeps.push_back({name, lumped::run_sweep(c, range, threads, StopOnSignal::flag(), solved)});
    if (progress.model_solved) progress.model_solved(name);
    if (StopOnSignal::requested()) break;
  }
  return sweeps;
}

std::size_t solved_points(const std::vector<lumped::ModelSweep>& sweeps) {
  std::size_t solved = 0;
  for (const auto& sweep : sweeps)
    for (const auto& row : sweep.rows) solved += !row.scalars.empty() || !row.error.empty();
  return solved;
}

int failed_points(const std::vector<lumped::ModelSweep>& sweeps) {
  int failures = 0;
  for (const auto& sweep : sweeps)
    for (const auto& row : sweep.rows) failures += !row.error.empty();
  return failures;
}

const std::vector<std::string>& sweep_file_patterns() {
  static const std::vector<std::string> patterns = {"sweep.csv",
                                                    "plots/psi2_vs_psi1.png",
                                                    "plots/e_vs_*.png",
                                                    "plots/tangential_cor_vs_incidence.png",
                                                    "plots/spin_vs_incidence.png",
                                                    "*.tmp.*"};
  return patterns;
}

std::string write_sweep_csv(const std::string& directory, const lumped::SweepRange& range,
                            const std::vector<lumped::ModelSweep>& sweeps) {
  const std::string path = (std::filesystem::path(directory) / "sweep.csv").string();
  observables::write_file_atomically(path, lumped::sweep_csv(range, sweeps));
  return path;
}

std::string sweep_table(const cases::Case& base, const lumped::SweepRange& range,
                        const std::vector<lumped::ModelSweep>& sweeps, int threads,
                        const std::string& csv_path) {
  // --incidence is in degrees on screen; the sweep (and its CSV) works in radians.
  const bool degrees = range.variable == lumped::SweepVariable::incidence_angle;
  const auto shown_value = [degrees](double value) { return degrees ? value * 180 / M_PI : value; };
  std::string names;
  for (const auto& sweep : sweeps) names += (names.empty() ? "" : ",") + sweep.model;
  std::string out = format(
      "%s: %s sweep from %g to %g%s, %d points, model%s %s, %d threads\n", base.name.c_str(),
      lumped::to_string(range.variable), shown_value(range.start), shown_value(range.stop),
      degrees ? " degrees" : "", range.count, sweeps.size() > 1 ? "s" : "", names.c_str(), threads);
  const std::string column =
      std::string(degrees ? "incidence" : lumped::to_string(range.variable)) +
      (degrees ? " (deg)" : "");
  // The tangential coefficient and the final spin: summary_scalar_keys() by name.
  const auto& keys = observables::summary_scalar_keys();
  const auto index = [&keys](const char* key) {
    return std::size_t(std::find(keys.begin(), keys.end(), key) - keys.begin());
  };
  const std::size_t psi1 = index("psi1"), psi2 = index("psi2"), e = index("e_newton"),
                    cor = index("tangential_cor"), spin = index("spin_final");
  const auto scalar = [](const lumped::SweepPoint& row, std::size_t k) {
    return k < row.scalars.size() ? row.scalars[k] : NAN;
  };
  for (const auto& sweep : sweeps) {
    if (sweeps.size() > 1) out += format(" model %s\n", sweep.model.c_str());
    out += format("  %16s %10s %10s %10s %10s %12s %12s %12s %s\n", column.c_str(), "Psi1", "Psi2",
                  "e", "e_t", "spin (rad/s)", "gamma_t", "gamma_n", "phases");
    const int shown = std::min(range.count, 25);
    for (int k = 0; k < shown; ++k) {
      const int i = shown == 1 ? 0 : int(std::lround(double(k) * (range.count - 1) / (shown - 1)));
      const auto& row = sweep.rows[i];
      if (!row.error.empty()) {
        out += format("  %16.6g  error: %s\n", shown_value(row.value), row.error.c_str());
        continue;
      }
      out +=
          format("  %16.6g %10.5f %10.5f %10.6f %10.6f %12.6g %12.6g %12.6g %s\n",
                 shown_value(row.value), scalar(row, psi1), scalar(row, psi2), scalar(row, e),
                 scalar(row, cor), scalar(row, spin), row.gamma_t, row.gamma_n, row.phases.c_str());
    }
    if (shown < range.count) out += format("  (%d of %d rows shown)\n", shown, range.count);
  }
  out += format("  written to %s%s\n", csv_path.c_str(), degrees ? " (angles in radians)" : "");
  return out;
}

nlohmann::json sweep_json(const cases::Case& base, const lumped::SweepRange& range,
                          const std::vector<lumped::ModelSweep>& sweeps) {
  nlohmann::json points = nlohmann::json::array();
  nlohmann::json names = nlohmann::json::array();
  const auto& keys = observables::summary_scalar_keys();
  for (const auto& sweep : sweeps) {
    names.push_back(sweep.model);
    for (const auto& row : sweep.rows) {
      nlohmann::json point = {{lumped::to_string(range.variable), row.value}};
      for (std::size_t k = 0; k < keys.size() && k < row.scalars.size(); ++k)
        point[keys[k]] = observables::finite_or_null(row.scalars[k]);
      point["phases"] = row.phases;
      point["error"] = row.error;
      point["model"] = sweep.model;
      points.push_back(point);
    }
  }
  return {{"case", base.name},
          {"variable", lumped::to_string(range.variable)},
          {"models", names},
          {"points", points}};
}

std::vector<std::string> sweep_plot_arguments(const std::string& directory, const cases::Case& base,
                                              const SweepModels& models,
                                              const lumped::SweepRange& range) {
  std::vector<std::string> arguments = {directory, "--mode", "sweep", "--title", base.name};
  // The gross-slip line Psi2 = Psi1 - G holds for an elastic normal contact (e_N = 1); with a
  // dissipative law or a rigid-body law among the models its slope and offset depend on the e_N
  // each achieves, so no line is drawn.
  bool elastic = true;
  for (const auto& [name, c] : models) elastic = elastic && lumped::elastic_normal_contact(c);
  // G depends on mu at theta != 0: one line serves a friction sweep only at theta = 0.
  const cases::Derived derived = cases::derive(base);
  if (range.variable == lumped::SweepVariable::friction && derived.theta != 0) elastic = false;
  if (const double g = derived.gross_slip_offset; elastic && std::isfinite(g))
    arguments.insert(arguments.end(), {"--gross-slip", csv_number(g)});
  return arguments;
}

void check_reference_points(const std::string& path) {
  observables::History table;
  try {
    table = observables::read_history_csv(path);
  } catch (const std::exception& error) {
    throw StudyInputError("option --reference is '" + path + "': " + error.what() +
                          "; expected a CSV file with the columns psi1,psi2");
  }
  std::size_t points = 0;
  if (table.values.count("psi1") && table.values.count("psi2"))
    for (std::size_t i = 0; i < table.rows(); ++i)
      points += std::isfinite(table.values["psi1"][i]) && std::isfinite(table.values["psi2"][i]);
  if (points == 0)
    throw StudyInputError("option --reference is '" + path +
                          "'; expected a CSV file with a header row naming the columns psi1,psi2 "
                          "and at least one row of numbers");
}

}  // namespace rebound::studies
