// The reliability acceptance for the lumped solvers: every accepted case of the parser's seeded
// mutation corpus (tests/cases/fuzz_corpus.h, 3,000 inputs) is solved with its own lumped model;
// the solve either fails with lumped::SolveError (exit 1, reason named) or gives a summary whose
// rebound quantities are numbers (never null, NaN or inf) with a kinetic energy loss of at most
// the whole initial energy. A plate (target.type "elastic_plate"), which no lumped model takes, is
// refused with cases::CaseError naming target.type (exit 2). Nothing else may escape.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/solve.h"
#include "lumped/summary.h"
#include "tests/cases/fuzz_corpus.h"

using namespace rebound;

TEST(LumpedFuzz, AcceptedMutationsSolveToNumbersOrFailWithAReason) {
  const auto start = std::chrono::steady_clock::now();
  const auto corpus = test::fuzz_corpus(REBOUND_SOURCE_DIR "/cases", 3000);
  int accepted = 0, solved = 0, failed = 0, halfspace = 0, plates = 0;
  for (const auto& input : corpus) {
    cases::Case c;
    cases::Derived d;
    try {
      c = cases::parse_case(input.text, "fuzz.json");
      d = cases::derive(c);
    } catch (const cases::CaseError&) {
      continue;  // the parser's own fuzz test checks the rejections
    }
    ++accepted;
    // The model on a grid of contact cells (lumped.cells: the half-space) takes about a second
    // per impact: a few are enough here.
    if (cases::is_option_of("cells", c.lumped.model) && ++halfspace > 4) continue;
    try {
      const nlohmann::json s = lumped::summary_json(c, d, lumped::solve(c, d, false));
      ++solved;
      for (const char* key : {"e_newton", "normal_impulse", "tangential_impulse", "spin_final",
                              "kinetic_energy_loss_fraction"})
        ASSERT_TRUE(s[key].is_number() && std::isfinite(s[key].get<double>()))
            << key << " = " << s[key] << " for " << input.kind << ":\n"
            << input.text;
      if (s["psi1"].is_number()) {
        ASSERT_TRUE(s["psi2"].is_number()) << input.kind << ":\n" << input.text;
      }
      ASSERT_LE(s["kinetic_energy_loss_fraction"].get<double>(), 1 + 1e-9) << input.text;
    } catch (const lumped::SolveError& error) {
      ++failed;
      EXPECT_NE(std::string(error.what()).find("fuzz.json"), std::string::npos) << error.what();
    } catch (const cases::CaseError& error) {
      ++plates;
      EXPECT_EQ(c.target.type, cases::TargetType::elastic_plate) << error.what();
      EXPECT_EQ(error.key(), "target.type") << error.what();
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "%zu inputs, %d accepted: %d solved, %d failed with a reason, %d plates refused; %.1f s\n",
      corpus.size(), accepted, solved, failed, plates, seconds);
  EXPECT_GT(solved, 100);
}
