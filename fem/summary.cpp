// The summary of a FEM run: the rebound quantities (observables/quantities.h, the same
// definitions as the lumped models'; THEORY §4 and §11) from the history of the rigid-body
// averages, plus the FEM's own details (mesh, energies, run data); and history.csv's columns.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "cases/warnings.h"
#include "fem/fem.h"
#include "observables/checks.h"
#include "observables/provenance.h"
#include "observables/quantities.h"

namespace rebound::fem {
namespace {

const double nan = std::numeric_limits<double>::quiet_NaN();
using observables::finite_or_null;

// The contact's phases from the per-step impulses and P's rigid-body normal velocity.
struct ContactPhases {
  double duration = 0;               // s
  double peak_raw = 0, peak = 0;     // the per-step and the smoothed normal force, N
  double compression_impulse = nan;  // normal impulse when P's normal velocity crosses 0
  double compression_work = 0, restitution_work = 0;  // Stronge's works of the normal force, J
};

ContactPhases contact_phases(const std::vector<HistoryRow>& h, double dt) {
  ContactPhases c;
  long long first = -1, last = -1;
  for (std::size_t k = 0; k < h.size(); ++k)
    if (h[k].normal_force > 0) {
      if (first < 0) first = (long long)k;
      last = (long long)k;
    }
  for (std::size_t k = 0; k < h.size(); ++k) {
    c.peak_raw = std::max(c.peak_raw, h[k].normal_force);
    c.peak = std::max(c.peak, h[k].normal_force_smoothed);
    // Normal work of the contact force at t_k on P's rigid-body normal velocity (Stronge).
    (h[k].normal_velocity < 0 ? c.compression_work : c.restitution_work) +=
        h[k].normal_force * dt * h[k].normal_velocity;
    if (k > 0 && std::isnan(c.compression_impulse) && first >= 0 && h[k - 1].normal_velocity < 0 &&
        h[k].normal_velocity >= 0) {
      const double f =
          -h[k - 1].normal_velocity / (h[k].normal_velocity - h[k - 1].normal_velocity);
      c.compression_impulse =
          h[k - 1].normal_impulse + f * (h[k].normal_impulse - h[k - 1].normal_impulse);
    }
  }
  // The force J_n / dt of row n acts over [t_n - dt/2, t_n + dt/2].
  c.duration = first >= 0 ? h[last].time - h[first].time + dt : 0;
  return c;
}

// The FEM's own keys of summary.json (beside the rebound quantities).
void add_run_details(const cases::Case& c, const cases::Derived& d, const RunResult& r,
                     const ContactPhases& phases, nlohmann::json& j) {
  const auto& h = r.history;
  const State& s1 = r.final;
  double energy_error = 0;
  const double e0 = h.front().total_energy;
  for (const HistoryRow& row : h)
    energy_error = std::max(energy_error, std::abs(row.total_energy - e0) / e0);
  j["peak_normal_force_raw"] = phases.peak_raw;
  j["binormal_impulse"] = h.back().binormal_impulse;
  j["vibration_kinetic_energy_final"] = s1.vibration_kinetic_energy;
  j["internal_energy_final"] = s1.internal_energy;
  if (c.target.moves()) {  // the target sphere's share of the energy left in vibration
    j["target_internal_energy_final"] = s1.target.internal_energy;
    j["target_vibration_kinetic_energy_final"] =
        s1.target.kinetic_energy - s1.target.rigid_kinetic_energy;
  } else if (s1.target.mass > 0) {  // a block, a plate or a socket: the energy it took
    j["target_internal_energy_final"] = s1.target.internal_energy;
    j["target_kinetic_energy_final"] = s1.target.kinetic_energy;
    if (r.info.block_size > 0) j["block_size"] = r.info.block_size;  // not a socket's shell
  }
  j["frictional_dissipation"] = h.back().frictional_dissipation;
  j["normal_contact_loss"] = h.back().normal_contact_loss;
  j["plastic_dissipation"] = s1.plastic_dissipation;
  j["viscous_dissipation"] = s1.viscous_dissipation;
  j["material_model"] = cases::to_string(c.material.model);
  j["hertz"] = {{"duration", d.hertz.duration},
                {"peak_force", d.hertz.peak_force},
                {"contact_radius", d.hertz.contact_radius}};
  j["dofs"] = r.info.dofs;
  j["cells"] = r.info.cells;
  j["degree"] = r.info.degree;
  j["simd_lanes"] = r.info.simd_lanes;
  j["time_step"] = r.info.time_step;
  j["lambda_max"] = r.info.lambda_max;
  j["cfl"] = c.fem.cfl;
  j["steps"] = s1.step;
  j["end_time"] = s1.time;
  j["mpi_ranks"] = r.info.ranks;
  j["wall_time"] = r.wall_time;
  j["energy_balance_error"] = finite_or_null(energy_error);
  j["lambda_mesh"] = r.info.lambda_mesh;
  j["theta_mesh"] = r.info.theta_mesh;
  j["total_mass_lumped"] = r.info.total_mass_lumped;
  j["mesh_mass_properties"] = cases::to_json(r.info.mesh_mass_properties);
  j["total_mass_exact"] = d.body.mass;
  j["constrained_dofs"] = r.info.constrained_dofs;
  j["mesh"] = r.info.mesh_statistics;
}

}  // namespace

observables::History history_table(const std::vector<HistoryRow>& rows) {
  // The FEM's columns after the contact point's are named as HistoryRow's members.
#define FIELD(name) REBOUND_HISTORY_FIELD(HistoryRow, name)
  observables::History h = observables::contact_point_history(rows);
  observables::add_fields(
      h, rows,
      {FIELD(internal_energy), FIELD(rigid_kinetic_energy), FIELD(vibration_kinetic_energy),
       FIELD(frictional_dissipation), FIELD(total_energy)});
  observables::add_fields(h, rows, {FIELD(contact_nodes)});
  h.integer_columns.insert("contact_nodes");
  observables::add_fields(
      h, rows,
      {FIELD(contact_area), FIELD(contact_node_velocity_t), FIELD(contact_node_velocity_n),
       FIELD(center_velocity_t), FIELD(center_velocity_n), FIELD(spin),
       FIELD(normal_force_smoothed), FIELD(binormal_impulse), FIELD(lowest_boundary_height),
       FIELD(normal_contact_loss), FIELD(plastic_dissipation), FIELD(viscous_dissipation)});
#undef FIELD
  return h;
}

std::string history_csv(const std::vector<HistoryRow>& rows, std::size_t max_rows) {
  return observables::to_csv(history_table(rows), max_rows);
}

Eigen::Vector3d relative_contact_point_velocity(const State& s) {
  const BodyState& t = s.target;
  if (!t.moves) return s.contact_point_rigid_velocity;
  return s.contact_point_rigid_velocity - t.centre_velocity -
         t.omega.cross(s.contact_point - t.centre);
}

observables::Summary summary(const cases::Case& c, const cases::Derived& d, const RunResult& r) {
  const auto& h = r.history;
  const State& s0 = r.initial;
  const State& s1 = r.final;
  const double mu = c.contact.friction, nu = c.material.poisson_ratio;
  // The separation velocity of P (relative to the target sphere's at P; fem.h).
  const Eigen::Vector3d w = relative_contact_point_velocity(s1);
  const ContactPhases phases = contact_phases(h, r.info.time_step);

  observables::Summary summary;
  summary.case_name = c.name;
  summary.solver = "fem";
  summary.effective_mass = d.effective_mass;
  summary.energy_flux_density = d.energy_flux_density;
  summary.reduced_mass = d.hertz.normal_mass;
  observables::ReboundQuantities& q = summary.quantities;
  q.psi1 = d.psi1;
  q.psi2 = observables::rebound_psi(w.head<2>(), nu, mu);
  q.incidence_angle = d.incidence_angle;
  q.rebound_angle = observables::rebound_angle(w.head<2>());
  q.e_newton = observables::newton_restitution(w.y(), c.impact.normal_speed);
  q.e_poisson =
      observables::poisson_restitution(h.back().normal_impulse, phases.compression_impulse);
  q.e_stronge = observables::stronge_restitution(phases.compression_work, phases.restitution_work);
  // Of the centres' relative motion with a target sphere (the body's own on a fixed target).
  const double target_t0 = s0.target.moves ? s0.target.centre_velocity.x() : 0.0;
  const double target_t1 = s1.target.moves ? s1.target.centre_velocity.x() : 0.0;
  q.tangential_cor = observables::tangential_restitution(s0.centre_velocity.x() - target_t0,
                                                         s1.centre_velocity.x() - target_t1);
  q.spin_final = s1.omega.z();
  q.normal_impulse = h.back().normal_impulse;
  q.tangential_impulse = h.back().tangential_impulse;
  q.contact_duration = phases.duration;
  q.peak_normal_force = phases.peak;
  // Both bodies' rigid-body kinetic energies with a target sphere (the body's on a fixed target;
  // a half-space's block, which stands for an immovable target, included: its energy is lost).
  const double kinetic_before =
      s0.kinetic_energy + (s0.target.moves ? s0.target.kinetic_energy : 0);
  const double kinetic_after =
      s1.rigid_kinetic_energy + (s1.target.moves ? s1.target.rigid_kinetic_energy : 0);
  q.kinetic_energy_loss = kinetic_before - kinetic_after;
  q.kinetic_energy_loss_fraction = (kinetic_before - kinetic_after) / kinetic_before;
  q.lambda = d.lambda;
  q.theta = d.theta;
  q.center_velocity_initial = s0.centre_velocity.head<2>();
  q.center_velocity_final = s1.centre_velocity.head<2>();
  q.spin_initial = s0.omega.z();
  q.contact_point_velocity_initial = relative_contact_point_velocity(s0).head<2>();
  q.contact_point_velocity_final = w.head<2>();
  q.kinetic_energy_initial = kinetic_before;
  if (c.target.moves()) {
    q.target_center_velocity_final = s1.target.centre_velocity.head<2>();
    q.target_spin_final = s1.target.omega.z();
  }

  summary.status = r.status;
  summary.message = r.message;
  summary.warnings = cases::physical_warnings(c, d);
  summary.provenance = observables::provenance(c);
  summary.provenance["mpi_ranks"] = r.info.ranks;
  summary.warnings.insert(summary.warnings.end(), r.warnings.begin(), r.warnings.end());
  // The FEM's total energy is checked every step; its rigid-body kinetic energy after the impact
  // may still exceed the initial one when the contact algorithm creates energy.
  observables::ResultExpectations expectations;
  expectations.energy_may_grow = true;
  if (r.status == "completed") {
    const auto problems = observables::result_problems(q, expectations);
    if (!problems.empty()) {
      summary.status = "failed";
      summary.message =
          "the rebound quantities are not physical: " + observables::join_problems(problems);
    }
  }
  const bool creates_energy = q.kinetic_energy_loss_fraction < -1e-6;
  if (creates_energy) {
    char text[320];
    std::snprintf(text, sizeof text,
                  "the rigid-body kinetic energy (both bodies' with a target sphere) after the "
                  "impact exceeds the initial one "
                  "by %.3g %%: the contact (friction %.3g) created energy",
                  -100 * q.kinetic_energy_loss_fraction, mu);
    summary.warnings.push_back(text);
  }
  summary.details["creates_energy"] = creates_energy;
  add_run_details(c, d, r, phases, summary.details);
  return summary;
}

nlohmann::json summary_json(const cases::Case& c, const cases::Derived& d, const RunResult& r) {
  return observables::to_json(summary(c, d, r));
}

}  // namespace rebound::fem
