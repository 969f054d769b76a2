// Closed-form rigid-body impact laws (Lai 1999, ch. 2 eqs. 2.1-2.5, Gilardi & Sharf 2002, eqs.
// 9-14). Every solver here is a handful of floating-point operations on O(1) numbers (no iteration
// except Smith's bisection to 1e-16), so results are compared with closed forms at 1e-12
// (absolute, on O(1)-O(10) quantities) unless stated otherwise.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "lumped/rigid_laws.h"

namespace rebound::lumped {
namespace {

constexpr double kTight = 1e-12;
constexpr double kSphereLambda = 5.0 / 9.0;  // solid sphere (Lai 1999, Table 5.1)

Configuration make(double lambda, double theta, double mu, double alpha,
                   std::optional<double> restitution = std::nullopt) {
  Configuration c;
  c.lambda = lambda;
  c.theta = theta;
  c.friction = mu;
  c.incidence_angle = alpha;
  c.restitution = restitution;
  return c;
}

// The coefficients an outcome achieves: Newton e = w_n / -v_n, Poisson c = gamma_nr / gamma_nc,
// Stronge d = sqrt(W_nr / -W_nc).
struct Achieved {
  double e, c, d;
};
Achieved achieved(const Configuration& configuration, const Outcome& o) {
  const double approach = std::cos(configuration.incidence_angle);
  return {o.separation_velocity.y() / approach,
          (o.impulse.y() - o.compression_normal_impulse) / o.compression_normal_impulse,
          std::sqrt(o.normal_work_restitution / -o.normal_work_compression)};
}

bool has_note(const Outcome& o, const std::string& text) {
  for (const std::string& note : o.notes)
    if (note.find(text) != std::string::npos) return true;
  return false;
}

// Kane's configuration (constructed; Lai 1999, sec. 3.2 quotes only lambda = 0.964 for the double
// pendulum of Smith 1991): the principal axes of N at 45 degrees to the plane, so that
// N = [[1, -lambda], [-lambda, 1]]; mu = 0.5 < |N_tn| / N_tt, so slip that stops must reverse.
Configuration kane(double restitution = 1.0, double alpha = M_PI / 4) {
  return make(0.964, -M_PI / 4, 0.5, alpha, restitution);
}

const std::vector<std::string> kLaws = {"newton", "poisson", "stronge", "smith", "brach"};

TEST(RigidLaws, FrictionlessCentralImpactGivesEqualNewtonPoissonStrongeCoefficients) {
  // theta = 0, mu = 0: the normal velocity is linear in gamma_n, so the kinematic, kinetic and
  // energetic coefficients are the same number (Lai 1999, sec. 5.4).
  for (double lambda : {0.0, kSphereLambda, 0.964})
    for (double alpha : {0.0, 0.4, 1.2})
      for (double k : {0.0, 0.3, 0.8, 1.0}) {
        const Configuration c = make(lambda, 0, 0, alpha, k);
        const Outcome newton = solve_rigid_law("newton", c);
        const Outcome poisson = solve_rigid_law("poisson", c);
        const Outcome stronge = solve_rigid_law("stronge", c);
        for (const Outcome* o : {&newton, &poisson, &stronge}) {
          SCOPED_TRACE(o->model + " lambda=" + std::to_string(lambda) +
                       " alpha=" + std::to_string(alpha) + " k=" + std::to_string(k));
          const Achieved a = achieved(c, *o);
          EXPECT_NEAR(a.e, k, kTight);
          EXPECT_NEAR(a.c, k, kTight);
          EXPECT_NEAR(a.d, k, 1e-8);  // sqrt of a difference: 1e-16 / (2 sqrt(1e-16)) at k = 0
          // gamma_n = (1 + k) cos(alpha) / (1 - lambda) (Lai 1999, eq. 3.34 with theta = 0).
          EXPECT_NEAR(o->impulse.y(), (1 + k) * std::cos(alpha) / (1 - lambda), kTight);
          EXPECT_NEAR(o->impulse.x(), newton.impulse.x(), kTight);
          EXPECT_NEAR(o->separation_velocity.y(), newton.separation_velocity.y(), kTight);
        }
      }
}

TEST(RigidLaws, FrictionlessImpactLeavesTangentialVelocityUnchangedWithoutCoupling) {
  // mu = 0: no tangential impulse. Without coupling (theta = 0) w_t = v_t; with coupling the
  // tangential velocity changes only through N_tn gamma_n = lambda sin(2 theta) gamma_n.
  for (const std::string& law : kLaws)
    for (double theta : {0.0, 0.3, -0.7})
      for (double alpha : {0.0, 0.5, 1.3}) {
        Configuration c = make(0.6, theta, 0, alpha, 0.7);
        c.impulse_ratio = 0.0;
        const Outcome o = solve_rigid_law(law, c);
        SCOPED_TRACE(law + " theta=" + std::to_string(theta) + " alpha=" + std::to_string(alpha));
        EXPECT_EQ(o.impulse.x(), 0.0);
        EXPECT_NEAR(o.separation_velocity.x(),
                    std::sin(alpha) + 0.6 * std::sin(2 * theta) * o.impulse.y(), kTight);
        if (theta == 0) {
          EXPECT_NEAR(o.separation_velocity.x(), std::sin(alpha), kTight);
        }
        EXPECT_FALSE(o.creates_energy);
      }
}

TEST(RigidLaws, WithoutInertiaCouplingNewtonPoissonAndStrongeCoincide) {
  // theta = 0 decouples the normal motion from friction, so w_n(gamma_n) is the same straight
  // line for every friction history and e = c = d; Kane-Levinson's stick test is then exactly
  // "slip stops before the end" of the impulse process.
  for (double lambda : {0.2, kSphereLambda, 0.9})
    for (double mu : {0.05, 0.3, 1.0})
      for (double alpha : {0.1, 0.6, 1.2})
        for (double k : {0.4, 1.0}) {
          const Configuration c = make(lambda, 0, mu, alpha, k);
          const Outcome newton = solve_rigid_law("newton", c);
          for (const std::string law : {"poisson", "stronge"}) {
            const Outcome o = solve_rigid_law(law, c);
            SCOPED_TRACE(law);
            EXPECT_NEAR(o.impulse.x(), newton.impulse.x(), kTight);
            EXPECT_NEAR(o.impulse.y(), newton.impulse.y(), kTight);
          }
        }
}

TEST(RigidLaws, SphereInGrossSlipHasTangentialImpulseMinusMuNormalImpulse) {
  // Solid sphere, tan(alpha) > (7/2) mu (1 + e): slip never stops (N_tt / N_nn = 14/9 / (4/9)),
  // so every Coulomb law gives gamma_t = -mu gamma_n and gamma_n = (1 + e) cos(alpha) / (1 -
  // lambda).
  const double mu = 0.1, e = 0.8, alpha = 1.2;
  ASSERT_GT(std::tan(alpha), 3.5 * mu * (1 + e));
  for (const std::string law : {"newton", "poisson", "stronge", "smith"}) {
    const Configuration c = make(kSphereLambda, 0, mu, alpha, e);
    const Outcome o = solve_rigid_law(law, c);
    SCOPED_TRACE(law);
    const double gn = (1 + e) * std::cos(alpha) / (1 - kSphereLambda);
    EXPECT_NEAR(o.impulse.y(), gn, kTight);
    EXPECT_NEAR(o.impulse.x(), -mu * gn, kTight);
    EXPECT_NEAR(o.separation_velocity.x(), std::sin(alpha) - mu * (1 + kSphereLambda) * gn, kTight);
    EXPECT_GT(o.separation_velocity.x(), 0);
    ASSERT_EQ(o.phases.size(), 1u);
    EXPECT_EQ(o.phases[0].mode, Mode::slip);
  }
}

TEST(RigidLaws, SphereThatStopsSlippingEndsWithZeroTangentialVelocity) {
  // tan(alpha) < (7/2) mu (1 + e): slip stops at gamma_n = sin(alpha) / (mu N_tt) and the sphere
  // then rolls (|N_tn| = 0 <= mu N_tt), so w_t = 0 at separation.
  const double mu = 0.4, e = 0.9, alpha = 0.5;
  ASSERT_LT(std::tan(alpha), 3.5 * mu * (1 + e));
  for (const std::string law : {"newton", "poisson", "stronge"}) {
    const Configuration c = make(kSphereLambda, 0, mu, alpha, e);
    const Outcome o = solve_rigid_law(law, c);
    SCOPED_TRACE(law);
    EXPECT_NEAR(o.separation_velocity.x(), 0, kTight);
    EXPECT_NEAR(o.impulse.x(), -std::sin(alpha) / (1 + kSphereLambda), kTight);
    EXPECT_LE(std::abs(o.impulse.x()), mu * o.impulse.y());
    EXPECT_FALSE(o.creates_energy);
  }
  // The impulse process records the slip -> stick transition in gamma_n.
  const Configuration c = make(kSphereLambda, 0, mu, alpha, e);
  const Outcome o = solve_rigid_law("poisson", c);
  ASSERT_EQ(o.phases.size(), 2u);
  EXPECT_EQ(o.phases[0].mode, Mode::slip);
  EXPECT_EQ(o.phases[1].mode, Mode::stick);
  EXPECT_NEAR(o.phases[0].end, std::sin(alpha) / (mu * (1 + kSphereLambda)), kTight);
  EXPECT_EQ(o.phases[1].start, o.phases[0].end);
  EXPECT_NEAR(o.phases[1].end, o.impulse.y(), kTight);
}

TEST(RigidLaws, NewtonWithKaneLevinsonFrictionCreatesEnergyInKanesConfiguration) {
  // Kane's defect (Lai 1999, ch. 2): lambda = 0.964, N = [[1, -l], [-l, 1]], mu = 0.5, e = 1,
  // alpha = 45 deg. Sticking would need |gamma_t| = 9.28 > mu gamma_n = 5.18, so (eq. 2.3) slip
  // with w_t < 0: gamma_t = +mu gamma_n, gamma_n = 2 cos(a) / (1 - mu l); then
  // w_t = sin(a) + gamma_t - l gamma_n < 0 and Delta K = (v_t + w_t) gamma_t / 2 > 0 because
  // friction pushes along the approach slip while |w_t| < v_t.
  const double l = 0.964, mu = 0.5, a = M_PI / 4;
  const Configuration c = kane();
  const Outcome o = solve_rigid_law("newton", c);
  const double gn = 2 * std::cos(a) / (1 - mu * l), gt = mu * gn;
  const double wt = std::sin(a) + gt - l * gn;
  const double gain = 0.5 * (std::sin(a) + wt) * gt;
  EXPECT_NEAR(o.impulse.y(), gn, kTight);
  EXPECT_NEAR(o.impulse.x(), gt, kTight);
  EXPECT_NEAR(o.separation_velocity.x(), wt, kTight);
  EXPECT_NEAR(o.separation_velocity.y(), std::cos(a), kTight);  // Newton's e = 1 holds
  EXPECT_LT(wt, 0);                                             // slip reversed
  EXPECT_NEAR(kinetic_energy_change(c, o.impulse), gain, kTight);
  EXPECT_NEAR(gain, 0.1006, 5e-5);  // 40 % of the incident kinetic energy 0.2546 m v^2
  EXPECT_TRUE(o.creates_energy);
  EXPECT_TRUE(has_note(o, "Newton's law with slip reversal creates kinetic energy"));
  // Along Coulomb's process slip stops at gamma_n = sin(a) / (mu + l) = 0.483 and reverses.
  EXPECT_TRUE(has_note(o, "slip stops at gamma_n = 0.482996 m v and reverses"));
  // Energy is created even with a dissipative normal coefficient (e = 0.5, alpha = 50 deg).
  const Configuration c2 = kane(0.5, 50 * M_PI / 180);
  const Outcome o2 = solve_rigid_law("newton", c2);
  EXPECT_TRUE(o2.creates_energy);
  EXPECT_GT(kinetic_energy_change(c2, o2.impulse), 0.01);
  EXPECT_LT(o2.separation_velocity.x(), 0);
}

TEST(RigidLaws, ProcessLawsFollowSlipReversalInKanesConfiguration) {
  // Along the impulse process slip (+) has d w / d gamma_n = N (-mu, 1) = (-(mu + l), 1 + mu l):
  // compression ends at gamma_n = cos(a) / (1 + mu l) = 0.4771 just before slip stops at
  // sin(a) / (mu + l) = 0.4830; |N_tn| = l > mu N_tt, so slip reverses, with d w / d gamma_n =
  // (mu - l, 1 - mu l). Poisson c = 1 ends at gamma_n = 2 x 0.4771 and dissipates.
  const double l = 0.964, mu = 0.5, a = M_PI / 4;
  const Configuration c = kane();
  const Outcome o = solve_rigid_law("poisson", c);
  const double pc = std::cos(a) / (1 + mu * l), p1 = std::sin(a) / (mu + l), pf = 2 * pc;
  EXPECT_NEAR(o.compression_normal_impulse, pc, kTight);
  ASSERT_EQ(o.phases.size(), 2u);
  EXPECT_EQ(o.phases[0].mode, Mode::slip);
  EXPECT_NEAR(o.phases[0].end, p1, kTight);
  EXPECT_EQ(o.phases[1].mode, Mode::slip);
  EXPECT_NEAR(o.phases[1].end, pf, kTight);
  EXPECT_NEAR(o.impulse.x(), -mu * p1 + mu * (pf - p1), kTight);
  EXPECT_NEAR(o.separation_velocity.x(), (mu - l) * (pf - p1), kTight);
  EXPECT_TRUE(has_note(o, "slips in reverse"));
  EXPECT_FALSE(o.creates_energy);
  EXPECT_LT(kinetic_energy_change(c, o.impulse), -0.2);
  for (const std::string law : {"stronge", "smith"})
    EXPECT_FALSE(solve_rigid_law(law, c).creates_energy) << law;
}

TEST(RigidLaws, PoissonStrongeAndSmithNeverCreateEnergyOverAGrid) {
  // Property (Stronge 1990 for d; Smith 1991 for his law; Routh's process for c <= 1): with
  // coefficients in [0, 1] no configuration gains kinetic energy. Tolerance 1e-12 x max(1, K0)
  // (creates_energy's own threshold): K0 <= 1/(2(1 - lambda)) = 14 here.
  int cases = 0;
  for (double lambda : {0.0, 0.3, kSphereLambda, 0.8, 0.964})
    for (int it = -7; it <= 7; ++it)
      for (double mu : {0.0, 0.1, 0.5, 1.0, 3.0})
        for (int ia = 0; ia < 12; ++ia)
          for (double k : {0.0, 0.5, 1.0}) {
            const Configuration c = make(lambda, it * 0.2, mu, ia * (M_PI / 2) / 12, k);
            for (const std::string law : {"poisson", "stronge", "smith"}) {
              const Outcome o = solve_rigid_law(law, c);
              ++cases;
              const double change = kinetic_energy_change(c, o.impulse);
              ASSERT_FALSE(o.creates_energy) << law << " " << change;
              ASSERT_LE(change, 1e-12 * std::max(1.0, incident_kinetic_energy(c))) << law;
              // Coulomb's inequality holds for the total impulse.
              ASSERT_LE(std::abs(o.impulse.x()), mu * o.impulse.y() * (1 + 1e-12) + 1e-14);
              ASSERT_GE(o.separation_velocity.y(), -1e-12);  // the body separates
            }
          }
  EXPECT_EQ(cases, 5 * 15 * 5 * 12 * 3 * 3);
}

TEST(RigidLaws, EachLawMeetsItsOwnDefinitionOfRestitution) {
  // Newton: w_n = -e v_n; Poisson: gamma_n = (1 + c) gamma_nc; Stronge: W_nr = d^2 (-W_nc),
  // including coupled configurations where the three differ.
  for (double theta : {-0.9, -0.3, 0.4, 1.1})
    for (double mu : {0.2, 0.8})
      for (double alpha : {0.2, 0.8, 1.3})
        for (double k : {0.3, 0.9}) {
          const Configuration c = make(0.8, theta, mu, alpha, k);
          EXPECT_NEAR(achieved(c, solve_rigid_law("newton", c)).e, k, kTight);
          EXPECT_NEAR(achieved(c, solve_rigid_law("smith", c)).e, k, 1e-10);
          EXPECT_NEAR(achieved(c, solve_rigid_law("poisson", c)).c, k, kTight);
          EXPECT_NEAR(achieved(c, solve_rigid_law("stronge", c)).d, k, 1e-10);
          const Outcome s = solve_rigid_law("stronge", c);
          EXPECT_LE(s.normal_work_compression, 0);
          EXPECT_GE(s.normal_work_restitution, 0);
        }
}

TEST(RigidLaws, OutcomeIsConsistentWithImpulseMomentum) {
  // w = v0 + (m N) gamma, no time scale, phases tile [0, gamma_n] in normal impulse.
  for (const std::string& law : kLaws) {
    Configuration c = make(0.7, -0.5, 0.3, 0.9, 0.6);
    c.impulse_ratio = 0.2;
    const Outcome o = solve_rigid_law(law, c);
    SCOPED_TRACE(law);
    EXPECT_EQ(o.model, law);
    const Eigen::Vector2d w = incident_velocity(c.incidence_angle) +
                              scaled_inverse_inertia(c.lambda, c.theta) * o.impulse;
    EXPECT_NEAR((o.separation_velocity - w).norm(), 0, kTight);
    EXPECT_TRUE(std::isnan(o.duration));
    EXPECT_TRUE(o.history.empty());
    ASSERT_FALSE(o.phases.empty());
    EXPECT_EQ(o.phases.front().start, 0);
    EXPECT_NEAR(o.phases.back().end, o.impulse.y(), kTight);
    for (std::size_t i = 1; i < o.phases.size(); ++i)
      EXPECT_EQ(o.phases[i].start, o.phases[i - 1].end);
    EXPECT_TRUE(has_note(o, "delimited by the normal impulse"));
  }
}

TEST(RigidLaws, SmithFrictionIsAWeightedCoulombImpulse) {
  // Eq. 2.4 with the final w_t of the solution: gamma_t = -mu gamma_n (|v|v + |w|w)/(v^2 + w^2).
  for (double theta : {-0.8, -0.2, 0.5})
    for (double alpha : {0.3, 0.9}) {
      const Configuration c = make(0.9, theta, 0.4, alpha, 0.7);
      const Outcome o = solve_rigid_law("smith", c);
      const double v = std::sin(alpha), w = o.separation_velocity.x();
      const double weight = (std::abs(v) * v + std::abs(w) * w) / (v * v + w * w);
      EXPECT_NEAR(o.impulse.x(), -0.4 * o.impulse.y() * weight, 1e-10);
    }
}

TEST(RigidLaws, BrachUsesTheImpulseRatioOrTheCriticalRatio) {
  // Sphere: the critical ratio (w_t = 0) is r0 = sin(a) (1 - l) / ((1 + l)(1 + e) cos(a)).
  const double e = 0.6, alpha = 0.7;
  const double r0 =
      std::sin(alpha) * (1 - kSphereLambda) / ((1 + kSphereLambda) * (1 + e) * std::cos(alpha));
  Configuration c = make(kSphereLambda, 0, 0, alpha, e);
  c.impulse_ratio = 0.5 * r0;  // below critical: the ratio holds, slip continues
  Outcome o = solve_rigid_law("brach", c);
  EXPECT_NEAR(o.impulse.x(), -0.5 * r0 * o.impulse.y(), kTight);
  EXPECT_GT(o.separation_velocity.x(), 0);
  EXPECT_EQ(o.phases[0].mode, Mode::slip);
  c.impulse_ratio = 2 * r0;  // above critical: Brach caps the ratio at r0, the sphere rolls
  o = solve_rigid_law("brach", c);
  EXPECT_NEAR(o.separation_velocity.x(), 0, kTight);
  EXPECT_NEAR(-o.impulse.x() / o.impulse.y(), r0, kTight);
  EXPECT_EQ(o.phases[0].mode, Mode::stick);
  EXPECT_NEAR(o.separation_velocity.y(), e * std::cos(alpha), kTight);
}

TEST(RigidLaws, MissingOrInvalidInputsThrow) {
  Configuration c = make(0.5, 0.2, 0.3, 0.4);  // no restitution
  for (const std::string& law : kLaws) EXPECT_THROW(solve_rigid_law(law, c), std::invalid_argument);
  c.restitution = 0.8;  // Brach still lacks its impulse ratio
  EXPECT_THROW(solve_rigid_law("brach", c), std::invalid_argument);
  c.impulse_ratio = 0.1;
  EXPECT_NO_THROW(solve_rigid_law("brach", c));
  c.restitution = -0.1;
  EXPECT_THROW(solve_rigid_law("newton", c), std::invalid_argument);
  c.restitution = 0.8;
  EXPECT_THROW(solve_rigid_law("lai", c), std::invalid_argument);
  c.lambda = 1.0;
  EXPECT_THROW(solve_rigid_law("poisson", c), std::invalid_argument);
  c.lambda = 0.5;
  c.incidence_angle = M_PI / 2;
  EXPECT_THROW(solve_rigid_law("stronge", c), std::invalid_argument);
  try {
    solve_rigid_law("stronge", make(0.5, 0, 0, 0));
    ADD_FAILURE() << "expected a throw";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("restitution"), std::string::npos);
  }
}

}  // namespace
}  // namespace rebound::lumped
