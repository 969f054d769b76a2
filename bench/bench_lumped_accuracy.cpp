// Accuracy/cost table of the lumped solvers (issue 3): the Dormand-Prince solver with located
// events at rtol 1e-4 ... 1e-10 against the uncoupled-spring thesis program's fixed-step Euler
// (uncoupled-euler) at h = 1e-2, 1e-3, 1e-4. Errors in Psi2 and e against a tight (rtol 1e-12)
// solve of the same model; time per solve is the median of repeated runs.
// Run: build/bin/bench_lumped_accuracy
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include "cases/case.h"
#include "lumped/lai.h"
#include "lumped/uncoupled.h"
#include "tests/common/maw_sphere.h"

using namespace rebound;

namespace {

lumped::Configuration sphere(double psi1) {
  return test::maw_sphere(psi1);
}

struct Result {
  double psi2, e;
};
Result measure(const lumped::Configuration& c, const lumped::Outcome& o) {
  return {cases::psi_scale(c.poisson_ratio, c.friction) * o.separation_velocity.x() /
              o.separation_velocity.y(),
          o.separation_velocity.y() / std::cos(c.incidence_angle)};
}

// Median seconds per call.
double time_per_call(const std::function<void()>& call) {
  std::vector<double> samples;
  int repeats = 1;
  for (;;) {  // calibrate to ~20 ms per sample
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < repeats; ++i) call();
    const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (dt > 0.02 || repeats > 1 << 20) break;
    repeats *= 2;
  }
  for (int s = 0; s < 7; ++s) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < repeats; ++i) call();
    samples.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
                      repeats);
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

}  // namespace

int main() {
  const double psi1_values[] = {1.2, 3.0};
  std::printf("Accuracy/cost of the lumped solvers (sphere nu = 0.3, mu = 0.5, lambda = 5/9)\n");
  std::printf("errors against the same model at rtol 1e-12; time = median per solve\n\n");
  std::printf("| model | Psi1 | solver | setting | |err Psi2| | |err e| | time per solve |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (const double psi1 : psi1_values) {
    lumped::Configuration reference = sphere(psi1);
    reference.relative_tolerance = 1e-12;
    lumped::LaiOptions no_history;
    no_history.record_history = false;
    const Result lai_ref = measure(reference, lumped::solve_lai(reference, no_history));
    const Result unc_ref = measure(reference, lumped::solve_uncoupled(reference));
    for (const double rtol : {1e-4, 1e-6, 1e-8, 1e-10}) {
      lumped::Configuration c = sphere(psi1);
      c.relative_tolerance = rtol;
      const Result r = measure(c, lumped::solve_lai(c, no_history));
      const double t = time_per_call([&] { lumped::solve_lai(c, no_history); });
      std::printf("| lai | %.1f | Dormand-Prince + events | rtol %.0e | %.2e | %.2e | %.2f us |\n",
                  psi1, rtol, std::abs(r.psi2 - lai_ref.psi2), std::abs(r.e - lai_ref.e), t * 1e6);
    }
    for (const double rtol : {1e-4, 1e-6, 1e-8, 1e-10}) {
      lumped::Configuration c = sphere(psi1);
      c.relative_tolerance = rtol;
      const Result r = measure(c, lumped::solve_uncoupled(c));
      const double t = time_per_call([&] { lumped::solve_uncoupled(c); });
      std::printf(
          "| uncoupled | %.1f | Dormand-Prince + events | rtol %.0e | %.2e | %.2e | %.2f us |\n",
          psi1, rtol, std::abs(r.psi2 - unc_ref.psi2), std::abs(r.e - unc_ref.e), t * 1e6);
    }
    double last_error = 0, last_time = 0, last_h = 0;
    for (const double h : {1e-2, 1e-3, 1e-4}) {
      lumped::Configuration c = sphere(psi1);
      c.euler_step = h;
      const Result r = measure(c, lumped::solve_uncoupled_euler(c));
      const double t = time_per_call([&] { lumped::solve_uncoupled_euler(c); });
      std::printf("| uncoupled | %.1f | uncoupled-euler | h %.0e | %.2e | %.2e | %.2f us |\n", psi1,
                  h, std::abs(r.psi2 - unc_ref.psi2), std::abs(r.e - unc_ref.e), t * 1e6);
      last_error = std::abs(r.psi2 - unc_ref.psi2), last_time = t, last_h = h;
    }
    // Euler is first order: the step that would reach 1e-6 in Psi2, and its cost, by
    // extrapolation from h = 1e-4 (cost ~ 1/h).
    const double h_needed = last_h * 1e-6 / std::max(last_error, 1e-300);
    std::printf(
        "| uncoupled | %.1f | uncoupled-euler (extrapolated, order 1) | h %.1e for 1e-6 | 1e-06 | "
        "- "
        "| %.0f us |\n",
        psi1, h_needed, last_time * last_h / h_needed * 1e6);
  }
  return 0;
}
