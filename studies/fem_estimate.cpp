#include "studies/fem_estimate.h"

#include <deal.II/base/mpi.h>
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cases/derived.h"
#include "cases/format.h"
#include "cases/json_numbers.h"
#include "fem/fem.h"
#include "lumped/solve.h"
#include "lumped/summary.h"
#include "studies/fem_run.h"
#include "studies/progress.h"

namespace rebound::studies {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

// The longest of every rank's wall time since `start` (so that all ranks agree).
double elapsed_max(double start, MPI_Comm communicator) {
  return dealii::Utilities::MPI::max(MPI_Wtime() - start, communicator);
}

// The contact duration the FEM run will see, from the case's geometry: Lai's elastic model of the
// body (no lambda/theta override, Hertz's law: the FE body is elastic), else Hertz's duration.
std::pair<double, std::string> expected_contact_duration(const cases::Case& c,
                                                         const cases::Derived& d) {
  try {
    cases::Case elastic = c;
    elastic.lumped.model = "lai";
    elastic.lumped.normal_law = "hertz";
    elastic.lumped.lambda.reset();
    elastic.lumped.theta.reset();
    const cases::Derived de = cases::derive(elastic);
    const lumped::Outcome outcome = lumped::solve(elastic, de, false);
    const double duration = lumped::rebound_quantities(elastic, de, outcome).contact_duration;
    if (std::isfinite(duration) && duration > 0) return {duration, "lumped model lai"};
  } catch (const std::exception&) {
    // Hertz's duration below.
  }
  return {d.hertz.duration, "Hertz"};
}

// A folder for the one frame that is timed: under the system's temporary folder, never the
// case's output folder; the same name on every rank.
std::string temporary_frame_folder(MPI_Comm communicator) {
  std::string name;
  if (dealii::Utilities::MPI::this_mpi_process(communicator) == 0) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "rebound-estimate-XXXXXX").string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (::mkdtemp(buffer.data()) != nullptr) name = buffer.data();
  }
  name = dealii::Utilities::MPI::broadcast(communicator, name, 0);
  if (!name.empty()) {
    std::error_code ignored;
    std::filesystem::create_directories(name, ignored);
  }
  return name;
}

}  // namespace

FemEstimate estimate_fem_run(const cases::Case& c, const FemEstimateOptions& o,
                             MPI_Comm communicator) {
  const double start = MPI_Wtime();
  check_meshable(c, o.extra_levels);
  const cases::Derived d = cases::derive(c);
  FemEstimate e;

  // The FE space as `rebound fem` builds it (fem::run: Solver::create with the extra levels).
  fem::SolverOptions solver_options;
  solver_options.extra_levels = o.extra_levels;
  MPI_Barrier(communicator);
  const double setup_start = MPI_Wtime();
  std::unique_ptr<fem::Solver> solver;
  try {
    solver = fem::Solver::create(c, solver_options, communicator);
  } catch (const cases::CaseError&) {
    throw;
  } catch (const std::invalid_argument& error) {
    throw cases::CaseError(c.source, "body", std::string("cannot be meshed: ") + error.what());
  }
  e.setup_seconds = elapsed_max(setup_start, communicator);
  const fem::Info& info = solver->info();
  e.degree = info.degree;
  e.ranks = info.ranks;
  e.dofs = info.dofs;
  e.cells = info.cells;
  e.time_step = info.time_step;
  e.mesh_seconds = info.mesh_seconds;

  // The end rule of fem::run (RunOptions' defaults: settle 0.2, cap 3 Hertz durations).
  const fem::RunOptions defaults;
  e.hertz_duration = d.hertz.duration;
  if (c.fem.end_time) {
    e.end_rule = "fem.end_time";
    e.end_time = *c.fem.end_time;
    e.contact_duration = kNaN;
  } else {
    e.end_rule = "contact + settle";
    const auto [duration, from] = expected_contact_duration(c, d);
    e.contact_duration = duration;
    e.contact_duration_from = from;
    e.end_time = std::min(defaults.cap_factor * d.hertz.duration,
                          duration + defaults.settle_fraction * d.hertz.duration);
  }
  // The run stops at the first step n whose state time (n - 1) dt reaches end_time - dt/2.
  e.steps = std::max(1LL, (long long)std::ceil(e.end_time / e.time_step + 0.5 - 1e-9));

  // The burst: real steps from the run's initial state (fem::run's set_state).
  const Eigen::Vector3d centre = d.body.centre_of_mass;
  const Eigen::Vector3d v_centre(d.centre_velocity.x(), d.centre_velocity.y(), 0);
  const Eigen::Vector3d omega(0, 0, d.spin);
  solver->set_state(Eigen::Vector3d::Zero(), v_centre, omega, centre);
  const long long budget = std::max(1LL, std::min<long long>(o.max_steps, e.steps));
  const int warm_up = budget > 4 ? 2 : 0;  // first steps (caches, first contact search)
  for (int k = 0; k < warm_up; ++k) solver->step();
  const int chunk = 10;
  MPI_Barrier(communicator);
  const double burst_start = MPI_Wtime();
  for (;;) {
    const long long n = std::min<long long>(chunk, budget - warm_up - e.burst_steps);
    for (long long k = 0; k < n; ++k) solver->step();
    e.burst_steps += int(std::max(0LL, n));
    if (dealii::Utilities::MPI::max(int(!solver->state().finite), communicator) != 0)
      throw std::runtime_error("the FEM state became non-finite within " +
                               std::to_string(warm_up + e.burst_steps) +
                               " steps of the estimate: the time step is unstable (fem.cfl)");
    e.burst_seconds = elapsed_max(burst_start, communicator);
    if (n <= 0 || warm_up + e.burst_steps >= budget ||
        (e.burst_steps >= o.min_steps && e.burst_seconds >= o.burst_seconds))
      break;
  }
  if (e.burst_steps > 0 && e.burst_seconds > 0) {
    e.seconds_per_step = e.burst_seconds / e.burst_steps;
    e.dof_steps_per_second = double(e.dofs) / e.seconds_per_step;
  }
  e.loop_seconds = e.seconds_per_step * double(e.steps);

  // Frames (fem::run): at t = 0, every frame interval over fem.end_time or 1.5 Hertz durations
  // while the run lasts, and the last state.
  e.frames = 0;
  e.frame_seconds = kNaN;
  e.frames_seconds = 0;
  if (o.frames > 0) {
    const double span = c.fem.end_time ? *c.fem.end_time : 1.5 * d.hertz.duration;
    const double interval = span / o.frames;
    // Frames at k * interval up to the end, then the last state unless the end is one of them.
    const double multiples = e.end_time / interval;
    const bool aligned = std::abs(multiples - std::round(multiples)) * interval < e.time_step;
    e.frames = 1 + int(std::floor(multiples + 1e-6)) + (aligned ? 0 : 1);
    const std::string folder = temporary_frame_folder(communicator);
    if (!folder.empty()) {
      MPI_Barrier(communicator);
      const double frame_start = MPI_Wtime();
      try {
        solver->write_frame(folder, 0);
        e.frame_seconds = elapsed_max(frame_start, communicator);
      } catch (const std::exception&) {
        e.frame_seconds = kNaN;  // a temporary folder that cannot take a frame: not estimated
      }
      MPI_Barrier(communicator);
      std::error_code ignored;
      std::filesystem::remove_all(folder, ignored);
    }
    if (std::isfinite(e.frame_seconds)) e.frames_seconds = e.frame_seconds * e.frames;
  }
  e.total_seconds = e.setup_seconds + e.loop_seconds + e.frames_seconds;
  e.estimate_seconds = elapsed_max(start, communicator);
  return e;
}

nlohmann::json to_json(const FemEstimate& e) {
  using cases::finite_or_null;
  return {{"degree", e.degree},
          {"mpi_ranks", e.ranks},
          {"dofs", e.dofs},
          {"cells", e.cells},
          {"time_step", e.time_step},
          {"end_rule", e.end_rule},
          {"end_time", e.end_time},
          {"expected_contact_duration", finite_or_null(e.contact_duration)},
          {"contact_duration_from", e.contact_duration_from},
          {"hertz_duration", e.hertz_duration},
          {"steps", e.steps},
          {"burst_steps", e.burst_steps},
          {"burst_seconds", e.burst_seconds},
          {"dof_steps_per_second", e.dof_steps_per_second},
          {"seconds_per_step", e.seconds_per_step},
          {"setup_seconds", e.setup_seconds},
          {"mesh_seconds", e.mesh_seconds},
          {"loop_seconds", e.loop_seconds},
          {"frames", e.frames},
          {"frame_seconds", finite_or_null(e.frame_seconds)},
          {"frames_seconds", e.frames_seconds},
          {"total_seconds", e.total_seconds},
          {"estimate_seconds", e.estimate_seconds},
          {"units",
           {{"time_step", "s"},
            {"end_time", "s"},
            {"expected_contact_duration", "s"},
            {"hertz_duration", "s"},
            {"dof_steps_per_second", "1/s"},
            {"burst_seconds", "s"},
            {"seconds_per_step", "s"},
            {"setup_seconds", "s"},
            {"mesh_seconds", "s"},
            {"loop_seconds", "s"},
            {"frame_seconds", "s"},
            {"frames_seconds", "s"},
            {"total_seconds", "s"},
            {"estimate_seconds", "s"}}}};
}

std::string estimate_text(const FemEstimate& e, const std::string& case_name) {
  // Three digits under a minute (a frame takes milliseconds), minutes and hours beyond.
  const auto duration = [](double seconds) {
    if (std::isfinite(seconds) && seconds >= 0 && seconds < 60) return format("%.3g s", seconds);
    return format_duration(seconds);
  };
  std::string out;
  out += format("%s  FEM run estimate (p = %d, %d rank%s; nothing run, nothing written)\n",
                case_name.c_str(), e.degree, e.ranks, e.ranks == 1 ? "" : "s");
  out += format("  dofs                %llu\n", e.dofs);
  out += format("  cells               %llu\n", e.cells);
  out += format("  time step           %.6g s\n", e.time_step);
  if (e.end_rule == "fem.end_time")
    out += format("  end time            %.6g s (fem.end_time)\n", e.end_time);
  else
    out +=
        format("  end time            %.6g s (contact %.6g s from the %s + settle 0.2 x %.6g s)\n",
               e.end_time, e.contact_duration, e.contact_duration_from.c_str(), e.hertz_duration);
  out += format("  steps               %lld\n", e.steps);
  out += format("  measured            %.3g DoF-steps/s (%d steps in %.2f s, %.3g s per step)\n",
                e.dof_steps_per_second, e.burst_steps, e.burst_seconds, e.seconds_per_step);
  out += format("  setup               %s (mesh %s)\n", duration(e.setup_seconds).c_str(),
                duration(e.mesh_seconds).c_str());
  out += format("  time loop           %s\n", duration(e.loop_seconds).c_str());
  if (e.frames > 0)
    out += format("  frames              %s (%d frames, %s each)\n",
                  duration(e.frames_seconds).c_str(), e.frames,
                  std::isfinite(e.frame_seconds) ? duration(e.frame_seconds).c_str() : "-");
  else
    out += format("  frames              none (--frames 0)\n");
  out += format("  estimated wall time %s (this estimate took %s)\n",
                duration(e.total_seconds).c_str(), duration(e.estimate_seconds).c_str());
  return out;
}

}  // namespace rebound::studies
