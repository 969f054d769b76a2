// The time loop of a FEM run: initial rigid-body state, end-time rule, robustness checks,
// frames, history and the summary (PHYSICS sec. 5). No matrix-free code here.
#include <deal.II/base/data_out_base.h>
#include <deal.II/base/mpi.h>
#include <deal.II/base/timer.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "cases/warnings.h"
#include "fem/fem.h"
#include "observables/checks.h"
#include "observables/files.h"
#include "observables/provenance.h"
#include "observables/quantities.h"

namespace rebound::fem {
namespace {

const double nan = std::numeric_limits<double>::quiet_NaN();
using observables::finite_or_null;

HistoryRow make_row(const State& s, const HistoryRow* previous, double dt, double friction) {
  HistoryRow r{};
  r.time = s.time;
  const bool first = previous == nullptr;
  r.normal_force = s.step_impulse.y() / dt;
  r.tangential_force = s.step_impulse.x() / dt;
  r.normal_impulse = (first ? 0 : previous->normal_impulse) + s.step_impulse.y();
  r.tangential_impulse = (first ? 0 : previous->tangential_impulse) + s.step_impulse.x();
  r.binormal_impulse = (first ? 0 : previous->binormal_impulse) + s.step_impulse.z();
  r.normal_velocity = s.contact_point_rigid_velocity.y();
  r.tangential_velocity = s.contact_point_rigid_velocity.x();
  // Rigid-body displacement of P: trapezoidal integral of its rigid-body velocity.
  r.normal_displacement = first ? 0
                                : previous->normal_displacement +
                                      0.5 * dt * (previous->normal_velocity + r.normal_velocity);
  r.tangential_displacement =
      first ? 0
            : previous->tangential_displacement +
                  0.5 * dt * (previous->tangential_velocity + r.tangential_velocity);
  r.kinetic_energy = s.kinetic_energy;
  r.internal_energy = s.internal_energy;
  r.rigid_kinetic_energy = s.rigid_kinetic_energy;
  r.vibration_kinetic_energy = s.vibration_kinetic_energy;
  r.frictional_dissipation = friction;
  r.total_energy = s.kinetic_energy + s.internal_energy + friction;
  r.contact_nodes = s.contact_nodes;
  r.contact_area = s.contact_area;
  r.contact_node_velocity_t = s.contact_node_velocity.x();
  r.contact_node_velocity_n = s.contact_node_velocity.y();
  r.center_velocity_t = s.centre_velocity.x();
  r.center_velocity_n = s.centre_velocity.y();
  r.spin = s.omega.z();
  r.normal_force_smoothed = r.normal_force;
  r.lowest_boundary_height = s.lowest_boundary_height;
  r.normal_contact_loss = (first ? 0 : previous->normal_contact_loss) + s.step_normal_contact_loss;
  r.first_contact_time = s.first_contact_time;
  r.last_contact_time = s.last_contact_time;
  return r;
}

void write_pvd(const std::string& directory,
               const std::vector<std::pair<double, std::string>>& frames) {
  std::ostringstream out;
  dealii::DataOutBase::write_pvd_record(out, frames);
  observables::write_file_atomically(directory + "/solution.pvd", out.str());
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
       FIELD(normal_contact_loss)});
#undef FIELD
  return h;
}

std::string history_csv(const std::vector<HistoryRow>& rows, std::size_t max_rows) {
  return observables::to_csv(history_table(rows), max_rows);
}

RunResult run(const cases::Case& c, const RunOptions& options, MPI_Comm communicator) {
  dealii::Timer timer(communicator);
  const cases::Derived d = cases::derive(c);
  RunResult result;
  std::unique_ptr<Solver> solver = Solver::create(c, options.solver, communicator);
  result.info = solver->info();
  const double dt = result.info.time_step;
  const bool root = dealii::Utilities::MPI::this_mpi_process(communicator) == 0;

  const Eigen::Vector3d centre = d.body.centre_of_mass;
  const Eigen::Vector3d v_centre(d.centre_velocity.x(), d.centre_velocity.y(), 0);
  const Eigen::Vector3d omega(0, 0, d.spin);
  solver->set_state(Eigen::Vector3d::Zero(), v_centre, omega, centre);
  result.initial = solver->state();

  const double t_hertz = d.hertz.duration;
  std::optional<double> end_time = options.end_time ? options.end_time : c.fem.end_time;
  const double cap = end_time ? *end_time : options.cap_factor * t_hertz;
  const double settle = options.settle_fraction * t_hertz;
  // For the progress line: the override, else the typical end of the default rule (a sphere's
  // contact lasts ~t_Hertz), never beyond the cap.
  const double expected_end = end_time ? *end_time : std::min(cap, 1.2 * t_hertz + settle);
  const double frame_span = end_time ? *end_time : 1.5 * t_hertz;
  const double frame_interval = options.frames > 0 ? frame_span / options.frames : 0;
  const bool frames = options.frames > 0 && !options.output_directory.empty();

  double friction = 0;
  const double e0 = result.initial.kinetic_energy + result.initial.internal_energy;
  unsigned int frame = 0;
  double next_frame = 0;
  long long last_frame_step = -1;
  // A frame that cannot be written (a full disk) fails the run with the file and errno's text;
  // the history and summary are still written by the caller, the frames before it are kept.
  // Collective: every rank learns that a frame failed (the .pvd record is rank 0's alone).
  auto write_frame = [&](const State& s) {
    std::string problem;
    try {
      const std::string file = solver->write_frame(options.output_directory, frame++);
      // After a step the displacement is already u_{n+1}.
      result.frames.emplace_back(s.step > 0 ? s.time + dt : 0.0, file);
      if (root) write_pvd(options.output_directory, result.frames);
    } catch (const observables::FileError& error) {
      problem = error.what();
    }
    if (dealii::Utilities::MPI::max(int(!problem.empty()), communicator) != 0) {
      result.status = "failed";
      result.message = "frame " + std::to_string(frame - 1) + " not written: " +
                       (problem.empty() ? std::string("on another rank") : problem);
      return false;
    }
    last_frame_step = s.step;
    next_frame += frame_interval;
    return true;
  };
  const bool frames_ok = !frames || write_frame(result.initial);
  if (!frames_ok) result.history.push_back(make_row(result.initial, nullptr, dt, 0));

  bool started = false;
  double last_contact = 0;
  result.status = frames_ok ? "completed" : result.status;
  dealii::Timer loop_timer(communicator);
  for (; frames_ok;) {
    solver->step();
    const State& s = solver->state();
    friction += s.step_friction_work;
    result.history.push_back(
        make_row(s, result.history.empty() ? nullptr : &result.history.back(), dt, friction));
    if (s.contact_nodes > 0) {
      started = true;
      last_contact = s.time;
    }
    if (!s.finite) {
      result.status = "failed";
      result.message = "non-finite values at step " + std::to_string(s.step) +
                       ", t = " + std::to_string(s.time) + " s";
      break;
    }
    const double total = result.history.back().total_energy;
    if (total > e0 * (1 + options.energy_growth_bound)) {
      char text[256];
      std::snprintf(text, sizeof text,
                    "total energy grew by %.3g %% (bound %.3g %%) at step %lld, t = %.6g s: the "
                    "time step is unstable",
                    100 * (total / e0 - 1), 100 * options.energy_growth_bound, s.step, s.time);
      result.status = "failed";
      result.message = text;
      break;
    }
    if (options.interrupt && s.step % 16 == 0) {
      const int flag = dealii::Utilities::MPI::max(int(options.interrupt->load()), communicator);
      if (flag) {
        result.status = "interrupted";
        result.message = "interrupted at step " + std::to_string(s.step);
        break;
      }
    }
    if (frames && s.time >= next_frame - 0.5 * dt && !write_frame(s)) break;
    bool done = false;
    if (end_time)
      done = s.time >= *end_time - 0.5 * dt;
    else
      done = (started && s.contact_nodes == 0 && s.time - last_contact >= settle) ||
             s.time >= cap - 0.5 * dt;
    if (options.max_steps > 0 && s.step >= options.max_steps) done = true;
    if (options.progress) {
      const double wall = loop_timer.wall_time();
      options.progress(
          Progress{s.step, s.time, expected_end, wall,
                   wall > 0 ? double(result.info.dofs) * s.step * result.info.substeps / wall : 0,
                   s.contact_nodes > 0});
    }
    if (done) break;
  }
  const double loop_seconds = loop_timer.wall_time();
  result.final = solver->state();
  // A run is "completed" only when the contact happened and ended: the rigid-body quantities are
  // then final (momentum is conserved in free flight). Ending less than the settle time after the
  // last contact is allowed with a warning (a re-contact would be missed).
  if (result.status == "completed") {
    const State& s = result.final;
    char text[384];
    if (!started) {
      std::snprintf(text, sizeof text,
                    "no contact before t = %.6g s (the Hertz duration is %.6g s; fem.end_time or "
                    "the step limit ended the run first)",
                    s.time, t_hertz);
      result.status = "incomplete";
      result.message = text;
    } else if (s.contact_nodes > 0) {
      std::snprintf(text, sizeof text,
                    "the contact was still active at t = %.6g s (%d nodes; the Hertz duration is "
                    "%.6g s): the rebound quantities are not final; raise fem.end_time",
                    s.time, s.contact_nodes, t_hertz);
      result.status = "incomplete";
      result.message = text;
    } else if (s.time - last_contact < settle - 0.5 * dt) {
      std::snprintf(text, sizeof text,
                    "the run ended %.3g s after the last contact, less than the settle time "
                    "%.3g s (0.2 Hertz durations): a re-contact after it would be missed",
                    s.time - last_contact, settle);
      result.warnings.push_back(text);
    }
  }
  if (frames && result.status != "failed" && last_frame_step != result.final.step &&
      result.final.finite)
    write_frame(result.final);
  result.wall_time = timer.wall_time();

  // Smoothed contact force: centred difference of the cumulative impulse over ~2 % of the
  // contact duration (the per-step force of a kinematic contact is noisy).
  auto& h = result.history;
  long long first_contact = -1, last_contact_row = -1;
  for (std::size_t k = 0; k < h.size(); ++k)
    if (h[k].normal_force > 0) {
      if (first_contact < 0) first_contact = (long long)k;
      last_contact_row = (long long)k;
    }
  const double duration = first_contact >= 0 ? h[last_contact_row].last_contact_time -
                                                   h[first_contact].first_contact_time +
                                                   result.info.contact_time_step
                                             : 0;
  const long long half = std::max(1LL, (long long)std::llround(0.01 * duration / dt));
  for (long long k = 0; k < (long long)h.size(); ++k) {
    const long long lo = std::max(0LL, k - half), hi = std::min((long long)h.size() - 1, k + half);
    h[k].normal_force_smoothed =
        hi > lo ? (h[hi].normal_impulse - h[lo].normal_impulse) / (h[hi].time - h[lo].time) : 0;
  }
  result.summary = summary_json(c, d, result);
  // summary() checks the quantities of a completed run (observables/checks.h).
  result.status = result.summary["status"].get<std::string>();
  if (result.summary.contains("message")) result.message = result.summary["message"];
  result.summary["wall_time"] = result.wall_time;
  result.summary["loop_wall_time"] = loop_seconds;
  result.summary["dof_steps_per_second"] =
      loop_seconds > 0
          ? double(result.info.dofs) * result.final.step * result.info.substeps / loop_seconds
          : 0.0;
  observables::list_units(result.summary);
  return result;
}

observables::Summary summary(const cases::Case& c, const cases::Derived& d, const RunResult& r) {
  const auto& h = r.history;
  const State& s0 = r.initial;
  const State& s1 = r.final;
  const double dt = r.info.time_step;
  const double mu = c.contact.friction, nu = c.material.poisson_ratio;
  const Eigen::Vector3d w = s1.contact_point_rigid_velocity;  // separation velocity of P

  // Contact phases from the per-step impulses and P's rigid-body normal velocity.
  long long first = -1, last = -1;
  double peak_raw = 0, peak = 0, compression_impulse = nan, work_c = 0, work_r = 0;
  for (std::size_t k = 0; k < h.size(); ++k)
    if (h[k].normal_force > 0) {
      if (first < 0) first = (long long)k;
      last = (long long)k;
    }
  for (std::size_t k = 0; k < h.size(); ++k) {
    peak_raw = std::max(peak_raw, h[k].normal_force);
    peak = std::max(peak, h[k].normal_force_smoothed);
    // Normal work of the contact force at t_k on P's rigid-body normal velocity (Stronge).
    (h[k].normal_velocity < 0 ? work_c : work_r) += h[k].normal_force * dt * h[k].normal_velocity;
    if (k > 0 && std::isnan(compression_impulse) && first >= 0 && h[k - 1].normal_velocity < 0 &&
        h[k].normal_velocity >= 0) {
      const double f =
          -h[k - 1].normal_velocity / (h[k].normal_velocity - h[k - 1].normal_velocity);
      compression_impulse =
          h[k - 1].normal_impulse + f * (h[k].normal_impulse - h[k - 1].normal_impulse);
    }
  }
  // The force J_n / dt of row n acts over [t_n - dt/2, t_n + dt/2] (global and local stepping;
  // multirate: the contact's first and last fine steps, each acting over one fine step).
  const double duration = first >= 0 ? h[last].last_contact_time - h[first].first_contact_time +
                                           r.info.contact_time_step
                                     : 0;
  double energy_error = 0;
  const double e0 = h.front().total_energy;
  for (const HistoryRow& row : h)
    energy_error = std::max(energy_error, std::abs(row.total_energy - e0) / e0);

  observables::Summary summary;
  summary.case_name = c.name;
  summary.solver = "fem";
  summary.effective_mass = d.effective_mass;
  observables::ReboundQuantities& q = summary.quantities;
  q.psi1 = d.psi1;
  q.psi2 = observables::rebound_psi(w.head<2>(), nu, mu);
  q.incidence_angle = d.incidence_angle;
  q.rebound_angle = observables::rebound_angle(w.head<2>());
  q.e_newton = observables::newton_restitution(w.y(), c.impact.normal_speed);
  q.e_poisson = observables::poisson_restitution(h.back().normal_impulse, compression_impulse);
  q.e_stronge = observables::stronge_restitution(work_c, work_r);
  q.tangential_cor =
      observables::tangential_restitution(s0.centre_velocity.x(), s1.centre_velocity.x());
  q.spin_final = s1.omega.z();
  q.normal_impulse = h.back().normal_impulse;
  q.tangential_impulse = h.back().tangential_impulse;
  q.contact_duration = duration;
  q.peak_normal_force = peak;
  q.kinetic_energy_loss = s0.kinetic_energy - s1.rigid_kinetic_energy;
  q.kinetic_energy_loss_fraction =
      (s0.kinetic_energy - s1.rigid_kinetic_energy) / s0.kinetic_energy;
  q.lambda = d.lambda;
  q.theta = d.theta;
  q.center_velocity_initial = s0.centre_velocity.head<2>();
  q.center_velocity_final = s1.centre_velocity.head<2>();
  q.spin_initial = s0.omega.z();
  q.contact_point_velocity_initial = s0.contact_point_rigid_velocity.head<2>();
  q.contact_point_velocity_final = w.head<2>();
  q.kinetic_energy_initial = s0.kinetic_energy;

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
                  "the body's rigid-body kinetic energy after the impact exceeds the initial one "
                  "by %.3g %%: the contact (friction %.3g) created energy",
                  -100 * q.kinetic_energy_loss_fraction, mu);
    summary.warnings.push_back(text);
  }
  nlohmann::json& j = summary.details;
  j["creates_energy"] = creates_energy;
  j["peak_normal_force_raw"] = peak_raw;
  j["binormal_impulse"] = h.back().binormal_impulse;
  j["vibration_kinetic_energy_final"] = s1.vibration_kinetic_energy;
  j["internal_energy_final"] = s1.internal_energy;
  j["frictional_dissipation"] = h.back().frictional_dissipation;
  j["normal_contact_loss"] = h.back().normal_contact_loss;
  j["hertz"] = {{"duration", d.hertz.duration},
                {"peak_force", d.hertz.peak_force},
                {"contact_radius", d.hertz.contact_radius}};
  j["dofs"] = r.info.dofs;
  j["cells"] = r.info.cells;
  j["degree"] = r.info.degree;
  j["simd_lanes"] = r.info.simd_lanes;
  j["time_step"] = dt;
  j["time_stepping"] = r.info.time_stepping;
  j["fine_time_step"] = r.info.fine_time_step;
  j["fine_steps"] = s1.step * r.info.substeps;
  if (r.info.time_stepping != "global") {
    j["local_time_stepping"] = {{"substeps", r.info.substeps},
                                {"level_cells", r.info.level_cells},
                                {"level_nodes", r.info.level_nodes},
                                {"level_lambda_max", r.info.level_lambda_max},
                                {"level_cells_by_rank", r.info.level_cells_by_rank}};
    if (r.info.time_stepping == "lts-leapfrog") {
      j["local_time_stepping"]["cell_evaluations"] = r.info.local_cell_evaluations;
      j["local_time_stepping"]["stability"] = r.info.local_stability;
      j["local_time_stepping"]["stability_tried"] = r.info.local_stability_tried;
      j["local_time_stepping"]["damping"] = r.info.local_damping;
    }
  }
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
  return summary;
}

nlohmann::json summary_json(const cases::Case& c, const cases::Derived& d, const RunResult& r) {
  return observables::to_json(summary(c, d, r));
}

}  // namespace rebound::fem
