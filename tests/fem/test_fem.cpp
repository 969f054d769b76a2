// The FEM (issue 5): lumped mass, patch test, free flight, frictionless and Hertz impacts,
// friction, the command line, and (under mpirun -np 2) equality with the serial run.
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include <deal.II/base/mpi.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "cases/case.h"
#include "cases/derived.h"
#include "fem/fem.h"
#include "fem/internal_force.h"
#include "lumped/solve.h"
#include "lumped/summary.h"
#include "tests/fem/fem_cases.h"
#include "tests/fem/summary_difference.h"

namespace fs = std::filesystem;
using rebound::cases::Case;

namespace {

using rebound::test::load;
using rebound::test::small_hertz;

double relative(double value, double exact) {
  return std::abs(value - exact) / std::abs(exact);
}

bool long_tests() {
  return std::getenv("REBOUND_LONG_TESTS") != nullptr;
}

// One full frictionless run shared by the impact tests.
const rebound::fem::RunResult& hertz_run() {
  static const rebound::fem::RunResult result = [] {
    rebound::fem::RunOptions options;
    options.frames = 0;
    return rebound::fem::run(small_hertz(1), options, MPI_COMM_SELF);
  }();
  return result;
}

// 400 steps of an oblique impact with friction (mu = 0.3, v_t = |v_n| / 2, contact from the
// first step) on the small Hertz mesh of degree p, with `options`: the final state, its
// step_impulse replaced by the impulse summed over the steps.
rebound::fem::State oblique_impact(int degree, const rebound::fem::SolverOptions& options,
                                   rebound::fem::Info* info = nullptr) {
  Case c = small_hertz(degree);
  c.contact.friction = 0.3;
  const rebound::cases::Derived d = rebound::cases::derive(c);
  const Eigen::Vector3d v(0.5 * std::abs(d.centre_velocity.y()), d.centre_velocity.y(), 0);
  const auto solver = rebound::fem::Solver::create(c, options, MPI_COMM_SELF);
  if (info) *info = solver->info();
  solver->set_state(Eigen::Vector3d::Zero(), v, Eigen::Vector3d::Zero(), d.body.centre_of_mass);
  Eigen::Vector3d impulse = Eigen::Vector3d::Zero();
  for (int k = 0; k < 400; ++k) {
    solver->step();
    impulse += solver->state().step_impulse;
  }
  rebound::fem::State state = solver->state();
  state.step_impulse = impulse;
  return state;
}

// Two runs of oblique_impact agree: momentum, summed impulse and kinetic energy within
// `tolerance` (relative), internal energy within `internal_tolerance` (a difference of two
// nearly equal quadratic forms, so looser), the same contact nodes.
void expect_same_impact(const rebound::fem::State& a, const rebound::fem::State& b,
                        double tolerance, double internal_tolerance) {
  EXPECT_LT((b.momentum - a.momentum).norm(), tolerance * a.momentum.norm());
  EXPECT_LT((b.step_impulse - a.step_impulse).norm(), tolerance * a.step_impulse.norm());
  EXPECT_LT(relative(b.kinetic_energy, a.kinetic_energy), tolerance);
  EXPECT_LT(relative(b.internal_energy, a.internal_energy), internal_tolerance);
  EXPECT_EQ(b.contact_nodes, a.contact_nodes);
}

class FemDegree : public ::testing::TestWithParam<int> {};

TEST_P(FemDegree, LumpedMassIsPositiveAndConservedAcrossHangingNodes) {
  const auto solver = rebound::fem::Solver::create(small_hertz(GetParam()), {}, MPI_COMM_SELF);
  const auto& info = solver->info();
  EXPECT_GT(info.constrained_dofs, 0u) << "the mesh should have hanging nodes";
  EXPECT_GT(info.min_nodal_mass, 0);
  EXPECT_LT(relative(info.total_mass_lumped, info.total_mass_quadrature), 1e-12);
  const double exact = rebound::cases::derive(small_hertz(GetParam())).body.mass;
  // Geometry (not lumping) error: piecewise trilinear (p = 1) or quadratic (p = 2) sphere.
  EXPECT_LT(relative(info.total_mass_lumped, exact), GetParam() == 1 ? 2.5e-2 : 1e-3);
  std::printf(
      "p = %d: %llu dofs, %llu constrained, mass %.12g (quadrature %.12g, exact %.12g), "
      "dt = %.4g s, lambda_max = %.4g\n",
      GetParam(), info.dofs, info.constrained_dofs, info.total_mass_lumped,
      info.total_mass_quadrature, exact, info.time_step, info.lambda_max);
}

// lambda_mesh/theta_mesh are the FE body's own, not the case's lumped overrides: rod case a
// carries Table 5.2's lambda = 0.63922, its geometry has 0.6206 (THEORY §12: Lai 1999, Table 5.2).
// The coarsest capsule mesh (fem.refinement 0) holds lambda to 8e-5 for p = 2 and 1.0e-2 for p = 1
// (its straight-sided cells lose mass at the caps): bounds 2e-3 and 2e-2, both well away from the
// table's value.
TEST_P(FemDegree, MeshLambdaIsTheBodysOwnNotTheCaseOverride) {
  Case c = load("rod-lai-a");
  c.fem.degree = GetParam();
  c.fem.refinement = 0;
  c.fem.contact_resolution = 1;
  const auto solver = rebound::fem::Solver::create(c, {}, MPI_COMM_SELF);
  const auto& info = solver->info();
  const auto geometry = rebound::cases::derive(rebound::cases::without_lumped_overrides(c));
  std::printf("p = %d: lambda_mesh %.6f, theta_mesh %.6f (geometry %.6f, %.6f; table 0.63922)\n",
              GetParam(), info.lambda_mesh, info.theta_mesh, geometry.lambda, geometry.theta);
  EXPECT_LT(std::abs(info.lambda_mesh - geometry.lambda), GetParam() == 1 ? 2e-2 : 2e-3);
  EXPECT_LT(std::abs(info.theta_mesh - geometry.theta), GetParam() == 1 ? 2e-2 : 2e-3);
  EXPECT_GT(std::abs(info.lambda_mesh - 0.63922), 0.015);
  EXPECT_EQ(info.mesh_mass_properties.mass, info.total_mass_lumped);
  // The same numbers come back out of summary.json's mesh_mass_properties.
  const auto body = rebound::cases::mass_properties_from_json(
      nlohmann::json::parse(rebound::cases::to_json(info.mesh_mass_properties).dump()), "test");
  EXPECT_EQ(rebound::cases::derive(rebound::cases::without_lumped_overrides(c), body).lambda,
            info.lambda_mesh);
}

TEST_P(FemDegree, PatchTestLinearFieldGivesExactConstantStress) {
  const auto solver = rebound::fem::Solver::create(small_hertz(GetParam()), {}, MPI_COMM_SELF);
  Eigen::Matrix3d gradient;
  gradient << 1e-3, 2e-4, -3e-4, 5e-4, -2e-3, 1e-4, 7e-4, -6e-4, 1.5e-3;
  const auto r = solver->patch_test(gradient);
  std::printf("p = %d: interior |Ku| %.3e of %.3e, stress error %.3e of %.3e Pa\n", GetParam(),
              r.max_interior_force, r.force_scale, r.max_stress_error, r.stress_scale);
  // Round-off only (a discretisation error would be O(1e-3) here): cells of 1e-2 R at
  // coordinates of order R cost a few digits for p = 2.
  EXPECT_LT(r.max_interior_force, 1e-8 * r.force_scale);
  EXPECT_LT(r.max_stress_error, 1e-8 * r.stress_scale);
}

TEST_P(FemDegree, FreeFlightKeepsMomentumAngularMomentumAndEnergy) {
  rebound::fem::SolverOptions options;
  options.contact = false;
  const auto solver = rebound::fem::Solver::create(small_hertz(GetParam()), options, MPI_COMM_SELF);
  const Eigen::Vector3d v(0.3, 1.0, -0.2), omega(20, -15, 40), centre(0, 0.01, 0);
  solver->set_state(Eigen::Vector3d(0, 1e-3, 0), v, omega, centre);
  const auto s0 = solver->state();
  // The averaging recovers the rigid motion.
  EXPECT_LT((s0.omega - omega).norm(), 1e-12 * omega.norm());
  EXPECT_LT(std::abs(s0.vibration_kinetic_energy), 1e-12 * s0.kinetic_energy);
  for (int k = 0; k < 300; ++k) solver->step();
  const auto& s1 = solver->state();
  const double p_scale = s0.mass * v.norm();
  const double l_scale = s0.angular_momentum.norm();
  std::printf("p = %d: |dP| %.3e of %.3e, |dL| %.3e of %.3e, dKE/KE %.3e, strain energy %.3e\n",
              GetParam(), (s1.momentum - s0.momentum).norm(), p_scale,
              (s1.angular_momentum - s0.angular_momentum).norm(), l_scale,
              relative(s1.kinetic_energy, s0.kinetic_energy), s1.internal_energy);
  EXPECT_LT((s1.momentum - s0.momentum).norm(), 1e-12 * p_scale);
  EXPECT_LT((s1.angular_momentum - s0.angular_momentum).norm(), 1e-11 * l_scale);
  EXPECT_LT(relative(s1.kinetic_energy, s0.kinetic_energy), 1e-11);
  EXPECT_LT(s1.internal_energy, 1e-11 * s0.kinetic_energy);
  // Small-strain kinematics: x = X + t v is not a rigid rotation, so the averaged omega drifts
  // at O(t |omega|) (here 1e-4); the velocity field itself is unchanged.
  EXPECT_LT((s1.omega - omega).norm(), 2 * s1.time * omega.norm() * omega.norm());
}

// The SIMD width of the internal force (fem/internal_force.h) changes only the order of the
// floating-point sums: 400 steps of an oblique impact with friction (contact from the first
// step) give the same state with every width. Tolerance: round-off (1e-16 per operation)
// grown over 400 steps of a stable scheme, far below any discretisation effect (>= 1e-4).
TEST_P(FemDegree, SimdLanesGiveTheSameImpactToRoundOff) {
  const std::vector<unsigned int> lanes = rebound::fem::available_lanes();
  if (lanes.size() < 2) GTEST_SKIP() << "this build has one SIMD lane only";
  std::vector<rebound::fem::State> states;
  for (const unsigned int n : lanes) {
    rebound::fem::SolverOptions options;
    options.simd_lanes = n;
    rebound::fem::Info info;
    states.push_back(oblique_impact(GetParam(), options, &info));
    EXPECT_EQ(info.simd_lanes, n);
    EXPECT_GT(states.back().step_impulse.y(), 0.0);  // the contact was active
  }
  const rebound::fem::State& a = states.front();
  for (std::size_t i = 1; i < states.size(); ++i) {
    const rebound::fem::State& b = states[i];
    SCOPED_TRACE("lanes " + std::to_string(lanes[i]) + " vs 1");
    expect_same_impact(a, b, 1e-9, 1e-8);
  }
}

// The benchmarks' timing hooks (Solver::time_internal_force, time_state_averages) leave the run
// as it was: two solvers step through the start of the contact, one of them is timed in between,
// and 20 steps later both have bitwise the same state. On any number of ranks (CTest runs it on
// one and, with the FemMpi tests, on two, where forming the state again without restoring it
// would reduce the step's contact impulse twice).
TEST(FemMpi, TimingHooksLeaveTheRunUntouched) {
  {
    const Case c = small_hertz(1);
    const rebound::cases::Derived d = rebound::cases::derive(c);
    rebound::fem::SolverOptions options;
    std::array<std::unique_ptr<rebound::fem::Solver>, 2> solvers;
    for (auto& solver : solvers) {
      solver = rebound::fem::Solver::create(c, options, MPI_COMM_WORLD);
      solver->set_state(Eigen::Vector3d::Zero(),
                        Eigen::Vector3d(d.centre_velocity.x(), d.centre_velocity.y(), 0),
                        Eigen::Vector3d::Zero(), d.body.centre_of_mass);
    }
    int steps = 0;
    while (solvers[0]->state().contact_nodes < 3 && steps < 100000) {
      for (auto& solver : solvers) solver->step();
      ++steps;
    }
    ASSERT_GE(solvers[0]->state().contact_nodes, 3) << "no contact";
    const rebound::fem::State before = solvers[1]->state();
    EXPECT_GT(solvers[1]->time_state_averages(3), 0.0);
    EXPECT_GT(solvers[1]->time_internal_force(3), 0.0);
    const rebound::fem::State& timed = solvers[1]->state();
    EXPECT_EQ(timed.step_impulse, before.step_impulse);
    EXPECT_EQ(timed.momentum, before.momentum);
    EXPECT_EQ(timed.kinetic_energy, before.kinetic_energy);
    for (int k = 0; k < 20; ++k)
      for (auto& solver : solvers) solver->step();
    const rebound::fem::State &a = solvers[0]->state(), &b = solvers[1]->state();
    EXPECT_EQ(a.contact_nodes, b.contact_nodes);
    EXPECT_EQ(a.step_impulse, b.step_impulse);
    EXPECT_EQ(a.momentum, b.momentum);
    EXPECT_EQ(a.angular_momentum, b.angular_momentum);
    EXPECT_EQ(a.kinetic_energy, b.kinetic_energy);
    EXPECT_EQ(a.internal_energy, b.internal_energy);
  }
}

TEST(InternalForce, UnavailableWidthIsRefusedWithTheList) {
  const auto solver_case = small_hertz(1);
  rebound::fem::SolverOptions options;
  options.simd_lanes = 3;
  try {
    rebound::fem::Solver::create(solver_case, options, MPI_COMM_SELF);
    FAIL() << "3 lanes accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("available: 1"), std::string::npos) << e.what();
  }
}

TEST(InternalForce, EnvironmentChoosesTheWidthOrIsRefused) {
  const char* saved = std::getenv("REBOUND_SIMD_LANES");
  const std::string restore = saved ? saved : "";
  setenv("REBOUND_SIMD_LANES", "1", 1);
  EXPECT_EQ(rebound::fem::default_lanes(), 1u);
  setenv("REBOUND_SIMD_LANES", "3", 1);
  try {
    rebound::fem::default_lanes();
    ADD_FAILURE() << "REBOUND_SIMD_LANES=3 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("REBOUND_SIMD_LANES=3"), std::string::npos) << e.what();
  }
  unsetenv("REBOUND_SIMD_LANES");
  EXPECT_EQ(rebound::fem::default_lanes(), rebound::fem::available_lanes().back());
  if (saved) setenv("REBOUND_SIMD_LANES", restore.c_str(), 1);
}

// The widths follow the CPU the program runs on, read here with the CPUID instruction itself
// (not the library's __builtin_cpu_supports): 2 lanes (SSE2) on every x86-64 CPU, 4 lanes exactly
// when the CPU has AVX2 and FMA and the AVX2 module was built, 8 exactly when it also has AVX-512F,
// the operating system saves the AVX-512 state (XCR0 bits 1, 2, 5, 6, 7: SSE, AVX, opmask, upper
// ZMM halves, ZMM16-31) and the AVX-512 module was built. The CTest fem.older_cpu runs this under
// `qemu-x86_64 -cpu Nehalem` (no AVX): only 1 and 2 may be offered there, and the FEM must run on
// them.
TEST(InternalForce, WidthsFollowTheCpu) {
  const std::vector<unsigned int> lanes = rebound::fem::available_lanes();
  const auto has = [&](unsigned int n) {
    return std::find(lanes.begin(), lanes.end(), n) != lanes.end();
  };
  EXPECT_TRUE(has(1));
#if defined(__x86_64__)
  EXPECT_TRUE(has(2));
  unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
  ASSERT_TRUE(__get_cpuid(1, &eax, &ebx, &ecx, &edx));
  const bool fma = ecx & bit_FMA;
  const bool osxsave = ecx & bit_OSXSAVE;
  const bool leaf7 = __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx);
  const bool avx2 = leaf7 && (ebx & bit_AVX2);
  bool avx512 = leaf7 && (ebx & bit_AVX512F) && osxsave;
  if (avx512) {
    unsigned int xcr0_low = 0, xcr0_high = 0;
    __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    avx512 = (xcr0_low & 0xe6) == 0xe6;
  }
#if defined(REBOUND_TEST_AVX2_MODULE)
  EXPECT_EQ(has(4), avx2 && fma) << "AVX2 " << avx2 << ", FMA " << fma;
#else
  EXPECT_FALSE(has(4)) << "4 lanes offered without the AVX2 module";
#endif
#if defined(REBOUND_TEST_AVX512_MODULE)
  EXPECT_EQ(has(8), avx512 && avx2 && fma) << "AVX-512F " << avx512;
#else
  EXPECT_FALSE(has(8)) << "8 lanes offered without the AVX-512 module";
#endif
  std::printf("CPUID: AVX2 %d, FMA %d, AVX-512F %d; widths offered:", int(avx2), int(fma),
              int(avx512));
  for (unsigned int n : lanes) std::printf(" %u", n);
  std::printf("\n");
#endif
}

INSTANTIATE_TEST_SUITE_P(Degrees, FemDegree, ::testing::Values(1, 2));

TEST(FemImpact, FrictionlessNormalImpactConservesEnergyWithoutPenetration) {
  const auto& r = hertz_run();
  ASSERT_EQ(r.status, "completed") << r.message;
  const double radius = 0.01;
  double lowest = 0;
  for (const auto& row : r.history) lowest = std::min(lowest, row.lowest_boundary_height);
  const double energy = r.summary["energy_balance_error"];
  const double dp = r.final.momentum.y() - r.initial.momentum.y();
  const double impulse = r.history.back().normal_impulse;
  std::printf(
      "energy balance error %.3e, lowest node %.3e m, dP_n %.9e, impulse %.9e N s, "
      "normal-contact loss %.3e J of %.3e J, e = %.5f, %lld steps\n",
      energy, lowest, dp, impulse, r.history.back().normal_contact_loss, r.initial.kinetic_energy,
      double(r.summary["e_newton"]), r.final.step);
  EXPECT_LT(energy, 5e-3);
  EXPECT_GE(lowest, -1e-12 * radius);
  EXPECT_LT(relative(dp, impulse), 1e-10);
  EXPECT_LT(std::abs(r.history.back().tangential_impulse), 1e-12 * impulse);
  // Frictionless: no frictional work at all.
  EXPECT_EQ(r.history.back().frictional_dissipation, 0);
}

TEST(FemImpact, HertzDurationAndPeakForceWithinFivePercent) {
  const auto& r = hertz_run();
  ASSERT_EQ(r.status, "completed") << r.message;
  const auto d = rebound::cases::derive(small_hertz(1));
  const double duration = r.summary["contact_duration"], peak = r.summary["peak_normal_force"];
  std::printf(
      "duration %.6e s (Hertz %.6e, %+.2f %%), peak force %.6e N (Hertz %.6e, %+.2f %%), "
      "raw peak %.6e N, %llu dofs\n",
      duration, d.hertz.duration, 100 * (duration / d.hertz.duration - 1), peak, d.hertz.peak_force,
      100 * (peak / d.hertz.peak_force - 1), double(r.summary["peak_normal_force_raw"]),
      r.info.dofs);
  EXPECT_LT(relative(duration, d.hertz.duration), 0.05);
  EXPECT_LT(relative(peak, d.hertz.peak_force), 0.05);
  // Every summary key of the lumped model is present.
  for (const auto& key : rebound::observables::summary_scalar_keys())
    EXPECT_TRUE(r.summary.contains(key)) << key;
}

TEST(FemImpact, FrictionIsDissipativeAtEveryStep) {
  Case c = load("sphere-lai-psi2");
  c.fem.degree = 1;
  c.fem.refinement = 0;
  c.fem.contact_resolution = 2;
  rebound::fem::RunOptions options;
  options.frames = 0;
  const auto r = rebound::fem::run(c, options, MPI_COMM_SELF);
  ASSERT_EQ(r.status, "completed") << r.message;
  for (std::size_t k = 1; k < r.history.size(); ++k)
    ASSERT_GE(r.history[k].frictional_dissipation, r.history[k - 1].frictional_dissipation);
  const double friction = r.history.back().frictional_dissipation;
  const double energy = r.summary["energy_balance_error"];
  const double tangential = r.summary["tangential_impulse"], normal = r.summary["normal_impulse"];
  std::printf(
      "friction work %.4e J (%.3f %% of KE0), energy balance error %.3e, impulse ratio "
      "%.4f, psi2 %.4f, e %.4f\n",
      friction, 100 * friction / r.initial.kinetic_energy, energy, tangential / normal,
      double(r.summary["psi2"]), double(r.summary["e_newton"]));
  EXPECT_GT(friction, 0);
  EXPECT_LT(energy, 5e-3);
  // Coulomb: |tangential impulse| <= mu x normal impulse.
  EXPECT_LE(std::abs(tangential), 0.1 * normal * (1 + 1e-12));
  EXPECT_LT(tangential, 0);  // opposes the tangential approach velocity
}

// A contact that sticks while it grows carries the tangential force of Mindlin & Deresiewicz's
// incremental law, dF_t = K_t(a) d(delta_t) with K_t = 8 G a / (2 - nu) for an elastic body on
// a rigid plane (the no-slip stiffness of a circle of radius a). Here mu = 1000 keeps every node
// stuck; a(t) comes from the FEM's own normal force through Hertz, a = (3 F_n R / (4 E*))^(1/3),
// and delta_t' is the FEM's rigid-body tangential velocity of P, so the law is evaluated on the
// FEM's own normal history. Up to the peak normal force (the contact grows) the FEM's
// tangential impulse must follow it; the tolerance is the 5 % of the Hertz test on this mesh
// size (measured: 0.9 %). Lai's secant spring F_t = K_t(a) delta_t gives 48 % more force
// early in compression: that is where the lumped and FEM Psi2 part (docs/FEM.md).
TEST(FemImpact, StuckContactFollowsMindlinIncrementalStiffness) {
  Case c = load("sphere-lai-psi2");
  c.contact.friction = 1000;
  c.impact.tangential_speed = 0.03;  // m/s: tan(alpha) = 0.06, far inside the cone
  c.fem.degree = 1;
  c.fem.refinement = 0;
  c.fem.contact_resolution = 2;
  rebound::fem::RunOptions options;
  options.frames = 0;
  const auto r = rebound::fem::run(c, options, MPI_COMM_SELF);
  ASSERT_EQ(r.status, "completed") << r.message;
  const auto& h = r.history;
  const double E = c.material.young_modulus, nu = c.material.poisson_ratio;
  const double radius = c.body.radius, contact_modulus = E / (1 - nu * nu);
  const double shear_modulus = E / (2 * (1 + nu));
  std::size_t peak = 0;
  for (std::size_t k = 0; k < h.size(); ++k)
    if (h[k].normal_force > h[peak].normal_force) peak = k;
  ASSERT_GT(peak, 100u);
  const double dt = h[1].time - h[0].time;
  double force = 0, impulse = 0, worst = 0, largest = 0;
  for (std::size_t k = 0; k <= peak; ++k) {
    const double a =
        std::cbrt(3 * std::max(h[k].normal_force, 0.0) * radius / (4 * contact_modulus));
    force -= 8 * shear_modulus * a / (2 - nu) * h[k].tangential_velocity * dt;
    impulse += force * dt;
    worst = std::max(worst, std::abs(impulse - h[k].tangential_impulse));
    largest = std::max(largest, std::abs(h[k].tangential_impulse));
  }
  std::printf(
      "tangential impulse at peak force: FEM %.5e, Mindlin incremental %.5e N s; worst "
      "difference %.2f %% of the largest\n",
      h[peak].tangential_impulse, impulse, 100 * worst / largest);
  EXPECT_GT(largest, 0.01);  // the tangential load is not negligible (J_n ~ 0.64 N s here)
  EXPECT_LT(worst / largest, 0.05);
  // Nothing slips: the friction work is only the arrest of arriving nodes, < 1e-3 of KE_0 ...
  // until restitution, where the shrinking contact releases its nodes.
  EXPECT_LT(h[peak].frictional_dissipation, 1e-3 * r.initial.kinetic_energy);
}

TEST(FemRobustness, UnstableTimeStepStopsWithMessageAndKeepsHistory) {
  rebound::fem::RunOptions options;
  options.frames = 0;
  options.solver.time_step = 6e-8;  // 4x the stable step of this mesh (1.5e-8 s)
  const auto r = rebound::fem::run(small_hertz(1), options, MPI_COMM_SELF);
  std::printf("%s: %s after %zu rows\n", r.status.c_str(), r.message.c_str(), r.history.size());
  EXPECT_EQ(r.status, "failed");
  EXPECT_NE(r.message.find("step"), std::string::npos);
  EXPECT_FALSE(r.history.empty());
  EXPECT_EQ(r.summary["status"], "failed");
}

// fem.end_time inside the contact: the rebound quantities are not final, so the run is
// "incomplete" (never "completed"), says why, and keeps its history.
TEST(FemRobustness, EndTimeInsideTheContactIsIncomplete) {
  Case c = small_hertz(1);
  const double t_hertz = rebound::cases::derive(c).hertz.duration;
  c.fem.end_time = 0.3 * t_hertz;
  rebound::fem::RunOptions options;
  options.frames = 0;
  const auto r = rebound::fem::run(c, options, MPI_COMM_SELF);
  std::printf("%s: %s\n", r.status.c_str(), r.message.c_str());
  EXPECT_EQ(r.status, "incomplete");
  EXPECT_NE(r.message.find("still active"), std::string::npos) << r.message;
  EXPECT_EQ(r.summary["status"], "incomplete");
  EXPECT_NEAR(r.final.time, 0.3 * t_hertz, r.info.time_step);
  EXPECT_FALSE(r.history.empty());
}

// ---- the command line (through the stand-alone driver) ----

int run_driver(const std::string& arguments) {
  const std::string command =
      std::string(REBOUND_FEM_DRIVER) + " " + arguments + " > /dev/null 2>&1";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(FemCommand, WritesSummaryHistoryAndFrames) {
  const fs::path dir = rebound::test::coarse_hertz_case_folder("rebound-fem-");
  ASSERT_EQ(
      run_driver((dir / "case.json").string() + " -o " + dir.string() + " --frames 3 --quiet"), 0);
  nlohmann::json s;
  std::ifstream(dir / "fem" / "summary.json") >> s;
  EXPECT_EQ(s["status"], "completed");
  EXPECT_EQ(s["degree"], 1);
  for (const char* key :
       {"dofs", "cells", "time_step", "steps", "mpi_ranks", "wall_time", "dof_steps_per_second",
        "energy_balance_error", "lambda_mesh", "theta_mesh", "mesh_mass_properties",
        "plastic_dissipation", "viscous_dissipation", "material_model"})
    EXPECT_TRUE(s.contains(key)) << key;
  std::ifstream history(dir / "fem" / "history.csv");
  std::string header;
  std::getline(history, header);
  // Every column with its unit (observables/units.h), in fem::history_table's order.
  EXPECT_EQ(header,
            "time_s,normal_force_N,tangential_force_N,normal_impulse_N_s,tangential_impulse_N_s,"
            "normal_velocity_m_per_s,tangential_velocity_m_per_s,normal_displacement_m,"
            "tangential_displacement_m,kinetic_energy_J,internal_energy_J,rigid_kinetic_energy_J,"
            "vibration_kinetic_energy_J,frictional_dissipation_J,total_energy_J,contact_nodes,"
            "contact_area_m2,contact_node_velocity_t_m_per_s,contact_node_velocity_n_m_per_s,"
            "center_velocity_t_m_per_s,center_velocity_n_m_per_s,spin_rad_per_s,"
            "normal_force_smoothed_N,binormal_impulse_N_s,lowest_boundary_height_m,"
            "normal_contact_loss_J,plastic_dissipation_J,viscous_dissipation_J");
  EXPECT_TRUE(fs::exists(dir / "fem" / "solution.pvd"));
  EXPECT_TRUE(fs::exists(dir / "fem" / "solution_0000.pvtu"));
  EXPECT_TRUE(s["warnings"].is_array());
  EXPECT_EQ(s["creates_energy"], false);
  // Ended inside the contact: exit status 1, status "incomplete", the files kept.
  nlohmann::json doc;
  std::ifstream(dir / "case.json") >> doc;
  doc["fem"]["end_time"] = 1e-6;  // the Hertz duration is 5.2e-5 s
  std::ofstream(dir / "short.json") << doc.dump(2);
  EXPECT_EQ(run_driver((dir / "short.json").string() + " -o " + (dir / "short").string()), 1);
  std::ifstream(dir / "short" / "fem" / "summary.json") >> s;
  EXPECT_EQ(s["status"], "incomplete");
  EXPECT_TRUE(fs::exists(dir / "short" / "fem" / "history.csv"));
  // Bad input: exit status 2.
  EXPECT_EQ(run_driver((dir / "missing.json").string()), 2);
  EXPECT_EQ(run_driver((dir / "case.json").string() + " --frames x"), 2);
  fs::remove_all(dir);
}

// A full disk during the FEM (the file-size limit of the process, SIGXFSZ ignored, so write()
// fails with EFBIG as it would with ENOSPC): exit 1 naming the frame file and the reason, not a
// deal.II stack dump; no temporary file left behind. The limit is half the first frame's size,
// measured by a run without it: every file written before that frame (lock, manifest) is far
// smaller, and the summary written after the failure may fail too (both are then named).
TEST(FemCommand, FullDiskNamesTheFileAndTheReason) {
  const fs::path dir = rebound::test::coarse_hertz_case_folder("rebound-fem-full-");
  // Open MPI's own shared-memory files would hit the limit first: PMIx's hash store and the
  // self transport keep MPI_Init off the disk.
  const auto run = [&](const std::string& limit, const std::string& out, int frames) {
    const std::string command = "cd " + dir.string() + " && trap '' XFSZ && " + limit +
                                " env PMIX_MCA_gds=hash OMPI_MCA_btl=self " + REBOUND_FEM_DRIVER +
                                " case.json -o " + out + " --frames " + std::to_string(frames) +
                                " --quiet 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    std::string output;
    char buffer[4096];
    if (pipe == nullptr) return std::pair{-1, output};
    for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
    return std::pair{pclose(pipe), output};
  };
  const auto [probe_status, probe_output] = run("", "probe", 1);
  ASSERT_EQ(probe_status, 0) << probe_output;
  std::uintmax_t frame_bytes = 0;
  for (const auto& entry : fs::directory_iterator(dir / "probe" / "fem"))
    if (entry.path().filename().string().rfind("solution_0000", 0) == 0)
      frame_bytes = std::max(frame_bytes, entry.file_size());
  ASSERT_GT(frame_bytes, 40000u) << "the first frame is too small to leave room below it";
  const auto [status, output] = run("prlimit --fsize=" + std::to_string(frame_bytes / 2), "out", 3);
  ASSERT_TRUE(WIFEXITED(status)) << output;
  EXPECT_EQ(WEXITSTATUS(status), 1) << output;
  EXPECT_NE(output.find("File too large"), std::string::npos) << output;
  EXPECT_NE(output.find("solution_0000"), std::string::npos) << output;
  EXPECT_LT(output.size(), 2000u) << "a short message, not a stack dump:\n" << output;
  for (const auto& entry : fs::recursive_directory_iterator(dir / "out"))
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos) << entry.path();
  fs::remove_all(dir);
}

// ---- mpirun -np 2: the partitioned run equals the serial one ----

// The case both partitioned-run tests use: sphere-lai-psi2 at p = 1, refinement 0, resolution 2.
Case coarse_sphere_psi2() {
  return rebound::test::coarse("sphere-lai-psi2");
}

TEST(FemMpi, PartitionedRunEqualsSerial) {
  if (dealii::Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD) < 2)
    GTEST_SKIP() << "run under mpirun -np 2 (CTest: fem.mpi2_equals_serial)";
  const Case c = coarse_sphere_psi2();
  rebound::fem::RunOptions options;
  options.frames = 0;
  const auto parallel = rebound::fem::run(c, options, MPI_COMM_WORLD);
  const auto serial = rebound::fem::run(c, options, MPI_COMM_SELF);
  ASSERT_EQ(parallel.info.time_step, serial.info.time_step);
  ASSERT_EQ(parallel.final.step, serial.final.step);
  const auto [worst, worst_key] = rebound::test::worst_summary_difference(parallel, serial);
  if (dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0)
    std::printf("2 ranks vs serial: worst relative difference %.3e (%s)\n", worst,
                worst_key.c_str());
  EXPECT_LT(worst, 1e-8) << worst_key;
}

// The ball in the rigid spherical socket (fem/targets/spherical_socket.h), partitioned: the
// coarse psi2 sphere in a socket of twice its radius, its tangential speed and friction kept, so
// the curved surface's stick and slip both run on both ranks.
TEST(FemMpi, SocketRunEqualsSerial) {
  if (dealii::Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD) < 2)
    GTEST_SKIP() << "run under mpirun -np 2 (CTest: fem.mpi2_equals_serial)";
  Case c = coarse_sphere_psi2();
  c.target.type = rebound::cases::TargetType::spherical_socket;
  c.target.radius = 2 * c.body.radius;
  rebound::test::expect_parallel_run_equals_serial(c, "socket");
}

// ---- long validation (label `long`): default resolution ----

rebound::fem::RunResult run_without_frames(const Case& c) {
  rebound::fem::RunOptions options;
  options.frames = 0;
  return rebound::fem::run(c, options, MPI_COMM_WORLD);
}

TEST(FemLong, HertzAtDefaultResolutionWithinTwoPercent) {
  if (!long_tests()) GTEST_SKIP() << "set REBOUND_LONG_TESTS=1 (CTest label long)";
  const Case c = load("hertz-steel-sphere");
  const auto r = run_without_frames(c);
  ASSERT_EQ(r.status, "completed") << r.message;
  const auto d = rebound::cases::derive(c);
  const double duration = r.summary["contact_duration"], peak = r.summary["peak_normal_force"];
  std::printf("default Hertz: duration %+.3f %%, peak %+.3f %%, %llu dofs, %.0f s\n",
              100 * (duration / d.hertz.duration - 1), 100 * (peak / d.hertz.peak_force - 1),
              r.info.dofs, r.wall_time);
  EXPECT_LT(relative(duration, d.hertz.duration), 0.02);
  EXPECT_LT(relative(peak, d.hertz.peak_force), 0.02);
}

TEST(FemLong, SpherePsi2ConvergedAndImpulsesMatchLumpedModel) {
  // Issue 5's validation target (Lai 1999, Table 6.1, Psi1 = 2, default resolution): e and the
  // normal impulse within 2 % of Lai's model. Psi2 differs from Lai's by about 0.5, and the issue
  // asks for a refinement study before calling that a model difference: here the FEM's Psi2
  // must be converged (it moves by < 0.05 when the contact cells double in size), and
  // StuckContactFollowsMindlinIncrementalStiffness shows the FEM's stuck contact follows
  // Mindlin-Deresiewicz's incremental stiffness where Lai's spring is secant (docs/FEM.md).
  if (!long_tests()) GTEST_SKIP() << "set REBOUND_LONG_TESTS=1 (CTest label long)";
  const Case c = load("sphere-lai-psi2");
  const auto r = run_without_frames(c);
  ASSERT_EQ(r.status, "completed") << r.message;
  Case coarser = c;
  coarser.fem.contact_resolution = c.fem.contact_resolution / 2;
  const auto r2 = run_without_frames(coarser);
  ASSERT_EQ(r2.status, "completed") << r2.message;
  const auto d = rebound::cases::derive(c);
  const auto lumped = rebound::lumped::summary_json(c, d, rebound::lumped::solve(c, d));
  const double psi2 = r.summary["psi2"], psi2_coarser = r2.summary["psi2"];
  const double psi2_lumped = lumped["psi2"];
  const double e = r.summary["e_newton"], e_lumped = lumped["e_newton"];
  const double jn = r.summary["normal_impulse"], jn_lumped = lumped["normal_impulse"];
  std::printf(
      "Psi1 = 2: Psi2 %.4f (contact cells x2: %.4f; lumped %.4f), e %.5f (%.5f), J_n %.5f "
      "(%.5f) N s, %llu dofs, %.0f s + %.0f s\n",
      psi2, psi2_coarser, psi2_lumped, e, e_lumped, jn, jn_lumped, r.info.dofs, r.wall_time,
      r2.wall_time);
  EXPECT_LT(std::abs(psi2 - psi2_coarser), 0.05);
  EXPECT_LT(relative(e, e_lumped), 0.02);
  EXPECT_LT(relative(jn, jn_lumped), 0.02);
}

}  // namespace

int main(int argc, char** argv) {
  dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  ::testing::InitGoogleTest(&argc, argv);
  // Only rank 0 prints gtest's report under mpirun.
  if (dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  return RUN_ALL_TESTS();
}
