#include "studies/refinement.h"

#include <deal.II/base/mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <tuple>

#include "cases/derived.h"
#include "cases/format.h"
#include "cases/json_numbers.h"
#include "lumped/solve.h"
#include "lumped/summary.h"
#include "observables/files.h"
#include "studies/errors.h"
#include "studies/fem_run.h"
#include "studies/plots.h"
#include "studies/run_table.h"

namespace rebound::studies {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

using cases::finite_or_null;
using cases::number_or_nan;

std::string resolution_text(double resolution) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", resolution);
  return text;
}

// The columns of refinement.csv, in order.
std::vector<std::string> refinement_columns() {
  std::vector<std::string> columns = {
      "level",     "refinement", "contact_resolution", "dofs",  "cells",
      "h_contact", "h_max",      "time_step",          "steps", "wall_time"};
  for (const auto& q : refinement_quantities()) columns.push_back(q);
  for (const char* extra : {"status", "energy_balance_error", "degree", "mpi_ranks", "case",
                            "case_hash", "directory", "message"})
    columns.emplace_back(extra);
  return columns;
}

// The run statistics of refinement.csv/json: the column name and where a run keeps it. Rows
// are read and written from this one list.
struct RunNumber {
  const char* column;
  double RefinementRun::*field;
  const char* summary_key;  // in the FEM's summary.json ("mesh.*": in its "mesh" object)
};
const RunNumber kRunNumbers[] = {
    {"dofs", &RefinementRun::dofs, "dofs"},
    {"cells", &RefinementRun::cells, "cells"},
    {"h_contact", &RefinementRun::h_contact, "mesh.h_contact"},
    {"h_max", &RefinementRun::h_max, "mesh.h_max"},
    {"time_step", &RefinementRun::time_step, "time_step"},
    {"steps", &RefinementRun::steps, "steps"},
    {"wall_time", &RefinementRun::wall_time, "wall_time"},
    {"energy_balance_error", &RefinementRun::energy_balance_error, "energy_balance_error"}};

RefinementRun run_from_row(const TableRow& row) {
  RefinementRun run;
  run.level = int(csv_value(row, "level"));
  run.refinement = int(csv_value(row, "refinement"));
  run.contact_resolution = csv_value(row, "contact_resolution");
  run.status = cell(row, "status");
  run.message = cell(row, "message");
  run.directory = cell(row, "directory");
  for (const RunNumber& n : kRunNumbers) run.*n.field = csv_value(row, n.column);
  for (const auto& q : refinement_quantities()) run.values[q] = csv_value(row, q);
  return run;
}

// The statistics and quantities of a finished run, from its summary.json.
void take_summary(RefinementRun& run, const nlohmann::json& s) {
  for (const RunNumber& n : kRunNumbers) {
    const std::string key = n.summary_key;
    run.*n.field =
        key.rfind("mesh.", 0) == 0
            ? (s.is_object() && s.contains("mesh") ? number_or_nan(s["mesh"], key.substr(5)) : kNaN)
            : number_or_nan(s, key);
  }
  for (const auto& q : refinement_quantities()) run.values[q] = number_or_nan(s, q);
}

TableRow row_of_run(const RefinementRun& run, const cases::Case& c, const std::string& hash,
                    int ranks) {
  TableRow row;
  row["level"] = std::to_string(run.level);
  row["refinement"] = std::to_string(run.refinement);
  row["contact_resolution"] = csv_number(run.contact_resolution);
  for (const RunNumber& n : kRunNumbers) row[n.column] = csv_number(run.*n.field);
  for (const auto& q : refinement_quantities())
    row[q] = csv_number(run.values.count(q) ? run.values.at(q) : kNaN);
  row["status"] = run.status;
  row["degree"] = std::to_string(c.fem.degree);
  row["mpi_ranks"] = std::to_string(ranks);
  row["case"] = c.name;
  row["case_hash"] = hash;
  row["directory"] = csv_text(run.directory);
  row["message"] = csv_text(run.message);
  return row;
}

// Normal, frictionless-equivalent impacts, for which Hertz's duration and peak force are exact
// in the quasi-static limit: PG along n and either no friction or no tangential motion.
bool is_hertz_case(const cases::Case& c) {
  return std::abs(c.impact.theta) < 1e-12 &&
         (c.contact.friction == 0 || (c.impact.tangential_speed == 0 && c.impact.spin == 0));
}

// Expected wall time of run b relative to run a, from per-step factors along each option:
// measured on the study's own completed runs when two of them differ by one step of that option
// only (the latest such pair), else the defaults measured on the Hertz sphere (docs/PAIR.md): a
// level multiplies the DoFs by ~8 and halves the time step (x16); doubling the contact
// resolution doubles the DoFs near P and the steps (x4); fem.refinement adds DoFs away from P
// only, the time step unchanged (x1 to x5.5 from 0 to 3: x2).
struct CostModel {
  double level = 16, refinement = 2, resolution_doubling = 4;

  explicit CostModel(const std::vector<RefinementRun>& runs) {
    for (std::size_t a = 0; a < runs.size(); ++a)
      for (std::size_t b = 0; b < runs.size(); ++b) {
        const RefinementRun &x = runs[a], &y = runs[b];
        if (x.status != "completed" || y.status != "completed" || !(x.wall_time > 0) ||
            !(y.wall_time > 0))
          continue;
        const double ratio = y.wall_time / x.wall_time;
        const bool same_resolution = x.contact_resolution == y.contact_resolution;
        if (y.level == x.level + 1 && y.refinement == x.refinement && same_resolution)
          level = ratio;
        if (y.refinement == x.refinement + 1 && y.level == x.level && same_resolution)
          refinement = ratio;
        if (y.level == x.level && y.refinement == x.refinement &&
            y.contact_resolution > x.contact_resolution * 1.01)
          resolution_doubling =
              std::pow(ratio, 1 / std::log2(y.contact_resolution / x.contact_resolution));
      }
  }
  double ratio(const RefinementRun& a, const RefinementRun& b) const {
    return std::pow(level, b.level - a.level) * std::pow(refinement, b.refinement - a.refinement) *
           std::pow(resolution_doubling, std::log2(b.contact_resolution / a.contact_resolution));
  }
};

}  // namespace

const std::vector<std::string>& refinement_quantities() {
  static const std::vector<std::string> keys = {"psi2",
                                                "e_newton",
                                                "normal_impulse",
                                                "tangential_impulse",
                                                "peak_normal_force",
                                                "contact_duration",
                                                "tangential_cor",
                                                "spin_final",
                                                "kinetic_energy_loss_fraction"};
  return keys;
}

bool draw_refinement_plots(const std::string& directory, const std::string& title,
                           const Report& report) {
  return run_plots_script("'" + directory + "' --mode refinement --title '" + title + "'", "refine",
                          report);
}

// ---- the refinement study -----------------------------------------------------------------

void check_refinement_resume(const cases::Case& c, const RefinementOptions& options) {
  if (!options.resume) return;
  resume_rows((std::filesystem::path(options.directory) / "refinement.csv").string(), c,
              case_fingerprint(c), "level", true, [](const TableRow&, bool) { return false; });
}

RefinementStudy run_refinement_study(const cases::Case& c, const RefinementOptions& options) {
  namespace fs = std::filesystem;
  const std::vector<int> levels = options.levels.empty() ? std::vector<int>{0} : options.levels;
  const std::vector<int> refinements =
      options.refinements.empty() ? std::vector<int>{c.fem.refinement} : options.refinements;
  const std::vector<double> resolutions = options.contact_resolutions.empty()
                                              ? std::vector<double>{c.fem.contact_resolution}
                                              : options.contact_resolutions;
  for (const int level : levels)
    if (level < 0 || level > 6)
      throw StudyInputError("level " + std::to_string(level) + " is outside [0, 6]");
  for (const int refinement : refinements)
    if (refinement < 0 || refinement > 8)
      throw StudyInputError("fem.refinement " + std::to_string(refinement) + " is outside [0, 8]");
  for (const double s : resolutions)
    if (!(s >= 1 && s <= 64))
      throw StudyInputError("contact resolution " + resolution_text(s) + " is outside [1, 64]");
  check_meshable(c, levels.back());

  const bool root = is_root_rank();
  const int ranks = int(dealii::Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD));
  const bool verbose = root && bool(options.report);
  const auto say = [&](const std::string& text) {
    if (verbose && !text.empty()) options.report(text);
  };
  RefinementStudy study;
  study.case_name = c.name;
  study.case_hash = case_fingerprint(c);
  const std::string csv_path = (fs::path(options.directory) / "refinement.csv").string();
  const std::string json_path = (fs::path(options.directory) / "refinement.json").string();

  // The plan, cheapest first: levels outer (16x each), then resolutions, then fem.refinement.
  for (const int level : levels)
    for (const double s : resolutions)
      for (const int refinement : refinements) {
        RefinementRun run;
        run.level = level;
        run.refinement = refinement;
        run.contact_resolution = s;
        run.directory = (fs::path(options.directory) / "refine" /
                         ("ref" + std::to_string(refinement) + "_level" + std::to_string(level) +
                          "_res" + resolution_text(s)))
                            .string();
        study.runs.push_back(run);
      }

  // Rows of an earlier study: reused under --resume (same case fingerprint, level, refinement,
  // resolution), replaced otherwise. Rows of the same case that this study does not ask for are
  // kept.
  std::vector<TableRow> kept;
  {
    const EarlierRows earlier = resume_rows(
        csv_path, c, study.case_hash, "level", options.resume,
        [&](const TableRow& row, bool finished) {
          for (auto& run : study.runs) {
            if (run.reused || !row.count("level") || !row.count("refinement") ||
                !row.count("contact_resolution") || !csv_equals(row.at("level"), run.level) ||
                !csv_equals(row.at("refinement"), run.refinement) ||
                !csv_equals(row.at("contact_resolution"), run.contact_resolution))
              continue;
            if (finished) {
              const std::string directory = run.directory;
              run = run_from_row(row);
              run.reused = true;
              if (run.directory.empty()) run.directory = directory;
            }
            return true;
          }
          return false;
        });
    MPI_Barrier(MPI_COMM_WORLD);  // every rank has read it before rank 0 rewrites it
    kept = earlier.kept;
    say(earlier.note);
  }

  // Ctrl-C and SIGTERM from here to the last run: the run under way (the lumped reference at its
  // next check, a FEM run at its next check) ends as "interrupted", and the study stops.
  std::optional<StudySignals> signals(std::in_place);  // ended before the report and plots

  // References: the case's lumped model on the exact geometry, Hertz for normal impacts.
  const cases::Derived derived = cases::derive(c);
  study.lumped_model = c.lumped.model;
  if (lumped::checks_solve_control(c))  // the half-space and MDR models take seconds to minutes
    say(format("%s: lumped reference (model %s) on the exact geometry\n", c.name.c_str(),
               c.lumped.model.c_str()));
  try {
    lumped::SolveControl control;  // a half-space or MDR reference takes seconds
    control.stop = StopOnSignal::flag();
    const observables::ReboundQuantities lumped =
        lumped::rebound_quantities(c, derived, lumped::solve(c, derived, false, control));
    for (const auto& q : refinement_quantities()) study.lumped[q] = lumped.scalar(q);
  } catch (const std::exception& error) {  // lumped::Interrupted too
    study.lumped_error = error.what();
  }
  // Asked on every rank (each solved the reference): no FEM run starts, also when all are reused.
  study.interrupted = signals->stop_requested();
  if (is_hertz_case(c)) {
    study.hertz["contact_duration"] = derived.hertz.duration;
    study.hertz["peak_normal_force"] = derived.hertz.peak_force;
  }

  const auto write_csv = [&] {
    if (!root) return;
    TextTable table;
    table.columns = refinement_columns();
    for (const auto& run : study.runs)
      if (!run.status.empty())  // finished: completed, incomplete or failed
        table.rows.push_back(row_of_run(run, c, study.case_hash, ranks));
    for (const auto& row : kept) table.rows.push_back(row);
    observables::write_file_atomically(csv_path, text_csv(table));
  };

  const std::size_t total = study.runs.size();
  std::size_t reused = 0;
  for (const auto& run : study.runs) reused += run.reused;
  say(format("%s: refinement study, %zu run%s (%zu reused from %s), FE_Q(%d), %d rank%s\n",
             c.name.c_str(), total, total == 1 ? "" : "s", reused, csv_path.c_str(), c.fem.degree,
             ranks, ranks == 1 ? "" : "s"));
  write_csv();
  {
    for (std::size_t i = 0; i < total && !study.interrupted; ++i) {
      RefinementRun& run = study.runs[i];
      char label[128];
      std::snprintf(label, sizeof label,
                    "  [%zu/%zu] level %d, fem.refinement %d, contact resolution %s", i + 1, total,
                    run.level, run.refinement, resolution_text(run.contact_resolution).c_str());
      if (run.reused) {
        say(format("%s: %s earlier (reused)\n", label, run.status.c_str()));
        continue;
      }
      if (signals->stop_requested()) {
        study.interrupted = true;
        break;
      }
      say(std::string(label) + ": ");
      cases::Case ci = c;
      ci.fem.refinement = run.refinement;
      ci.fem.contact_resolution = run.contact_resolution;
      const StudyFemRun fem = run_study_fem(ci, run.directory, run.level, options.frames);
      if (fem.status == "interrupted") {
        study.interrupted = true;
        say("interrupted (not recorded)\n");
        break;
      }
      run.status = fem.status;  // completed, incomplete or failed
      run.message = fem.message;
      run.summary = fem.summary;
      run.history = fem.history;
      take_summary(run, fem.summary);
      write_csv();

      if (verbose) {
        std::string line;
        if (run.status != "completed") {
          line = format("%s after %s: %s", run.status == "incomplete" ? "INCOMPLETE" : "FAILED",
                        format_duration(run.wall_time).c_str(), run.message.c_str());
        } else {
          line = format("%.0f dofs, h_contact %.3g m, %.0f steps, %s; t_c %.6g s, F_max %.6g N",
                        run.dofs, run.h_contact, run.steps, format_duration(run.wall_time).c_str(),
                        run.values["contact_duration"], run.values["peak_normal_force"]);
        }
        // ETA: every remaining run scaled from the latest completed run before it.
        const CostModel cost(study.runs);
        double eta = 0;
        bool known = true, remaining = false;
        for (std::size_t j = i + 1; j < total; ++j) {
          if (study.runs[j].reused) continue;
          remaining = true;
          bool found = false;
          for (std::size_t k = j; k-- > 0;) {
            const RefinementRun& base = study.runs[k];
            if (base.status != "completed" || !(base.wall_time > 0)) continue;
            eta += base.wall_time * cost.ratio(base, study.runs[j]);
            found = true;
            break;
          }
          known = known && found;
        }
        if (remaining)
          line += format("  (ETA %s)", known ? ("~" + format_duration(eta)).c_str() : "unknown");
        say(line + "\n");
      }
    }
  }
  signals.reset();
  write_csv();

  // Round-off of each quantity: 1e-9 of its physical scale (a spin of 1e-12 rad/s where the
  // impact's scale is v/R is zero, not a sequence to extrapolate).
  std::map<std::string, double> noise;
  for (const auto& q : refinement_quantities()) noise[q] = 1e-9;
  noise["normal_impulse"] = noise["tangential_impulse"] = 1e-9 * derived.impulse_scale;
  noise["peak_normal_force"] = 1e-9 * derived.hertz.peak_force;
  noise["contact_duration"] = 1e-9 * derived.hertz.duration;
  noise["spin_final"] = 1e-9 * derived.approach_speed / derived.hertz.radius;

  // Series: the runs along each list given with more than one value, the others fixed.
  const auto add_series = [&](const std::string& varied, const RefinementRun& fixed) {
    RefinementSeries series;
    series.varied = varied;
    series.h_measure = varied == "refinement" ? "h_max" : "h_contact";
    series.level = varied == "level" ? -1 : fixed.level;
    series.refinement = varied == "refinement" ? -1 : fixed.refinement;
    series.contact_resolution = varied == "contact_resolution" ? 0 : fixed.contact_resolution;
    for (std::size_t i = 0; i < study.runs.size(); ++i) {
      const RefinementRun& run = study.runs[i];
      if ((varied == "level" || run.level == fixed.level) &&
          (varied == "refinement" || run.refinement == fixed.refinement) &&
          (varied == "contact_resolution" || run.contact_resolution == fixed.contact_resolution))
        series.runs.push_back(i);
    }
    // Coarse to fine: the plan is ordered by level, resolution, refinement, each increasing.
    std::sort(series.runs.begin(), series.runs.end(), [&](std::size_t a, std::size_t b) {
      const RefinementRun &x = study.runs[a], &y = study.runs[b];
      return std::tie(x.level, x.refinement, x.contact_resolution) <
             std::tie(y.level, y.refinement, y.contact_resolution);
    });
    std::vector<double> h;
    std::vector<std::size_t> used;
    for (const std::size_t i : series.runs) {
      const RefinementRun& run = study.runs[i];
      const double size = series.h_measure == "h_max" ? run.h_max : run.h_contact;
      if (run.status == "completed" && std::isfinite(size)) {
        h.push_back(size);
        used.push_back(i);
      }
    }
    for (const auto& q : refinement_quantities()) {
      std::vector<double> values;
      for (const std::size_t i : used) values.push_back(study.runs[i].values[q]);
      series.convergence[q] = observed_convergence(h, values, noise.at(q));
    }
    study.series.push_back(series);
  };
  for (const auto& run : study.runs) {
    if (levels.size() > 1 && run.level == levels.front()) add_series("level", run);
    if (refinements.size() > 1 && run.refinement == refinements.front())
      add_series("refinement", run);
    if (resolutions.size() > 1 && run.contact_resolution == resolutions.front())
      add_series("contact_resolution", run);
  }
  if (study.series.empty()) add_series("level", study.runs.front());
  for (const auto& run : study.runs)
    study.failed += !run.status.empty() && run.status != "completed";

  // refinement.json
  nlohmann::json& j = study.json;
  j["case"] = c.name;
  j["file"] = c.source;
  j["case_hash"] = study.case_hash;
  j["degree"] = c.fem.degree;
  j["levels"] = levels;
  j["refinements"] = refinements;
  j["contact_resolutions"] = resolutions;
  j["interrupted"] = study.interrupted;
  j["failed"] = study.failed;
  j["quantities"] = refinement_quantities();
  nlohmann::json lumped_reference = {{"model", study.lumped_model}};
  for (const auto& [q, v] : study.lumped) lumped_reference[q] = finite_or_null(v);
  if (!study.lumped_error.empty()) lumped_reference["error"] = study.lumped_error;
  nlohmann::json hertz_reference = nullptr;
  for (const auto& [q, v] : study.hertz) hertz_reference[q] = v;
  j["reference"] = {{"lumped", lumped_reference}, {"hertz", hertz_reference}};
  j["runs"] = nlohmann::json::array();
  for (const auto& run : study.runs) {
    nlohmann::json r = {{"level", run.level},
                        {"refinement", run.refinement},
                        {"contact_resolution", run.contact_resolution},
                        {"status", run.status.empty() ? "not run" : run.status},
                        {"reused", run.reused},
                        {"directory", run.directory}};
    for (const RunNumber& n : kRunNumbers) r[n.column] = finite_or_null(run.*n.field);
    if (!run.message.empty()) r["message"] = run.message;
    for (const auto& q : refinement_quantities())
      r[q] = finite_or_null(run.values.count(q) ? run.values.at(q) : kNaN);
    j["runs"].push_back(r);
  }
  j["series"] = nlohmann::json::array();
  for (const auto& series : study.series) {
    nlohmann::json s = {
        {"varied", series.varied},
        {"h_measure", series.h_measure},
        {"runs", series.runs},
        {"level", series.level < 0 ? nlohmann::json() : nlohmann::json(series.level)},
        {"refinement",
         series.refinement < 0 ? nlohmann::json() : nlohmann::json(series.refinement)},
        {"contact_resolution", series.contact_resolution > 0
                                   ? nlohmann::json(series.contact_resolution)
                                   : nlohmann::json()}};
    std::vector<std::size_t> completed;
    for (const std::size_t i : series.runs)
      if (study.runs[i].status == "completed") completed.push_back(i);
    nlohmann::json h = nlohmann::json::array();
    for (const std::size_t i : completed)
      h.push_back(finite_or_null(series.h_measure == "h_max" ? study.runs[i].h_max
                                                             : study.runs[i].h_contact));
    s["h"] = h;
    for (const auto& [q, conv] : series.convergence) {
      nlohmann::json values = nlohmann::json::array();
      for (const std::size_t i : completed)
        values.push_back(finite_or_null(study.runs[i].values[q]));
      s["convergence"][q] = {
          {"status", conv.status},
          {"values", values},
          {"finest", finite_or_null(conv.finest)},
          {"order", finite_or_null(conv.order)},
          {"ratio", finite_or_null(conv.ratio)},
          {"extrapolated", finite_or_null(conv.extrapolated)},
          {"error_estimate", finite_or_null(conv.error_estimate)},
          {"lumped", finite_or_null(study.lumped.count(q) ? study.lumped.at(q) : kNaN)},
          {"hertz", finite_or_null(study.hertz.count(q) ? study.hertz.at(q) : kNaN)}};
    }
    j["series"].push_back(s);
  }
  if (root) observables::write_file_atomically(json_path, j.dump(2) + "\n");
  return study;
}

std::string refinement_table(const RefinementStudy& study) {
  std::string out;
  const auto cell = [](double value, const char* pattern) {
    return std::isfinite(value) ? cases::format_number(value, pattern) : std::string("-");
  };
  out += format("\n%s: refinement study (%zu run%s)\n", study.case_name.c_str(), study.runs.size(),
                study.runs.size() == 1 ? "" : "s");
  out += format("  %5s %3s %5s %8s %10s %10s %9s %6s %9s %9s %9s %10s %10s %10s %11s  %s\n",
                "level", "ref", "res", "dofs", "h_contact", "h_max", "dt", "steps", "wall", "psi2",
                "e", "J_n", "J_t", "F_max", "t_c", "status");
  out += format("  %5s %3s %5s %8s %10s %10s %9s %6s %9s %9s %9s %10s %10s %10s %11s\n", "", "", "",
                "", "[m]", "[m]", "[s]", "", "", "", "", "[N s]", "[N s]", "[N]", "[s]");
  for (const auto& run : study.runs) {
    const auto v = [&](const char* q) {
      return run.values.count(q) ? run.values.at(q) : std::numeric_limits<double>::quiet_NaN();
    };
    std::string status = run.status.empty() ? "not run" : run.status;
    if (run.reused) status += " (reused)";
    if (!run.message.empty()) status += ": " + run.message;
    out += format("  %5d %3d %5g %8s %10s %10s %9s %6s %9s %9s %9s %10s %10s %10s %11s  %s\n",
                  run.level, run.refinement, run.contact_resolution, cell(run.dofs, "%.0f").c_str(),
                  cell(run.h_contact, "%.4g").c_str(), cell(run.h_max, "%.4g").c_str(),
                  cell(run.time_step, "%.3g").c_str(), cell(run.steps, "%.0f").c_str(),
                  std::isfinite(run.wall_time) ? format_duration(run.wall_time).c_str() : "-",
                  cell(v("psi2"), "%.5f").c_str(), cell(v("e_newton"), "%.6f").c_str(),
                  cell(v("normal_impulse"), "%.6g").c_str(),
                  cell(v("tangential_impulse"), "%.4g").c_str(),
                  cell(v("peak_normal_force"), "%.6g").c_str(),
                  cell(v("contact_duration"), "%.6g").c_str(), status.c_str());
  }
  const bool hertz = !study.hertz.empty();
  for (const auto& series : study.series) {
    std::string what;
    if (series.varied == "level") what = "levels";
    if (series.varied == "refinement") what = "fem.refinement";
    if (series.varied == "contact_resolution") what = "contact resolutions";
    std::string fixed;
    if (series.level >= 0) fixed += ", level " + std::to_string(series.level);
    if (series.refinement >= 0) fixed += ", fem.refinement " + std::to_string(series.refinement);
    if (series.contact_resolution > 0)
      fixed += ", contact resolution " + cases::format_number(series.contact_resolution, "%g");
    out += format(
        "\n  Convergence over %s%s (h = %s): observed order p and Richardson value from the "
        "last three runs\n",
        what.c_str(), fixed.c_str(), series.h_measure.c_str());
    out += format("  %-30s %12s %7s %12s %10s %12s", "quantity", "finest", "order", "Richardson",
                  "error est", ("lumped " + study.lumped_model).c_str());
    if (hertz) out += format(" %12s", "Hertz");
    out += format("  status\n");
    for (const auto& q : refinement_quantities()) {
      const Convergence& conv = series.convergence.at(q);
      const double lumped = study.lumped.count(q) ? study.lumped.at(q) : NAN;
      out += format("  %-30s %12s %7s %12s %10s %12s", q.c_str(), cell(conv.finest, "%.6g").c_str(),
                    cell(conv.order, "%.2f").c_str(), cell(conv.extrapolated, "%.6g").c_str(),
                    cell(conv.error_estimate, "%.2g").c_str(), cell(lumped, "%.6g").c_str());
      if (hertz)
        out +=
            format(" %12s", cell(study.hertz.count(q) ? study.hertz.at(q) : NAN, "%.6g").c_str());
      out += format("  %s\n", conv.status.c_str());
    }
  }
  if (!study.lumped_error.empty())
    out += format("  (lumped reference unavailable: %s)\n", study.lumped_error.c_str());
  return out;
}

std::string refinement_runs_text(const RefinementStudy& study) {
  std::string out;
  for (const auto& run : study.runs)
    out += cases::format(
        "run level %d, fem.refinement %d, resolution %g: %s%s, %.0f dofs, %.0f cells, %.0f steps, "
        "%.3f s\n",
        run.level, run.refinement, run.contact_resolution,
        run.status.empty() ? "not run" : run.status.c_str(), run.reused ? " (reused)" : "",
        run.dofs, run.cells, run.steps, run.wall_time);
  return out;
}

}  // namespace rebound::studies
