#include "app/fem_progress.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "app/cli.h"

namespace rebound::app {
namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Open MPI gives the ranks a pseudo-terminal even when mpirun's own output goes to a file, so
// isatty() cannot tell; under a launcher the progress is written as plain lines.
bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

}  // namespace

FemProgressPrinter::FemProgressPrinter()
    : terminal_(::isatty(2) == 1 && !launched_by_mpi()), start_(now_seconds()) {}

std::function<void(const fem::Progress&)> FemProgressPrinter::callback() {
  return [this](const fem::Progress& p) {
    const double fraction = p.end_time > 0 ? std::min(1.0, p.time / p.end_time) : 0;
    const double eta = fraction > 0 ? p.wall_seconds * (1 / fraction - 1) : 0;
    if (terminal_) {
      const double now = now_seconds() - start_;
      if (now - last_print_ < 0.2) return;
      last_print_ = now;
      drawn_ = true;
      std::fprintf(stderr,
                   "\r  step %lld  t = %.4e / %.4e s  %5.1f %%  ETA %.0f s  %.3g DoF-steps/s%s  ",
                   p.step, p.time, p.end_time, 100 * fraction, eta, p.dof_steps_per_second,
                   p.in_contact ? "  contact" : "");
    } else {
      const int decile = int(10 * fraction);
      if (decile <= last_decile_) return;
      last_decile_ = decile;
      std::fprintf(stderr,
                   "  step %lld  t = %.4e s  (%d %% of %.4e s)  ETA %.0f s  %.3g DoF-steps/s\n",
                   p.step, p.time, 10 * decile, p.end_time, eta, p.dof_steps_per_second);
    }
  };
}

void FemProgressPrinter::finish() {
  if (drawn_) std::fputc('\n', stderr);
  drawn_ = false;
}

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
  // solution.pvd only when frames were written (--frames 0 writes none; a failed run may stop
  // before the first).
  const bool frames = std::filesystem::exists(std::filesystem::path(directory) / "solution.pvd");
  std::printf("  written to %s/ (summary.json, history.csv%s)\n", directory.c_str(),
              frames ? ", solution.pvd" : "; no frames");
}

}  // namespace rebound::app
