// lumped::solve(case): every model's result is checked before anyone uses it (observables/
// checks.h); a failed solve names the case file, the reason and the inputs that decide it.
#include <gtest/gtest.h>

#include <string>

#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/summary.h"

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
      if (std::string(model) != "lai" && std::string(model) != "uncoupled" &&
          std::string(model) != "uncoupled-euler" && std::string(model) != "mdr")
        variant.lumped.restitution = 0.8;
      EXPECT_NO_THROW(lumped::solve(variant, cases::derive(variant), false))
          << name << " " << model;
    }
  }
}
