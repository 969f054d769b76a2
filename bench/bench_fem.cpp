// DoF-steps per second of the FEM time step (matrix-free internal force + contact + rigid-body
// averaging), p = 1 and 2, on the ranks it is started with:
//   build/bin/bench_fem [CASE] [--level K] [--steps N] [--repeats R] | --list-lanes
// for every SIMD width of the internal force this build and CPU have (fem/internal_force.h),
// with the speed-up over one lane measured in the same run.
//   mpirun -np 2 build/bin/bench_fem
//   build/bin/bench_fem --targets [CASE]
// times the case's target (default cases/socket-wang-gao-0.5mm.json, the ball in a spherical
// socket) against the rigid plane on one mesh, the one the case's target asks for
// (SolverOptions::contact_zone_radius), with the widest SIMD width, p = 1 and 2: the cost of the
// target's geometry and contact law per boundary node in the time step.
// The case (default cases/sphere-lai-psi2.json at its default resolution) is started from its
// rigid-body initial state, so the contact is active during the measured steps. The column
// "K u share" is the time of the same number of internal-force evaluations alone (every cell,
// Solver::time_internal_force, timed in the same repeats) over the step's: the rest of the step
// is the per-node work (kick, contact, drift, the rigid-body sums and their reduction); "sums
// share" is the part of that rest spent forming the state (Solver::time_state_averages: the
// rigid-body sums, the lowest boundary node and their reduction, as many times as steps).
//   build/bin/bench_fem --two-body [CASE]
// times the two-sphere impact (default cases/sphere-sphere-steel.json: both spheres meshed, the
// two-body contact of fem/two_body_contact.h), the same mesh without contact, and the body alone
// on the rigid plane on the same mesh of the body and on a finer one of about the two spheres'
// dofs, the widest SIMD width, p = 1 and 2, taking turns: DoF-steps/s of each and against the
// one body's.
//   build/bin/bench_fem --materials [CASE] [--yield-stress Y]
// times the elastic-plastic body (material.model "elastic-plastic", Y the case's
// material.yield_stress unless given; default case cases/sphere-thornton-steel.json, Y = 355 MPa,
// v_n = 393 V_y) against the elastic one on the same mesh, the widest SIMD width, p = 1 and 2,
// taking turns, with the cells whose plastic state the step reads (the batches where a point has
// yielded) and that state's bytes; and the viscoelastic body (material.model "viscoelastic",
// g = 1, tau = 0.05 of Hertz's contact time, every point's state read and written) on the same
// mesh and time step (the elastic one's: the cost of a step, not of the run, whose step is
// shorter by sqrt(1 + g)).
#include <deal.II/base/mpi.h>
#include <deal.II/base/timer.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"
#include "fem/fem.h"
#include "fem/internal_force.h"
#include "fem/targets/target.h"
#include "meshes/meshes.h"

namespace {

constexpr const char* kUsage =
    "usage: bench_fem [CASE] [--level K] [--steps N] [--repeats R] | --list-lanes\n"
    "       bench_fem --targets [CASE] [--level K] [--steps N] [--repeats R]\n"
    "  (also under mpirun -np N). Times the FEM step for every SIMD width this build and CPU\n"
    "  have, p = 1 and 2; CASE defaults to cases/sphere-lai-psi2.json. --targets: the case's\n"
    "  target against the rigid plane on the same mesh (CASE defaults to\n"
    "  cases/socket-wang-gao-0.5mm.json).\n"
    "       bench_fem --two-body [CASE] [--level K] [--steps N] [--repeats R]\n"
    "  the two-sphere impact, its mesh without contact, and the body alone on the rigid plane\n"
    "  on its own mesh and with about the two spheres' dofs (CASE defaults to\n"
    "  cases/sphere-sphere-steel.json).\n"
    "       bench_fem --materials [CASE] [--yield-stress Y] [--level K] [--steps N] [--repeats R]\n"
    "  the elastic-plastic and viscoelastic (g = 1, tau = 0.05 t_c) bodies against the elastic\n"
    "  one on the same mesh (CASE defaults to cases/sphere-thornton-steel.json; Y to its\n"
    "  material.yield_stress).\n";

// A positive whole number for OPTION, or exit 2 with the usage.
int positive(const char* option, const char* text) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < 0 || value > 1000000000) {
    std::fprintf(stderr, "bench_fem: %s %s: expected a whole number >= 0\n%s", option, text,
                 kUsage);
    std::exit(2);
  }
  return int(value);
}

double median_of(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  return x[x.size() / 2];
}

// A solver for c on the given contact zone, started from the case's rigid-body state and warmed up.
// (time_step > 0: that step instead of the stable one's estimate; contact false: free flight)
std::unique_ptr<rebound::fem::Solver> started_solver(const rebound::cases::Case& c, int level,
                                                     double contact_zone_radius,
                                                     double time_step = 0, bool contact = true) {
  const rebound::cases::Derived d = rebound::cases::derive(c);
  rebound::fem::SolverOptions options;
  options.contact = contact;
  options.extra_levels = level;
  options.contact_zone_radius = contact_zone_radius;
  options.time_step = time_step;
  std::unique_ptr<rebound::fem::Solver> solver =
      rebound::fem::Solver::create(c, options, MPI_COMM_WORLD);
  solver->set_state(Eigen::Vector3d::Zero(),
                    Eigen::Vector3d(d.centre_velocity.x(), d.centre_velocity.y(), 0),
                    Eigen::Vector3d(0, 0, d.spin), d.body.centre_of_mass);
  for (int k = 0; k < 10; ++k) solver->step();  // warm-up
  return solver;
}

// The median wall time (the slowest rank's) of `steps` steps of each solver, the solvers taking
// turns (A B A B ...) `repeats` times, so that a change of load on the machine touches each alike.
template <std::size_t N>
std::array<double, N> alternating_medians(
    const std::array<std::unique_ptr<rebound::fem::Solver>, N>& solvers, int steps, int repeats) {
  std::array<std::vector<double>, N> walls;
  for (int r = 0; r < repeats; ++r)
    for (std::size_t v = 0; v < N; ++v) {
      dealii::Timer timer(MPI_COMM_WORLD);
      for (int k = 0; k < steps; ++k) solvers[v]->step();
      walls[v].push_back(dealii::Utilities::MPI::max(timer.wall_time(), MPI_COMM_WORLD));
    }
  std::array<double, N> median;
  for (std::size_t v = 0; v < N; ++v) median[v] = median_of(walls[v]);
  return median;
}

// --targets: the case's target and the rigid plane, each on the mesh of the case's target, taking
// turns (A B A B ...); DoF-steps/s of each and their ratio.
void compare_targets(const std::string& file, int level, int steps, int repeats) {
  const bool root = dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0;
  const rebound::cases::Case loaded = rebound::cases::load_case(file);
  if (root)
    std::printf(
        "%s against the rigid plane on its mesh, --level %d, %d steps, median of %d alternating "
        "repeats\n%3s %-16s %10s %10s %12s %10s %14s %12s\n",
        file.c_str(), level, steps, repeats, "p", "target", "dofs", "cells", "dt [s]", "wall [s]",
        "DoF-steps/s", "vs plane");
  for (const int degree : {1, 2}) {
    rebound::cases::Case c = loaded;
    c.fem.degree = degree;
    rebound::cases::Case plane = c;
    plane.target = rebound::cases::Target{};  // the rigid plane
    const double zone = rebound::fem::mesh_options(c, level).contact_radius;
    const std::array<std::unique_ptr<rebound::fem::Solver>, 2> solvers = {
        {started_solver(c, level, zone), started_solver(plane, level, zone)}};
    const std::array<double, 2> wall = alternating_medians(solvers, steps, repeats);
    const char* names[2] = {rebound::cases::to_string(c.target.type), "rigid_plane"};
    for (int v = 0; v < 2; ++v) {
      const auto& info = solvers[v]->info();
      if (root)
        std::printf("%3d %-16s %10llu %10llu %12.4g %10.3f %14.4g %11.3fx\n", degree, names[v],
                    info.dofs, info.cells, info.time_step, wall[v],
                    double(info.dofs) * steps / wall[v], wall[1] / wall[v]);
    }
  }
}

// The contact resolution at which the case's body alone (c: its target the rigid plane) has the
// dofs closest to `dofs` at its degree, on the mesh refined over `zone`: fem.contact_resolution
// times 2^(k/16), k = 0..32 (the mesh alone is built; statistics.dofs_q1/q2 are exact).
double resolution_for_dofs(const rebound::cases::Case& c, int level, double zone,
                           unsigned long long dofs) {
  double best = c.fem.contact_resolution, best_gap = -1;
  for (int k = 0; k <= 32; ++k) {
    rebound::cases::Case trial = c;
    trial.fem.contact_resolution = c.fem.contact_resolution * std::pow(2.0, k / 16.0);
    rebound::meshes::MeshOptions options = rebound::fem::mesh_options(trial, level);
    options.contact_radius = zone;
    const rebound::meshes::Mesh mesh = rebound::meshes::build_mesh(trial, options, MPI_COMM_WORLD);
    const double n = double(c.fem.degree == 1 ? mesh.statistics.dofs_q1 : mesh.statistics.dofs_q2);
    const double gap = std::abs(std::log(n / double(dofs)));
    if (best_gap < 0 || gap < best_gap) best = trial.fem.contact_resolution, best_gap = gap;
    if (n > double(dofs)) break;
  }
  return best;
}

// --two-body: the two spheres, the same two-sphere mesh in free flight (no contact: the cost of
// the two-body contact in the step), the body alone on the rigid plane on the same mesh of the
// body (half the dofs, the same cells around P and time step) and the body alone on the rigid
// plane with about the two spheres' dofs (its contact zone refined further: the one-body run of
// the same total dofs that the acceptance of the two-body contact names), taking turns;
// DoF-steps/s, against each one-body run.
void compare_two_body(const std::string& file, int level, int steps, int repeats) {
  const bool root = dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0;
  const rebound::cases::Case loaded = rebound::cases::load_case(file);
  if (root)
    std::printf(
        "%s against the body alone on the rigid plane, --level %d, %d steps, median of %d "
        "alternating repeats\n%3s %-26s %10s %10s %12s %10s %14s %14s %16s\n",
        file.c_str(), level, steps, repeats, "p", "run", "dofs", "cells", "dt [s]", "wall [s]",
        "DoF-steps/s", "vs one body", "vs same dofs");
  for (const int degree : {1, 2}) {
    rebound::cases::Case c = loaded;
    c.fem.degree = degree;
    rebound::cases::Case plane = c;
    plane.target = rebound::cases::Target{};  // the rigid plane
    const double zone = rebound::fem::mesh_options(c, level).contact_radius;
    constexpr int kRuns = 4;
    std::array<std::unique_ptr<rebound::fem::Solver>, kRuns> solvers = {
        {started_solver(c, level, zone),
         started_solver(c, level, zone, 0, false),
         started_solver(plane, level, zone),
         {}}};
    rebound::cases::Case finer = plane;
    finer.fem.contact_resolution = resolution_for_dofs(plane, level, zone, solvers[0]->info().dofs);
    solvers[3] = started_solver(finer, level, zone);
    const std::array<double, kRuns> wall = alternating_medians(solvers, steps, repeats);
    double rate[kRuns];
    for (int v = 0; v < kRuns; ++v) rate[v] = double(solvers[v]->info().dofs) * steps / wall[v];
    char finer_name[64];
    std::snprintf(finer_name, sizeof finer_name, "one sphere, plane, cr %.3g",
                  finer.fem.contact_resolution);
    const char* names[kRuns] = {"two spheres", "two spheres, no contact", "one sphere, plane",
                                finer_name};
    for (int v = 0; v < kRuns; ++v) {
      const auto& info = solvers[v]->info();
      if (root)
        std::printf("%3d %-26s %10llu %10llu %12.4g %10.3f %14.4g %13.3fx %15.3fx\n", degree,
                    names[v], info.dofs, info.cells, info.time_step, wall[v], rate[v],
                    rate[v] / rate[2], rate[v] / rate[3]);
    }
  }
}

// --materials: the elastic-plastic and viscoelastic bodies and the elastic one on the same mesh,
// taking turns; the step's DoF-steps/s, the ratio of the step times, the K u evaluations alone (a
// trial evaluation for a body with state: the state read, not written) and the cells whose state
// the step reads. The viscoelastic body runs with the elastic one's time step, so that the
// ratio is the cost of a step.
void compare_materials(const std::string& file, std::optional<double> yield_stress, int level,
                       int steps, int repeats) {
  const bool root = dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0;
  const rebound::cases::Case loaded = rebound::cases::load_case(file);
  rebound::cases::Case plastic = loaded;
  plastic.material.model = rebound::cases::MaterialModel::elastic_plastic;
  if (yield_stress) plastic.material.yield_stress = yield_stress;
  if (!plastic.material.yield_stress)
    throw std::invalid_argument(file + " has no material.yield_stress: give --yield-stress Y");
  rebound::cases::Case elastic = loaded;
  elastic.material.model = rebound::cases::MaterialModel::elastic;
  elastic.material.yield_stress.reset();
  rebound::cases::Case viscous = elastic;
  viscous.material.model = rebound::cases::MaterialModel::viscoelastic;
  viscous.material.relaxation_strength = 1.0;
  viscous.material.relaxation_time = 0.05 * rebound::cases::derive(elastic).hertz.duration;
  if (root)
    std::printf(
        "%s, Y = %.4g Pa, viscoelastic g = 1, tau = %.4g s, --level %d, %d steps after 10 (the "
        "contact from the first), median of %d alternating repeats\n%3s %-16s %6s %10s %10s "
        "%10s %14s %11s %11s %14s %12s\n",
        file.c_str(), *plastic.material.yield_stress, *viscous.material.relaxation_time, level,
        steps, repeats, "p", "material", "lanes", "dofs", "cells", "wall [s]", "DoF-steps/s",
        "step ratio", "K u ratio", "cells w/ state", "state [MB]");
  for (const int degree : {1, 2}) {
    rebound::cases::Case cases[3] = {elastic, plastic, viscous};
    for (auto& c : cases) c.fem.degree = degree;
    // One mesh: the elastic-plastic body's (refined over Thornton's contact zone, larger than
    // Hertz's above the yield speed; meshes::mesh_options).
    const double zone = rebound::cases::derive(cases[1]).thornton.contact_zone_radius;
    std::unique_ptr<rebound::fem::Solver> solvers[3] = {
        started_solver(cases[0], level, zone), started_solver(cases[1], level, zone), {}};
    solvers[2] = started_solver(cases[2], level, zone, solvers[0]->info().time_step);
    std::vector<double> walls[3], forces[3];
    for (int r = 0; r < repeats; ++r)
      for (int v = 0; v < 3; ++v) {
        dealii::Timer timer(MPI_COMM_WORLD);
        for (int k = 0; k < steps; ++k) solvers[v]->step();
        walls[v].push_back(dealii::Utilities::MPI::max(timer.wall_time(), MPI_COMM_WORLD));
        forces[v].push_back(solvers[v]->time_internal_force(steps));
      }
    const double wall[3] = {median_of(walls[0]), median_of(walls[1]), median_of(walls[2])};
    const double force[3] = {median_of(forces[0]), median_of(forces[1]), median_of(forces[2])};
    const char* names[3] = {"elastic", "elastic-plastic", "viscoelastic"};
    for (int v = 0; v < 3; ++v) {
      const auto& info = solvers[v]->info();
      const unsigned long long with_state = solvers[v]->state().cells_with_plastic_state;
      // per quadrature point, (p + 1)^3 points per cell: eps_p (6 doubles) and ebar_p (1); the
      // Maxwell arm's stress and the last strain (12)
      const int doubles[3] = {0, 7, 12};
      const double megabytes = double(info.cells) * std::pow(degree + 1, 3) * doubles[v] * 8 / 1e6;
      if (root)
        std::printf("%3d %-16s %6u %10llu %10llu %10.3f %14.4g %10.3fx %10.3fx %14llu %12.2f\n",
                    degree, names[v], info.simd_lanes, info.dofs, info.cells, wall[v],
                    double(info.dofs) * steps / wall[v], wall[v] / wall[0], force[v] / force[0],
                    with_state, megabytes);
    }
  }
}

}  // namespace

int main(int argc, char** argv) try {
  dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  std::string file = std::string(REBOUND_SOURCE_DIR) + "/cases/sphere-lai-psi2.json";
  int level = 0, steps = 200, repeats = 3;
  bool targets = false, materials = false, two_body = false, file_given = false;
  std::optional<double> yield_stress;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool value = i + 1 < argc;
    if (a == "--help" || a == "-h") {
      std::printf("%s", kUsage);
      return 0;
    } else if (a == "--level" && value)
      level = positive("--level", argv[++i]);
    else if (a == "--steps" && value)
      steps = std::max(1, positive("--steps", argv[++i]));
    else if (a == "--targets")
      targets = true;
    else if (a == "--materials")
      materials = true;
    else if (a == "--two-body")
      two_body = true;
    else if (a == "--yield-stress" && value) {
      char* end = nullptr;
      yield_stress = std::strtod(argv[++i], &end);
      if (*end != '\0' || !(*yield_stress > 0)) {
        std::fprintf(stderr, "bench_fem: --yield-stress %s: expected Y > 0 Pa\n%s", argv[i],
                     kUsage);
        return 2;
      }
    } else if (a == "--list-lanes") {  // the SIMD widths available here, one per line
      for (const unsigned int n : rebound::fem::available_lanes()) std::printf("%u\n", n);
      return 0;
    } else if (a == "--repeats" && value)
      repeats = std::max(1, positive("--repeats", argv[++i]));
    else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "bench_fem: unknown option or missing value: %s\n%s", a.c_str(), kUsage);
      return 2;
    } else {
      file = a;
      file_given = true;
    }
  }
  if (materials) {
    if (!file_given) file = std::string(REBOUND_SOURCE_DIR) + "/cases/sphere-thornton-steel.json";
    compare_materials(file, yield_stress, level, steps, repeats);
    return 0;
  }
  if (two_body) {
    if (!file_given) file = std::string(REBOUND_SOURCE_DIR) + "/cases/sphere-sphere-steel.json";
    compare_two_body(file, level, steps, repeats);
    return 0;
  }
  if (targets) {
    if (!file_given) file = std::string(REBOUND_SOURCE_DIR) + "/cases/socket-wang-gao-0.5mm.json";
    compare_targets(file, level, steps, repeats);
    return 0;
  }
  const bool root = dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0;
  const int ranks = dealii::Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD);
  const std::vector<unsigned int> lanes = rebound::fem::available_lanes();
  rebound::cases::load_case(file);  // a case that does not load is reported before the table
  if (root)
    std::printf(
        "%s, --level %d, %d rank%s, %d steps, median of %d alternating repeats\n"
        "%3s %6s %10s %10s %12s %10s %14s %14s %10s %11s\n",
        file.c_str(), level, ranks, ranks == 1 ? "" : "s", steps, repeats, "p", "lanes", "dofs",
        "cells", "dt [s]", "wall [s]", "DoF-steps/s", "vs 1 lane", "K u share", "sums share");
  for (const int degree : {1, 2}) {
    rebound::cases::Case c = rebound::cases::load_case(file);
    c.fem.degree = degree;
    const rebound::cases::Derived d = rebound::cases::derive(c);
    // One solver per SIMD width, all started from the same state; the widths take turns
    // (A B A B ...) so that a change of load on the machine touches every width alike.
    std::vector<std::unique_ptr<rebound::fem::Solver>> solvers;
    for (const unsigned int n : lanes) {
      rebound::fem::SolverOptions options;
      options.extra_levels = level;
      options.simd_lanes = n;
      solvers.push_back(rebound::fem::Solver::create(c, options, MPI_COMM_WORLD));
      solvers.back()->set_state(Eigen::Vector3d::Zero(),
                                Eigen::Vector3d(d.centre_velocity.x(), d.centre_velocity.y(), 0),
                                Eigen::Vector3d(0, 0, d.spin), d.body.centre_of_mass);
      for (int k = 0; k < 10; ++k) solvers.back()->step();  // warm-up
    }
    std::vector<std::vector<double>> walls(lanes.size()), forces(lanes.size()), sums(lanes.size());
    for (int r = 0; r < repeats; ++r)
      for (std::size_t v = 0; v < lanes.size(); ++v) {
        dealii::Timer timer(MPI_COMM_WORLD);
        for (int k = 0; k < steps; ++k) solvers[v]->step();
        walls[v].push_back(dealii::Utilities::MPI::max(timer.wall_time(), MPI_COMM_WORLD));
        forces[v].push_back(solvers[v]->time_internal_force(steps));
        sums[v].push_back(solvers[v]->time_state_averages(steps));
      }
    std::vector<double> median(lanes.size()), force(lanes.size()), sum(lanes.size());
    for (std::size_t v = 0; v < lanes.size(); ++v) {
      median[v] = median_of(walls[v]);
      force[v] = median_of(forces[v]);
      sum[v] = median_of(sums[v]);
    }
    for (std::size_t v = 0; v < lanes.size(); ++v) {
      const auto& info = solvers[v]->info();
      if (root)
        std::printf("%3d %6u %10llu %10llu %12.4g %10.3f %14.4g %13.2fx %10.2f %11.3f\n", degree,
                    lanes[v], info.dofs, info.cells, info.time_step, median[v],
                    double(info.dofs) * steps / median[v], median[0] / median[v],
                    force[v] / median[v], sum[v] / median[v]);
    }
  }
  return 0;
} catch (const std::exception& e) {  // a case that does not load, a width that cannot be built
  std::fprintf(stderr, "bench_fem: error: %s\n", e.what());
  return 1;
}
