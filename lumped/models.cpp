#include "lumped/models.h"

#include <stdexcept>

#include "lumped/halfspace.h"
#include "lumped/lai.h"
#include "lumped/mdr.h"
#include "lumped/rigid_laws.h"
#include "lumped/uncoupled.h"

namespace rebound::lumped {
namespace {

Outcome run_lai(const Configuration& configuration, const SolveRequest& request) {
  LaiOptions options;
  options.record_history = request.record_history;
  return solve_lai(configuration, options);
}

Outcome run_uncoupled(const Configuration& configuration, const SolveRequest&) {
  return solve_uncoupled(configuration);
}

Outcome run_uncoupled_euler(const Configuration& configuration, const SolveRequest& request) {
  return solve_uncoupled_euler(configuration, EulerConeTest::on_cone_sticks, request.control);
}

Outcome run_mdr(const Configuration& configuration, const SolveRequest& request) {
  MdrOptions options;
  options.record_history = request.record_history;
  options.springs = configuration.springs;
  options.control = request.control;
  return solve_mdr(configuration, options);
}

Outcome run_halfspace(const Configuration& configuration, const SolveRequest& request) {
  HalfspaceOptions options;
  options.record_history = request.record_history;
  options.cells = configuration.cells;
  options.time_steps = configuration.time_steps;
  options.dundurs_coupling = configuration.dundurs_coupling;
  options.control = request.control;
  return solve_halfspace(configuration, options);
}

template <RigidLaw law>
Outcome run_rigid_law(const Configuration& configuration, const SolveRequest&) {
  return solve_rigid_law(law, configuration);
}

std::vector<LumpedSolver> checked(std::vector<LumpedSolver> solvers) {
  const std::vector<std::string>& names = cases::lumped_model_names();
  for (std::size_t i = 0; i < std::max(names.size(), solvers.size()); ++i)
    if (i >= names.size() || i >= solvers.size() || names[i] != solvers[i].name)
      throw std::logic_error(
          "lumped::lumped_solvers() and cases::lumped_models() differ at entry " +
          std::to_string(i) + ": solver \"" + (i < solvers.size() ? solvers[i].name : "") +
          "\", case model \"" + (i < names.size() ? names[i] : std::string()) + "\"");
  return solvers;
}

}  // namespace

const std::vector<LumpedSolver>& lumped_solvers() {
  using E = EnergyBalance;
  static const std::vector<LumpedSolver> solvers = checked({
      {"lai", run_lai, false, E::adaptive_tolerance},
      {"uncoupled", run_uncoupled, false, E::adaptive_tolerance},
      {"uncoupled-euler", run_uncoupled_euler, true, E::may_create},
      {"mdr", run_mdr, true, E::fixed_step_error},
      {"halfspace", run_halfspace, true, E::fixed_step_error},
      {"newton", run_rigid_law<RigidLaw::newton>, false, E::may_create},
      {"poisson", run_rigid_law<RigidLaw::poisson>, false, E::may_create},
      {"stronge", run_rigid_law<RigidLaw::stronge>, false, E::may_create},
      {"smith", run_rigid_law<RigidLaw::smith>, false, E::may_create},
      {"brach", run_rigid_law<RigidLaw::brach>, false, E::may_create},
  });
  return solvers;
}

const LumpedSolver& lumped_solver(const std::string& name) {
  for (const LumpedSolver& solver : lumped_solvers())
    if (name == solver.name) return solver;
  throw std::invalid_argument("no lumped solver for model \"" + name + "\"");
}

const std::vector<ModelVariant>& model_variants() {
  static const std::vector<ModelVariant> variants = {{"halfspace-beta0", "halfspace",
                                                      "dundurs_coupling", false,
                                                      &cases::LumpedOptions::dundurs_coupling}};
  return variants;
}

}  // namespace rebound::lumped
