// Convergence and cost of the partial-slip models on the Table 6.1 sphere (nu = 0.3, lambda = 5/9,
// theta = 0): the MDR bed in its number of springs, the half-space model in its grid and time
// step (Psi2 at Psi1 = 2, mu = 0.1; and Hertz's normal impact). Prints the tables quoted in
// docs/LUMPED.md and docs/HALFSPACE.md. Then full stick (mu = 1000, the tangential speed of
// Psi1 = 2 at mu = 0.1): the tangential coefficient of restitution of the half-space model with
// beta = 0 in its time step against the MDR bed (the same physics); --coupled-full-stick adds the
// coupled half-space model at 100 and 400 steps (about 22 s more).
// Run: build/bin/bench_lumped_partial_slip [--coupled-full-stick] (about 22 s).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/halfspace.h"
#include "lumped/mdr.h"
#include "tests/common/maw_sphere.h"

using namespace rebound;

namespace {

constexpr double kNu = 0.3, kLambda = 5.0 / 9.0;

lumped::Configuration sphere(double psi1, double mu) {
  return test::maw_sphere(psi1, mu, kNu);
}

double psi2(const lumped::Configuration& c, const lumped::Outcome& o) {
  return cases::psi_scale(c.poisson_ratio, c.friction) * o.separation_velocity.x() /
         o.separation_velocity.y();
}

// Wall seconds of one call.
double timed(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Observed order from three values on meshes refined by a constant ratio r.
// The observed order of q1, q2, q3 at resolutions refined by r each; NaN when the differences
// change sign (no asymptotic range: no order, no Richardson value).
double order(double q1, double q2, double q3, double r) {
  if ((q1 - q2) * (q2 - q3) <= 0) return std::nan("");
  return std::log((q1 - q2) / (q2 - q3)) / std::log(r);
}

std::string order_text(double p) {
  return std::isnan(p) ? "oscillates" : std::to_string(p);
}

// Full stick: one solve, timed; w_t/v_t at P and the seconds it took.
std::pair<double, double> stick_ratio(const std::function<lumped::Outcome()>& solve, double v_t) {
  lumped::Outcome o;
  const double seconds = timed([&] { o = solve(); });
  return {o.separation_velocity.x() / v_t, seconds};
}

}  // namespace

int main(int argc, char** argv) {
  const bool coupled_full_stick = argc > 1 && std::strcmp(argv[1], "--coupled-full-stick") == 0;
  const lumped::Configuration c2 = sphere(2.0, 0.1);

  std::printf("MDR bed, Psi2 at Psi1 = 2, mu = 0.1 (springs across the largest half-width)\n");
  std::printf("| springs | Psi2 | difference | observed order | ms |\n|---|---|---|---|---|\n");
  std::vector<double> q;
  for (const int springs : {50, 100, 200, 400, 800, 1600}) {
    lumped::MdrOptions options;
    options.record_history = false;
    options.springs = springs;
    lumped::Outcome o;
    const double seconds = timed([&] { o = lumped::solve_mdr(c2, options); });
    q.push_back(psi2(c2, o));
    const std::size_t n = q.size();
    std::printf("| %d | %.7f | %s | %s | %.2f |\n", springs, q.back(),
                n > 1 ? std::to_string(q[n - 2] - q[n - 1]).c_str() : "",
                n > 2 ? order_text(order(q[n - 3], q[n - 2], q[n - 1], 2)).c_str() : "",
                1e3 * seconds);
  }

  // Hertz in Lai's units: normal speed 1, compliance 1 - lambda (theta = 0).
  const double delta_max = std::pow(15.0 / 16.0 / (1 - kLambda), 0.4);
  const double tau_c = cases::hertz_duration_constant() * delta_max;
  const double peak = 4.0 / 3.0 * std::pow(delta_max, 1.5);
  std::printf("\nHalf-space model, normal impact (mu = 0): against Hertz tau_c = %.5f, peak %.5f\n",
              tau_c, peak);
  std::printf("| cells | tau_c error | peak force error | s |\n|---|---|---|---|\n");
  for (const int cells : {8, 12, 16, 24, 32, 48}) {
    lumped::HalfspaceOptions options;
    options.record_history = false;
    options.cells = cells;
    lumped::Outcome o;
    const double seconds = timed([&] { o = lumped::solve_halfspace(sphere(0, 0), options); });
    std::printf("| %d | %+.1e | %+.1e | %.2f |\n", cells, o.duration / tau_c - 1,
                o.peak_normal_force / peak - 1, seconds);
  }

  std::printf("\nHalf-space model, Psi2 at Psi1 = 2, mu = 0.1\n");
  std::printf("| cells | steps | beta = 0 | s | beta = %.4f | s |\n|---|---|---|---|---|---|\n",
              (1 - 2 * kNu) / (2 * (1 - kNu)));
  const auto row = [&](int cells, int steps) {
    double value[2], seconds[2];
    for (const bool coupled : {false, true}) {
      lumped::HalfspaceOptions options;
      options.record_history = false;
      options.cells = cells;
      options.time_steps = steps;
      options.dundurs_coupling = coupled;
      lumped::Outcome o;
      seconds[coupled] = timed([&] { o = lumped::solve_halfspace(c2, options); });
      value[coupled] = psi2(c2, o);
    }
    std::printf("| %d | %d | %.5f | %.2f | %.5f | %.2f |\n", cells, steps, value[0], seconds[0],
                value[1], seconds[1]);
  };
  for (const int cells : {12, 16, 24, 32, 48}) row(cells, 100);
  for (const int steps : {25, 50, 200, 400}) row(24, steps);

  // Full stick: the receding contact releases its stuck rings; each release is a slip event at
  // the contact edge that the time step must resolve. w_t/v_t at P after / before the impact.
  lumped::Configuration stick = sphere(0, 0);
  stick.friction = 1000;
  stick.incidence_angle = std::atan(2.0 / cases::psi_scale(kNu, 0.1));
  const double v_t = std::sin(stick.incidence_angle);  // Lai's units: |v_P| = 1 at first touch
  std::printf(
      "\nFull stick (mu = 1000, sin(alpha) = %.5f): w_t/v_t at P (as tests/lumped/test_mdr.cpp)\n",
      v_t);
  std::printf(
      "| model | springs or cells | steps | w_t/v_t | difference | observed order | s |\n"
      "|---|---|---|---|---|---|---|\n");
  for (const int springs : {200, 800}) {
    lumped::MdrOptions options;
    options.record_history = false;
    options.springs = springs;
    const auto [ratio, seconds] =
        stick_ratio([&] { return lumped::solve_mdr(stick, options); }, v_t);
    std::printf("| MDR | %d | | %.5f | | | %.2f |\n", springs, ratio, seconds);
  }
  std::vector<double> e;
  for (const int steps : {100, 200, 400, 800, 1600}) {
    lumped::HalfspaceOptions options;
    options.record_history = false;
    options.time_steps = steps;
    options.dundurs_coupling = false;
    const auto [ratio, seconds] =
        stick_ratio([&] { return lumped::solve_halfspace(stick, options); }, v_t);
    e.push_back(ratio);
    const std::size_t n = e.size();
    std::printf("| half-space, beta = 0 | %d | %d | %.5f | %s | %s | %.2f |\n", options.cells,
                steps, e.back(), n > 1 ? std::to_string(e[n - 1] - e[n - 2]).c_str() : "",
                n > 2 ? order_text(order(e[n - 3], e[n - 2], e[n - 1], 2)).c_str() : "", seconds);
  }
  {
    const std::size_t n = e.size();
    const double p = order(e[n - 3], e[n - 2], e[n - 1], 2);
    if (std::isnan(p)) {
      std::printf(
          "| half-space, beta = 0, Richardson (last three) | | | none: the differences "
          "change sign | | | |\n");
    } else {
      const double richardson = e[n - 1] + (e[n - 1] - e[n - 2]) / (std::pow(2.0, p) - 1);
      std::printf(
          "| half-space, beta = 0, Richardson (last three) | | | %.5f | +- %.5f | %.2f | |\n",
          richardson, std::abs(richardson - e[n - 1]), p);
    }
  }
  if (coupled_full_stick) {
    for (const int steps : {100, 400}) {
      lumped::HalfspaceOptions options;
      options.record_history = false;
      options.time_steps = steps;
      const auto [ratio, seconds] =
          stick_ratio([&] { return lumped::solve_halfspace(stick, options); }, v_t);
      std::printf("| half-space, beta = %.4f | %d | %d | %.5f | | | %.2f |\n",
                  (1 - 2 * kNu) / (2 * (1 - kNu)), options.cells, steps, ratio, seconds);
    }
  }
  return 0;
}
