// The registry of lumped solvers: every lumped.model (cases/lumped_models.h describes the models
// for the case file) with its solver and the traits a solve needs to run and check it. lumped::
// solve (lumped/solve.h) dispatches through it; sweeps name its models and their variants.
// Adding a model: an entry in cases::lumped_models(), one in lumped_solvers() (models.cpp), and
// the model's files (docs/ARCHITECTURE.md, "How to add a lumped model").
#pragma once

#include <string>
#include <vector>

#include "cases/case.h"
#include "lumped/outcome.h"

namespace rebound::lumped {

// What the check of a solve expects of its kinetic energy (observables::ResultExpectations).
enum class EnergyBalance {
  // Conserved or dissipated to the adaptive integration's tolerance, max(1e-6, 10 rtol) of the
  // initial kinetic energy (lai, uncoupled: Dormand-Prince, THEORY §5-6).
  adaptive_tolerance,
  // Conserved or dissipated to the fixed-step scheme's measured error, 1e-4 (mdr, halfspace).
  fixed_step_error,
  // May create energy: the explicit Euler integration of the uncoupled springs, and the
  // rigid-body laws with friction (Kane's paradox; Kane & Levinson 1985, THEORY §8).
  may_create,
};

// How a solve is run besides the configuration.
struct SolveRequest {
  bool record_history;          // false: no dense history (sweeps)
  const SolveControl& control;  // checked by the models with checks_solve_control
};

struct LumpedSolver {
  const char* name;  // lumped.model, as in cases::lumped_models()
  Outcome (*solve)(const Configuration& configuration, const SolveRequest& request);
  // The solve checks request.control (stop flag, progress): the models whose cost the case sets
  // (half-space grid and steps, MDR springs, Euler step); the others take milliseconds at most.
  bool checks_solve_control;
  EnergyBalance energy_balance;
};

// Every solver, in cases::lumped_models()' order; on first use checks that both lists name the
// same models (std::logic_error naming the first difference otherwise).
const std::vector<LumpedSolver>& lumped_solvers();
// The solver of lumped.model `name`; throws std::invalid_argument for an unknown name.
const LumpedSolver& lumped_solver(const std::string& name);

// A model under another name with one of its boolean options fixed, for sweeps over several
// models (rebound sweep --models): e.g. "halfspace-beta0", the half-space model with
// dundurs_coupling false (Dundurs' beta = 0, as Maw, Barber & Fawcett 1976 and the MDR assume).
// The model's own name then means the option's default (case_with_model in lumped/sweep.h).
struct ModelVariant {
  const char* name;
  const char* model;  // lumped.model
  const char* key;    // the option of `model` (cases::kModelOptions) the name fixes
  bool value;
  bool cases::LumpedOptions::*field;  // where the parsed case holds the option
};
const std::vector<ModelVariant>& model_variants();

}  // namespace rebound::lumped
