#include "app/fem_progress.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "app/cli.h"

namespace rebound::app {

std::function<void(const fem::Progress&)> FemProgressPrinter::callback() {
  return [this](const fem::Progress& p) {
    const double fraction = p.end_time > 0 ? std::min(1.0, p.time / p.end_time) : 0;
    if (!line_.due(fraction)) return;
    const double eta = fraction > 0 ? p.wall_seconds * (1 / fraction - 1) : 0;
    char text[200];
    if (line_.terminal())
      std::snprintf(text, sizeof text,
                    "  step %lld  t = %.4e / %.4e s  %5.1f %%  ETA %.0f s  %.3g DoF-steps/s%s",
                    p.step, p.time, p.end_time, 100 * fraction, eta, p.dof_steps_per_second,
                    p.in_contact ? "  contact" : "");
    else
      std::snprintf(text, sizeof text,
                    "  step %lld  t = %.4e s  (%d %% of %.4e s)  ETA %.0f s  %.3g DoF-steps/s",
                    p.step, p.time, int(10 * fraction) * 10, p.end_time, eta,
                    p.dof_steps_per_second);
    line_.show(text);
  };
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
