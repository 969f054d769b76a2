// lumped::solve(case): every model's result is checked before anyone uses it (observables/
// checks.h); a failed solve names the case file, the reason and the inputs that decide it.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/normal_laws.h"
#include "lumped/solve.h"
#include "lumped/summary.h"
#include "observables/quantities.h"

using namespace rebound;

namespace {

cases::Case rod_a() {
  return cases::load_case(REBOUND_SOURCE_DIR "/cases/rod-lai-a.json");
}

}  // namespace

// Lai's table rod with an inertia coupling lambda = 1 - 1e-10: P's normal and tangential motions
// are tied almost rigidly, the integration loses the energy balance (the conservative model
// would end with 677 times its initial kinetic energy gained, measured); the solve fails, fast, and
// says why and which input did it.
TEST(LumpedSolve, StiffOverrideFailsWithTheReasonAndTheInput) {
  cases::Case c = rod_a();
  c.lumped.lambda = 0.9999999999;
  const cases::Derived d = cases::derive(c);
  try {
    lumped::solve(c, d);
    FAIL() << "expected lumped::SolveError";
  } catch (const lumped::SolveError& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("rod-lai-a.json"), std::string::npos) << what;
    EXPECT_NE(what.find("not physical"), std::string::npos) << what;
    EXPECT_NE(what.find("lumped.lambda"), std::string::npos) << what;
    EXPECT_NE(what.find("lambda = 0.9999999999"), std::string::npos) << what;
  }
}

// Every shipped case's own lumped model passes its result check (no false alarm).
TEST(LumpedSolve, ShippedCasesPassTheirChecks) {
  for (const char* name : {"sphere-lai-psi2", "sphere-lai-psi0.5", "rod-lai-a", "rod-lai-b",
                           "rod-lai-c", "rod-lai-d", "disc-rubber-maw1981", "disc-steel-maw1981",
                           "hertz-steel-sphere", "sphere-maw-nu0.3-mu0.5"}) {
    const cases::Case c =
        cases::load_case(std::string(REBOUND_SOURCE_DIR "/cases/") + name + ".json");
    for (const char* model :
         {"lai", "uncoupled", "uncoupled-euler", "mdr", "newton", "poisson", "stronge"}) {
      cases::Case variant = c;
      variant.lumped.model = model;
      // A rigid-body restitution law needs its coefficient.
      if (!cases::compliant(cases::lumped_model(model))) variant.lumped.restitution = 0.8;
      EXPECT_NO_THROW(lumped::solve(variant, cases::derive(variant), false))
          << name << " " << model;
    }
  }
}

// summary.json of a dissipative law says what was done with the prescribed restitution: the
// calibration, the damping D (and D / v_n, s/m, the multibody codes' hysteresis factor), the e_N
// of the frictionless central normal impact with that D, and notes: one saying what the
// calibration did, one when this impact's e_N differs from that by more than 1e-6 (friction and
// coupling), one when the published form misses the prescribed e.
TEST(LumpedSolve, SummarySaysHowTheRestitutionWasCalibrated) {
  auto has_note = [](const nlohmann::json& j, const std::string& fragment) {
    for (const auto& note : j.at("notes"))
      if (note.get<std::string>().find(fragment) != std::string::npos) return true;
    return false;
  };
  cases::Case c = cases::load_case(REBOUND_SOURCE_DIR "/cases/sphere-lai-psi2.json");
  c.lumped.normal_law = "hunt-crossley";
  c.lumped.restitution = 0.8;
  c.lumped.relative_tolerance = 1e-10;
  const double damping = lumped::calibrated_damping(lumped::NormalLaw::hunt_crossley, 0.8);
  {  // oblique, with friction (mu = 0.1, Psi1 = 2): e_N differs from the calibrated 0.8
    const cases::Derived d = cases::derive(c);
    const nlohmann::json j = lumped::summary_json(c, d, lumped::solve(c, d));
    EXPECT_EQ(j.at("restitution_calibration"), "exact");
    EXPECT_EQ(j.at("normal_law_damping").get<double>(), damping);
    EXPECT_NEAR(j.at("hysteresis_damping_factor").get<double>(), damping / 0.5, 1e-15);
    EXPECT_NEAR(j.at("normal_impact_restitution").get<double>(), 0.8, 1e-8);
    EXPECT_EQ(j.at("prescribed_restitution").get<double>(), 0.8);
    const double achieved = j.at("achieved_restitution").get<double>();
    EXPECT_GT(std::abs(achieved - 0.8), 1e-6) << achieved;
    EXPECT_TRUE(has_note(j, "calibrated so that a frictionless central normal impact achieves"));
    EXPECT_TRUE(has_note(j, "differs from the 0.8")) << j.at("notes").dump();
    EXPECT_FALSE(has_note(j, "does not achieve the prescribed"));
  }
  c.impact.tangential_speed = 0;  // normal incidence, central (theta = 0): e_N is the calibrated e
  {
    const cases::Derived d = cases::derive(c);
    const nlohmann::json j = lumped::summary_json(c, d, lumped::solve(c, d));
    EXPECT_NEAR(j.at("achieved_restitution").get<double>(), 0.8, 1e-8);
    EXPECT_FALSE(has_note(j, "differs from")) << j.at("notes").dump();
  }
  c.lumped.restitution_calibration = "published";  // Hunt-Crossley's 3(1 - e)/2 restitutes 0.833
  {
    const cases::Derived d = cases::derive(c);
    const nlohmann::json j = lumped::summary_json(c, d, lumped::solve(c, d));
    EXPECT_EQ(j.at("restitution_calibration"), "published");
    EXPECT_NEAR(j.at("normal_law_damping").get<double>(), 0.3, 1e-15);
    EXPECT_NEAR(j.at("normal_impact_restitution").get<double>(), 0.83286979237296255, 1e-12);
    EXPECT_NEAR(j.at("achieved_restitution").get<double>(), 0.83286979237296255, 1e-8);
    EXPECT_TRUE(has_note(j, "does not achieve the prescribed 0.8")) << j.at("notes").dump();
    EXPECT_FALSE(has_note(j, "differs from"));
  }
  c.lumped.normal_law = "hertz";  // elastic: no calibration keys
  c.lumped.restitution.reset();
  const cases::Derived d = cases::derive(c);
  const nlohmann::json j = lumped::summary_json(c, d, lumped::solve(c, d));
  EXPECT_FALSE(j.contains("restitution_calibration"));
  EXPECT_FALSE(j.contains("normal_law_damping"));
}

// The gross-slip line of the case (cases::Derived::gross_slip_offset G, drawn by `rebound sweep`):
// sliding from touch to separation with an elastic normal contact gives Psi2 = Psi1 - G at any
// theta (docs/THEORY.md sec. 5), G = 4 chi at theta = 0. Checked against the models' own
// solutions far into gross slip (tan alpha = 20 v_n): Lai's (rtol 1e-10) and the MDR bed's (RK4,
// its default springs), for the sphere (theta = 0) and Lai's rod a (theta = 0.27 rad, where 4 chi
// would be off by 2.4).
TEST(LumpedSolve, GrossSlipLineOfTheCaseHoldsAtAnyTheta) {
  for (const char* name : {"sphere-lai-psi2", "rod-lai-a"}) {
    cases::Case c = cases::load_case(std::string(REBOUND_SOURCE_DIR "/cases/") + name + ".json");
    c.impact.tangential_speed = 20 * c.impact.normal_speed;
    c.lumped.relative_tolerance = 1e-10;
    for (const char* model : {"lai", "mdr"}) {
      cases::Case variant = c;
      variant.lumped.model = model;
      ASSERT_TRUE(lumped::elastic_normal_contact(variant)) << model;
      const cases::Derived d = cases::derive(variant);
      ASSERT_TRUE(std::isfinite(d.gross_slip_offset)) << name;
      if (d.theta == 0) {
        EXPECT_NEAR(d.gross_slip_offset, 4 * d.chi, 1e-12) << name;
      }
      const lumped::Outcome o = lumped::solve(variant, d, false);
      ASSERT_EQ(o.phases.size(), 1u) << name << " " << model << ": not gross slip";
      const auto q = lumped::rebound_quantities(variant, d, o);
      EXPECT_NEAR(q.e_newton, 1, 1e-6) << name << " " << model;
      EXPECT_NEAR(q.psi2, q.psi1 - d.gross_slip_offset, 1e-6 * q.psi1) << name << " " << model;
    }
  }
}

// Every number a lumped summary.json holds has its unit under "units" (the rebound quantities and
// the details: Lai's eta, a dissipative law's damping and restitutions, the non-dimensional
// results and the phases, by dotted path), for every model.
TEST(LumpedSolve, EveryNumberOfTheSummaryHasAUnit) {
  const cases::Case base = cases::load_case(REBOUND_SOURCE_DIR "/cases/sphere-lai-psi2.json");
  for (const char* model : {"lai", "uncoupled", "uncoupled-euler", "mdr", "halfspace", "newton",
                            "poisson", "stronge", "smith", "brach"}) {
    for (const char* law : {"hertz", "hunt-crossley"}) {
      cases::Case c = base;
      c.lumped.model = model;
      const std::string m = model;
      const bool rigid = m != "lai" && m != "uncoupled" && m != "uncoupled-euler" && m != "mdr" &&
                         m != "halfspace";
      if (std::string(law) != "hertz" && m != "lai") continue;
      c.lumped.normal_law = law;
      if (rigid || std::string(law) != "hertz") c.lumped.restitution = 0.8;
      if (m == "brach") c.lumped.impulse_ratio = 0.2;
      const cases::Derived d = cases::derive(c);
      const nlohmann::json j = lumped::summary_json(c, d, lumped::solve(c, d, false));
      for (const std::string& name : observables::number_names(j))
        EXPECT_TRUE(j["units"].contains(name)) << model << " " << law << ": " << name;
      EXPECT_EQ(j["units"]["eta"], "m");
      EXPECT_EQ(j["units"]["non_dimensional.gamma_n"], "1");
      // The phases run along the normal impulse for the rigid-body laws, along time otherwise.
      if (!j["stick_slip_phases"].empty()) {
        EXPECT_EQ(j["units"]["stick_slip_phases.start"], rigid ? "N s" : "s") << model;
      }
    }
  }
}

// SolveControl: the models whose cost the case sets report the contact time over Hertz's duration
// (lumped::hertz_normal_impact) and stop when asked. On Hertz's own problem (frictionless, normal)
// the last report is the end of the contact, so it lands on 1 within the model's step and
// discretisation error (half-space: < 2e-4 in duration, docs/HALFSPACE.md; MDR bed: its node
// spacing; Euler h = 0.01 over tau_c = 3.2: 1 step, checked every 4096 so the last is at 0): the
// estimate the progress line and the interruption message print is right where it can be checked.
// A stop asked at 30 % of it ends the solve there with lumped::Interrupted, not a SolveError.
TEST(LumpedSolve, ControlReportsProgressAgainstHertzAndStops) {
  const cases::Case hertz = cases::load_case(REBOUND_SOURCE_DIR "/cases/hertz-steel-sphere.json");
  for (const char* model : {"halfspace", "mdr", "uncoupled-euler"}) {
    cases::Case c = hertz;
    c.lumped.model = model;
    c.lumped.euler_step = 1e-5;  // ~3.2e5 steps: checks at every 4096th
    const cases::Derived d = cases::derive(c);
    std::vector<double> reported;
    lumped::SolveControl control;
    control.progress = [&reported](double fraction) { reported.push_back(fraction); };
    const lumped::Outcome o = lumped::solve(c, d, true, control);
    ASSERT_GE(reported.size(), 10u) << model;
    double interval = 0;  // the largest step between two checks
    for (std::size_t i = 1; i < reported.size(); ++i) {
      ASSERT_GT(reported[i], reported[i - 1]) << model << " report " << i;
      interval = std::max(interval, reported[i] - reported[i - 1]);
    }
    const double hertz_duration =
        lumped::hertz_normal_impact(lumped::configuration_of(c, d)).duration;
    const double end = o.duration / hertz_duration;  // 0.99981, 1.0000000, 0.9999986 measured
    EXPECT_NEAR(end, 1.0, 5e-4) << model;
    EXPECT_LE(reported.back(), end) << model;
    EXPECT_GE(reported.back(), end - 1.01 * interval) << model;
    EXPECT_LT(interval, 0.02) << model;  // halfspace 1/100 steps, Euler 4096 h / tau_c = 0.013

    std::atomic<bool> stop{false};
    control.stop = &stop;
    control.progress = [&stop](double fraction) {
      if (fraction >= 0.3) stop = true;
    };
    try {
      lumped::solve(c, d, true, control);
      FAIL() << model << ": expected lumped::Interrupted";
    } catch (const lumped::Interrupted& interrupted) {
      EXPECT_GE(interrupted.fraction, 0.3) << model;
      // set at the first report past 0.3, seen at the next check
      EXPECT_LT(interrupted.fraction, 0.3 + 2.02 * interval) << model;
      EXPECT_NE(std::string(interrupted.what()).find("% of Hertz's contact duration"),
                std::string::npos);
    }
  }
}
