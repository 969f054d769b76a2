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

}  // namespace rebound::app
