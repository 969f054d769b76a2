// Zener's sphere-on-plate impact (lumped/zener_plate.h): Hertz's impact at Lambda = 0, its energy
// balance, its small-Lambda limit, an independent integration, and the inelasticity of a case in
// Zener's closed form.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/solve.h"
#include "lumped/zener_plate.h"

namespace {

using rebound::lumped::zener_plate_impact;

// A steel sphere of radius R at v on a steel plate of thickness h (one material: E, nu, rho).
rebound::cases::Case sphere_on_plate(double R, double h, double v, double nu) {
  const std::string E = "2.1e11", rho = "7850",
                    material = "{\"young_modulus\": " + E +
                               ", \"poisson_ratio\": " + std::to_string(nu) +
                               ", \"density\": " + rho + "}";
  return rebound::cases::parse_case(
      "{\"name\": \"plate\", \"body\": {\"shape\": \"sphere\", \"radius\": " + std::to_string(R) +
          "}, \"material\": " + material +
          ", \"target\": {\"type\": \"elastic_plate\", \"thickness\": " + std::to_string(h) +
          ", \"half_width\": 0.07, \"material\": " + material +
          "}, \"contact\": {\"friction\": 0}, \"impact\": {\"normal_speed\": " + std::to_string(v) +
          ", \"tangential_speed\": 0}}",
      "plate.json");
}

}  // namespace

// Lambda = 0: the plate is rigid, and the impact is Hertz's on the same scales: e = 1, the duration
// 2.943275 alpha_0 / v (cases::hertz_duration_constant), the peak force k alpha_0^(3/2). To the
// integration's tolerance (1e-10 per step, 1e-8 over the impact) and, for the peak, the sampling
// of the dense output at 8 points per step (1e-6).
TEST(ZenerPlate, WithoutFlexureItIsHertzsImpact) {
  const auto z = zener_plate_impact(0.0);
  EXPECT_NEAR(z.restitution, 1.0, 1e-8);
  EXPECT_NEAR(z.duration, rebound::cases::hertz_duration_constant(), 1e-8);
  EXPECT_NEAR(z.peak_force, 1.0, 1e-6);
  EXPECT_EQ(z.plate_energy, 0.0);
}

// What the ball loses is what the plate carried away: 1 - e^2 = (5/2) Lambda integral a^3 dtau,
// two outputs of one integration that only agree when it is right (1e-8: the tolerance 1e-10).
TEST(ZenerPlate, TheBallsLossIsThePlatesEnergy) {
  for (const double lambda : {0.05, 0.2, 0.7, 1.5}) {
    const auto z = zener_plate_impact(lambda);
    EXPECT_NEAR(1 - z.restitution * z.restitution, z.plate_energy, 1e-8) << lambda;
    EXPECT_LT(z.restitution, 1.0);
    EXPECT_GT(z.duration, rebound::cases::hertz_duration_constant()) << "a softer contact";
  }
}

// For Lambda -> 0 the plate's work is that of Hertz's own pulse: 1 - e^2 -> (5/2) Lambda
// integral of a^3 over it = 2 B(8/5, 1/2) Lambda = 3.02680 Lambda (a' = sqrt(1 - a^(5/2))). The
// next term is O(Lambda^2): at Lambda = 1e-4 the ratio is within 3e-4 of the limit.
TEST(ZenerPlate, SmallInelasticityLimitIsTheHertzPulsesWork) {
  const double beta = std::tgamma(1.6) * std::tgamma(0.5) / std::tgamma(2.1);
  const double lambda = 1e-4;
  const auto z = zener_plate_impact(lambda);
  EXPECT_NEAR((1 - z.restitution * z.restitution) / lambda / (2 * beta), 1.0, 3e-4);
}

// e(Lambda) against an independent integration (scipy's solve_ivp, RK45 at rtol 1e-11, of the
// same two equations), printed to four digits.
TEST(ZenerPlate, RestitutionAgainstAnIndependentIntegration) {
  const double table[][2] = {{0.01, 0.9850}, {0.1, 0.8613}, {0.2, 0.7443}, {0.5, 0.4842},
                             {0.7, 0.3628},  {1.0, 0.2311}, {2.0, 0.0374}};
  for (const auto& [lambda, e] : table)
    EXPECT_NEAR(zener_plate_impact(lambda).restitution, e, 5e-5) << lambda;
}

// The inelasticity of a sphere and a plate of one material in Zener's form: Lambda = C (R/h)^2
// (v/c_0)^(1/5) (1 - nu^2)^(1/10), c_0 = sqrt(E/rho), C = (2/3)^(2/5) (5 pi/3)^(3/5) sqrt(12)/8
// = 0.99418 (from k = (2/3) E sqrt(R)/(1 - nu^2), m = (4/3) pi R^3 rho): four cases that change
// each of R, h, v and nu.
TEST(ZenerPlate, InelasticityOfACaseIsZenersForm) {
  const double C = std::pow(2.0 / 3, 0.4) * std::pow(5 * M_PI / 3, 0.6) * std::sqrt(12.0) / 8;
  const double c0 = std::sqrt(2.1e11 / 7850);
  const double cases[][4] = {{0.005, 0.005, 1, 0.3},
                             {0.01, 0.005, 1, 0.3},
                             {0.005, 0.0025, 2, 0.3},
                             {0.005, 0.005, 1, 0.2}};
  for (const auto& [R, h, v, nu] : cases) {
    const double expected =
        C * (R / h) * (R / h) * std::pow(v / c0, 0.2) * std::pow(1 - nu * nu, 0.1);
    EXPECT_NEAR(rebound::lumped::zener_inelasticity(sphere_on_plate(R, h, v, nu)), expected,
                1e-9 * expected)
        << R << " " << h << " " << v << " " << nu;
  }
  EXPECT_NEAR(C, 0.99418, 1e-5);
}

// No lumped model has the plate's flexure: each refuses the plate, naming target.type.
TEST(ZenerPlate, LumpedModelsRefuseThePlate) {
  const auto c = sphere_on_plate(0.005, 0.005, 1, 0.3);
  try {
    rebound::lumped::solve(c, rebound::cases::derive(c));
    FAIL() << "a lumped model solved a plate";
  } catch (const rebound::cases::CaseError& error) {
    EXPECT_EQ(error.problems().front().key, "target.type");
  }
}
