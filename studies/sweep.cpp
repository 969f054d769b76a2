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
#include "observables/units.h"
#include "studies/errors.h"
#include "studies/run_table.h"
#include "studies/stop.h"

namespace rebound::studies {

SweepModels sweep_models(const cases::Case& base, const std::vector<std::string>& names,
                         const lumped::SweepRange& range, const std::optional<std::string>& seed) {
  SweepModels models;
  if (names.empty()) models.emplace_back(lumped::model_name(base), base);
  for (const std::string& name : names)
    models.emplace_back(name, lumped::case_with_model(base, name));
  if (seed) {
    const auto& table = base.lumped.restitution_table;
    if (!table || !table->random())
      throw StudyInputError("option --seed is given, but " + base.source +
                            ": lumped.restitution is not a table with a std > 0; the seed draws "
                            "the random restitution of such a table (Michalczyk 2008, sec. 4)");
    const bool digits = !seed->empty() && seed->size() <= 16 &&
                        seed->find_first_not_of("0123456789") == std::string::npos;
    if (!digits || std::stoull(*seed) > std::uint64_t(cases::kMaxSeed))
      throw StudyInputError("option --seed is '" + *seed +
                            "'; expected an integer in [0, 9007199254740991] (2^53 - 1)");
    for (auto& [name, c] : models) c.lumped.seed = std::stoull(*seed);
  }
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
                                                    "plots/*_histogram.png",
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

std::vector<double> percentiles(std::vector<double> values, const std::vector<double>& levels) {
  std::sort(values.begin(), values.end());
  std::vector<double> out;
  for (const double level : levels) {
    if (values.empty()) {
      out.push_back(NAN);
      continue;
    }
    const double h = (double(values.size()) - 1) * level / 100;
    const std::size_t below = std::size_t(std::floor(h));
    const std::size_t above = std::min(below + 1, values.size() - 1);
    out.push_back(values[below] + (h - double(below)) * (values[above] - values[below]));
  }
  return out;
}

namespace {

// The screen table of a Monte Carlo sweep (--samples): per model the drawn R and the rebound
// quantities over the samples that were solved: mean, standard deviation, percentiles.
std::string samples_table(const cases::Case& base, const lumped::SweepRange& range,
                          const std::vector<lumped::ModelSweep>& sweeps, int threads,
                          const std::string& csv_path) {
  std::string out =
      format("%s: %d samples of the random restitution (seed %llu, impacts 0 to %d), %d threads\n",
             base.name.c_str(), range.count, static_cast<unsigned long long>(base.lumped.seed),
             range.count - 1, threads);
  const auto& keys = observables::summary_scalar_keys();
  const std::vector<double> levels = {5, 25, 50, 75, 95};
  for (const auto& sweep : sweeps) {
    const lumped::SweepPoint* first = nullptr;
    for (const auto& row : sweep.rows)
      if (row.draw && first == nullptr) first = &row;
    out += format(" model %s: %d of %d samples solved\n", sweep.model.c_str(),
                  int(std::count_if(sweep.rows.begin(), sweep.rows.end(),
                                    [](const auto& row) { return row.error.empty(); })),
                  range.count);
    if (first == nullptr) continue;
    const lumped::RestitutionDraw& d = *first->draw;
    const lumped::Moments cut = lumped::truncated_normal_moments(d.mean, d.sigma);
    out += format(
        "  Phi = %.6g J/m^3: R0 = %.6g, sigma = %.6g; cut to [0, 1] (eq. 4.1): mean "
        "%.6g, std %.6g\n",
        d.flux_density, d.mean, d.sigma, cut.mean, cut.sigma);
    out += format("  %-30s %10s %10s %10s %10s %10s %10s %10s\n", "quantity", "mean", "std", "p5",
                  "p25", "p50", "p75", "p95");
    const auto row_of = [&](const std::string& name, const std::vector<double>& values) {
      double sum = 0, squares = 0;
      for (const double v : values) sum += v;
      const double mean = values.empty() ? NAN : sum / double(values.size());
      for (const double v : values) squares += (v - mean) * (v - mean);
      const double sigma = values.size() > 1 ? std::sqrt(squares / double(values.size() - 1)) : NAN;
      const std::vector<double> p = percentiles(values, levels);
      out += format("  %-30s %10.6g %10.6g %10.6g %10.6g %10.6g %10.6g %10.6g\n", name.c_str(),
                    mean, sigma, p[0], p[1], p[2], p[3], p[4]);
    };
    std::vector<double> drawn;
    for (const auto& row : sweep.rows)
      if (row.draw && row.error.empty()) drawn.push_back(row.draw->value);
    row_of("restitution R (drawn)", drawn);
    for (const char* key : {"e_newton", "e_poisson", "e_stronge", "psi2", "rebound_angle",
                            "tangential_cor", "kinetic_energy_loss_fraction"}) {
      const std::size_t k = std::size_t(std::find(keys.begin(), keys.end(), key) - keys.begin());
      std::vector<double> values;
      for (const auto& row : sweep.rows)
        if (k < row.scalars.size() && std::isfinite(row.scalars[k]))
          values.push_back(row.scalars[k]);
      if (!values.empty()) row_of(observables::csv_column(key), values);
    }
  }
  out += format("  written to %s (one row per sample)\n", csv_path.c_str());
  return out;
}

}  // namespace

std::string sweep_table(const cases::Case& base, const lumped::SweepRange& range,
                        const std::vector<lumped::ModelSweep>& sweeps, int threads,
                        const std::string& csv_path) {
  if (range.variable == lumped::SweepVariable::sample)
    return samples_table(base, range, sweeps, threads, csv_path);
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
      if (row.draw)
        point["restitution_draw"] = {{"flux_density", row.draw->flux_density},
                                     {"mean", row.draw->mean},
                                     {"std", row.draw->sigma},
                                     {"value", row.draw->value}};
      if (row.free_target)
        for (std::size_t k = 0; k < lumped::kFreeTargetColumns.size(); ++k)
          point[lumped::kFreeTargetColumns[k]] = observables::finite_or_null((*row.free_target)[k]);
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
  if (range.variable == lumped::SweepVariable::sample) return arguments;  // histograms only
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
