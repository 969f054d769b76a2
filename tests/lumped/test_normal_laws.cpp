// Dissipative normal laws (docs/THEORY.md §7; Michalczyk 2008, eq. 2.17, Wang & Gao 2023,
// sec. 3.2): coefficients, sign of the force, and the restitution each law achieves in a
// frictionless 1-DOF impact x'' = -F(x, x'), x(0) = 0, x'(0) = 1, against the prescribed c_r.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "lumped/normal_laws.h"

namespace rebound::lumped {
namespace {

// The tests of the laws themselves take their published coefficients (the papers' laws); the
// calibration has its own tests below.
constexpr RestitutionCalibration kPublished = RestitutionCalibration::published;
constexpr RestitutionCalibration kExact = RestitutionCalibration::exact;

const std::vector<double> kRestitutions = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0};

// Hertz contact duration for x'' = -(4/3) x^{3/2}, x'(0) = 1: x_max = (15/16)^{2/5},
// tau_c = 2 sqrt(pi) Gamma(7/5) / Gamma(9/10) x_max (= 2.9432 x_max, docs/THEORY.md §5 and §12).
double hertz_duration() {
  return 2 * std::sqrt(M_PI) * std::tgamma(1.4) / std::tgamma(0.9) * std::pow(15.0 / 16.0, 0.4);
}

std::vector<double> achieved(NormalLaw law) {
  std::vector<double> e;
  for (double c : kRestitutions)
    e.push_back(achieved_restitution(make_normal_spring(law, c, 1.0, kPublished)));
  return e;
}

TEST(NormalLaw, ParsesItsNamesAndRejectsOthers) {
  for (NormalLaw law : {NormalLaw::hertz, NormalLaw::hunt_crossley, NormalLaw::lankarani_nikravesh,
                        NormalLaw::flores, NormalLaw::michalczyk})
    EXPECT_EQ(parse_normal_law(to_string(law)), law);
  EXPECT_THROW(parse_normal_law("kelvin-voigt"), std::invalid_argument);
  EXPECT_THROW(make_normal_spring(NormalLaw::flores, 0.0, 1.0, kPublished), std::invalid_argument);
  EXPECT_THROW(make_normal_spring(NormalLaw::lankarani_nikravesh, 1.2, 1.0, kPublished),
               std::invalid_argument);
  EXPECT_THROW(make_normal_spring(NormalLaw::hunt_crossley, 0.5, 0.0, kPublished),
               std::invalid_argument);
  // Hertz is elastic: a restitution meant for another model is ignored.
  EXPECT_EQ(make_normal_spring(NormalLaw::hertz, 0.5, 1.0, kPublished).restitution, 1.0);
}

// The force at one state, written from the seeds' formulas (K = 4/3, xdot(-) = 0.8).
TEST(NormalLaw, ForcesAreTheSeedsFormulas) {
  const double c = 0.6, x = 0.7, v0 = 0.8, K = 4.0 / 3.0, hertz = K * std::pow(x, 1.5);
  for (double rate : {0.5, -0.3}) {
    const double r = rate / v0;
    EXPECT_NEAR(make_normal_spring(NormalLaw::hertz, 1, v0, kPublished).force(x, rate), hertz,
                1e-15);
    EXPECT_NEAR(make_normal_spring(NormalLaw::hunt_crossley, c, v0, kPublished).force(x, rate),
                hertz * (1 + 3 * (1 - c) / 2 * r), 1e-14);
    // Wang & Gao 2023: F_LN = K_h delta^m [1 + 3(1 - c_r^2)/4 delta'/delta'(-)].
    EXPECT_NEAR(
        make_normal_spring(NormalLaw::lankarani_nikravesh, c, v0, kPublished).force(x, rate),
        hertz * (1 + 3 * (1 - c * c) / 4 * r), 1e-14);
    // Wang & Gao 2023: F_f = K_h delta^m [1 + 8(1 - c_r)/(5 c_r) delta'/delta'(-)].
    EXPECT_NEAR(make_normal_spring(NormalLaw::flores, c, v0, kPublished).force(x, rate),
                hertz * (1 + 8 * (1 - c) / (5 * c) * r), 1e-14);
    // Michalczyk 2008, eq. 2.17: F = k x^p {1 - (1 - R^2)/2 [1 - sgn(x')]}.
    const double sgn = rate > 0 ? 1 : -1;
    EXPECT_NEAR(make_normal_spring(NormalLaw::michalczyk, c, v0, kPublished).force(x, rate),
                hertz * (1 - (1 - c * c) / 2 * (1 - sgn)), 1e-14);
  }
  const NormalSpring m = make_normal_spring(NormalLaw::michalczyk, c, v0, kPublished);
  EXPECT_NEAR(m.elastic_force(x), hertz, 1e-15);
  EXPECT_NEAR(m.elastic_force(x, -0.1), c * c * hertz, 1e-15);
  EXPECT_TRUE(m.discontinuous_at_maximum_compression());
}

TEST(NormalLaw, ForceIsNeverNegative) {
  for (NormalLaw law : {NormalLaw::hunt_crossley, NormalLaw::lankarani_nikravesh, NormalLaw::flores,
                        NormalLaw::michalczyk})
    for (double c : {0.05, 0.3, 0.9}) {
      const NormalSpring s = make_normal_spring(law, c, 1.0, kPublished);
      for (double x = -0.5; x <= 2; x += 0.05)
        for (double rate = -5; rate <= 5; rate += 0.1) {
          const double f = s.force(x, rate);
          EXPECT_GE(f, 0.0) << to_string(law) << " c=" << c << " x=" << x << " rate=" << rate;
          if (x <= 0) {
            EXPECT_EQ(f, 0.0);
          }
        }
    }
}

TEST(NormalLaw, HertzIsElastic) {
  const NormalImpact impact =
      simulate_normal_impact(make_normal_spring(NormalLaw::hertz, 1, 1, kPublished));
  EXPECT_NEAR(impact.restitution, 1.0, 1e-9);
  EXPECT_NEAR(impact.max_compression, std::pow(15.0 / 16.0, 0.4), 1e-10);
  EXPECT_NEAR(impact.duration, hertz_duration(), 1e-8);
  EXPECT_NEAR(impact.duration, 2.9432 * std::pow(15.0 / 16.0, 0.4), 1e-4);  // docs/THEORY.md §5
  EXPECT_NEAR(impact.peak_force, 4.0 / 3.0 * std::pow(impact.max_compression, 1.5), 1e-6);
}

// Michalczyk's hysteresis returns R^2 of the stored energy: e = R to integration tolerance, and
// the restitution phase is a Hertz half-oscillation with stiffness R^2 K, i.e. 1/R times longer.
TEST(NormalLaw, MichalczykAchievesThePrescribedRestitution) {
  for (double R : kRestitutions) {
    const NormalImpact impact =
        simulate_normal_impact(make_normal_spring(NormalLaw::michalczyk, R, 1.0, kPublished));
    EXPECT_NEAR(impact.restitution, R, 1e-9) << "R=" << R;
    EXPECT_NEAR(impact.duration, hertz_duration() / 2 * (1 + 1 / R), 1e-7) << "R=" << R;
  }
}

// Lankarani-Nikravesh assume little dissipation (c_r near 1): accurate there, and under-dissipating
// (e > c_r) as c_r falls, never below ~2/3 (the damping factor is bounded by 3/4).
TEST(NormalLaw, LankaraniNikravesh) {
  const std::vector<double> e = achieved(NormalLaw::lankarani_nikravesh);
  for (std::size_t i = 0; i < e.size(); ++i) {
    const double c = kRestitutions[i];
    if (c < 1) {
      EXPECT_GT(e[i], c) << "c_r=" << c;
    }
    if (c >= 0.9) {
      EXPECT_LT(std::abs(e[i] - c), 0.015) << "c_r=" << c;
    }  // 0.0132 at 0.9
    if (c <= 0.5) {
      EXPECT_GT(e[i] - c, 0.2) << "c_r=" << c;
    }  // 0.225 at 0.5
    if (i > 0) {
      EXPECT_GT(e[i], e[i - 1]);                             // monotonic in c_r
      EXPECT_LT(e[i] - c, e[i - 1] - kRestitutions[i - 1]);  // error shrinks
    }
  }
  EXPECT_GT(e.front(), 0.66);  // c_r = 0.1 gives 0.665
  EXPECT_NEAR(e.back(), 1.0, 1e-9);
}

// Hunt-Crossley's 3(1 - c_r)/2 is the small-dissipation linearisation: same direction as L-N.
TEST(NormalLaw, HuntCrossley) {
  const std::vector<double> e = achieved(NormalLaw::hunt_crossley);
  for (std::size_t i = 0; i < e.size(); ++i) {
    const double c = kRestitutions[i];
    if (c < 1) {
      EXPECT_GT(e[i], c) << "c_r=" << c;
    }
    if (c >= 0.9) {
      EXPECT_LT(std::abs(e[i] - c), 0.01) << "c_r=" << c;
    }  // 0.0090 at 0.9
    if (i > 0) {
      EXPECT_GT(e[i], e[i - 1]);
    }
  }
  EXPECT_NEAR(e.back(), 1.0, 1e-9);
}

// Flores et al. derived their factor for the whole range: within 0.05 of c_r everywhere on
// [0.1, 1] (largest 0.045 near 0.2-0.3), within 6 % relative for c_r >= 0.5 and 1.5 % for
// c_r >= 0.8, slightly over-dissipating (e < c_r).
TEST(NormalLaw, Flores) {
  const std::vector<double> e = achieved(NormalLaw::flores);
  for (std::size_t i = 0; i < e.size(); ++i) {
    const double c = kRestitutions[i];
    EXPECT_LT(std::abs(e[i] - c), 0.05) << "c_r=" << c;
    if (c < 1) {
      EXPECT_LT(e[i], c) << "c_r=" << c;
    }
    if (c >= 0.5) {
      EXPECT_LT(std::abs(e[i] - c) / c, 0.06) << "c_r=" << c;
    }
    if (c >= 0.8) {
      EXPECT_LT(std::abs(e[i] - c) / c, 0.015) << "c_r=" << c;
    }
    if (i > 0) {
      EXPECT_GT(e[i], e[i - 1]);
    }
  }
  EXPECT_NEAR(e.back(), 1.0, 1e-9);
  // Flores is by far the closest of the three viscous laws at low c_r.
  const double c = 0.3;
  const double flores =
      achieved_restitution(make_normal_spring(NormalLaw::flores, c, 1, kPublished));
  const double ln =
      achieved_restitution(make_normal_spring(NormalLaw::lankarani_nikravesh, c, 1, kPublished));
  const double hc =
      achieved_restitution(make_normal_spring(NormalLaw::hunt_crossley, c, 1, kPublished));
  EXPECT_LT(std::abs(flores - c), std::abs(hc - c));
  EXPECT_LT(std::abs(hc - c), std::abs(ln - c));
}

// x' / x'(-) makes every law scale-free: the achieved e does not depend on the approach rate
// (e.g. cos alpha in Lai's scaling), and it is converged in the tolerance.
TEST(NormalLaw, AchievedRestitutionIsScaleFreeAndConverged) {
  for (NormalLaw law : {NormalLaw::hunt_crossley, NormalLaw::lankarani_nikravesh, NormalLaw::flores,
                        NormalLaw::michalczyk}) {
    const double e1 = achieved_restitution(make_normal_spring(law, 0.4, 1.0, kPublished));
    EXPECT_NEAR(achieved_restitution(make_normal_spring(law, 0.4, 0.37, kPublished)), e1, 1e-8)
        << to_string(law);
    EXPECT_NEAR(achieved_restitution(make_normal_spring(law, 0.4, 1.0, kPublished), 1e-7), e1, 1e-6)
        << to_string(law);
  }
}

// Independent integration of the same impact: classical RK4 with a fixed small step h = 2e-4,
// separation located by linear interpolation (the force vanishes at x = 0, so x' is flat there;
// after a cut of the force x' is constant). Returns e = -x'(end) for x'(0) = 1; its error is
// below 1e-7 for these laws (RK4's O(h^4) with x ~ 1, and the x^{3/2} non-smoothness at x = 0
// costs one step of O(h^{5/2}) ~ 6e-10).
double rk4_restitution(const NormalSpring& s) {
  auto f = [&](double x, double v) { return -s.force(x, v); };
  double x = 0, v = 1;
  const double h = 2e-4;
  for (int n = 0; n < 10'000'000; ++n) {
    const double k1x = v, k1v = f(x, v);
    const double k2x = v + h / 2 * k1v, k2v = f(x + h / 2 * k1x, v + h / 2 * k1v);
    const double k3x = v + h / 2 * k2v, k3v = f(x + h / 2 * k2x, v + h / 2 * k2v);
    const double k4x = v + h * k3v, k4v = f(x + h * k3x, v + h * k3v);
    const double xn = x + h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
    const double vn = v + h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
    if (n > 0 && xn <= 0) return -(v + (vn - v) * x / (x - xn));
    x = xn, v = vn;
  }
  return std::nan("");
}

// Independent check of the integration (events included).
TEST(NormalLaw, AgreesWithAFixedStepRungeKutta) {
  for (NormalLaw law :
       {NormalLaw::hunt_crossley, NormalLaw::lankarani_nikravesh, NormalLaw::flores}) {
    const NormalSpring s = make_normal_spring(law, 0.5, 1.0, kPublished);
    EXPECT_NEAR(rk4_restitution(s), achieved_restitution(s), 1e-6) << to_string(law);
  }
}

// ----- Restitution calibration (lumped.restitution_calibration) -----

const std::vector<NormalLaw> kDissipativeLaws = {NormalLaw::hunt_crossley,
                                                 NormalLaw::lankarani_nikravesh, NormalLaw::flores,
                                                 NormalLaw::michalczyk};

// "exact": the frictionless normal impact achieves the prescribed e. 1e-8 is the accuracy asked of
// the calibration; the root solve stops at 1e-12 in e and the integration at rtol 1e-11 carries
// ~1e-10 (Hertz's e = 1 comes out as 1 + 8e-11). The same holds at another approach rate (the
// impact is scale-free) and, to the RK4's accuracy (1e-6), for an integration that shares no code
// with the calibration.
TEST(RestitutionCalibration, ExactAchievesThePrescribedRestitution) {
  for (NormalLaw law : kDissipativeLaws)
    for (double e : {0.2, 0.5, 0.8, 0.95}) {
      const NormalSpring spring = make_normal_spring(law, e, 1.0, kExact);
      EXPECT_EQ(spring.calibration, kExact);
      EXPECT_NEAR(achieved_restitution(spring), e, 1e-8) << to_string(law) << " e=" << e;
      EXPECT_NEAR(achieved_restitution(make_normal_spring(law, e, 0.37, kExact)), e, 1e-8)
          << to_string(law) << " e=" << e;
      if (law != NormalLaw::michalczyk) {
        EXPECT_NEAR(rk4_restitution(spring), e, 1e-6) << to_string(law) << " e=" << e;
      }
    }
}

// "published": the achieved e is the code's before the calibration existed. Table: e printed with
// %.17g by simulate_normal_impact(make_normal_spring(law, c_r, 1.0)).restitution at commit
// 67c728f (the parent of the calibration; light Release build, g++ 12). The code path is the
// same, so the values agree to round-off; 1e-12 leaves room for another compiler's contraction
// while staying 100 times below the integration's own error.
TEST(RestitutionCalibration, PublishedReproducesThePreviousCode) {
  struct Row {
    NormalLaw law;
    double restitution, achieved;
  };
  const std::vector<Row> table = {
      {NormalLaw::hunt_crossley, 0.2, 0.54685405068981574},
      {NormalLaw::hunt_crossley, 0.5, 0.66296220000910666},
      {NormalLaw::hunt_crossley, 0.8, 0.83286979237296255},
      {NormalLaw::hunt_crossley, 0.95, 0.9523701528299382},
      {NormalLaw::lankarani_nikravesh, 0.2, 0.67226248900684737},
      {NormalLaw::lankarani_nikravesh, 0.5, 0.72524111394316693},
      {NormalLaw::lankarani_nikravesh, 0.8, 0.84710227983713682},
      {NormalLaw::lankarani_nikravesh, 0.95, 0.9535060451245938},
      {NormalLaw::flores, 0.2, 0.15554002025851515},
      {NormalLaw::flores, 0.5, 0.47044477929540729},
      {NormalLaw::flores, 0.8, 0.78853912591049957},
      {NormalLaw::flores, 0.95, 0.94682883156989472},
      {NormalLaw::michalczyk, 0.2, 0.19999999998447734},
      {NormalLaw::michalczyk, 0.5, 0.49999999999366834},
      {NormalLaw::michalczyk, 0.8, 0.79999999992735793},
      {NormalLaw::michalczyk, 0.95, 0.95000000015921304},
  };
  for (const Row& row : table) {
    const NormalSpring spring = make_normal_spring(row.law, row.restitution, 1.0, kPublished);
    EXPECT_EQ(spring.damping, published_damping(row.law, row.restitution));
    EXPECT_NEAR(achieved_restitution(spring), row.achieved, 1e-12)
        << to_string(row.law) << " c_r=" << row.restitution;
  }
}

// The calibrated damping D(e): the three viscous laws share one force form, hence one D; it
// decreases strictly with e from D(1) = 0; it lies between the published forms that
// under-dissipate (Lankarani-Nikravesh < Hunt-Crossley, e > c_r) and Flores's, which
// over-dissipates (e < c_r, tests above); for small e the body creeps out at nearly the speed
// 1/D at which the force would be cut, so D e -> 1 (to 1e-9 for e <= 0.03).
// Michalczyk's D = (1 - e^2)/2 is its published value (exact by construction).
TEST(RestitutionCalibration, DampingIsMonotoneInRestitution) {
  std::vector<double> es;
  for (int i = 1; i < 10; ++i) es.push_back(0.001 * i);
  for (int i = 1; i <= 100; ++i) es.push_back(0.01 * i);
  double previous = std::numeric_limits<double>::infinity(), previous_m = 1;
  for (double e : es) {
    const double d = calibrated_damping(NormalLaw::hunt_crossley, e);
    EXPECT_EQ(calibrated_damping(NormalLaw::lankarani_nikravesh, e), d) << e;
    EXPECT_EQ(calibrated_damping(NormalLaw::flores, e), d) << e;
    EXPECT_LT(d, previous) << "e=" << e;
    EXPECT_LE(d, 1 / e * (1 + 1e-12)) << "e=" << e;  // e_N(D) <= 1/D
    if (e <= 0.03) {
      EXPECT_NEAR(d * e, 1.0, 1e-9) << "e=" << e;
    }
    if (e >= 0.1 && e <= 0.95) {
      EXPECT_LT(published_damping(NormalLaw::lankarani_nikravesh, e),
                published_damping(NormalLaw::hunt_crossley, e));
      EXPECT_LT(published_damping(NormalLaw::hunt_crossley, e), d) << "e=" << e;
      EXPECT_LT(d, published_damping(NormalLaw::flores, e)) << "e=" << e;
    }
    const double m = calibrated_damping(NormalLaw::michalczyk, e);
    EXPECT_EQ(m, published_damping(NormalLaw::michalczyk, e));
    EXPECT_LT(m, previous_m) << "e=" << e;
    previous = d, previous_m = m;
  }
  EXPECT_EQ(calibrated_damping(NormalLaw::hunt_crossley, 1.0), 0.0);
  EXPECT_EQ(calibrated_damping(NormalLaw::michalczyk, 1.0), 0.0);
}

// e -> 0 is out of reach: the viscous laws' D grows like 1/e (and the contact without end), so
// the exact calibration stops at cases::kMinimumCalibratedRestitution; e = 0 and e > 1 are never
// a restitution. The messages name the restitution and the bound.
TEST(RestitutionCalibration, ImpossibleRestitutionIsRejected) {
  auto message = [](NormalLaw law, double e) -> std::string {
    try {
      calibrated_damping(law, e);
    } catch (const std::invalid_argument& error) {
      return error.what();
    }
    return "";
  };
  for (NormalLaw law : kDissipativeLaws) {
    EXPECT_NE(message(law, 0.0).find("restitution 0 must be in (0, 1]"), std::string::npos)
        << to_string(law);
    EXPECT_NE(message(law, 1.2).find("restitution 1.2 must be in (0, 1]"), std::string::npos);
    EXPECT_THROW(make_normal_spring(law, 0.0, 1.0, kExact), std::invalid_argument);
  }
  for (NormalLaw law :
       {NormalLaw::hunt_crossley, NormalLaw::lankarani_nikravesh, NormalLaw::flores}) {
    EXPECT_EQ(minimum_calibrated_restitution(law), 1e-3);
    const std::string below = message(law, 5e-4);
    EXPECT_NE(below.find("restitution 0.0005 is below 0.001"), std::string::npos) << below;
    EXPECT_NO_THROW(calibrated_damping(law, 1e-3));
  }
  // Michalczyk's closed form is exact at any R in (0, 1]; Hertz has nothing to calibrate.
  EXPECT_EQ(minimum_calibrated_restitution(NormalLaw::michalczyk), 0.0);
  EXPECT_NO_THROW(calibrated_damping(NormalLaw::michalczyk, 5e-4));
  EXPECT_THROW(calibrated_damping(NormalLaw::hertz, 0.5), std::invalid_argument);
  EXPECT_EQ(make_normal_spring(NormalLaw::hertz, 0.5, 1.0, kExact).damping, 0.0);
}

// The cache is shared by threads and gives every thread the same bits (the solve is
// deterministic), so sweeps do not depend on the thread count; "exact"/"published" parse.
TEST(RestitutionCalibration, SameDampingOnEveryThread) {
  const std::vector<double> es = {0.123, 0.456, 0.789};
  std::vector<std::vector<double>> found(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < found.size(); ++t)
    threads.emplace_back([&, t] {
      for (double e : es) found[t].push_back(calibrated_damping(NormalLaw::flores, e));
    });
  for (auto& thread : threads) thread.join();
  for (std::size_t t = 1; t < found.size(); ++t) EXPECT_EQ(found[t], found[0]);
  for (std::size_t i = 0; i < es.size(); ++i)
    EXPECT_NEAR(achieved_restitution(make_normal_spring(NormalLaw::flores, es[i], 1.0, kExact)),
                es[i], 1e-8);
  EXPECT_EQ(parse_restitution_calibration("exact"), kExact);
  EXPECT_EQ(parse_restitution_calibration("published"), kPublished);
  EXPECT_STREQ(to_string(kPublished), "published");
  EXPECT_THROW(parse_restitution_calibration("closed-form"), std::invalid_argument);
}

}  // namespace
}  // namespace rebound::lumped
