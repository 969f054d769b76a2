#include "app/fem_run.h"

#include <deal.II/base/mpi.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "app/cli.h"
#include "meshes/meshes.h"

namespace rebound::app {
namespace {

volatile std::sig_atomic_t interrupted = 0;
extern "C" void on_interrupt(int) {
  interrupted = 1;
}

// Ctrl-C on a terminal sends SIGINT; mpirun turns it into SIGTERM for the ranks (then SIGKILL
// after its grace period), and batch systems send SIGTERM too: both end the run cleanly.
class InterruptHandlers {
 public:
  InterruptHandlers()
      : previous_int_(std::signal(SIGINT, on_interrupt)),
        previous_term_(std::signal(SIGTERM, on_interrupt)) {}
  ~InterruptHandlers() {
    std::signal(SIGINT, previous_int_);
    std::signal(SIGTERM, previous_term_);
  }
  InterruptHandlers(const InterruptHandlers&) = delete;
  InterruptHandlers& operator=(const InterruptHandlers&) = delete;

 private:
  void (*previous_int_)(int);
  void (*previous_term_)(int);
};

// Open MPI gives the ranks a pseudo-terminal even when mpirun's own output goes to a file, so
// isatty() cannot tell; under a launcher the progress is written as plain lines.
bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

}  // namespace

void print_fem_summary(const nlohmann::json& s, const std::string& directory) {
  std::printf("%s  solved by the FEM (p = %s, %s dofs, %s cells, %s rank%s)\n",
              s["case"].get<std::string>().c_str(), format_number(s["degree"]).c_str(),
              format_number(s["dofs"], "%.0f").c_str(), format_number(s["cells"], "%.0f").c_str(),
              format_number(s["mpi_ranks"]).c_str(), s["mpi_ranks"].get<int>() == 1 ? "" : "s");
  std::printf("  time step           %-12s s     steps           %s (end %s s)\n",
              format_number(s["time_step"]).c_str(), format_number(s["steps"], "%.0f").c_str(),
              format_number(s["end_time"]).c_str());
  std::printf("  lambda (case/mesh)  %s / %s   theta (case/mesh) %s / %s rad\n",
              format_number(s["lambda"]).c_str(), format_number(s["lambda_mesh"]).c_str(),
              format_number(s["theta"]).c_str(), format_number(s["theta_mesh"]).c_str());
  print_rebound_quantities(s);
  if (s.contains("hertz")) {
    std::printf("  contact duration    %-12s s     Hertz           %s s\n",
                format_number(s["contact_duration"]).c_str(),
                format_number(s["hertz"]["duration"]).c_str());
    std::printf("  peak force          %-12s N     Hertz           %s N\n",
                format_number(s["peak_normal_force"]).c_str(),
                format_number(s["hertz"]["peak_force"]).c_str());
  }
  std::printf("  energy balance err  %-12s       DoF-steps/s     %s\n",
              format_number(s["energy_balance_error"]).c_str(),
              format_number(s["dof_steps_per_second"], "%.3g").c_str());
  std::printf("  status              %s, %s s wall\n", s["status"].get<std::string>().c_str(),
              format_number(s["wall_time"], "%.1f").c_str());
  std::printf("  written to %s/ (summary.json, history.csv, solution.pvd)\n", directory.c_str());
}

FemRun run_fem_into(const cases::Case& c, const std::string& directory, int extra_levels,
                    int frames, bool quiet) {
  try {
    meshes::place_body(c);
    meshes::mesh_options(c, extra_levels);
  } catch (const std::invalid_argument& error) {
    throw cases::CaseError(c.source, "body", std::string("cannot be meshed: ") + error.what());
  }
  const bool root = dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0;
  if (root) std::filesystem::create_directories(directory);
  MPI_Barrier(MPI_COMM_WORLD);

  fem::RunOptions options;
  options.solver.extra_levels = extra_levels;
  options.frames = frames;
  options.output_directory = directory;
  interrupted = 0;
  options.interrupt = &interrupted;
  const InterruptHandlers handlers;
  const bool terminal = stdout_is_terminal() && !launched_by_mpi();
  const auto start = std::chrono::steady_clock::now();
  double last_print = -1;
  int last_decile = -1;
  if (root && !quiet) {
    options.progress = [&](const fem::Progress& p) {
      const double fraction = p.end_time > 0 ? std::min(1.0, p.time / p.end_time) : 0;
      const double eta = fraction > 0 ? p.wall_seconds * (1 / fraction - 1) : 0;
      if (terminal) {
        const double now =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (now - last_print < 0.2) return;
        last_print = now;
        std::printf("\r  step %lld  t = %.4e / %.4e s  %5.1f %%  ETA %.0f s  %.3g DoF-steps/s%s  ",
                    p.step, p.time, p.end_time, 100 * fraction, eta, p.dof_steps_per_second,
                    p.in_contact ? "  contact" : "");
        std::fflush(stdout);
      } else {
        const int decile = int(10 * fraction);
        if (decile <= last_decile) return;
        last_decile = decile;
        std::printf("  step %lld  t = %.4e s  (%d %% of %.4e s)  %.3g DoF-steps/s\n", p.step,
                    p.time, 10 * decile, p.end_time, p.dof_steps_per_second);
        std::fflush(stdout);
      }
    };
  }
  FemRun run;
  try {
    run.result = fem::run(c, options, MPI_COMM_WORLD);
  } catch (const cases::CaseError&) {
    throw;
  } catch (const std::invalid_argument& error) {
    throw cases::CaseError(c.source, "body", std::string("cannot be meshed: ") + error.what());
  } catch (const std::exception& error) {
    throw RunError(std::string("fem: ") + error.what());
  }
  run.summary = run.result.summary;
  run.summary["file"] = c.source;
  run.summary["extra_levels"] = extra_levels;
  if (root) {
    if (terminal && !quiet) std::printf("\n");
    write_file_atomically(directory + "/history.csv", fem::history_csv(run.result.history));
    write_file_atomically(directory + "/summary.json", run.summary.dump(2) + "\n");
    if (!quiet) print_fem_summary(run.summary, directory);
    std::fflush(stdout);
  }
  return run;
}

}  // namespace rebound::app
