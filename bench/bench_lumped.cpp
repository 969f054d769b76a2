// Google Benchmark of the lumped models: one Lai solve, one MDR solve, one half-space impact, a
// 10,000-point Psi1 sweep on 1 and 2 threads, the same with a calibrated dissipative normal law,
// one restitution calibration.
// Run: build/bin/bench_lumped   (numbers recorded in docs/PERFORMANCE.md)
#include <benchmark/benchmark.h>

#include <cmath>

#include "cases/case.h"
#include "lumped/halfspace.h"
#include "lumped/lai.h"
#include "lumped/mdr.h"
#include "lumped/normal_laws.h"
#include "lumped/sweep.h"
#include "lumped/uncoupled.h"
#include "tests/common/maw_sphere.h"

using namespace rebound;

namespace {

lumped::Configuration sphere(double psi1) {
  return test::maw_sphere(psi1);
}

// The Table 6.1 sphere of Lai (1999) (nu = 0.3, mu = 0.1, lambda = 5/9, theta = 0).
lumped::Configuration table_61_sphere(double psi1) {
  return test::maw_sphere(psi1, 0.1);
}

// One solve at rtol 1e-8 without the dense history (what a sweep does), at Psi1 = 1.2
// (slip-stick-slip, the most events) and 3.0.
void BM_LaiSolve(benchmark::State& state) {
  const lumped::Configuration c = sphere(state.range(0) / 10.0);
  lumped::LaiOptions options;
  options.record_history = false;
  for (auto _ : state) benchmark::DoNotOptimize(lumped::solve_lai(c, options));
  state.counters["steps"] = double(lumped::last_lai_statistics().steps);
}
BENCHMARK(BM_LaiSolve)
    ->Arg(12)
    ->Arg(30)
    ->Unit(benchmark::kMicrosecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);

void BM_LaiSolveWithHistory(benchmark::State& state) {
  const lumped::Configuration c = sphere(1.2);
  for (auto _ : state) benchmark::DoNotOptimize(lumped::solve_lai(c));
}
BENCHMARK(BM_LaiSolveWithHistory)->Unit(benchmark::kMicrosecond);

// One MDR solve (lumped/mdr.h) without history, docs/THEORY.md §9's sphere (nu = 0.3, mu = 0.1,
// lambda = 5/9) at Psi1 = 2 (slip - stick zone - gross slip), with the default 200 springs and
// with 100 and 400 (Psi_2 within ~3e-5, ~1e-5 and ~4e-6 of the converged value: docs/LUMPED.md).
void BM_MdrSolve(benchmark::State& state) {
  const lumped::Configuration c = table_61_sphere(2.0);
  lumped::MdrOptions options;
  options.record_history = false;
  options.springs = int(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(lumped::solve_mdr(c, options));
}
BENCHMARK(BM_MdrSolve)
    ->Arg(200)
    ->Arg(100)
    ->Arg(400)
    ->Unit(benchmark::kMicrosecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);

// One quasi-static half-space impact at Psi1 = 2 (the same sphere), the default grid (24 cells
// across the Hertz diameter, 100 steps per Hertz duration), without and with the coupling.
void BM_HalfspaceImpact(benchmark::State& state) {
  const lumped::Configuration c = table_61_sphere(2.0);
  lumped::HalfspaceOptions options;
  options.record_history = false;
  options.dundurs_coupling = state.range(0) != 0;
  for (auto _ : state) benchmark::DoNotOptimize(lumped::solve_halfspace(c, options));
}
BENCHMARK(BM_HalfspaceImpact)
    ->ArgName("coupling")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

// The full sweep path of `rebound sweep` (case -> derived -> solve -> summary) over 10,000 Psi1
// values on 2 threads, wall time.
void BM_Sweep10000(benchmark::State& state) {
  const cases::Case base = cases::load_case(REBOUND_SOURCE_DIR "/cases/sphere-lai-psi2.json");
  lumped::SweepRange range;
  range.variable = lumped::SweepVariable::psi1;
  range.start = 0;
  range.stop = 8;
  range.count = 10000;
  for (auto _ : state)
    benchmark::DoNotOptimize(lumped::run_sweep(base, range, int(state.range(0))));
}
BENCHMARK(BM_Sweep10000)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);

// The same sweep with a dissipative normal law (Hunt-Crossley, e = 0.8) on one thread, its damping
// calibrated (arg 0: "exact", one root solve for the whole sweep, then the cache) or from the
// published closed form (arg 1); against BM_Sweep10000/1 (Hertz) this is the cost of the
// calibration in a sweep.
void BM_SweepNormalLaw10000(benchmark::State& state) {
  cases::Case base = cases::load_case(REBOUND_SOURCE_DIR "/cases/sphere-lai-psi2.json");
  base.lumped.normal_law = "hunt-crossley";
  base.lumped.restitution = 0.8;
  base.lumped.restitution_calibration = state.range(0) == 0 ? "exact" : "published";
  lumped::SweepRange range;
  range.variable = lumped::SweepVariable::psi1;
  range.start = 0;
  range.stop = 8;
  range.count = 10000;
  for (auto _ : state) benchmark::DoNotOptimize(lumped::run_sweep(base, range, 1));
}
BENCHMARK(BM_SweepNormalLaw10000)
    ->ArgName("published")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);

// One calibration of the viscous laws' damping (Brent's method on the 1-DOF normal impact): a new e
// at every iteration (arg 0: the root solve, ~7 integrations) or the same e (arg 1: the cache).
void BM_CalibratedDamping(benchmark::State& state) {
  const bool cached = state.range(0) != 0;
  long i = 0;
  for (auto _ : state) {
    const double e = cached ? 0.5 : 0.5 + 1e-9 * double(++i);  // a new e: not in the cache
    benchmark::DoNotOptimize(lumped::calibrated_damping(lumped::NormalLaw::hunt_crossley, e));
  }
}
BENCHMARK(BM_CalibratedDamping)->ArgName("cached")->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
