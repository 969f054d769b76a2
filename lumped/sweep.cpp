#include "lumped/sweep.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "cases/derived.h"
#include "lumped/models.h"
#include "lumped/solve.h"
#include "lumped/summary.h"
#include "observables/units.h"

namespace rebound::lumped {

const char* to_string(SweepVariable variable) {
  switch (variable) {
    case SweepVariable::psi1:
      return "psi1";
    case SweepVariable::incidence_angle:
      return "incidence_angle";
    case SweepVariable::friction:
      return "friction";
    case SweepVariable::sample:
      return "sample";
  }
  return "?";
}

SweepRange parse_sweep_range(const std::string& text) {
  SweepRange range;
  std::stringstream in(text);
  std::string a, b, c;
  const std::string expected =
      "expected START:STOP:COUNT, e.g. 0:8:81 (COUNT an integer in [1, 10000000])";
  if (!std::getline(in, a, ':') || !std::getline(in, b, ':') || !std::getline(in, c) ||
      in.rdbuf()->in_avail() > 0)
    throw std::invalid_argument(expected);
  try {
    std::size_t used_a = 0, used_b = 0, used_c = 0;
    range.start = std::stod(a, &used_a);
    range.stop = std::stod(b, &used_b);
    const long count = std::stol(c, &used_c);
    if (used_a != a.size() || used_b != b.size() || used_c != c.size() || count < 1 ||
        count > 10'000'000)
      throw std::invalid_argument("");
    range.count = int(count);
  } catch (const std::exception&) {
    throw std::invalid_argument(expected);
  }
  return range;
}

SweepRange sample_range(long samples) {
  if (samples < 1 || samples > 10'000'000)
    throw std::invalid_argument("expected a number of samples in [1, 10000000]");
  SweepRange range;
  range.variable = SweepVariable::sample;
  range.start = 0;
  range.stop = double(samples - 1);
  range.count = int(samples);
  return range;
}

cases::Case case_at(const cases::Case& base, SweepVariable variable, double value) {
  cases::Case c = base;
  set_swept_value(c, base, variable, value);
  return c;
}

void set_swept_value(cases::Case& c, const cases::Case& base, SweepVariable variable,
                     double value) {
  const std::string where = std::string("sweep ") + to_string(variable);
  if (!std::isfinite(value)) throw cases::CaseError(c.source, where, "value is not finite");
  switch (variable) {
    case SweepVariable::psi1: {
      if (base.contact.friction <= 0)
        throw cases::CaseError(c.source, "contact.friction", "is 0; a Psi1 sweep needs mu > 0");
      if (value < 0)
        throw cases::CaseError(c.source, where, "value " + std::to_string(value) + " < 0");
      c.impact.tangential_speed =
          base.impact.normal_speed * value /
          cases::psi_scale(cases::contact_pair(base.material, base.target).poisson_ratio,
                           base.contact.friction);
      break;
    }
    case SweepVariable::incidence_angle: {
      if (value < 0 || value >= M_PI / 2)
        throw cases::CaseError(c.source, where,
                               "value " + std::to_string(value) + " outside [0, pi/2)");
      const double speed = cases::approach_speed(base.impact);
      c.impact.normal_speed = speed * std::cos(value);
      c.impact.tangential_speed = speed * std::sin(value);
      break;
    }
    case SweepVariable::friction: {
      if (value < 0)
        throw cases::CaseError(c.source, where, "value " + std::to_string(value) + " < 0");
      c.contact.friction = value;
      break;
    }
    case SweepVariable::sample: {
      if (!(base.lumped.restitution_table && base.lumped.restitution_table->random()))
        throw cases::CaseError(
            c.source, "lumped.restitution",
            "is not a table with a std > 0; a Monte Carlo sweep of samples needs lumped."
            "restitution {\"flux_density\": [...], \"mean\": [...], \"std\": [...]} (every "
            "sample of a deterministic restitution is the same impact)");
      if (value < 0 || value != std::floor(value) || value > cases::kMaxSeed)
        throw cases::CaseError(c.source, where,
                               "value " + std::to_string(value) +
                                   " is not an impact number (an integer in [0, 2^53 - 1])");
      break;
    }
  }
}

std::vector<SweepPoint> run_sweep(const cases::Case& base, const SweepRange& range, int threads,
                                  const std::atomic<bool>* stop,
                                  const std::function<void(double points_done)>& progress) {
  std::vector<double> values(static_cast<std::size_t>(std::max(0, range.count)));
  for (int i = 0; i < range.count; ++i) values[static_cast<std::size_t>(i)] = range.value(i);
  return run_sweep(base, range.variable, values, threads, stop, progress);
}

std::vector<SweepPoint> run_sweep(const cases::Case& base, SweepVariable variable,
                                  const std::vector<double>& values, int threads,
                                  const std::atomic<bool>* stop,
                                  const std::function<void(double points_done)>& progress) {
  cases::require_lumped_target(base);  // up front, not once per point
  const int count = static_cast<int>(values.size());
  std::vector<SweepPoint> rows(values.size());
  std::atomic<int> next{0};
  const int workers = std::min(std::max(1, threads), std::max(1, count));
  // Progress: the points finished plus the share of each point being solved (its contact time
  // over Hertz's duration, below 1), reported one call at a time.
  std::mutex report;
  int finished = 0;
  std::vector<double> in_flight(static_cast<std::size_t>(workers), 0.0);
  const auto report_progress = [&] {  // with `report` held
    double done = finished;
    for (const double share : in_flight) done += share;
    try {
      progress(done);
    } catch (...) {  // a display that fails must not end the sweep (nor the thread: terminate)
    }
  };
  auto worker = [&](std::size_t slot) {
    cases::Case c = base;  // one copy per thread, swept fields overwritten per point
    SolveControl control;
    control.stop = stop;
    double shown = 0;
    if (progress)
      control.progress = [&](double fraction) {
        fraction = std::clamp(fraction, 0.0, 0.99);
        if (std::abs(fraction - shown) < 0.01) return;
        shown = fraction;
        const std::lock_guard<std::mutex> lock(report);
        in_flight[slot] = fraction;
        report_progress();
      };
    for (int i = next++; i < count && !(stop && *stop); i = next++) {
      SweepPoint& point = rows[static_cast<std::size_t>(i)];
      point.value = values[static_cast<std::size_t>(i)];
      shown = 0;
      try {
        set_swept_value(c, base, variable, point.value);
        const cases::Derived d = cases::derive(c);
        // Each point is an impact of its own: the table's draw of impact `value` (a sample) or
        // i (a point of a variable), fixed into the case as its restitution.
        c.lumped.restitution = base.lumped.restitution;
        c.lumped.restitution_table = base.lumped.restitution_table;
        if (!elastic_normal_contact(c))
          point.draw = fix_restitution(
              c, d,
              variable == SweepVariable::sample ? std::uint64_t(point.value) : std::uint64_t(i));
        const Outcome o = solve(c, d, false, control);
        const observables::ReboundQuantities q = rebound_quantities(c, d, o);
        point.scalars = q.scalars();
        if (c.target.moves())
          point.free_target = std::array{q.target_center_velocity_final.x(),
                                         q.target_center_velocity_final.y(), q.target_spin_final};
        for (const Phase& p : o.phases)
          point.phases += (point.phases.empty() ? "" : "-") + std::string(to_string(p.mode));
        point.gamma_t = o.impulse.x();
        point.gamma_n = o.impulse.y();
      } catch (const Interrupted&) {
        break;  // the row stays unsolved; the other workers stop at their next check
      } catch (const std::exception& error) {
        point.error = error.what();
      }
      if (progress) {
        const std::lock_guard<std::mutex> lock(report);
        in_flight[slot] = 0;
        ++finished;
        report_progress();
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < workers; ++t) pool.emplace_back(worker, std::size_t(t));
  worker(0);
  for (auto& thread : pool) thread.join();
  return rows;
}

const std::vector<std::string>& sweep_model_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all = cases::lumped_model_names();
    for (const ModelVariant& variant : model_variants()) all.emplace_back(variant.name);
    return all;
  }();
  return names;
}

namespace {
std::string known_models() {
  std::string list;
  for (const auto& name : sweep_model_names()) list += (list.empty() ? "" : ", ") + name;
  return list;
}
}  // namespace

cases::Case case_with_model(const cases::Case& base, const std::string& model) {
  const auto& names = sweep_model_names();
  if (std::find(names.begin(), names.end(), model) == names.end())
    throw std::invalid_argument("unknown model '" + model + "'; expected one of " + known_models());
  const ModelVariant* variant = nullptr;
  for (const ModelVariant& v : model_variants())
    if (model == v.name) variant = &v;
  const std::string name = variant != nullptr ? variant->model : model;
  nlohmann::json document = base.raw;
  nlohmann::json lumped = document.contains("lumped") && document["lumped"].is_object()
                              ? document["lumped"]
                              : nlohmann::json::object();
  for (const auto& option : cases::kModelOptions)
    if (name != option.model) lumped.erase(option.key);
  lumped["model"] = name;
  // The names tell the variant's option: the model's own name has the default (halfspace: the
  // Dundurs coupling), the variant's name the variant's value (halfspace-beta0: none).
  for (const ModelVariant& v : model_variants())
    if (name == v.model) lumped.erase(v.key);
  if (variant != nullptr) lumped[variant->key] = variant->value;
  document["lumped"] = lumped;
  return cases::parse_case(document, base.source);
}

std::string model_name(const cases::Case& c) {
  for (const ModelVariant& variant : model_variants())
    if (c.lumped.model == variant.model && c.lumped.*variant.field == variant.value)
      return variant.name;
  return c.lumped.model;
}

std::vector<std::string> parse_model_list(const std::string& list) {
  std::vector<std::string> models;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = list.find(',', start);
    const std::string name =
        list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto& names = sweep_model_names();
    if (std::find(names.begin(), names.end(), name) == names.end())
      throw std::invalid_argument("'" + list + "' names the unknown model '" + name +
                                  "'; expected comma-separated names of " + known_models());
    if (std::find(models.begin(), models.end(), name) != models.end())
      throw std::invalid_argument("'" + list + "' names the model '" + name + "' twice");
    models.push_back(name);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return models;
}

std::string sweep_csv(const SweepRange& range, const std::vector<ModelSweep>& sweeps) {
  const auto& keys = observables::summary_scalar_keys();
  std::string out = observables::csv_column(std::string("sweep_") + to_string(range.variable));
  for (const auto& key : keys) out += "," + observables::csv_column(key);
  out += ",phases,error,model";
  bool draws = false, free_target = false;
  for (const ModelSweep& sweep : sweeps)
    for (const SweepPoint& row : sweep.rows) {
      draws = draws || row.draw.has_value();
      free_target = free_target || row.free_target.has_value();
    }
  if (draws)
    for (const char* key :
         {"energy_flux_density", "restitution_mean", "restitution_std", "restitution"})
      out += "," + observables::csv_column(key);
  if (free_target)
    for (const char* key : kFreeTargetColumns) out += "," + observables::csv_column(key);
  out += "\n";
  char cell[64];
  for (const ModelSweep& sweep : sweeps)
    for (const SweepPoint& row : sweep.rows) {
      std::snprintf(cell, sizeof cell, "%.10g", row.value);
      out += cell;
      for (std::size_t k = 0; k < keys.size(); ++k) {
        out += ",";
        if (k < row.scalars.size() && std::isfinite(row.scalars[k])) {
          std::snprintf(cell, sizeof cell, "%.10g", row.scalars[k]);
          out += cell;
        }
      }
      std::string message = row.error;
      for (char& ch : message)
        if (ch == ',' || ch == '\n' || ch == '"') ch = ' ';
      out += "," + row.phases + "," + message + "," + sweep.model;
      if (draws && row.draw) {
        for (const double value :
             {row.draw->flux_density, row.draw->mean, row.draw->sigma, row.draw->value}) {
          std::snprintf(cell, sizeof cell, ",%.17g", value);
          out += cell;
        }
      } else if (draws) {
        out += ",,,,";
      }
      if (free_target)
        for (std::size_t k = 0; k < kFreeTargetColumns.size(); ++k) {
          out += ",";
          if (row.free_target && std::isfinite((*row.free_target)[k])) {
            std::snprintf(cell, sizeof cell, "%.10g", (*row.free_target)[k]);
            out += cell;
          }
        }
      out += "\n";
    }
  return out;
}

}  // namespace rebound::lumped
