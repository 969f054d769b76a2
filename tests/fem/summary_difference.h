// The comparison the partitioned-equals-serial tests share (tests/fem/*.cpp).
#pragma once

#include <deal.II/base/mpi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "cases/case.h"
#include "fem/fem.h"
#include "observables/quantities.h"

namespace rebound::test {

// The worst relative difference of the summary scalars of two runs, and its key; a scalar null in
// one run and not in the other fails the calling test.
inline std::pair<double, std::string> worst_summary_difference(const fem::RunResult& parallel,
                                                               const fem::RunResult& serial) {
  double worst = 0;
  std::string worst_key;
  for (const auto& key : observables::summary_scalar_keys()) {
    const auto& a = parallel.summary[key];
    const auto& b = serial.summary[key];
    EXPECT_EQ(a.is_null(), b.is_null()) << key;
    if (a.is_null() || b.is_null()) continue;
    const double x = a, y = b;
    const double error = std::abs(x - y) / std::max(std::abs(y), 1e-300);
    if (error > worst) worst = error, worst_key = key;
  }
  return {worst, worst_key};
}

// The case run on MPI_COMM_WORLD (the test under mpirun -np 2) and on MPI_COMM_SELF, without
// frames: both complete with the same steps and every summary scalar within 1e-8 (printed on rank
// 0 after `label`).
inline void expect_parallel_run_equals_serial(const cases::Case& c, const std::string& label) {
  fem::RunOptions options;
  options.frames = 0;
  const auto parallel = fem::run(c, options, MPI_COMM_WORLD);
  const auto serial = fem::run(c, options, MPI_COMM_SELF);
  ASSERT_EQ(parallel.status, "completed") << parallel.message;
  ASSERT_EQ(parallel.final.step, serial.final.step);
  const auto [worst, worst_key] = worst_summary_difference(parallel, serial);
  if (dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0)
    std::printf("%s, 2 ranks vs serial: worst relative difference %.3e (%s)\n", label.c_str(),
                worst, worst_key.c_str());
  EXPECT_LT(worst, 1e-8) << worst_key;
}

}  // namespace rebound::test
