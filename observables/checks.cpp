#include "observables/checks.h"

#include <cmath>
#include <cstdio>

#include "cases/format.h"

namespace rebound::observables {
std::vector<std::string> result_problems(const ReboundQuantities& q,
                                         const ResultExpectations& expectations) {
  std::vector<std::string> problems;
  auto finite = [&](const char* name, double value) {
    if (!std::isfinite(value))
      problems.push_back(std::string(name) + " is " + cases::format_number(value));
  };
  finite("e_newton", q.e_newton);
  finite("normal_impulse", q.normal_impulse);
  finite("tangential_impulse", q.tangential_impulse);
  finite("center_velocity_final.t", q.center_velocity_final.x());
  finite("center_velocity_final.n", q.center_velocity_final.y());
  finite("contact_point_velocity_final.t", q.contact_point_velocity_final.x());
  finite("contact_point_velocity_final.n", q.contact_point_velocity_final.y());
  finite("spin_final", q.spin_final);
  finite("kinetic_energy_loss_fraction", q.kinetic_energy_loss_fraction);
  // Psi2 is undefined exactly when Psi1 is (mu = 0).
  if (std::isfinite(q.psi1)) finite("psi2", q.psi2);
  if (std::isfinite(q.normal_impulse) && !(q.normal_impulse > 0))
    problems.push_back("normal_impulse is " + cases::format_number(q.normal_impulse) +
                       " N s: the body never pressed on the plane");
  const double loss = q.kinetic_energy_loss_fraction;
  if (std::isfinite(loss)) {
    // Relative round-off of the loss itself: K_after = K_before (1 - loss) >= 0.
    if (loss > 1 + 1e-9)
      problems.push_back("kinetic_energy_loss_fraction is " + cases::format_number(loss) +
                         ": the kinetic energy after the impact would be negative");
    if (!expectations.energy_may_grow && loss < -expectations.energy_growth_tolerance)
      problems.push_back("the kinetic energy grew by " + cases::format_number(-loss) +
                         " of its initial value, beyond the model's tolerance " +
                         cases::format_number(expectations.energy_growth_tolerance) +
                         " (the model cannot create energy)");
  }
  if (expectations.has_duration) {
    if (!(std::isfinite(q.contact_duration) && q.contact_duration > 0))
      problems.push_back("contact_duration is " + cases::format_number(q.contact_duration) + " s");
    if (!(std::isfinite(q.peak_normal_force) && q.peak_normal_force > 0))
      problems.push_back("peak_normal_force is " + cases::format_number(q.peak_normal_force) +
                         " N");
  }
  return problems;
}

std::string join_problems(const std::vector<std::string>& problems) {
  std::string text;
  for (const auto& problem : problems) text += (text.empty() ? "" : "; ") + problem;
  return text;
}

}  // namespace rebound::observables
