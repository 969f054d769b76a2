// The viscoelastic FE body (material.model "viscoelastic", fem/materials/viscoelastic.h, the
// standard linear solid): the exponential integrator at one point against the closed-form
// responses, the viscous work of a strain cycle, the stable step (the glassy modulus), impacts
// (energy balance, the g -> 0 limit), the SIMD widths and (under mpirun -np 2) the partitioned
// run.
#include <deal.II/base/mpi.h>
#include <deal.II/base/symmetric_tensor.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"
#include "fem/fem.h"
#include "fem/internal_force.h"
#include "fem/materials/viscoelastic.h"
#include "fem_cases.h"

namespace {

using dealii::SymmetricTensor;
using rebound::cases::Case;
using rebound::fem::materials::LinearElastic;
using rebound::fem::materials::Viscoelastic;

// A strain with volumetric and deviatoric parts (the arm is g C, so every component relaxes
// alike: h(t) = phi(t) g C : E0 for a strain E0 f(t)).
SymmetricTensor<2, 3> direction() {
  SymmetricTensor<2, 3> e;
  e[0][0] = 1e-3;
  e[1][1] = -0.4e-3;
  e[2][2] = 0.2e-3;
  e[0][1] = 0.7e-3;
  e[1][2] = -0.3e-3;
  return e;
}

double max_difference(const SymmetricTensor<2, 3>& a, const SymmetricTensor<2, 3>& b) {
  double worst = 0;
  for (unsigned int i = 0; i < 3; ++i)
    for (unsigned int j = i; j < 3; ++j) worst = std::max(worst, std::abs(a[i][j] - b[i][j]));
  return worst;
}

Viscoelastic steel(double g, double tau, double dt) {
  Viscoelastic m = Viscoelastic::from(LinearElastic::from_young_poisson(210e9, 0.3), g, tau);
  m.set_time_step(dt);
  return m;
}

// ---- The integrator at one point ---------------------------------------------------------------

// The strain ramped to E0 over the first step and held: the integrator is exact for a strain
// linear in time over each step, so sigma_n = C : E0 (1 + g b exp(-(t_n - dt) / tau)) with
// b = (1 - exp(-dt/tau)) / (dt/tau) (the ramp's closed form; -> the step response
// C : E0 (1 + g exp(-t/tau)) as dt/tau -> 0, checked to O(dt/tau) below). Relative tolerance
// 1e-12 of the glassy stress (round-off of a few hundred steps of a few operations).
TEST(FemViscoelasticity, RampAndHoldFollowsTheRelaxationFunction) {
  const double g = 1.7, tau = 3e-6;
  for (const double dt : {1e-8, 4e-7, 7.5e-6}) {
    const Viscoelastic m = steel(g, tau, dt);
    const SymmetricTensor<2, 3> e0 = direction(), c_e0 = m.elastic.stress(e0);
    const double scale = (1 + g) * std::sqrt(c_e0 * c_e0);
    const double x = dt / tau, b = (1 - std::exp(-x)) / x;
    SymmetricTensor<2, 3> h, previous;  // zero
    for (int n = 1; n <= 400; ++n) {
      const SymmetricTensor<2, 3> strain = e0;
      h = m.arm_stress(strain, previous, h);
      previous = strain;
      const SymmetricTensor<2, 3> sigma = m.stress(strain) + h;
      const double t = n * dt;
      const SymmetricTensor<2, 3> expected = c_e0 * (1 + g * b * std::exp(-(t - dt) / tau));
      ASSERT_LT(max_difference(sigma, expected), 1e-12 * scale) << "dt " << dt << ", step " << n;
      if (dt == 1e-8 && n == 300) {  // the step response to O(dt / tau)
        const SymmetricTensor<2, 3> step = c_e0 * (1 + g * std::exp(-t / tau));
        EXPECT_LT(max_difference(sigma, step), 2 * x * scale);
      }
    }
  }
}

// A constant strain rate E0' from rest: h(t) = g tau C : E0' (1 - exp(-t/tau)) exactly (the
// integrator's strain is linear in every step), whatever dt/tau; -> the Kelvin-Voigt stress
// g tau C : E0' for t >> tau. Tolerance as above.
TEST(FemViscoelasticity, ConstantStrainRateFollowsTheClosedForm) {
  const double g = 0.8, tau = 2e-6;
  for (const double dt : {5e-9, 1e-6, 5e-6}) {
    const Viscoelastic m = steel(g, tau, dt);
    const SymmetricTensor<2, 3> rate = direction() * 1e3;  // 1/s
    const SymmetricTensor<2, 3> c_rate = m.elastic.stress(rate);
    SymmetricTensor<2, 3> h, previous;
    double worst = 0, scale = 0;
    for (int n = 1; n <= 200; ++n) {
      const double t = n * dt;
      const SymmetricTensor<2, 3> strain = rate * t;
      h = m.arm_stress(strain, previous, h);
      previous = strain;
      const SymmetricTensor<2, 3> expected = c_rate * (g * tau * (1 - std::exp(-t / tau)));
      worst = std::max(worst, max_difference(h, expected));
      scale = std::max(scale, std::sqrt(expected * expected));
    }
    EXPECT_LT(worst, 1e-12 * scale) << "dt " << dt;
  }
}

// eps(t) = E0 sin(w t) with w tau = 1, 12 cycles (the start's transient decays as exp(-t/tau),
// below 1e-30 after 11 cycles): the viscous work of the last cycle against the steady state's
// closed form pi (w tau / (1 + w^2 tau^2)) E0 : g C : E0 (the loss modulus of the Maxwell arm).
// The step's dissipation is the trapezoidal form (materials::Viscoelastic), second order in dt:
// the estimate (w dt)^2 / 12 is 3e-6 at 1000 steps per cycle (the test allows 2e-5), and halving
// dt divides the error by about 4 (3.5-4.5 allowed).
TEST(FemViscoelasticity, ViscousWorkOfAStrainCycleMatchesTheLossModulus) {
  const double g = 1.3, tau = 1e-5, w = 1 / tau, period = 2 * M_PI / w;
  const SymmetricTensor<2, 3> e0 = direction();
  std::vector<double> errors;
  for (const int steps_per_cycle : {500, 1000}) {
    const double dt = period / steps_per_cycle;
    const Viscoelastic m = steel(g, tau, dt);
    const double expected =
        M_PI * (w * tau / (1 + w * w * tau * tau)) * g * (m.elastic.stress(e0) * e0);
    SymmetricTensor<2, 3> h, previous;
    double work = 0;
    const int cycles = 12;
    for (int n = 1; n <= cycles * steps_per_cycle; ++n) {
      const SymmetricTensor<2, 3> strain = e0 * std::sin(w * n * dt);
      const SymmetricTensor<2, 3> next = m.arm_stress(strain, previous, h);
      if (n > (cycles - 1) * steps_per_cycle) work += m.dissipation(strain, previous, h, next);
      h = next;
      previous = strain;
    }
    errors.push_back(std::abs(work - expected) / expected);
    std::printf(
        "strain cycle, %d steps per cycle: viscous work %.10e J/m^3 (closed form "
        "%.10e), relative error %.3e\n",
        steps_per_cycle, work, expected, errors.back());
  }
  EXPECT_LT(errors[1], 2e-5);
  EXPECT_GT(errors[0] / errors[1], 3.5);
  EXPECT_LT(errors[0] / errors[1], 4.5);
}

// ---- Impacts -----------------------------------------------------------------------------------

Case viscoelastic(Case c, double g, double tau_over_contact_time) {
  c.material.model = rebound::cases::MaterialModel::viscoelastic;
  c.material.relaxation_strength = g;
  c.material.relaxation_time = tau_over_contact_time * rebound::cases::derive(c).hertz.duration;
  return c;
}

// The test-sized sphere of FemCommand (Hertz's steel sphere at 1 m/s, p = 1): seconds a run.
Case coarse_hertz() {
  return rebound::test::coarse("hertz-steel-sphere");
}

rebound::fem::RunResult run(const Case& c, MPI_Comm communicator = MPI_COMM_SELF) {
  rebound::fem::RunOptions options;
  options.frames = 0;
  return rebound::fem::run(c, options, communicator);
}

const rebound::fem::RunResult& elastic_run() {
  static const rebound::fem::RunResult result = run(coarse_hertz());
  return result;
}

// The largest |E_n - E_0| / E_0 over the run with every loss counted: kinetic + stored (the
// Maxwell arm's included) + viscous + friction + the kinematic contact's normal loss.
double energy_balance_with_losses(const rebound::fem::RunResult& r) {
  const double e0 = r.history.front().kinetic_energy + r.history.front().internal_energy;
  double worst = 0;
  for (const auto& row : r.history)
    worst = std::max(worst, std::abs(row.total_energy + row.normal_contact_loss - e0) / e0);
  return worst;
}

// The power iteration runs on the glassy operator (1 + g) K: the same iterates, each Rayleigh
// quotient (1 + g) times the elastic one, so lambda_max scales by 1 + g to round-off (1e-12),
// and the step (rounded down to 3 digits) is the elastic one over sqrt(1 + g) within the
// rounding (1 %).
TEST(FemViscoelasticity, StableStepIsTheElasticOneOverRootOnePlusG) {
  const double g = 3.0;
  const auto elastic = rebound::fem::Solver::create(coarse_hertz(), {}, MPI_COMM_SELF);
  const auto visco =
      rebound::fem::Solver::create(viscoelastic(coarse_hertz(), g, 0.01), {}, MPI_COMM_SELF);
  const double ratio = visco->info().lambda_max / elastic->info().lambda_max;
  const double step_ratio = visco->info().time_step / elastic->info().time_step;
  std::printf(
      "g = %g: lambda_max ratio %.15f, time step %.4g s (elastic %.4g s), ratio %.5f "
      "(1/sqrt(1+g) = %.5f)\n",
      g, ratio, visco->info().time_step, elastic->info().time_step, step_ratio,
      1 / std::sqrt(1 + g));
  EXPECT_NEAR(ratio, 1 + g, 1e-12 * (1 + g));
  EXPECT_LE(step_ratio, 1 / std::sqrt(1 + g) / 0.99);
  EXPECT_GE(step_ratio, 1 / std::sqrt(1 + g) * 0.99);
}

// g = 1, tau = 0.05 t_c: the body dissipates (e well below the elastic body's, the viscous work
// a tenth of the initial kinetic energy and more) and the balance with every loss counted holds
// within 1e-3 of the initial kinetic energy (the trapezoidal dissipation closes the leapfrog's
// balance to round-off; what remains is the kinematic contact's, as for the elastic body).
TEST(FemViscoelasticImpact, DissipatesAndBalancesEnergy) {
  const Case c = viscoelastic(coarse_hertz(), 1.0, 0.05);
  const auto& a = elastic_run();
  const auto r = run(c);
  ASSERT_EQ(r.status, "completed") << r.message;
  const double e = r.summary["e_newton"], e_elastic = a.summary["e_newton"];
  const double work = r.final.viscous_dissipation, e0 = r.initial.kinetic_energy;
  const double balance = energy_balance_with_losses(r);
  std::printf(
      "g = 1, tau = 0.05 t_c: e %.5f (elastic %.5f), viscous work %.4e J = %.2f %% of the "
      "initial kinetic energy, energy balance %.3e (summary's %.3e), %lld steps (elastic %lld)\n",
      e, e_elastic, work, 100 * work / e0, balance, double(r.summary["energy_balance_error"]),
      r.final.step, a.final.step);
  EXPECT_LT(e, e_elastic - 0.05);
  EXPECT_GT(work, 0.05 * e0);
  EXPECT_EQ(double(r.summary["viscous_dissipation"]), work);
  EXPECT_EQ(double(r.summary["plastic_dissipation"]), 0.0);
  EXPECT_EQ(r.summary["material_model"], "viscoelastic");
  EXPECT_LT(balance, 1e-3);
}

// g -> 0: the Maxwell arm vanishes and the body is the elastic one. With g = 1e-6 the step is
// the elastic one (1/sqrt(1 + g) moves it by 5e-7, below the 3-digit rounding) and e differs by
// O(g A / t_c): within 1e-6 of the elastic body's; the viscous work O(g) of the energy.
TEST(FemViscoelasticImpact, VanishingStrengthIsTheElasticRun) {
  const auto& a = elastic_run();
  const auto b = run(viscoelastic(coarse_hertz(), 1e-6, 0.05));
  ASSERT_EQ(b.status, "completed") << b.message;
  const double e_a = a.summary["e_newton"], e_b = b.summary["e_newton"];
  std::printf(
      "g = 1e-6: e %.12f (elastic %.12f), viscous work %.3e of the initial kinetic "
      "energy, %lld steps (elastic %lld)\n",
      e_b, e_a, b.final.viscous_dissipation / b.initial.kinetic_energy, b.final.step, a.final.step);
  EXPECT_EQ(b.info.time_step, a.info.time_step);
  EXPECT_NEAR(e_b, e_a, 1e-6);
  EXPECT_LT(b.final.viscous_dissipation, 1e-5 * b.initial.kinetic_energy);
  EXPECT_GT(b.final.viscous_dissipation, 0.0);
}

// Every SIMD width gives the same viscoelastic impact: 300 steps into the contact, the
// tolerances of the plastic widths' test (round-off grown over the steps).
TEST(FemViscoelasticImpact, SimdLanesGiveTheSameImpactToRoundOff) {
  const std::vector<unsigned int> lanes = rebound::fem::available_lanes();
  if (lanes.size() < 2) GTEST_SKIP() << "this build has one SIMD lane only";
  const Case c = viscoelastic(coarse_hertz(), 1.0, 0.05);
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
  ASSERT_GT(a.viscous_dissipation, 0.0);
  for (std::size_t i = 1; i < states.size(); ++i) {
    const rebound::fem::State& b = states[i];
    SCOPED_TRACE("lanes " + std::to_string(lanes[i]) + " vs 1");
    EXPECT_LT((b.momentum - a.momentum).norm(), 1e-9 * a.momentum.norm());
    EXPECT_LT(std::abs(b.kinetic_energy - a.kinetic_energy), 1e-9 * a.kinetic_energy);
    EXPECT_LT(std::abs(b.viscous_dissipation - a.viscous_dissipation),
              1e-9 * a.viscous_dissipation);
    EXPECT_LT(std::abs(b.internal_energy - a.internal_energy), 1e-8 * a.internal_energy);
  }
}

// `rebound fem CASE --quasi-static` factorises the elastic stiffness: it refuses the viscoelastic
// body (exit 2) naming material.model, as it does the elastic-plastic one.
TEST(FemViscoelasticImpact, QuasiStaticRefusesTheModel) {
  const std::filesystem::path dir = rebound::test::coarse_hertz_case_folder("rebound-fem-ve-");
  nlohmann::json doc;
  std::ifstream(dir / "case.json") >> doc;
  doc["material"]["model"] = "viscoelastic";
  doc["material"]["relaxation_strength"] = 1.0;
  doc["material"]["relaxation_time"] = 1e-6;
  std::ofstream(dir / "case.json") << doc.dump(2);
  const std::string command = std::string(REBOUND_FEM_DRIVER) + " " + (dir / "case.json").string() +
                              " -o " + (dir / "out").string() + " --quasi-static -q > " +
                              (dir / "log.txt").string() + " 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream log(dir / "log.txt");
  const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 2) << text;
  EXPECT_NE(text.find("material.model"), std::string::npos) << text;
  EXPECT_NE(text.find("\"viscoelastic\""), std::string::npos) << text;
  std::filesystem::remove_all(dir);
}

// ---- mpirun -np 2 ------------------------------------------------------------------------------

// The viscoelastic impact partitioned equals the serial one: the coarse psi2 sphere (friction,
// oblique), g = 1, tau = 0.05 t_c; every summary scalar and the viscous work within 1e-8
// (round-off of the sums over the ranks, as FemMpi.PartitionedRunEqualsSerial).
TEST(FemMpi, ViscoelasticRunEqualsSerial) {
  if (dealii::Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD) < 2)
    GTEST_SKIP() << "run under mpirun -np 2 (CTest: fem.mpi2_equals_serial)";
  const Case c = viscoelastic(rebound::test::coarse("sphere-lai-psi2"), 1.0, 0.05);
  const auto parallel = run(c, MPI_COMM_WORLD);
  const auto serial = run(c, MPI_COMM_SELF);
  ASSERT_EQ(parallel.status, "completed") << parallel.message;
  ASSERT_EQ(parallel.final.step, serial.final.step);
  double worst = 0;
  std::string worst_key;
  for (const char* key : {"e_newton", "e_poisson", "e_stronge", "psi2", "tangential_cor",
                          "normal_impulse", "tangential_impulse", "viscous_dissipation",
                          "kinetic_energy_loss", "internal_energy_final", "energy_balance_error"}) {
    const double x = parallel.summary[key], y = serial.summary[key];
    const double error = std::abs(x - y) / std::max(std::abs(y), 1e-300);
    if (error > worst) worst = error, worst_key = key;
  }
  if (dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0)
    std::printf(
        "viscoelastic, 2 ranks vs serial: viscous work %.6e J, e %.6f, worst relative "
        "difference %.3e (%s)\n",
        serial.final.viscous_dissipation, double(serial.summary["e_newton"]), worst,
        worst_key.c_str());
  EXPECT_GT(serial.final.viscous_dissipation, 0.0);
  EXPECT_LT(worst, 1e-8) << worst_key;
}

}  // namespace
