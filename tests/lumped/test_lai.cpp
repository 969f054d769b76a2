// Lai's coupled-conservative model against docs/THEORY.md §5: the independent reference values
// (docs/VALIDATION.md §4), the limits every implementation must meet, energy, and located
// stick/slip events.
#include <gtest/gtest.h>

#include <cmath>

#include "cases/derived.h"
#include "lumped/lai.h"
#include "lumped/normal_laws.h"
#include "tests/common/impact_checks.h"
#include "tests/common/maw_sphere.h"

using namespace rebound::lumped;

using rebound::test::e_of;
using rebound::test::kinetic_energy_loss;
using rebound::test::psi2_of;

namespace {

using rebound::cases::psi_scale;

Configuration sphere(double psi1, double mu = 0.5, double nu = 0.3) {
  Configuration c = rebound::test::maw_sphere(psi1, mu, nu);
  c.relative_tolerance = 1e-11;
  return c;
}

}  // namespace

// The independent reference values of docs/VALIDATION.md §4 (independent integration at 1e-11;
// printed to 6 decimals, so 1e-6 covers the rounding).
TEST(Lai, PublicReferenceTable) {
  struct Row {
    Configuration c;
    double psi2, e, gamma_t, gamma_n, tau_end;
  };
  Configuration rod;
  rod.lambda = 0.63922;
  rod.theta = 0.27018;
  rod.friction = 0.5;
  rod.poisson_ratio = 0.28;
  rod.incidence_angle = std::atan(1.549);
  rod.relative_tolerance = 1e-11;
  const Row rows[] = {
      {sphere(0.5), 0.466435, 1.001052, -0.012353, 4.308227, 3.991508},
      {sphere(1.2), 0.194544, 0.994127, -0.317541, 3.626385, 4.103390},
      {sphere(3.0), -1.138480, 0.986403, -0.774457, 2.150942, 4.515982},
      {sphere(6.0), 0.235294, 1.000000, -0.595613, 1.191226, 5.062826},
      {rod, -0.446080, 1.177714, -1.428684, 3.653722, 5.026995},
  };
  EXPECT_NEAR(psi_scale(0.28, 0.5) * 1.549, 2.593674, 1e-6);
  for (const Row& row : rows) {
    const Outcome o = solve_lai(row.c);
    SCOPED_TRACE(row.psi2);
    EXPECT_NEAR(psi2_of(row.c, o), row.psi2, 1e-6);
    EXPECT_NEAR(e_of(row.c, o), row.e, 1e-6);
    EXPECT_NEAR(o.impulse.x(), row.gamma_t, 1e-6);
    EXPECT_NEAR(o.impulse.y(), row.gamma_n, 1e-6);
    EXPECT_NEAR(o.duration, row.tau_end, 1e-6);
  }
}

// mu = 0 (theta = 0): frictionless elastic, e = 1 and tan alpha2 = tan alpha1.
TEST(Lai, FrictionlessIsElasticAndKeepsTheAngle) {
  for (const double alpha : {0.0, 0.2, 0.7, 1.3}) {
    Configuration c = sphere(0, 0.0);
    c.incidence_angle = alpha;
    const Outcome o = solve_lai(c);
    EXPECT_NEAR(e_of(c, o), 1.0, 1e-9);
    EXPECT_NEAR(o.separation_velocity.x() / o.separation_velocity.y(), std::tan(alpha), 1e-9);
    EXPECT_NEAR(o.impulse.x(), 0.0, 1e-15);
  }
}

// alpha -> 0: the Hertz duration tau_c = 2.9432 (15/16)^{2/5} (1 - lambda cos 2 theta)^{-2/5}
// (3.967 for the sphere). 2.9432 is itself rounded to 5 digits: tolerance 5e-5 relative. With
// theta != 0 the normal impulse drives P tangentially, so the pure Hertz limit needs mu = 0.
TEST(Lai, NormalImpactHasTheHertzDuration) {
  for (const double theta : {0.0, 0.3, -0.5}) {
    Configuration c = sphere(0, theta == 0 ? 0.5 : 0.0);
    c.incidence_angle = 0;
    c.theta = theta;
    const Outcome o = solve_lai(c);
    const double expected =
        2.9432 * std::pow(15.0 / 16.0, 0.4) * std::pow(1 - c.lambda * std::cos(2 * theta), -0.4);
    EXPECT_NEAR(o.duration / expected, 1.0, 5e-5) << theta;
  }
  Configuration c = sphere(0);
  c.incidence_angle = 0;
  EXPECT_NEAR(solve_lai(c).duration, 3.967, 5e-4);
}

// Gross slip throughout (theta = 0): Psi2 = Psi1 - 4 chi.
TEST(Lai, GrossSlipLine) {
  for (const double psi1 : {6.0, 8.0, 15.0}) {
    const Configuration c = sphere(psi1);
    const Outcome o = solve_lai(c);
    ASSERT_EQ(o.phases.size(), 1u);
    EXPECT_EQ(o.phases[0].mode, Mode::slip);
    const double chi = 0.7 * (1 + c.lambda) / (1.7 * (1 - c.lambda));
    EXPECT_NEAR(psi2_of(c, o), psi1 - 4 * chi, 1e-8);
    // On the cone the tangential force is exactly -mu times the normal force.
    EXPECT_NEAR(o.impulse.x(), -0.5 * o.impulse.y(), 1e-9);
  }
}

// kappa mu^2 >= 1: the spring never reaches the friction limit, nothing is dissipated.
TEST(Lai, AlwaysStickDissipatesNothing) {
  Configuration c = sphere(0, 1.2);
  c.incidence_angle = 0.8;
  const Outcome o = solve_lai(c);
  ASSERT_EQ(o.phases.size(), 1u);
  EXPECT_EQ(o.phases[0].mode, Mode::stick);
  const double kinetic_change =
      0.5 * (incident_velocity(c.incidence_angle) + o.separation_velocity).dot(o.impulse);
  EXPECT_NEAR(kinetic_change, 0.0, 1e-9);
  for (const Sample& s : o.history) EXPECT_NEAR(s.dissipation, 0.0, 1e-9);
}

// Mirror symmetry: (alpha, theta) -> (-alpha, -theta) mirrors the tangential results.
TEST(Lai, MirrorSymmetry) {
  Configuration c;
  c.lambda = 0.62;
  c.theta = 0.4;
  c.friction = 0.5;
  c.poisson_ratio = 0.28;
  c.incidence_angle = 0.9;
  c.relative_tolerance = 1e-11;
  Configuration m = c;
  m.theta = -c.theta;
  m.incidence_angle = -c.incidence_angle;
  const Outcome a = solve_lai(c), b = solve_lai(m);
  EXPECT_NEAR(a.impulse.x(), -b.impulse.x(), 1e-10);
  EXPECT_NEAR(a.impulse.y(), b.impulse.y(), 1e-10);
  EXPECT_NEAR(a.separation_velocity.x(), -b.separation_velocity.x(), 1e-10);
  EXPECT_NEAR(a.duration, b.duration, 1e-10);
  ASSERT_EQ(a.phases.size(), b.phases.size());
  for (std::size_t i = 0; i < a.phases.size(); ++i)
    EXPECT_NEAR(a.phases[i].end, b.phases[i].end, 1e-9);
}

// Energy (docs/THEORY.md §5): D = -(Delta K + V) >= 0, non-decreasing, and D(end) = kinetic-energy
// loss. This is what the corrected slip->stick rule guarantees; the seed's reading of eq. 5.60
// lets friction do positive work and fails it. Checked over stick-slip-stick cases.
TEST(Lai, DissipationIsNonNegativeAndNonDecreasing) {
  std::vector<Configuration> configurations = {sphere(0.5), sphere(1.2), sphere(2.0), sphere(3.0),
                                               sphere(4.5)};
  for (const double theta : {0.27018, 0.38956, -0.62204, -0.59062}) {
    Configuration c;
    c.lambda = 0.63;
    c.theta = theta;
    c.friction = 0.5;
    c.poisson_ratio = 0.28;
    c.incidence_angle = 0.6;
    configurations.push_back(c);
  }
  for (Configuration c : configurations) {
    c.relative_tolerance = 1e-10;
    const Outcome o = solve_lai(c);
    ASSERT_GE(o.history.size(), 200u);
    double previous = 0;
    for (const Sample& s : o.history) {
      EXPECT_GE(s.dissipation, -1e-8) << "tau = " << s.tau;
      EXPECT_GE(s.dissipation, previous - 1e-8) << "tau = " << s.tau;
      previous = std::max(previous, s.dissipation);
    }
    const double loss =
        -0.5 * (incident_velocity(c.incidence_angle) + o.separation_velocity).dot(o.impulse);
    EXPECT_NEAR(o.history.back().dissipation, loss, 1e-9);
    EXPECT_GE(loss, -1e-9);
  }
}

// Initial stick or slip by |tan alpha| vs C (Lai 1999, eq. 5.57).
TEST(Lai, InitialModeFromIncidence) {
  const double C = rebound::cases::stick_limit(rebound::cases::kappa_of(0.3), 0.5);
  Configuration below = sphere(0);
  below.incidence_angle = std::atan(0.98 * C);
  Configuration above = sphere(0);
  above.incidence_angle = std::atan(1.02 * C);
  EXPECT_EQ(solve_lai(below).phases.front().mode, Mode::stick);
  EXPECT_EQ(solve_lai(above).phases.front().mode, Mode::slip);
}

// Located events: tightening the tolerance moves the switching times only at the tolerance's
// order (a step-late detector would move them by a step, ~1e-2).
TEST(Lai, EventTimesAreLocated) {
  Configuration loose = sphere(1.2), tight = sphere(1.2);
  loose.relative_tolerance = 1e-8;
  tight.relative_tolerance = 1e-12;
  const Outcome a = solve_lai(loose), b = solve_lai(tight);
  ASSERT_EQ(a.phases.size(), b.phases.size());
  ASSERT_GE(a.phases.size(), 3u);  // slip -> stick -> slip ... at Psi1 = 1.2
  for (std::size_t i = 0; i < a.phases.size(); ++i)
    EXPECT_NEAR(a.phases[i].end, b.phases[i].end, 1e-6);
  // At every switch the state is on the switching surface.
  for (std::size_t i = 0; i + 1 < b.phases.size(); ++i) {
    const double tau = b.phases[i].end;
    for (const Sample& s : b.history) {
      if (std::abs(s.tau - tau) > 1e-14) continue;
      const double C = rebound::cases::stick_limit(rebound::cases::kappa_of(0.3), 0.5);
      if (b.phases[i].mode == Mode::stick) {
        EXPECT_NEAR(std::abs(s.spring_extension), C * -s.displacement.y(), 1e-10);
      }
    }
  }
}

// A dissipative normal law as Lai's normal spring: in a normal impact (no tangential motion)
// the achieved restitution is the law's own, e.g. Michalczyk's hysteresis gives exactly R
// (Michalczyk 2008, eq. 2.17), and Hertz gives 1.
TEST(Lai, DissipativeNormalLawSetsTheRestitution) {
  for (const double r : {0.3, 0.7, 0.95}) {
    Configuration c = sphere(0);
    c.incidence_angle = 0;
    c.normal_law = "michalczyk";
    c.restitution = r;
    const Outcome o = solve_lai(c);
    ASSERT_TRUE(o.achieved_restitution.has_value());
    EXPECT_NEAR(*o.achieved_restitution, r, 1e-7);
    EXPECT_NEAR(*o.prescribed_restitution, r, 0);
  }
  // Oblique: friction and a dissipative law together still never create energy.
  Configuration c = sphere(1.2);
  c.normal_law = "flores";
  c.restitution = 0.8;
  const Outcome o = solve_lai(c);
  const double loss =
      -0.5 * (incident_velocity(c.incidence_angle) + o.separation_velocity).dot(o.impulse);
  EXPECT_GT(loss, 0.1);  // Flores at c_r = 0.8 alone removes ~1 - 0.8^2 of the normal energy
  EXPECT_LT(o.separation_velocity.y() / std::cos(c.incidence_angle), 0.85);
}

// restitution_calibration "exact" inside Lai's model: a frictionless normal impact (mu = 0,
// alpha = 0), central or eccentric (lambda = 0.5, theta = 0.3: the normal equation is then
// x'' = -(1 - lambda cos 2 theta) F, which the scale-free impact absorbs), achieves the
// prescribed e for every law. 1e-8: the calibration's ~1e-10 plus Lai's integration at rtol
// 1e-10. The summary fields are set.
TEST(Lai, ExactCalibrationAchievesTheRestitutionOfAFrictionlessNormalImpact) {
  for (const char* law : {"hunt-crossley", "lankarani-nikravesh", "flores", "michalczyk"})
    for (const double e : {0.2, 0.5, 0.8, 0.95})
      for (const double lambda : {0.0, 0.5}) {
        Configuration c = sphere(0, 0.0);
        c.incidence_angle = 0;
        c.lambda = lambda;
        c.theta = lambda > 0 ? 0.3 : 0.0;
        c.relative_tolerance = 1e-10;
        c.normal_law = law;
        c.restitution = e;
        const Outcome o = solve_lai(c);
        ASSERT_TRUE(o.achieved_restitution.has_value());
        EXPECT_NEAR(*o.achieved_restitution, e, 1e-8) << law << " e=" << e << " lambda=" << lambda;
        EXPECT_EQ(o.restitution_calibration.value_or(""), "exact");
        EXPECT_EQ(o.normal_law_damping.value_or(-1), calibrated_damping(parse_normal_law(law), e));
        c.restitution_calibration = "published";
        const Outcome p = solve_lai(c);
        EXPECT_EQ(p.restitution_calibration.value_or(""), "published");
        EXPECT_EQ(p.normal_law_damping.value_or(-1), published_damping(parse_normal_law(law), e));
        const NormalSpring published_spring =
            make_normal_spring(parse_normal_law(law), e, 1.0, RestitutionCalibration::published);
        EXPECT_NEAR(*p.achieved_restitution, achieved_restitution(published_spring), 1e-8) << law;
      }
  // With friction at an oblique incidence the normal rebound is no longer the law's alone.
  Configuration c = sphere(1.2);
  c.normal_law = "hunt-crossley";
  c.restitution = 0.8;
  const Outcome o = solve_lai(c);
  EXPECT_GT(std::abs(*o.achieved_restitution - 0.8), 1e-3);
}

// The history is bounded (lumped/outcome.h bound_history): sampled 1000 times as densely as
// usual, a Lai solve keeps fewer than kMaxHistorySamples samples, evenly thinned, and the same
// result (sampling does not touch the integration).
TEST(Lai, HistoryIsBoundedAndSamplingDoesNotChangeTheResult) {
  const Configuration c = sphere(2.0);
  LaiOptions dense;
  dense.history_spacing = 1e-5;  // ~4e5 samples over tau ~ 4 without the bound
  const Outcome thinned = solve_lai(c, dense);
  const Outcome usual = solve_lai(c);
  EXPECT_LT(thinned.history.size(), kMaxHistorySamples);
  EXPECT_GT(thinned.history.size(), kMaxHistorySamples / 4);
  EXPECT_EQ(thinned.history.front().tau, 0.0);
  EXPECT_EQ(thinned.history.back().tau, thinned.duration);
  for (std::size_t k = 1; k < thinned.history.size(); ++k)
    ASSERT_GE(thinned.history[k].tau, thinned.history[k - 1].tau);
  EXPECT_EQ(thinned.impulse, usual.impulse);
  EXPECT_EQ(thinned.separation_velocity, usual.separation_velocity);
  EXPECT_EQ(thinned.duration, usual.duration);
}
