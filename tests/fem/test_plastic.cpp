// The elastic-plastic FE body (material.model "elastic-plastic", fem/materials/elastic_plastic.h):
// the radial return against the analytic J2 solution, the kernel's state (advanced once per
// step, untouched by the trial evaluations), impacts below and above Thornton's yield speed, the
// SIMD widths and (under mpirun -np 2) the partitioned run.
#include <deal.II/base/mpi.h>
#include <deal.II/base/symmetric_tensor.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"
#include "fem/fem.h"
#include "fem/internal_force.h"
#include "fem/materials/elastic_plastic.h"
#include "fem_cases.h"

namespace {

using dealii::SymmetricTensor;
using rebound::cases::Case;
using rebound::fem::materials::ElasticPlastic;
using rebound::fem::materials::LinearElastic;

// The yield stress Y that puts the case's normal speed at `ratio` times Thornton's (1997) yield
// speed of a sphere on a rigid plane, V_y = 1.56 sqrt(p_y^5 / (E*^4 rho)), p_y = 1.6 Y, so
// Y = (V_y^2 E*^4 rho / 1.56^2)^(1/5) / 1.6 with V_y = v_n / ratio.
double yield_stress_at(const Case& c, double ratio) {
  const double nu = c.material.poisson_ratio;
  const double contact_modulus = c.material.young_modulus / (1 - nu * nu);
  const double v_y = c.impact.normal_speed / ratio;
  return std::pow(v_y * v_y / (1.56 * 1.56) * std::pow(contact_modulus, 4) * c.material.density,
                  0.2) /
         1.6;
}

Case plastic(Case c, double speed_over_yield_speed) {
  c.material.model = rebound::cases::MaterialModel::elastic_plastic;
  c.material.yield_stress = yield_stress_at(c, speed_over_yield_speed);
  return c;
}

// The test-sized sphere of FemCommand (Hertz's steel sphere at 1 m/s, p = 1, no global
// refinement, contact cells of a_max / 2): a run takes seconds.
Case coarse_hertz() {
  return rebound::test::coarse("hertz-steel-sphere");
}

rebound::fem::RunResult run(const Case& c, MPI_Comm communicator = MPI_COMM_SELF) {
  rebound::fem::RunOptions options;
  options.frames = 0;
  return rebound::fem::run(c, options, communicator);
}

// The elastic body's run of coarse_hertz(), which both impact tests compare with.
const rebound::fem::RunResult& elastic_run() {
  static const rebound::fem::RunResult result = run(coarse_hertz());
  return result;
}

// The largest |E_n - E_0| / E_0 over the run of the energy with every loss counted: kinetic +
// stored elastic + plastic work + frictional work + the kinematic contact's normal loss.
double energy_balance_with_losses(const rebound::fem::RunResult& r) {
  const double e0 = r.history.front().kinetic_energy + r.history.front().internal_energy;
  double worst = 0;
  for (const auto& row : r.history)
    worst = std::max(worst, std::abs(row.total_energy + row.normal_contact_loss - e0) / e0);
  return worst;
}

// ---- The radial return at one point --------------------------------------------------------

// Uniaxial strain eps = diag(e, 0, 0), loaded to e_max = 28 h and reversed to -e_max in steps
// of h = e_Y / 7.3 (no step ends on a yield point), with e_Y = Y / (2 mu) the strain at first
// yield. J2 perfect plasticity (e.g. Simo & Hughes 1998, sec. 3.3) gives q = sigma_xx - sigma_yy
// = 2 mu (e - e_p) clipped to [-Y, Y], the mean stress K e, and the plastic work
// (2/3) Y |d e| on every plastic stretch: (2/3) Y (e_max - e_Y) on loading (yield at e_Y) and
// (2/3) Y (2 e_max - 2 e_Y) on reversal (re-yield after an elastic 2 e_Y). The direction of s is
// fixed on each stretch, so the radial return is exact there whatever the step: relative
// tolerance 1e-12 (round-off of ~80 steps of a few operations).
TEST(FemPlasticity, RadialReturnFollowsTheUniaxialStrainSolution) {
  const double E = 210e9, nu = 0.3, Y = 355e6;
  const ElasticPlastic m{LinearElastic::from_young_poisson(E, nu), Y};
  const double mu = m.elastic.lame_mu, bulk = m.elastic.lame_lambda + 2 * mu / 3;
  const double e_y = Y / (2 * mu), step = e_y / 7.3, e_max = 28 * step;
  SymmetricTensor<2, 3> plastic_strain;
  double equivalent = 0, work = 0, e = 0, q_elastic_start = 0, e_elastic_start = 0;
  std::vector<double> path;
  for (int k = 1; k <= 28; ++k) path.push_back(k * step);    // 0 -> 4 e_Y
  for (int k = 27; k >= -28; --k) path.push_back(k * step);  // -> -4 e_Y
  int sign = 1;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const int direction = path[i] > e ? 1 : -1;
    if (direction != sign) {  // reversal: elastic from the current q
      sign = direction;
      q_elastic_start = Y * -direction;
      e_elastic_start = e;
    }
    e = path[i];
    SymmetricTensor<2, 3> strain;
    strain[0][0] = e;
    const auto r = m.radial_return(strain, plastic_strain);
    work += m.advance(r, plastic_strain, equivalent);
    const double q = r.stress[0][0] - r.stress[1][1];
    const double q_expected = i < 28
                                  ? std::min(2 * mu * e, Y)
                                  : std::max(q_elastic_start + 2 * mu * (e - e_elastic_start), -Y);
    ASSERT_NEAR(q, q_expected, 1e-12 * Y) << "step " << i << ", e = " << e;
    ASSERT_NEAR((r.stress[0][0] + 2 * r.stress[1][1]) / 3, bulk * e, 1e-12 * Y);
    ASSERT_EQ(r.stress[1][1], r.stress[2][2]);
    ASSERT_NEAR(r.stress[0][1], 0.0, 1e-12 * Y);
    // Never outside the yield surface: von Mises sqrt(3/2) |s| <= Y.
    SymmetricTensor<2, 3> s = dealii::deviator(r.stress);
    ASSERT_LE(std::sqrt(1.5 * (s * s)), Y * (1 + 1e-12));
    // The plastic strain is deviatoric.
    ASSERT_NEAR(dealii::trace(plastic_strain), 0.0, 1e-12 * e_y);
  }
  const double expected_work = 2.0 / 3.0 * Y * ((e_max - e_y) + (2 * e_max - 2 * e_y));
  EXPECT_NEAR(work, expected_work, 1e-12 * expected_work);
  // For perfect plasticity the work is Y ebar_p.
  EXPECT_NEAR(work, Y * equivalent, 1e-12 * expected_work);
  std::printf("uniaxial strain to +-3.8 e_Y: plastic work %.12e J/m^3 (analytic %.12e)\n", work,
              expected_work);
}

// Pure shear turned through 90 degrees (a non-proportional path): once yielded, the deviator
// stays on the surface (|s| = sqrt(2/3) Y to round-off), and a step that stays inside it is
// Hooke's law (the return changes nothing, bitwise).
TEST(FemPlasticity, RadialReturnKeepsTheStressOnTheSurfaceAndIsElasticInside) {
  const ElasticPlastic m{LinearElastic::from_young_poisson(70e9, 0.33), 250e6};
  const double gamma_y = m.yield_stress / (std::sqrt(3.0) * m.elastic.lame_mu);  // tau = Y/sqrt3
  SymmetricTensor<2, 3> plastic_strain, inside;
  inside[0][1] = 0.5 * gamma_y / 2;
  const auto elastic = m.radial_return(inside, plastic_strain);
  EXPECT_EQ(elastic.scale, 0.0);
  const SymmetricTensor<2, 3> hooke = m.elastic.stress(inside);
  for (unsigned int i = 0; i < 3; ++i)
    for (unsigned int j = i; j < 3; ++j) EXPECT_EQ(elastic.stress[i][j], hooke[i][j]);
  double equivalent = 0;
  for (int k = 0; k <= 90; ++k) {
    const double angle = k * M_PI / 180;
    SymmetricTensor<2, 3> strain;
    strain[0][1] = 2 * gamma_y * std::cos(angle) / 2;
    strain[0][2] = 2 * gamma_y * std::sin(angle) / 2;
    const auto r = m.radial_return(strain, plastic_strain);
    m.advance(r, plastic_strain, equivalent);
    const SymmetricTensor<2, 3> s = dealii::deviator(r.stress);
    ASSERT_NEAR(std::sqrt(s * s), m.yield_radius(), 1e-12 * m.yield_radius()) << k;
  }
  EXPECT_GT(equivalent, 0.0);
}

// ---- The kernel's state ----------------------------------------------------------------------

// A linear field beyond yield from the virgin state: every quadrature point returns to the
// surface as the pointwise return does (the stress half of the patch test), and the uniform
// stress leaves no interior force. Tolerances as the elastic patch test's (tests/fem/test_fem.cpp:
// round-off only).
TEST(FemPlasticity, PatchTestBeyondYieldGivesTheReturnedStress) {
  Case c = plastic(coarse_hertz(), 10);
  const auto solver = rebound::fem::Solver::create(c, {}, MPI_COMM_SELF);
  const double e_y = *c.material.yield_stress / c.material.young_modulus;
  Eigen::Matrix3d gradient;
  gradient << 3 * e_y, 1 * e_y, 0, 0, -2 * e_y, 0.5 * e_y, 0, 0, 1 * e_y;
  const rebound::fem::PatchTestResult r = solver->patch_test(gradient);
  std::printf("plastic patch test: interior force %.3e of %.3e N, stress error %.3e of %.3e Pa\n",
              r.max_interior_force, r.force_scale, r.max_stress_error, r.stress_scale);
  EXPECT_LT(r.max_interior_force, 1e-8 * r.force_scale);
  EXPECT_LT(r.max_stress_error, 1e-8 * r.stress_scale);
}

// The trial evaluations (Solver::time_internal_force, the patch test) read the plastic state
// and do not change it: two solvers step into the plastic contact, one of them is timed and
// patch-tested in between, and 20 steps later both have bitwise the same state, plastic work
// included.
TEST(FemPlasticity, TrialEvaluationsLeaveThePlasticStateUntouched) {
  const Case c = plastic(coarse_hertz(), 10);
  const rebound::cases::Derived d = rebound::cases::derive(c);
  std::array<std::unique_ptr<rebound::fem::Solver>, 2> solvers;
  for (auto& solver : solvers) {
    solver = rebound::fem::Solver::create(c, {}, MPI_COMM_SELF);
    solver->set_state(Eigen::Vector3d::Zero(),
                      Eigen::Vector3d(d.centre_velocity.x(), d.centre_velocity.y(), 0),
                      Eigen::Vector3d::Zero(), d.body.centre_of_mass);
  }
  int steps = 0;
  while (solvers[0]->state().plastic_dissipation == 0 && steps < 100000) {
    for (auto& solver : solvers) solver->step();
    ++steps;
  }
  ASSERT_GT(solvers[0]->state().plastic_dissipation, 0.0) << "no yield";
  for (int k = 0; k < 10; ++k)
    for (auto& solver : solvers) solver->step();
  EXPECT_GT(solvers[1]->time_internal_force(3), 0.0);
  solvers[1]->patch_test(Eigen::Matrix3d::Identity() * 1e-2);
  for (int k = 0; k < 20; ++k)
    for (auto& solver : solvers) solver->step();
  const rebound::fem::State &a = solvers[0]->state(), &b = solvers[1]->state();
  EXPECT_GT(a.contact_nodes, 0);
  EXPECT_EQ(a.plastic_dissipation, b.plastic_dissipation);
  EXPECT_EQ(a.internal_energy, b.internal_energy);
  EXPECT_EQ(a.momentum, b.momentum);
  EXPECT_EQ(a.kinetic_energy, b.kinetic_energy);
}

// ---- Impacts -----------------------------------------------------------------------------------

// Below Thornton's yield speed (v_n = 0.3 V_y: Hertz's peak pressure 1.6 Y 0.3^(2/5) = 0.99 Y,
// the largest von Mises stress about 0.62 of it) no point yields: the elastic-plastic body runs
// bitwise as the elastic one (where no lane yields, the return is Hooke's law with the same
// operations), with zero plastic work.
TEST(FemPlasticImpact, BelowTheYieldSpeedIsTheElasticRun) {
  const auto& a = elastic_run();
  const auto b = run(plastic(coarse_hertz(), 0.3));
  ASSERT_EQ(a.status, "completed") << a.message;
  ASSERT_EQ(b.status, "completed") << b.message;
  const double e_a = a.summary["e_newton"], e_b = b.summary["e_newton"];
  std::printf("v_n = 0.3 V_y: e %.12f (elastic %.12f), plastic work %.3e J, %lld steps\n", e_b, e_a,
              b.final.plastic_dissipation, b.final.step);
  EXPECT_EQ(e_b, e_a);
  EXPECT_EQ(b.final.plastic_dissipation, 0.0);
  EXPECT_EQ(double(b.summary["plastic_dissipation"]), 0.0);
  EXPECT_EQ(b.final.internal_energy, a.final.internal_energy);
  EXPECT_EQ(b.final.step, a.final.step);
}

// Above it (v_n = 10 V_y) the body yields: e below the elastic body's, plastic work, and the
// energy balance with every loss counted within 1e-3 of the initial kinetic energy (the leapfrog
// balances the trapezoidal work of the internal force; the plastic work taken as
// sigma_{n+1} : d eps_p differs from it by O(|d eps|^2) per step, docs/THEORY.md).
TEST(FemPlasticImpact, AboveTheYieldSpeedDissipatesAndBalancesEnergy) {
  const Case c = plastic(coarse_hertz(), 10);
  const auto& a = elastic_run();
  const auto r = run(c);
  ASSERT_EQ(r.status, "completed") << r.message;
  const double e = r.summary["e_newton"], e_elastic = a.summary["e_newton"];
  const double work = r.final.plastic_dissipation, e0 = r.initial.kinetic_energy;
  const double balance = energy_balance_with_losses(r);
  std::printf(
      "v_n = 10 V_y (Y = %.4g Pa): e %.5f (elastic %.5f), plastic work %.4e J = %.2f %% of the "
      "initial kinetic energy, energy balance %.3e (summary's %.3e), %lld steps\n",
      *c.material.yield_stress, e, e_elastic, work, 100 * work / e0, balance,
      double(r.summary["energy_balance_error"]), r.final.step);
  EXPECT_LT(e, e_elastic - 0.05);
  EXPECT_GT(work, 0.05 * e0);
  EXPECT_EQ(double(r.summary["plastic_dissipation"]), work);
  EXPECT_EQ(r.summary["material_model"], "elastic-plastic");
  EXPECT_LT(balance, 1e-3);
  // The plastic work never decreases.
  for (std::size_t k = 1; k < r.history.size(); ++k)
    ASSERT_GE(r.history[k].plastic_dissipation, r.history[k - 1].plastic_dissipation);
}

// Every SIMD width gives the same plastic impact (the masks of the return on every lane,
// including the partly filled last batch): 300 steps into the contact at v_n = 10 V_y. The
// tolerance of the elastic widths' test (round-off grown over the steps), the plastic work
// compared as the kinetic energy is.
TEST(FemPlasticImpact, SimdLanesGiveTheSamePlasticImpactToRoundOff) {
  const std::vector<unsigned int> lanes = rebound::fem::available_lanes();
  if (lanes.size() < 2) GTEST_SKIP() << "this build has one SIMD lane only";
  const Case c = plastic(coarse_hertz(), 10);
  const rebound::cases::Derived d = rebound::cases::derive(c);
  std::vector<rebound::fem::State> states;
  for (const unsigned int n : lanes) {
    rebound::fem::SolverOptions options;
    options.simd_lanes = n;
    const auto solver = rebound::fem::Solver::create(c, options, MPI_COMM_SELF);
    EXPECT_EQ(solver->info().simd_lanes, n);
    solver->set_state(Eigen::Vector3d::Zero(),
                      Eigen::Vector3d(d.centre_velocity.x(), d.centre_velocity.y(), 0),
                      Eigen::Vector3d::Zero(), d.body.centre_of_mass);
    for (int k = 0; k < 300; ++k) solver->step();
    states.push_back(solver->state());
  }
  const rebound::fem::State& a = states.front();
  ASSERT_GT(a.plastic_dissipation, 0.0);
  for (std::size_t i = 1; i < states.size(); ++i) {
    const rebound::fem::State& b = states[i];
    SCOPED_TRACE("lanes " + std::to_string(lanes[i]) + " vs 1");
    EXPECT_LT((b.momentum - a.momentum).norm(), 1e-9 * a.momentum.norm());
    EXPECT_LT(std::abs(b.kinetic_energy - a.kinetic_energy), 1e-9 * a.kinetic_energy);
    EXPECT_LT(std::abs(b.plastic_dissipation - a.plastic_dissipation),
              1e-9 * a.plastic_dissipation);
    EXPECT_LT(std::abs(b.internal_energy - a.internal_energy), 1e-8 * a.internal_energy);
  }
}

// ---- mpirun -np 2 ------------------------------------------------------------------------------

// The plastic impact partitioned equals the serial one: the coarse psi2 sphere (friction,
// oblique) at v_n = 10 V_y; every summary scalar and the plastic work within 1e-8 (round-off of
// the sums over the ranks, as FemMpi.PartitionedRunEqualsSerial).
TEST(FemMpi, PlasticRunEqualsSerial) {
  if (dealii::Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD) < 2)
    GTEST_SKIP() << "run under mpirun -np 2 (CTest: fem.mpi2_equals_serial)";
  const Case c = plastic(rebound::test::coarse("sphere-lai-psi2"), 10);
  const auto parallel = run(c, MPI_COMM_WORLD);
  const auto serial = run(c, MPI_COMM_SELF);
  ASSERT_EQ(parallel.status, "completed") << parallel.message;
  ASSERT_EQ(parallel.final.step, serial.final.step);
  double worst = 0;
  std::string worst_key;
  for (const char* key : {"e_newton", "e_poisson", "e_stronge", "psi2", "tangential_cor",
                          "normal_impulse", "tangential_impulse", "plastic_dissipation",
                          "kinetic_energy_loss", "internal_energy_final", "energy_balance_error"}) {
    const double x = parallel.summary[key], y = serial.summary[key];
    const double error = std::abs(x - y) / std::max(std::abs(y), 1e-300);
    if (error > worst) worst = error, worst_key = key;
  }
  if (dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0)
    std::printf(
        "plastic, 2 ranks vs serial: plastic work %.6e J, e %.6f, worst relative "
        "difference %.3e (%s)\n",
        serial.final.plastic_dissipation, double(serial.summary["e_newton"]), worst,
        worst_key.c_str());
  EXPECT_GT(serial.final.plastic_dissipation, 0.0);
  EXPECT_LT(worst, 1e-8) << worst_key;
}

}  // namespace
