// rebound sweep CASE --psi1 START:STOP:COUNT | --incidence ... | --friction ... [-o DIR]
//                    [--fem K [--level L] [--reference FILE] [--resume]]
// The lumped sweep runs in the light `rebound`; with --fem the whole command is handed over to
// rebound-fem, which adds FEM runs at K of the points (sweep_fem.csv) and the Psi2-Psi1 plot.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include "app/cli.h"
#include "app/commands.h"
#include "lumped/summary.h"
#include "lumped/sweep.h"

#if defined(REBOUND_HEAVY)
#include "app/comparison.h"
#include "app/mpi_session.h"
#include "app/refinement.h"
#include "cases/derived.h"
#endif

namespace rebound::app {
namespace {

lumped::SweepRange parse_range(const std::string& option, const std::string& text) {
  lumped::SweepRange range;
  std::stringstream in(text);
  std::string a, b, c;
  const std::string expected = "expected START:STOP:COUNT, e.g. 0:8:81";
  if (!std::getline(in, a, ':') || !std::getline(in, b, ':') || !std::getline(in, c) ||
      in.rdbuf()->in_avail() > 0)
    throw UsageError("option " + option + " is '" + text + "'; " + expected);
  try {
    std::size_t used_a = 0, used_b = 0, used_c = 0;
    range.start = std::stod(a, &used_a);
    range.stop = std::stod(b, &used_b);
    const long count = std::stol(c, &used_c);
    if (used_a != a.size() || used_b != b.size() || used_c != c.size())
      throw std::invalid_argument("");
    if (count < 1 || count > 10'000'000) throw std::out_of_range("");
    range.count = int(count);
  } catch (const std::exception&) {
    throw UsageError("option " + option + " is '" + text + "'; " + expected +
                     " (COUNT an integer in [1, 10000000])");
  }
  return range;
}

#if defined(REBOUND_HEAVY)
// The K sweep indices of the FEM runs, evenly spread (K = 1: the middle point).
std::vector<int> fem_indices(int count, int k) {
  std::vector<int> indices;
  if (k == 1) return {(count - 1) / 2};
  for (int m = 0; m < k; ++m)
    indices.push_back(int(std::lround(double(m) * (count - 1) / (k - 1))));
  return indices;
}

std::string value_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

struct FemSweepOptions {
  int count = 0, level = 0, frames = 0;
  bool resume = false, quiet = false;
  std::string directory;
};

// FEM runs at the chosen points, one after the other, into DIR/sweep_fem.csv (rewritten after
// each run) and DIR/sweep_fem/<variable>_<value>/. Returns the exit status contribution:
// 130 interrupted, 1 a run failed, 0 ok. Collective.
int run_fem_points(const cases::Case& base, const lumped::SweepRange& range,
                   const std::vector<lumped::SweepPoint>& lumped_rows, const FemSweepOptions& o) {
  namespace fs = std::filesystem;
  const bool root = is_root_rank();
  const bool verbose = root && !o.quiet;
  const std::string variable = lumped::to_string(range.variable);
  const std::string value_column = "sweep_" + variable;
  const auto keys = lumped::summary_scalar_keys();
  const std::string hash = case_fingerprint(base);
  const std::string path = (fs::path(o.directory) / "sweep_fem.csv").string();

  TextTable table;
  table.columns = {value_column};
  for (const auto& key : keys) table.columns.push_back(key);
  for (const char* extra : {"phases", "error", "status", "level", "dofs", "cells", "h_contact",
                            "time_step", "steps", "wall_time", "case", "case_hash", "directory"})
    table.columns.emplace_back(extra);

  struct Point {
    int index;
    double value;
    std::string directory;
    std::map<std::string, std::string> row;  // empty until finished (or reused)
    bool reused = false;
  };
  std::vector<Point> points;
  for (const int i : fem_indices(range.count, o.count))
    points.push_back(
        {i,
         range.value(i),
         (fs::path(o.directory) / "sweep_fem" / (variable + "_" + value_text(range.value(i))))
             .string(),
         {},
         false});

  const TextTable previous = read_text_csv(path);
  MPI_Barrier(MPI_COMM_WORLD);  // every rank has read it before rank 0 rewrites it
  std::vector<std::map<std::string, std::string>> kept;
  if (o.resume) {
    for (const auto& row : previous.rows) {
      const std::string name = row.count("case") ? row.at("case") : "";
      const std::string row_hash = row.count("case_hash") ? row.at("case_hash") : "";
      if (name != base.name || row_hash != hash || previous.columns.front() != value_column)
        throw UsageError(path + " holds FEM runs of another case description or sweep variable " +
                         "(case '" + name + "', case_hash " + row_hash + ", column " +
                         previous.columns.front() + "; this one is '" + base.name + "', " + hash +
                         ", " + value_column +
                         "); choose another -o DIR, or run without --resume to replace it");
      const std::string status = row.count("status") ? row.at("status") : "";
      bool used = false;
      for (auto& point : points) {
        if (point.reused || !csv_equals(row.at(value_column), point.value) || !row.count("level") ||
            !csv_equals(row.at("level"), o.level))
          continue;
        if (status == "completed" || status == "failed") {
          point.row = row;
          point.reused = true;
        }
        used = true;
        break;
      }
      if (!used) kept.push_back(row);
    }
  } else if (!previous.rows.empty() && verbose) {
    std::printf("note: %s exists; its %zu row%s will be replaced (--resume keeps finished runs)\n",
                path.c_str(), previous.rows.size(), previous.rows.size() == 1 ? "" : "s");
  }
  const auto write_csv = [&] {
    if (!root) return;
    TextTable out = table;
    for (const auto& point : points)
      if (!point.row.empty()) out.rows.push_back(point.row);
    for (const auto& row : kept) out.rows.push_back(row);
    write_file_atomically(path, text_csv(out));
  };
  write_csv();

  const int total = int(points.size());
  if (verbose) {
    std::printf(
        "\nFEM at %d of the %d points (--level %d, FE_Q(%d), fem.refinement %d, "
        "contact resolution %g), one after the other:\n",
        total, range.count, o.level, base.fem.degree, base.fem.refinement,
        base.fem.contact_resolution);
    std::fflush(stdout);
  }
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
                    value_text(point.value).c_str());
      if (point.reused) {
        failed += point.row["status"] == "failed";
        if (verbose) std::printf("%s: %s earlier (reused)\n", label, point.row["status"].c_str());
        continue;
      }
      if (signals.stop_requested()) {
        interrupted = true;
        break;
      }
      if (verbose) {
        std::printf("%s: ", label);
        std::fflush(stdout);
      }
      const cases::Case c = lumped::case_at(base, range.variable, point.value);
      const StudyFemRun run = run_study_fem(c, point.directory, o.level, o.frames);
      if (run.status == "interrupted") {
        interrupted = true;
        if (verbose) std::printf("interrupted (not recorded)\n");
        break;
      }
      const nlohmann::json& s = run.summary;
      const auto number = [&](const nlohmann::json& j, const std::string& key) {
        return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<double>()
                                                                      : std::nan("");
      };
      auto& row = point.row;
      row[value_column] = csv_number(point.value);
      for (const auto& key : keys) row[key] = csv_number(number(s, key));
      row["phases"] = "";
      row["status"] = run.status == "completed" ? "completed" : "failed";
      row["error"] = csv_text(run.message);
      row["level"] = std::to_string(o.level);
      for (const char* key : {"dofs", "cells", "time_step", "steps", "wall_time"})
        row[key] = csv_number(number(s, key));
      row["h_contact"] =
          csv_number(s.is_object() && s.contains("mesh") ? number(s["mesh"], "h_contact") : NAN);
      row["case"] = base.name;
      row["case_hash"] = hash;
      row["directory"] = csv_text(point.directory);
      write_csv();
      const double wall = number(s, "wall_time");
      if (row["status"] == "failed") ++failed;
      if (std::isfinite(wall)) {
        measured_wall += wall;
        ++measured;
      }
      if (verbose) {
        const auto& lumped_scalars = lumped_rows[point.index].scalars;
        const double lumped_psi2 = lumped_scalars.size() > 1 ? lumped_scalars[1] : NAN;
        if (row["status"] == "failed")
          std::printf("FAILED after %s: %s", format_duration(wall).c_str(), run.message.c_str());
        else
          std::printf("%s dofs, %s steps, %s; Psi2 %s (lumped %s), e %s", row["dofs"].c_str(),
                      row["steps"].c_str(), format_duration(wall).c_str(),
                      format_number(s["psi2"], "%.4f").c_str(),
                      format_number(std::isfinite(lumped_psi2) ? nlohmann::json(lumped_psi2)
                                                               : nlohmann::json(),
                                    "%.4f")
                          .c_str(),
                      format_number(s["e_newton"], "%.6f").c_str());
        int remaining = 0;
        for (int j = m + 1; j < total; ++j) remaining += !points[j].reused;
        if (remaining > 0 && measured > 0)
          std::printf("  (ETA ~%s)", format_duration(measured_wall / measured * remaining).c_str());
        std::printf("\n");
        std::fflush(stdout);
      }
    }
  }
  if (verbose) std::printf("  written to %s\n", path.c_str());
  if (interrupted) {
    if (root) {
      int finished = 0;
      for (const auto& point : points) finished += !point.row.empty();
      std::cerr << "rebound sweep: interrupted; " << finished << " of " << total
                << " FEM runs are in " << path << " (rerun with --resume to continue)\n";
    }
    return 130;
  }
  if (failed > 0) {
    if (root)
      std::cerr << "rebound sweep: " << failed << " of " << total
                << " FEM runs failed (see the status and error columns of " << path << ")\n";
    return 1;
  }
  return 0;
}
#endif

}  // namespace

int command_sweep(const std::vector<std::string>& arguments) {
  const Arguments args("sweep", arguments, {"--quiet", "--resume", "--no-plots"},
                       {"--psi1", "--incidence", "--friction", "-o", "--threads", "--fem",
                        "--level", "--frames", "--reference"});
  if (args.help()) {
    std::cout
        << "Usage: rebound sweep CASE (--psi1 | --incidence | --friction) START:STOP:COUNT\n"
           "                     [-o DIR] [--threads N] [--quiet]\n"
           "                     [--fem K [--level L] [--frames N] [--reference FILE]\n"
           "                      [--resume] [--no-plots]]\n\n"
           "Runs the case's lumped model at COUNT evenly spaced values of one variable (the\n"
           "rest of the case unchanged: the normal speed is kept for --psi1, the approach\n"
           "speed for --incidence (radians), the velocity for --friction) on all cores, writes\n"
           "DIR/sweep.csv (default DIR: results/<case name>) and prints a table. This redraws\n"
           "seed 000 Figs. 5.13-5.20 and seed 003 Figs. F5.16-F5.23.\n\n"
           "With --fem K (0 <= K <= COUNT) the FEM (as `rebound fem`, also under mpirun) then\n"
           "runs at K of the points, evenly spread (first and last included; K = 1: the middle\n"
           "point), one after the other with a line per finished run and an ETA:\n"
           "  --level L          extra uniform refinements of the FEM mesh (default 0)\n"
           "  --frames N         VTK frames per FEM run (default 0)\n"
           "  --reference FILE   CSV with columns psi1,psi2 (header row): reference points for\n"
           "                     the plot (e.g. digitised from a paper)\n"
           "  --resume           reuse the rows of DIR/sweep_fem.csv with the same case\n"
           "                     description, swept value and level\n"
           "  --no-plots         no PNG\n"
           "and writes\n"
           "  sweep_fem.csv      the columns of sweep.csv (phases empty) + status, level, dofs,\n"
           "                     cells, h_contact, time_step, steps, wall_time, ...; rewritten\n"
           "                     after every run, so Ctrl-C/SIGTERM (exit 130) keeps the\n"
           "                     finished runs\n"
           "  sweep_fem/<variable>_<value>/   each run's summary.json and history.csv\n"
           "  plots/psi2_vs_psi1.png   Psi2 vs Psi1: lumped curve, FEM points, the rigid-body\n"
           "                     gross-slip line Psi2 = Psi1 - 4 chi, reference points\n"
           "A failed FEM run is recorded (status failed; exit status 1 at the end).\n"
           "See docs/PAIR.md.\n";
    return 0;
  }
  if (args.positional().size() != 1) throw UsageError("needs exactly one CASE file");
  const bool fem = args.option("--fem").has_value();
  if (!fem)
    for (const char* option : {"--level", "--frames", "--reference"})
      if (args.option(option)) throw UsageError(std::string("option ") + option + " needs --fem K");
  if (!fem)
    for (const char* flag : {"--resume", "--no-plots"})
      if (args.flag(flag)) throw UsageError(std::string("option ") + flag + " needs --fem K");
#if !defined(REBOUND_HEAVY)
  if (fem) {
#if defined(REBOUND_HEAVY_AVAILABLE)
    run_fem_executable("sweep", arguments);
#else
    throw UsageError("option --fem needs the FEM, which this build lacks (deal.II not found)");
#endif
  }
#endif
  int given = 0;
  lumped::SweepRange range;
  for (const auto& [option, variable] :
       {std::pair{"--psi1", lumped::SweepVariable::psi1},
        std::pair{"--incidence", lumped::SweepVariable::incidence_angle},
        std::pair{"--friction", lumped::SweepVariable::friction}}) {
    if (const auto text = args.option(option)) {
      range = parse_range(option, *text);
      range.variable = variable;
      ++given;
    }
  }
  if (given != 1) throw UsageError("needs exactly one of --psi1, --incidence, --friction");
  const int threads = args.integer("--threads", 1, 256)
                          .value_or(std::max(1, int(std::thread::hardware_concurrency())));
  const cases::Case base = cases::load_case(args.positional().front());
  // Validate both ends before running (bad ranges are bad input, exit 2).
  lumped::case_at(base, range.variable, range.start);
  lumped::case_at(base, range.variable, range.stop);
  const std::string directory = output_directory(args.option("-o"), base.name);
  const bool quiet = args.flag("--quiet");

#if defined(REBOUND_HEAVY)
  FemSweepOptions fem_options;
  std::optional<std::string> reference;
  if (fem) {
    fem_options.count = *args.integer("--fem", 0, range.count);
    fem_options.level = args.integer("--level", 0, 6).value_or(0);
    fem_options.frames = args.integer("--frames", 0, 100000).value_or(0);
    fem_options.resume = args.flag("--resume");
    fem_options.quiet = quiet;
    fem_options.directory = directory;
    for (const int i : fem_indices(range.count, fem_options.count))
      check_meshable(lumped::case_at(base, range.variable, range.value(i)), fem_options.level);
    reference = args.option("--reference");
    if (reference) {
      Table table;
      try {
        table = read_csv(*reference);
      } catch (const std::exception& error) {
        throw UsageError("option --reference is '" + *reference + "': " + error.what() +
                         "; expected a CSV file with the columns psi1,psi2");
      }
      std::size_t points = 0;
      if (table.values.count("psi1") && table.values.count("psi2"))
        for (std::size_t i = 0; i < table.rows(); ++i)
          points +=
              std::isfinite(table.values["psi1"][i]) && std::isfinite(table.values["psi2"][i]);
      if (points == 0)
        throw UsageError("option --reference is '" + *reference +
                         "'; expected a CSV file with a header row naming the columns psi1,psi2 "
                         "and at least one row of numbers");
    }
  }
  std::optional<MpiSession> mpi;
  if (fem) mpi.emplace();
  const bool root = !mpi || mpi->root();
#else
  const bool root = true;
#endif

  const auto rows = lumped::run_sweep(base, range, threads);
  const std::string path = (std::filesystem::path(directory) / "sweep.csv").string();
  if (root) write_file_atomically(path, lumped::sweep_csv(range, rows));
  int failures = 0;
  for (const auto& row : rows) failures += !row.error.empty();
  if (root && !quiet) {
    std::printf("%s: %s sweep, %d points, model %s, %d threads\n", base.name.c_str(),
                lumped::to_string(range.variable), range.count, base.lumped.model.c_str(), threads);
    std::printf("  %12s %10s %10s %10s %12s %12s %s\n", lumped::to_string(range.variable), "Psi1",
                "Psi2", "e", "gamma_t", "gamma_n", "phases");
    const int shown = std::min(range.count, 25);
    for (int k = 0; k < shown; ++k) {
      const int i = shown == 1 ? 0 : int(std::lround(double(k) * (range.count - 1) / (shown - 1)));
      const auto& row = rows[i];
      if (!row.error.empty()) {
        std::printf("  %12.6g  error: %s\n", row.value, row.error.c_str());
        continue;
      }
      std::printf("  %12.6g %10.5f %10.5f %10.6f %12.6g %12.6g %s\n", row.value, row.scalars[0],
                  row.scalars[1], row.scalars[4], row.gamma_t, row.gamma_n, row.phases.c_str());
    }
    if (shown < range.count) std::printf("  (%d of %d rows shown)\n", shown, range.count);
    std::printf("  written to %s\n", path.c_str());
    std::fflush(stdout);
  }
  if (root && failures > 0)
    std::fprintf(stderr, "rebound sweep: %d of %d points failed (see the error column)\n", failures,
                 range.count);
  int status = failures > 0 ? 1 : 0;

#if defined(REBOUND_HEAVY)
  if (fem) {
    const int fem_status =
        fem_options.count > 0 ? run_fem_points(base, range, rows, fem_options) : 0;
    if (fem_status == 130) return 130;
    status = std::max(status, fem_status);
    if (root && !args.flag("--no-plots")) {
      std::string plot_arguments = "'" + directory + "' --mode sweep --title '" + base.name +
                                   "' --chi " + csv_number(cases::derive(base).chi);
      if (reference) plot_arguments += " --reference '" + *reference + "'";
      if (run_plots_script(plot_arguments, "sweep") && !quiet)
        std::printf("  plot in %s/plots/psi2_vs_psi1.png\n", directory.c_str());
    }
  }
#endif
  return status;
}

}  // namespace rebound::app
