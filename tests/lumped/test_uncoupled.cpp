// The Predicting Rebound thesis's uncoupled non-linear spring model: the accurate solve (events)
// and the thesis program's fixed-step Euler, against the physics limits, the seed's own reported
// results and a literal transcription of its Pascal program.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "lumped/uncoupled.h"
#include "tests/common/impact_checks.h"
#include "tests/common/maw_sphere.h"

namespace rebound::lumped {
namespace {

// Maw's psi_1 = 2(1 - nu)/(mu(2 - nu)) tan alpha (the program's calc_beta_coef) -> alpha.
double alpha_of_psi1(double psi1, double mu, double nu) {
  return std::atan(psi1 * mu * (2 - nu) / (2 * (1 - nu)));
}

// The sphere of the Predicting Rebound thesis, sec. 5.3.1 (and the independent reference values of
// docs/VALIDATION.md §4): nu = 0.3, mu = 0.5, lambda = 5/9.
Configuration sphere(double psi1, double rtol = 1e-10) {
  Configuration c = test::maw_sphere(psi1);
  c.relative_tolerance = rtol;
  return c;
}

// The rod of the Predicting Rebound thesis, sec. 5.2 (Figs. F5.2-F5.14): mu = 0.5, nu = 0.28,
// lambda = 0.6392, theta = 0.086 pi, alpha = 0.3175 pi.
Configuration seed_rod(double rtol = 1e-10) {
  Configuration c;
  c.lambda = 0.6392;
  c.theta = 0.086 * M_PI;
  c.friction = 0.5;
  c.poisson_ratio = 0.28;
  c.incidence_angle = 0.3175 * M_PI;
  c.relative_tolerance = rtol;
  return c;
}

double newton_e(const Configuration& c, const Outcome& o) {
  return o.separation_velocity.y() / std::cos(c.incidence_angle);
}
double psi2(const Configuration& c, const Outcome& o) {
  const double nu = c.poisson_ratio;
  return 2 * (1 - nu) / (c.friction * (2 - nu)) * o.separation_velocity.x() /
         o.separation_velocity.y();
}

TEST(UncoupledModel, StickLimitAndStiffness) {
  // c = (mu(2 - nu)/(2(1 - nu)))^{2/3}: (0.5 * 1.7 / 1.4)^{2/3}.
  EXPECT_NEAR(uncoupled_stick_limit(0.5, 0.3), std::cbrt(std::pow(0.85 / 1.4, 2)), 1e-15);
  EXPECT_EQ(uncoupled_stick_limit(0, 0.3), 0.0);
  EXPECT_NEAR(uncoupled_tangential_stiffness(0.3), 8 * 0.7 / (3 * 1.7), 1e-15);
  // The Predicting Rebound thesis, footnote 34: the rod of sec. 5.2 has psi_1' = tan alpha / c
  // = 2.1838.
  const Configuration rod = seed_rod();
  EXPECT_NEAR(std::tan(rod.incidence_angle) / uncoupled_stick_limit(0.5, 0.28), 2.1838, 5e-4);
}

TEST(UncoupledModel, RejectsWhatItDoesNotModel) {
  Configuration c = sphere(1);
  c.normal_law = "flores";
  EXPECT_THROW(solve_uncoupled(c), std::invalid_argument);
  EXPECT_THROW(solve_uncoupled_euler(c), std::invalid_argument);
  c = sphere(1);
  c.euler_step = 0;
  EXPECT_THROW(solve_uncoupled_euler(c), std::invalid_argument);
}

// mu = 0: the normal spring is elastic and nothing acts tangentially: e = 1, psi_2 = psi_1
// (tan beta = tan alpha) for theta = 0; with theta != 0 still e = 1 and no energy lost. Normal
// incidence duration: Hertz tau_c (1 - lambda cos 2 theta)^{-2/5} cos(alpha)^{-1/5} (PHYSICS
// sec. 3: 3.967 for theta = 0, lambda = 5/9, alpha -> 0).
TEST(UncoupledModel, FrictionlessIsElastic) {
  const double hertz = 2 * std::sqrt(M_PI) * std::tgamma(1.4) / std::tgamma(0.9);
  for (double alpha : {0.0, 0.3, 1.0}) {
    for (double theta : {0.0, 0.4}) {
      Configuration c;
      c.lambda = 5.0 / 9.0;
      c.theta = theta;
      c.friction = 0;
      c.incidence_angle = alpha;
      c.relative_tolerance = 1e-11;
      for (const bool euler : {false, true}) {
        const Outcome o = euler ? solve_uncoupled_euler(c) : solve_uncoupled(c);
        const double tol = euler ? 0.03 : 1e-8;  // Euler: O(h) with h = 0.01
        EXPECT_NEAR(newton_e(c, o), 1.0, tol) << o.model;
        EXPECT_EQ(o.impulse.x(), 0.0);
        if (theta == 0) {
          EXPECT_NEAR(o.separation_velocity.x(), std::sin(alpha), tol);  // tan beta = tan alpha
          EXPECT_NEAR(o.separation_velocity.x() / o.separation_velocity.y(), std::tan(alpha),
                      euler ? 0.05 : 1e-8);
        }
        if (!euler) {
          EXPECT_NEAR(o.history.back().dissipation, 0.0, 1e-9);
          const double n_nn = 1 - c.lambda * std::cos(2 * theta);
          const double q_max = std::pow(15.0 / 16.0 * std::pow(std::cos(alpha), 2) / n_nn, 0.4);
          EXPECT_NEAR(o.duration, hertz * q_max / std::cos(alpha), 1e-7);
          EXPECT_NEAR(o.peak_normal_force, 4.0 / 3.0 * std::pow(q_max, 1.5), 1e-8);
          EXPECT_NEAR(o.normal_work_restitution, -o.normal_work_compression, 1e-9);
          if (theta == 0 && alpha == 0) {
            EXPECT_NEAR(o.duration, 3.967, 5e-4);
          }
        }
      }
    }
  }
}

// D = -(Delta K + V) >= 0 and non-decreasing at every sample, for stick, slip -> stick, gross
// slip and an eccentric rod; samples respect the cone; phases tile [0, tau_end].
TEST(UncoupledModel, DissipationIsNonNegativeAndNonDecreasing) {
  std::vector<Configuration> cases = {sphere(0.5), sphere(1.2), sphere(3), sphere(6), seed_rod()};
  Configuration rod_a;  // Lai 1999, Table 5.2 case a geometry (docs/THEORY.md §5)
  rod_a.lambda = 0.6392;
  rod_a.theta = 0.27018;
  rod_a.friction = 0.5;
  rod_a.poisson_ratio = 0.28;
  rod_a.incidence_angle = std::atan(2.593674 * 0.5 * 1.72 / 1.44);
  rod_a.relative_tolerance = 1e-10;
  cases.push_back(rod_a);
  for (const Configuration& c : cases) {
    const Outcome o = solve_uncoupled(c);
    const double cone = uncoupled_stick_limit(c.friction, c.poisson_ratio);
    ASSERT_GE(o.history.size(), 200u);
    double previous = 0;
    for (const Sample& s : o.history) {
      EXPECT_GE(s.dissipation, -1e-8) << "tau=" << s.tau;
      EXPECT_GE(s.dissipation, previous - 1e-8) << "tau=" << s.tau;
      previous = std::max(previous, s.dissipation);
      EXPECT_LE(std::abs(s.spring_extension), cone * -s.displacement.y() + 1e-8);
      if (s.mode == Mode::slip) {
        EXPECT_NEAR(std::abs(s.spring_extension), cone * -s.displacement.y(), 1e-7);
      }
    }
    // D(end) is the kinetic-energy loss (the springs are relaxed at separation).
    const Eigen::Vector2d v0 = incident_velocity(c.incidence_angle);
    EXPECT_NEAR(o.history.back().dissipation, -0.5 * (v0 + o.separation_velocity).dot(o.impulse),
                1e-12);
    EXPECT_EQ(o.history.back().mode, Mode::separated);
    rebound::test::expect_consistent_outcome(o);
  }
}

// The Predicting Rebound thesis, sec. 5.3.1 (sphere, nu = 0.3, mu = 0.5, lambda = 5/9), in Maw's
// psi_1: "stick throughout impact if 0 <= psi_1 < 1.19, slip at the beginning of impact and stick
// afterwards if 1.19 <= psi_1 < 4.59, gross slip throughout impact if psi_1 >= 4.59". In the model,
// initial slip iff tan alpha > c, i.e. psi_1 > c^{-1/2} = 1.1810, and gross slip iff slip
// survives to separation, sgn(eps) delta_t' + c delta_n' > 0 at the end (seed Table T3.1 case a:
// tan alpha > 2 mu (1 + lambda)/(1 - lambda) - c), i.e. psi_1 > 4.5837. The seed's 1.19 and 4.59
// are read from its psi_1 sweep (three figures): we ask 1 % and 0.5 %. Its "stick throughout"
// below 1.19 ignores the short final slip every unloading spring has (the cone closes at
// separation): we assert "starts in stick and never slips before the end of compression".
TEST(UncoupledModel, SeedSphereSlipStickRegions) {
  const double mu = 0.5, nu = 0.3, lambda = 5.0 / 9.0;
  const double c = uncoupled_stick_limit(mu, nu), k = 2 * (1 - nu) / (mu * (2 - nu));
  const double initial_slip = k * c;  // psi_1 at tan alpha = c, = c^{-1/2}
  EXPECT_NEAR(initial_slip, 1.19, 0.01 * 1.19);
  const double gross = k * (2 * mu * (1 + lambda) / (1 - lambda) - c);
  EXPECT_NEAR(gross, 4.59, 0.005 * 4.59);

  for (double psi1 : {0.5, 1.0, 1.17}) {
    const Outcome o = solve_uncoupled(sphere(psi1));
    EXPECT_EQ(o.phases.front().mode, Mode::stick) << psi1;
    EXPECT_GT(o.phases.front().end, 0.8 * o.duration) << psi1;
  }
  for (double psi1 : {1.2, 2.0, 3.0, 4.0, 4.55}) {
    const Outcome o = solve_uncoupled(sphere(psi1));
    ASSERT_EQ(o.phases.size(), 3u) << psi1;
    EXPECT_EQ(o.phases[0].mode, Mode::slip);
    EXPECT_EQ(o.phases[1].mode, Mode::stick);
  }
  for (double psi1 : {4.62, 6.0, 8.0}) {
    const Outcome o = solve_uncoupled(sphere(psi1));
    ASSERT_EQ(o.phases.size(), 1u) << psi1;
    EXPECT_EQ(o.phases[0].mode, Mode::slip);
    // Gross slip: gamma_t = -mu gamma_n, gamma_n = 2 cos alpha / (1 - lambda) (elastic normal).
    const double alpha = alpha_of_psi1(psi1, mu, nu);
    EXPECT_NEAR(o.impulse.y(), 2 * std::cos(alpha) / (1 - lambda), 1e-8);
    EXPECT_NEAR(o.impulse.x(), -mu * o.impulse.y(), 1e-8);
  }
  // The thresholds, located by bisection on the accurate solve and on the seed's Euler
  // (h = 0.01): the accurate one is the analytic 4.5837; the Euler one lies O(h) above it and
  // the seed's 4.59 lies between.
  auto threshold = [&](bool euler) {
    double lo = 4.3, hi = 5.0;
    for (int it = 0; it < 30; ++it) {
      const double mid = 0.5 * (lo + hi);
      const Outcome o = euler ? solve_uncoupled_euler(sphere(mid)) : solve_uncoupled(sphere(mid));
      (o.phases.size() == 1 ? hi : lo) = mid;
    }
    return lo;
  };
  const double accurate = threshold(false), euler = threshold(true);
  EXPECT_NEAR(accurate, gross, 1e-4);
  EXPECT_GT(euler, accurate);
  EXPECT_LT(euler - accurate, 0.1);  // 0.072 at h = 0.01
  EXPECT_GE(4.59, accurate - 0.01);
  EXPECT_LE(4.59, euler + 0.01);
  // Initial slip in the Euler mode switches at the same tan alpha = c as the program's test.
  EXPECT_EQ(solve_uncoupled_euler(sphere(1.17)).phases.front().mode, Mode::stick);
  EXPECT_EQ(solve_uncoupled_euler(sphere(1.20)).phases.front().mode, Mode::slip);
  // The literal IEEE port of the program's "<" never leaves slip (the spring sits exactly on
  // the cone): gross slip from psi_1 = 1.19 on, which the seed's results contradict.
  const Outcome printed = solve_uncoupled_euler(sphere(2.0), EulerConeTest::as_printed);
  EXPECT_EQ(printed.phases.size(), 1u);
}

// The Predicting Rebound thesis, sec. 5.2, Fig. F5.8 (rod): "sliding stops at about tau = 0.5 [tau
// / tau_end], when maximum compression occurs. Then the two bodies stick. Slip occurs again just
// before the end of impact." And (Fig. F5.11) "the normal velocity delta_n' is greater at the end
// compared to its value at the beginning": e > 1 by inertia coupling. Read off a plot: we ask 0.5
// +- 0.05 and "after 0.9 tau_end".
TEST(UncoupledModel, SeedRodFigureF5_8) {
  const Configuration c = seed_rod();
  for (const Outcome& o : {solve_uncoupled(c), solve_uncoupled_euler(c)}) {
    ASSERT_EQ(o.phases.size(), 3u) << o.model;
    EXPECT_EQ(o.phases[0].mode, Mode::slip);
    EXPECT_EQ(o.phases[1].mode, Mode::stick);
    EXPECT_EQ(o.phases[2].mode, Mode::slip);
    EXPECT_NEAR(o.phases[0].end / o.duration, 0.5, 0.05) << o.model;  // 0.515
    EXPECT_GT(o.phases[1].end / o.duration, 0.9) << o.model;          // 0.947
    EXPECT_GT(newton_e(c, o), 1.0) << o.model;                        // 1.125 (1.142 Euler)
    // Slip stops at maximum compression: delta_n' = 0 within 1 % of tau_end.
    double tau_c = 0;
    for (std::size_t i = 1; i < o.history.size(); ++i)
      if (o.history[i - 1].velocity.y() < 0 && o.history[i].velocity.y() >= 0) {
        tau_c = o.history[i].tau;
        break;
      }
    EXPECT_NEAR(o.phases[0].end, tau_c, 0.01 * o.duration) << o.model;
  }
}

// The seed program's Euler converges to the accurate solve at first order (observed order of
// the impulse and separation-velocity errors between successive halvings in [0.9, 1.1]), on the
// rod (slip -> stick -> slip) and the sphere psi_1 = 3.
TEST(UncoupledModel, EulerConvergesAtFirstOrder) {
  for (Configuration c : {seed_rod(1e-12), sphere(3.0, 1e-12)}) {
    const Outcome reference = solve_uncoupled(c);
    std::vector<double> errors;
    for (double h : {0.02, 0.01, 0.005, 0.0025, 0.00125}) {
      c.euler_step = h;
      const Outcome o = solve_uncoupled_euler(c);
      errors.push_back(std::max((o.impulse - reference.impulse).norm(),
                                (o.separation_velocity - reference.separation_velocity).norm()));
      EXPECT_NEAR(o.duration, reference.duration, 2 * h);  // k h, the last state in contact
    }
    for (std::size_t i = 1; i < errors.size(); ++i) {
      const double order = std::log2(errors[i - 1] / errors[i]);
      EXPECT_GT(order, 0.9) << "h index " << i;
      EXPECT_LT(order, 1.1) << "h index " << i;
    }
    EXPECT_LT(errors.back(), 5e-3);
  }
}

// ---------------------------------------------------------------------------------------------
// A literal transcription of the Predicting Rebound thesis's appendix program, procedure main (file
// output, the counter/n bookkeeping and calc_tg_force* left out: they only write files). Pascal's
// "var" parameters become locals; "real" inputs are doubles here (the solver gets doubles too);
// A, Te are radians (the program reads multiples of its pi = 3.1415927). The OCR-damaged line
// "* (1 c := exp((2 / 3) * ln(Mu * (2 Nu) / (2 Nu))));" is eq. 4.28:
// c := exp((2 / 3) * ln(Mu * (2 - Nu) / (2 * (1 - Nu)))). TieSticks selects "<=" for the mode
// test (see EulerConeTest). Records the i* state of every pass of the loop.
struct PascalRow {
  double Gt, Gn, Dt, Dn, Eps, Dlt, Dln;
};
struct PascalRun {
  std::vector<PascalRow> rows;
  int iter = 0;
  double psi1 = 0, psi2 = 0, coef1 = 0, coef2 = 0;
};

template <bool TieSticks>
PascalRun pascal_main(double A, double Mu, double Nu, double ht, double La, double Te) {
  PascalRun run;
  int i;
  bool test;
  double Tau;
  double c;
  double Gto, Gno, Dto, Dno, Epso, Dlto, Dlno, Epslo;
  double iGt, iGn, iEps, iDt, iDn, iDlt, iDln;
  double fGt, fGn, fEps, fDt, fDn, fDlt, fDln, fEps1;

  Gto = 0;
  Gno = 0;
  Dto = 0;
  Dno = 0;
  Epso = 0;

  fGt = Gto;
  fGn = Gno;
  fDt = Dto;
  fDn = Dno;
  fEps = Epso;

  c = std::exp((2.0 / 3) * std::log(Mu * (2 - Nu) / (2 * (1 - Nu))));
  i = 0;
  Tau = 0;
  Dlto = std::sin(A);
  Dlno = -std::cos(A);

  if (std::abs(std::tan(A)) < std::abs(c)) {
    test = true;
    Epslo = Dlto;
  } else {
    test = false;
    if (A > 0)
      Epslo = -c * Dlno;
    else
      Epslo = c * Dlno;
  }
  fDlt = Dlto;
  fDln = Dlno;
  fEps1 = Epslo;
  (void)fEps1;

  while (fDn <= 0) {
    iGt = fGt;
    iGn = fGn;
    iDt = fDt;
    iDn = fDn;
    iEps = fEps;
    iDlt = fDlt;
    iDln = fDln;
    run.rows.push_back({iGt, iGn, iDt, iDn, iEps, iDlt, iDln});

    Tau = Tau + ht;

    if (i != 0) {
      if (TieSticks ? (std::abs(iEps) <= (c * (-iDn))) : (std::abs(iEps) < (c * (-iDn))))
        test = true;
      else
        test = false;
    }

    fDt =
        ht * (std::sin(A) + (1 + La * std::cos(2 * Te)) * iGt + La * std::sin(2 * Te) * iGn) + iDt;
    fDn =
        ht * (-std::cos(A) + La * std::sin(2 * Te) * iGt + (1 - La * std::cos(2 * Te)) * iGn) + iDn;

    if (test == true)
      fEps = fDt - iDt + iEps;
    else {
      if (iEps >= 0)
        fEps = -c * fDn;
      else
        fEps = c * fDn;
    }

    fGt = -ht * 8 * (1 - Nu) / (3 * (2 - Nu)) * iEps * std::sqrt(std::abs(iEps)) + iGt;

    if (iDn == 0)
      fGn = iGn;
    else
      fGn = ht * 4 / 3 * std::exp((3.0 / 2) * std::log(-iDn)) + iGn;

    fDlt = std::sin(A) + (1 + La * std::cos(2 * Te)) * fGt + (La * std::sin(2 * Te)) * fGn;
    fDln = -std::cos(A) + (La * std::sin(2 * Te)) * fGt + (1 - La * std::cos(2 * Te)) * fGn;

    if (test == true)
      fEps1 = fDlt;
    else
      fEps1 = -c * fDln;

    i = i + 1;
  }
  run.iter = i - 1;

  // calc_beta_coef(Mu, Nu, A, Dlto, Dlno, iDlt, iDln, psi1, psi2, coef1, coef2)
  run.psi1 = (2 * (1 - Nu) / (Mu * (2 - Nu))) * (-Dlto / Dlno);
  run.coef1 = -iDln / Dlno;
  run.psi2 = (2 * (1 - Nu) / (Mu * (2 - Nu))) * (iDlt / iDln);
  run.coef2 = std::sqrt(iDlt * iDlt + iDln * iDln) / std::sqrt(Dlto * Dlto + Dlno * Dlno);
  return run;
}

template <bool TieSticks>
void expect_same_run(const Configuration& c, EulerConeTest test) {
  const PascalRun run = pascal_main<TieSticks>(c.incidence_angle, c.friction, c.poisson_ratio,
                                               c.euler_step, c.lambda, c.theta);
  const Outcome o = solve_uncoupled_euler(c, test);
  // rows holds the i* state of every pass of the loop: states 0..iter, the last with
  // delta_n <= 0, which is what the solver's history holds.
  ASSERT_EQ(run.rows.size(), o.history.size());
  ASSERT_EQ(run.iter + 1, static_cast<int>(o.history.size()));
  auto close = [](double a, double b) {
    return std::abs(a - b) <= 1e-14 * std::max(1.0, std::abs(a));
  };
  for (std::size_t n = 0; n < run.rows.size(); ++n) {
    const PascalRow& r = run.rows[n];
    const Sample& s = o.history[n];
    ASSERT_TRUE(close(r.Gt, s.impulse.x()) && close(r.Gn, s.impulse.y()) &&
                close(r.Dt, s.displacement.x()) && close(r.Dn, s.displacement.y()) &&
                close(r.Eps, s.spring_extension) && close(r.Dlt, s.velocity.x()) &&
                close(r.Dln, s.velocity.y()))
        << "step " << n << ": Pascal (" << r.Gt << ", " << r.Gn << ", " << r.Dt << ", " << r.Dn
        << ", " << r.Eps << ") vs (" << s.impulse.transpose() << ", " << s.displacement.transpose()
        << ", " << s.spring_extension << ")";
    EXPECT_NEAR(s.tau, n * c.euler_step, 1e-12);
  }
  EXPECT_NEAR(o.duration, run.iter * c.euler_step, 1e-12);  // the program's iter * ht
  EXPECT_NEAR(newton_e(c, o), run.coef1, 1e-14);
  EXPECT_NEAR(psi2(c, o), run.psi2, 1e-13);
  const Eigen::Vector2d v0 = incident_velocity(c.incidence_angle);
  EXPECT_NEAR(o.separation_velocity.norm() / v0.norm(), run.coef2, 1e-14);
}

// The Euler mode matches the Predicting Rebound thesis's program step for step: every state of the
// whole run (about 400-500 steps at h = 0.01), on the rod of sec. 5.2 (slip -> stick -> slip,
// eccentric) and a sphere that starts sticking, for both readings of the mode test, and once
// with a coarse step.
TEST(UncoupledModel, SeedEulerMatchesTheProgramStepForStep) {
  Configuration rod = seed_rod();
  expect_same_run<true>(rod, EulerConeTest::on_cone_sticks);
  expect_same_run<false>(rod, EulerConeTest::as_printed);
  const Configuration stick = sphere(0.5);
  expect_same_run<true>(stick, EulerConeTest::on_cone_sticks);
  expect_same_run<false>(stick, EulerConeTest::as_printed);
  rod.euler_step = 0.05;
  expect_same_run<true>(rod, EulerConeTest::on_cone_sticks);
}

TEST(UncoupledModel, EulerOutcomeFields) {
  const Configuration c = sphere(3.0);
  const Outcome o = solve_uncoupled_euler(c);
  EXPECT_EQ(o.model, "uncoupled-euler");
  EXPECT_GE(o.history.size(), 200u);
  EXPECT_EQ(o.history.back().mode, Mode::separated);
  EXPECT_FALSE(o.notes.empty());
  // theta = 0: delta_n' = -cos alpha + (1 - lambda) gamma_n, so the interpolated gamma_n at
  // delta_n' = 0 is exact.
  EXPECT_NEAR(o.compression_normal_impulse, std::cos(c.incidence_angle) / (1 - c.lambda), 1e-12);
  EXPECT_LT(o.normal_work_compression, 0.0);
  EXPECT_GT(o.normal_work_restitution, 0.0);
  const Outcome a = solve_uncoupled(c);
  EXPECT_EQ(a.model, "uncoupled");
  EXPECT_NEAR(o.peak_normal_force, a.peak_normal_force, 0.02);
  EXPECT_NEAR(o.normal_work_compression, a.normal_work_compression, 0.01);
  EXPECT_NEAR(o.normal_work_restitution, a.normal_work_restitution, 0.02);
}

// A small step keeps memory bounded: at h = 2e-6 (about 1.6 million states) the history holds
// between half and all of kMaxHistorySamples, evenly spaced in tau (a power-of-two number of
// steps) up to the last state, while the results use every state: first order puts the impulse
// and separation velocity within ~1e-5 of the accurate solve (5e-3 at h = 0.00125 above, times
// 2e-6 / 0.00125), the peak force and normal works likewise.
TEST(UncoupledModel, EulerHistoryIsBoundedAtSmallSteps) {
  Configuration c = sphere(3.0, 1e-12);
  const Outcome reference = solve_uncoupled(c);
  c.euler_step = 2e-6;
  const Outcome o = solve_uncoupled_euler(c);
  ASSERT_LE(o.history.size(), kMaxHistorySamples);
  ASSERT_GE(o.history.size(), kMaxHistorySamples / 2);
  const double spacing = o.history[1].tau - o.history[0].tau;
  const double stride = spacing / c.euler_step;
  EXPECT_NEAR(std::exp2(std::round(std::log2(stride))), stride, 1e-6 * stride);
  for (std::size_t i = 1; i + 1 < o.history.size(); ++i)
    ASSERT_NEAR(o.history[i].tau - o.history[i - 1].tau, spacing, 1e-9) << "sample " << i;
  EXPECT_LE(o.history.back().tau - o.history[o.history.size() - 2].tau, spacing + 1e-9);
  EXPECT_EQ(o.history.back().tau, o.duration);
  EXPECT_EQ(o.history.back().mode, Mode::separated);
  EXPECT_LT((o.impulse - reference.impulse).norm(), 1e-4);
  EXPECT_LT((o.separation_velocity - reference.separation_velocity).norm(), 1e-4);
  EXPECT_NEAR(o.peak_normal_force, reference.peak_normal_force, 1e-4);
  EXPECT_NEAR(o.normal_work_compression, reference.normal_work_compression, 1e-4);
  EXPECT_NEAR(o.normal_work_restitution, reference.normal_work_restitution, 1e-4);
}

// alpha < 0 with theta < 0 is the mirror image (t -> -t).
TEST(UncoupledModel, MirrorImage) {
  Configuration c = seed_rod();
  const Outcome a = solve_uncoupled(c), ae = solve_uncoupled_euler(c);
  c.incidence_angle = -c.incidence_angle;
  c.theta = -c.theta;
  const Outcome b = solve_uncoupled(c), be = solve_uncoupled_euler(c);
  EXPECT_NEAR(b.impulse.x(), -a.impulse.x(), 1e-9);
  EXPECT_NEAR(b.impulse.y(), a.impulse.y(), 1e-9);
  EXPECT_NEAR(b.separation_velocity.x(), -a.separation_velocity.x(), 1e-9);
  EXPECT_NEAR(b.duration, a.duration, 1e-9);
  EXPECT_NEAR(be.impulse.x(), -ae.impulse.x(), 1e-12);
  EXPECT_NEAR(be.separation_velocity.y(), ae.separation_velocity.y(), 1e-12);
}

}  // namespace
}  // namespace rebound::lumped
