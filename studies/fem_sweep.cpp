#include "studies/fem_sweep.h"

#include <deal.II/base/mpi.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "cases/format.h"
#include "cases/json_numbers.h"
#include "observables/files.h"
#include "observables/quantities.h"
#include "studies/fem_run.h"
#include "studies/run_table.h"

namespace rebound::studies {
void check_fem_sweep_resume(const cases::Case& base, const lumped::SweepRange& range,
                            const FemSweepOptions& o) {
  if (!o.resume) return;
  resume_rows((std::filesystem::path(o.directory) / "sweep_fem.csv").string(), base,
              case_fingerprint(base), "sweep_" + std::string(lumped::to_string(range.variable)),
              true, [](const TableRow&, bool) { return false; });
}

std::vector<int> fem_sweep_indices(int count, int k) {
  std::vector<int> indices;
  if (k == 1) return {(count - 1) / 2};
  for (int m = 0; m < k; ++m)
    indices.push_back(int(std::lround(double(m) * (count - 1) / (k - 1))));
  return indices;
}

FemSweepResult run_fem_sweep(const cases::Case& base, const lumped::SweepRange& range,
                             const std::vector<lumped::SweepPoint>& lumped_rows,
                             const FemSweepOptions& o) {
  namespace fs = std::filesystem;
  const bool root = is_root_rank();
  const bool verbose = root && bool(o.report);
  const auto say = [&](const std::string& text) {
    if (verbose && !text.empty()) o.report(text);
  };
  const std::string variable = lumped::to_string(range.variable);
  const std::string value_column = "sweep_" + variable;
  const auto& keys = observables::summary_scalar_keys();
  const std::string hash = case_fingerprint(base);
  const std::string path = (fs::path(o.directory) / "sweep_fem.csv").string();

  TextTable table;
  table.columns = {value_column};
  for (const auto& key : keys) table.columns.push_back(key);
  for (const char* extra : {"phases", "error", "status", "level", "dofs", "cells", "h_contact",
                            "time_step", "steps", "wall_time", "case", "case_hash", "directory"})
    table.columns.emplace_back(extra);
  // A free target sphere's state after the impact (summary.json's target_center_velocity_final
  // and target_spin_final), last.
  const bool free_target = base.target.moves();
  if (free_target)
    for (const char* key : lumped::kFreeTargetColumns) table.columns.emplace_back(key);

  struct Point {
    int index;
    double value;
    std::string directory;
    TableRow row;  // empty until finished (or reused)
    bool reused = false;
  };
  std::vector<Point> points;
  for (const int i : fem_sweep_indices(range.count, o.count))
    points.push_back({i,
                      range.value(i),
                      (fs::path(o.directory) / "sweep_fem" /
                       (variable + "_" + cases::format_number(range.value(i), "%g")))
                          .string(),
                      {},
                      false});

  std::vector<TableRow> kept;
  {
    const EarlierRows earlier = resume_rows(
        path, base, hash, value_column, o.resume, [&](const TableRow& row, bool finished) {
          for (auto& point : points) {
            if (point.reused || !csv_equals(cell(row, value_column), point.value) ||
                !row.count("level") || !csv_equals(row.at("level"), o.level))
              continue;
            if (finished) {
              point.row = row;
              point.reused = true;
            }
            return true;
          }
          return false;
        });
    MPI_Barrier(MPI_COMM_WORLD);  // every rank has read it before rank 0 rewrites it
    kept = earlier.kept;
    say(earlier.note);
  }
  const auto write_csv = [&] {
    if (!root) return;
    TextTable out = table;
    for (const auto& point : points)
      if (!point.row.empty()) out.rows.push_back(point.row);
    for (const auto& row : kept) out.rows.push_back(row);
    observables::write_file_atomically(path, text_csv(out));
  };
  write_csv();

  const int total = int(points.size());
  say(
      format("\nFEM at %d of the %d points (--level %d, FE_Q(%d), fem.refinement %d, "
             "contact resolution %g), one after the other:\n",
             total, range.count, o.level, base.fem.degree, base.fem.refinement,
             base.fem.contact_resolution));
  bool interrupted = false;
  int failed = 0;
  double measured_wall = 0;
  int measured = 0;
  {
    const StudySignals signals;
    for (int m = 0; m < total; ++m) {
      Point& point = points[m];
      char label[96];
      std::snprintf(label, sizeof label, "  [%d/%d] %s = %s", m + 1, total, variable.c_str(),
                    cases::format_number(point.value, "%g").c_str());
      if (point.reused) {
        failed += point.row["status"] != "completed";
        say(format("%s: %s earlier (reused)\n", label, point.row["status"].c_str()));
        continue;
      }
      if (signals.stop_requested()) {
        interrupted = true;
        break;
      }
      say(std::string(label) + ": ");
      const cases::Case c = lumped::case_at(base, range.variable, point.value);
      const StudyFemRun run = run_study_fem(c, point.directory, o.level, o.frames);
      if (run.status == "interrupted") {
        interrupted = true;
        say("interrupted (not recorded)\n");
        break;
      }
      const nlohmann::json& s = run.summary;
      const auto number = [](const nlohmann::json& j, const std::string& key) {
        return cases::number_or_nan(j, key);
      };
      auto& row = point.row;
      row[value_column] = csv_number(point.value);
      for (const auto& key : keys) row[key] = csv_number(number(s, key));
      row["phases"] = "";
      row["status"] = run.status;  // completed, incomplete or failed
      row["error"] = csv_text(run.message);
      row["level"] = std::to_string(o.level);
      for (const char* key : {"dofs", "cells", "time_step", "steps", "wall_time"})
        row[key] = csv_number(number(s, key));
      row["h_contact"] =
          csv_number(s.is_object() && s.contains("mesh") ? number(s["mesh"], "h_contact") : NAN);
      row["case"] = base.name;
      row["case_hash"] = hash;
      row["directory"] = csv_text(point.directory);
      if (free_target) {
        const bool has = s.is_object() && s.contains("target_center_velocity_final") &&
                         s["target_center_velocity_final"].is_array() &&
                         s["target_center_velocity_final"].size() >= 2;
        for (int k = 0; k < 2; ++k)
          row[lumped::kFreeTargetColumns[k]] =
              csv_number(has ? cases::number_or_nan(s["target_center_velocity_final"][k]) : NAN);
        row[lumped::kFreeTargetColumns[2]] = csv_number(number(s, "target_spin_final"));
      }
      write_csv();
      const double wall = number(s, "wall_time");
      if (row["status"] != "completed") ++failed;
      if (std::isfinite(wall)) {
        measured_wall += wall;
        ++measured;
      }
      if (verbose) {
        const auto& lumped_scalars = lumped_rows[point.index].scalars;
        const double lumped_psi2 = lumped_scalars.size() > 1 ? lumped_scalars[1] : NAN;
        const auto shown = [](double value) {
          return std::isfinite(value) ? format("%.4f", value) : std::string("-");
        };
        std::string line;
        if (row["status"] != "completed")
          line = format("%s after %s: %s", run.status == "incomplete" ? "INCOMPLETE" : "FAILED",
                        format_duration(wall).c_str(), run.message.c_str());
        else
          line = format("%s dofs, %s steps, %s; Psi2 %s (lumped %s), e %s", row["dofs"].c_str(),
                        row["steps"].c_str(), format_duration(wall).c_str(),
                        shown(number(s, "psi2")).c_str(), shown(lumped_psi2).c_str(),
                        std::isfinite(number(s, "e_newton"))
                            ? format("%.6f", number(s, "e_newton")).c_str()
                            : "-");
        int remaining = 0;
        for (int j = m + 1; j < total; ++j) remaining += !points[j].reused;
        if (remaining > 0 && measured > 0)
          line +=
              format("  (ETA ~%s)", format_duration(measured_wall / measured * remaining).c_str());
        say(line + "\n");
      }
    }
  }
  say(format("  written to %s\n", path.c_str()));
  FemSweepResult result;
  result.total = total;
  for (const auto& point : points) result.finished += !point.row.empty();
  result.failed = failed;
  result.interrupted = interrupted;
  result.path = path;
  return result;
}

}  // namespace rebound::studies
