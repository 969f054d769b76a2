// The time loop of a FEM run (docs/FEM.md): the rigid-body initial state, the step, the end
// rule, the robustness checks, the frames and the history; the summary is fem/summary.cpp's.
// No matrix-free code here, and nothing of the target or the material: the loop only asks the
// solver for a step and reads its state.
#include <deal.II/base/data_out_base.h>
#include <deal.II/base/mpi.h>
#include <deal.II/base/timer.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "fem/fem.h"
#include "observables/files.h"

namespace rebound::fem {
namespace {

HistoryRow make_row(const State& s, const HistoryRow* previous, double dt, double friction) {
  HistoryRow r{};
  r.time = s.time;
  const bool first = previous == nullptr;
  r.normal_force = s.step_impulse.y() / dt;
  r.tangential_force = s.step_impulse.x() / dt;
  r.normal_impulse = (first ? 0 : previous->normal_impulse) + s.step_impulse.y();
  r.tangential_impulse = (first ? 0 : previous->tangential_impulse) + s.step_impulse.x();
  r.binormal_impulse = (first ? 0 : previous->binormal_impulse) + s.step_impulse.z();
  // P's rigid-body velocity, relative to a target sphere's there (fem.h).
  const Eigen::Vector3d p = relative_contact_point_velocity(s);
  r.normal_velocity = p.y();
  r.tangential_velocity = p.x();
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
  r.plastic_dissipation = s.plastic_dissipation;
  r.viscous_dissipation = s.viscous_dissipation;
  r.total_energy = s.kinetic_energy + s.internal_energy + friction + s.plastic_dissipation +
                   s.viscous_dissipation + s.target.kinetic_energy + s.target.internal_energy;
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
  return r;
}

// The end of a run: fem.end_time or --end-time if given, else the default rule: the contact has
// happened and the body has been free of it for settle_fraction Hertz durations, or cap_factor
// Hertz durations have passed. Also judges whether a run that reached its end is complete.
class EndRule {
 public:
  EndRule(const cases::Case& c, const cases::Derived& d, const RunOptions& options, double dt)
      : end_time_(options.end_time ? options.end_time : c.fem.end_time),
        t_hertz_(d.hertz.duration),
        cap_(end_time_ ? *end_time_ : options.cap_factor * t_hertz_),
        settle_(options.settle_fraction * t_hertz_),
        dt_(dt),
        max_steps_(options.max_steps) {}

  void observe(const State& s) {
    if (s.contact_nodes == 0) return;
    started_ = true;
    last_contact_ = s.time;
  }
  bool reached(const State& s) const {
    const bool done =
        end_time_ ? s.time >= *end_time_ - 0.5 * dt_
                  : (started_ && s.contact_nodes == 0 && s.time - last_contact_ >= settle_) ||
                        s.time >= cap_ - 0.5 * dt_;
    return done || (max_steps_ > 0 && s.step >= max_steps_);
  }
  // For the progress line: the given end, else the typical end of the default rule (a sphere's
  // contact lasts ~t_Hertz), never beyond the cap.
  double expected_end() const {
    return end_time_ ? *end_time_ : std::min(cap_, 1.2 * t_hertz_ + settle_);
  }
  // The span the frames cover.
  double frame_span() const { return end_time_ ? *end_time_ : 1.5 * t_hertz_; }

  // A run is "completed" only when the contact happened and ended: the rigid-body quantities are
  // then final (momentum is conserved in free flight). Ending less than the settle time after the
  // last contact is allowed with a warning (a re-contact would be missed).
  void judge(const State& s, RunResult& result) const {
    char text[384];
    if (!started_) {
      std::snprintf(text, sizeof text,
                    "no contact before t = %.6g s (the Hertz duration is %.6g s; fem.end_time or "
                    "the step limit ended the run first)",
                    s.time, t_hertz_);
      result.status = "incomplete";
      result.message = text;
    } else if (s.contact_nodes > 0) {
      std::snprintf(text, sizeof text,
                    "the contact was still active at t = %.6g s (%d nodes; the Hertz duration is "
                    "%.6g s): the rebound quantities are not final; raise fem.end_time",
                    s.time, s.contact_nodes, t_hertz_);
      result.status = "incomplete";
      result.message = text;
    } else if (s.time - last_contact_ < settle_ - 0.5 * dt_) {
      std::snprintf(text, sizeof text,
                    "the run ended %.3g s after the last contact, less than the settle time "
                    "%.3g s (0.2 Hertz durations): a re-contact after it would be missed",
                    s.time - last_contact_, settle_);
      result.warnings.push_back(text);
    }
  }

 private:
  std::optional<double> end_time_;
  double t_hertz_, cap_, settle_, dt_;
  long long max_steps_;
  bool started_ = false;
  double last_contact_ = 0;
};

// The VTK frames of a run: options.frames frames evenly over the span, solution.pvd rewritten
// after each. A frame that cannot be written (a full disk) fails the run with the file and errno's
// text; the frames before it are kept. Collective: every rank learns that a frame failed (the .pvd
// record is rank 0's alone).
class FrameWriter {
 public:
  FrameWriter(Solver& solver, const RunOptions& options, double span, double dt,
              MPI_Comm communicator)
      : solver_(solver),
        directory_(options.output_directory),
        enabled_(options.frames > 0 && !options.output_directory.empty()),
        interval_(options.frames > 0 ? span / options.frames : 0),
        dt_(dt),
        communicator_(communicator) {}

  bool due(const State& s) const { return enabled_ && s.time >= next_ - 0.5 * dt_; }
  // Writes the frame of state s if frames are on; false (result's status and message set) if it
  // failed.
  bool write(const State& s, RunResult& result) {
    if (!enabled_) return true;
    std::string problem;
    try {
      const std::string file = solver_.write_frame(directory_, frame_++);
      // After a step the displacement is already u_{n+1}.
      result.frames.emplace_back(s.step > 0 ? s.time + dt_ : 0.0, file);
      if (dealii::Utilities::MPI::this_mpi_process(communicator_) == 0) write_pvd(result.frames);
    } catch (const observables::FileError& error) {
      problem = error.what();
    }
    if (dealii::Utilities::MPI::max(int(!problem.empty()), communicator_) != 0) {
      result.status = "failed";
      result.message = "frame " + std::to_string(frame_ - 1) + " not written: " +
                       (problem.empty() ? std::string("on another rank") : problem);
      return false;
    }
    last_step_ = s.step;
    next_ += interval_;
    return true;
  }
  // The final state's frame, unless it was the last one written (or the run failed).
  void finish(const State& s, RunResult& result) {
    if (enabled_ && result.status != "failed" && last_step_ != s.step && s.finite) write(s, result);
  }

 private:
  void write_pvd(const std::vector<std::pair<double, std::string>>& frames) const {
    std::ostringstream out;
    dealii::DataOutBase::write_pvd_record(out, frames);
    observables::write_file_atomically(directory_ + "/solution.pvd", out.str());
  }

  Solver& solver_;
  std::string directory_;
  bool enabled_;
  double interval_, dt_;
  MPI_Comm communicator_;
  unsigned int frame_ = 0;
  double next_ = 0;
  long long last_step_ = -1;
};

// Why the run cannot go on after state s ("" if it can): non-finite values, or a total energy
// grown beyond the bound (an unstable step).
std::string step_problem(const State& s, double total_energy, double initial_energy,
                         double growth_bound) {
  if (!s.problem.empty()) return s.problem;
  if (!s.finite)
    return "non-finite values at step " + std::to_string(s.step) +
           ", t = " + std::to_string(s.time) + " s";
  if (total_energy > initial_energy * (1 + growth_bound)) {
    char text[256];
    std::snprintf(text, sizeof text,
                  "total energy grew by %.3g %% (bound %.3g %%) at step %lld, t = %.6g s: the "
                  "time step is unstable",
                  100 * (total_energy / initial_energy - 1), 100 * growth_bound, s.step, s.time);
    return text;
  }
  return "";
}

// The two-body contact's Gauss-Seidel sweeps over the run (fem/two_body_contact.h): the most one
// step took, and the steps whose sweeps stopped at their limit short of the tolerance (that step's
// impulses not converged: a warning, and summary.json's contact_unconverged_steps).
class ContactSweeps {
 public:
  void observe(const State& s) {
    most_ = std::max(most_, s.contact_sweeps);
    if (!s.contact_converged && unconverged_++ == 0) first_time_ = s.time;
  }
  void warn(RunResult& result) const {
    if (unconverged_ == 0) return;
    char text[384];
    std::snprintf(text, sizeof text,
                  "the two-body contact's sweeps stopped at their limit (%d) without meeting their "
                  "tolerance in %lld steps, the first at t = %.6g s: those steps' contact impulses "
                  "are not converged",
                  most_, unconverged_, first_time_);
    result.warnings.push_back(text);
  }
  void record(nlohmann::json& summary) const {
    if (most_ == 0) return;  // no two-body contact
    summary["contact_sweeps_max"] = most_;
    summary["contact_unconverged_steps"] = unconverged_;
  }

 private:
  int most_ = 0;
  long long unconverged_ = 0;
  double first_time_ = 0;
};

// Whether the stop flag is set on any rank (checked every 16 steps; collective).
bool interrupted(const RunOptions& options, const State& s, MPI_Comm communicator) {
  if (!options.interrupt || s.step % 16 != 0) return false;
  return dealii::Utilities::MPI::max(int(options.interrupt->load()), communicator) != 0;
}

// Smoothed contact force: centred difference of the cumulative impulse over ~2 % of the contact
// duration (the per-step force of a kinematic contact is noisy).
void smooth_normal_force(std::vector<HistoryRow>& h, double dt) {
  long long first = -1, last = -1;
  for (std::size_t k = 0; k < h.size(); ++k)
    if (h[k].normal_force > 0) {
      if (first < 0) first = (long long)k;
      last = (long long)k;
    }
  const double duration = first >= 0 ? h[last].time - h[first].time + dt : 0;
  const long long half = std::max(1LL, (long long)std::llround(0.01 * duration / dt));
  for (long long k = 0; k < (long long)h.size(); ++k) {
    const long long lo = std::max(0LL, k - half), hi = std::min((long long)h.size() - 1, k + half);
    h[k].normal_force_smoothed =
        hi > lo ? (h[hi].normal_impulse - h[lo].normal_impulse) / (h[hi].time - h[lo].time) : 0;
  }
}

}  // namespace

RunResult run(const cases::Case& c, const RunOptions& options, MPI_Comm communicator) {
  dealii::Timer timer(communicator);
  const cases::Derived d = cases::derive(c);
  RunResult result;
  std::unique_ptr<Solver> solver = Solver::create(c, options.solver, communicator);
  result.info = solver->info();
  const double dt = result.info.time_step;
  const Eigen::Vector3d centre_velocity(d.centre_velocity.x(), d.centre_velocity.y(), 0);
  const Eigen::Vector3d spin(0, 0, d.spin);
  solver->set_state(Eigen::Vector3d::Zero(), centre_velocity, spin, d.body.centre_of_mass);
  result.initial = solver->state();
  const double e0 = result.initial.kinetic_energy + result.initial.internal_energy +
                    result.initial.target.kinetic_energy + result.initial.target.internal_energy;
  EndRule end(c, d, options, dt);
  FrameWriter frames(*solver, options, end.frame_span(), dt, communicator);
  result.status = "completed";
  if (!frames.write(result.initial, result))
    result.history.push_back(make_row(result.initial, nullptr, dt, 0));

  double friction = 0;
  ContactSweeps sweeps;
  dealii::Timer loop_timer(communicator);
  while (result.status == "completed") {
    solver->step();
    const State& s = solver->state();
    friction += s.step_friction_work;
    result.history.push_back(
        make_row(s, result.history.empty() ? nullptr : &result.history.back(), dt, friction));
    end.observe(s);
    sweeps.observe(s);
    result.message =
        step_problem(s, result.history.back().total_energy, e0, options.energy_growth_bound);
    if (!result.message.empty()) {
      result.status = "failed";
      break;
    }
    if (interrupted(options, s, communicator)) {
      result.status = "interrupted";
      result.message = "interrupted at step " + std::to_string(s.step);
      break;
    }
    if (frames.due(s) && !frames.write(s, result)) break;
    const bool done = end.reached(s);
    if (options.progress) {
      const double wall = loop_timer.wall_time();
      options.progress(Progress{s.step, s.time, end.expected_end(), wall,
                                wall > 0 ? double(result.info.dofs) * s.step / wall : 0,
                                s.contact_nodes > 0});
    }
    if (done) break;
  }
  const double loop_seconds = loop_timer.wall_time();
  result.final = solver->state();
  if (result.status == "completed") end.judge(result.final, result);
  frames.finish(result.final, result);
  sweeps.warn(result);
  result.wall_time = timer.wall_time();

  smooth_normal_force(result.history, dt);
  result.summary = summary_json(c, d, result);
  // summary() checks the quantities of a completed run (observables/checks.h).
  result.status = result.summary["status"].get<std::string>();
  if (result.summary.contains("message")) result.message = result.summary["message"];
  sweeps.record(result.summary);
  result.summary["wall_time"] = result.wall_time;
  result.summary["loop_wall_time"] = loop_seconds;
  result.summary["dof_steps_per_second"] =
      loop_seconds > 0 ? double(result.info.dofs) * result.final.step / loop_seconds : 0.0;
  observables::list_units(result.summary);
  return result;
}

}  // namespace rebound::fem
