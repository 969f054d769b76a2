// The registry of lumped solvers (lumped/models.h) against the case file's table of models
// (cases/lumped_models.h): the same names, and traits that say what the solves do.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>

#include "cases/case.h"
#include "cases/derived.h"
#include "cases/lumped_models.h"
#include "lumped/models.h"
#include "lumped/solve.h"
#include "lumped/summary.h"
#include "lumped/sweep.h"

using namespace rebound;

namespace {

// Lai's Table 6.1 sphere at Psi1 = 2 with the model set (and a restitution for the rigid-body
// laws, Brach's impulse ratio), validated as a case file is.
cases::Case sphere_with(const std::string& model) {
  nlohmann::json j = cases::load_case(REBOUND_SOURCE_DIR "/cases/sphere-lai-psi2.json").raw;
  j["lumped"] = {{"model", model}};
  if (!cases::compliant(cases::lumped_model(model))) j["lumped"]["restitution"] = 0.8;
  for (const cases::ModelOption& option : cases::kModelOptions)
    if (option.required != nullptr && model == option.model) j["lumped"][option.key] = 0.1;
  return cases::parse_case(j, "sphere.json");
}

}  // namespace

// Both lists name the same models in the same order (the registry also checks it on first use).
TEST(LumpedModels, EveryCaseModelHasASolver) {
  const auto& names = cases::lumped_model_names();
  const auto& solvers = lumped::lumped_solvers();
  ASSERT_EQ(names.size(), solvers.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(names[i], solvers[i].name);
    EXPECT_EQ(&lumped::lumped_solver(names[i]), &solvers[i]);
  }
  EXPECT_THROW(lumped::lumped_solver("hertz"), std::invalid_argument);
  EXPECT_THROW(cases::lumped_model("hertz"), std::invalid_argument);
}

// Every model-only key and every sweep variant names a model of the table and one of its keys.
TEST(LumpedModels, OptionsAndVariantsNameKnownModels) {
  const auto& names = cases::lumped_model_names();
  for (const cases::ModelOption& option : cases::kModelOptions) {
    EXPECT_NE(std::find(names.begin(), names.end(), option.model), names.end()) << option.key;
    EXPECT_TRUE(cases::is_option_of(option.key, option.model)) << option.key;
  }
  for (const lumped::ModelVariant& variant : lumped::model_variants()) {
    EXPECT_TRUE(cases::is_option_of(variant.key, variant.model)) << variant.name;
    EXPECT_EQ(std::find(names.begin(), names.end(), variant.name), names.end()) << variant.name;
    const auto& sweep_names = lumped::sweep_model_names();
    EXPECT_NE(std::find(sweep_names.begin(), sweep_names.end(), variant.name), sweep_names.end());
    const cases::Case c = lumped::case_with_model(sphere_with(variant.model), variant.name);
    EXPECT_EQ(c.lumped.model, variant.model);
    EXPECT_EQ(c.lumped.*variant.field, variant.value) << variant.name;
    EXPECT_EQ(lumped::model_name(c), variant.name);
  }
}

// The traits say what each model's solve does on the same impact: the compliant models have a
// contact duration and the rigid-body laws none; a model not allowed to create energy does not
// (the summary's kinetic energy loss is >= 0 to its tolerance); a model that checks a
// SolveControl stops at once on a raised stop flag and the others finish regardless.
TEST(LumpedModels, TraitsDescribeTheSolves) {
  for (const cases::LumpedModel& model : cases::lumped_models()) {
    const cases::Case c = sphere_with(model.name);
    const cases::Derived d = cases::derive(c);
    const lumped::LumpedSolver& solver = lumped::lumped_solver(model.name);
    const lumped::Outcome o = lumped::solve(c, d, false);
    EXPECT_EQ(std::isfinite(o.duration) && o.duration > 0, cases::compliant(model)) << model.name;
    if (solver.energy_balance != lumped::EnergyBalance::may_create) {
      EXPECT_GE(lumped::rebound_quantities(c, d, o).kinetic_energy_loss_fraction, -1e-4)
          << model.name;
    }
    EXPECT_EQ(lumped::checks_solve_control(c), solver.checks_solve_control) << model.name;
    std::atomic<bool> stop{true};
    lumped::SolveControl control;
    control.stop = &stop;
    if (solver.checks_solve_control)
      EXPECT_THROW(lumped::solve(c, d, false, control), lumped::Interrupted) << model.name;
    else
      EXPECT_NO_THROW(lumped::solve(c, d, false, control)) << model.name;
  }
}
