// DoF-steps per second of the FEM time step (matrix-free internal force + contact + rigid-body
// averaging), p = 1 and 2, on the ranks it is started with:
//   build/bin/bench_fem [CASE] [--level K] [--steps N]
//   mpirun -np 2 build/bin/bench_fem
// The case (default cases/sphere-lai-psi2.json at its default resolution) is started from its
// rigid-body initial state, so the contact is active during the measured steps.
#include <deal.II/base/mpi.h>
#include <deal.II/base/timer.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"
#include "fem/fem.h"

int main(int argc, char** argv) {
  dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  std::string file = std::string(REBOUND_SOURCE_DIR) + "/cases/sphere-lai-psi2.json";
  int level = 0, steps = 200;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--level" && i + 1 < argc)
      level = std::atoi(argv[++i]);
    else if (a == "--steps" && i + 1 < argc)
      steps = std::atoi(argv[++i]);
    else
      file = a;
  }
  const bool root = dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0;
  const int ranks = dealii::Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD);
  if (root)
    std::printf("%s, --level %d, %d rank%s, %d steps\n%3s %10s %10s %12s %10s %14s\n", file.c_str(),
                level, ranks, ranks == 1 ? "" : "s", steps, "p", "dofs", "cells", "dt [s]",
                "wall [s]", "DoF-steps/s");
  for (const int degree : {1, 2}) {
    rebound::cases::Case c = rebound::cases::load_case(file);
    c.fem.degree = degree;
    const rebound::cases::Derived d = rebound::cases::derive(c);
    rebound::fem::SolverOptions options;
    options.extra_levels = level;
    const auto solver = rebound::fem::Solver::create(c, options, MPI_COMM_WORLD);
    solver->set_state(Eigen::Vector3d::Zero(),
                      Eigen::Vector3d(d.centre_velocity.x(), d.centre_velocity.y(), 0),
                      Eigen::Vector3d(0, 0, d.spin), d.body.centre_of_mass);
    for (int k = 0; k < 10; ++k) solver->step();  // warm-up
    dealii::Timer timer(MPI_COMM_WORLD);
    for (int k = 0; k < steps; ++k) solver->step();
    const double wall = dealii::Utilities::MPI::max(timer.wall_time(), MPI_COMM_WORLD);
    const auto& info = solver->info();
    if (root)
      std::printf("%3d %10llu %10llu %12.4g %10.3f %14.4g\n", degree, info.dofs, info.cells,
                  info.time_step, wall, double(info.dofs) * steps / wall);
  }
  return 0;
}
