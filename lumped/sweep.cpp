#include "lumped/sweep.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <thread>

#include "cases/derived.h"
#include "lumped/summary.h"

namespace rebound::lumped {

const char* to_string(SweepVariable variable) {
  switch (variable) {
    case SweepVariable::psi1:
      return "psi1";
    case SweepVariable::incidence_angle:
      return "incidence_angle";
    case SweepVariable::friction:
      return "friction";
  }
  return "?";
}

cases::Case case_at(const cases::Case& base, SweepVariable variable, double value) {
  cases::Case c = base;
  const std::string where = std::string("sweep ") + to_string(variable);
  if (!std::isfinite(value)) throw cases::CaseError(c.source, where, "value is not finite");
  switch (variable) {
    case SweepVariable::psi1: {
      if (c.contact.friction <= 0)
        throw cases::CaseError(c.source, "contact.friction", "is 0; a Psi1 sweep needs mu > 0");
      if (value < 0)
        throw cases::CaseError(c.source, where, "value " + std::to_string(value) + " < 0");
      c.impact.tangential_speed = c.impact.normal_speed * value /
                                  cases::psi_scale(c.material.poisson_ratio, c.contact.friction);
      break;
    }
    case SweepVariable::incidence_angle: {
      if (value < 0 || value >= M_PI / 2)
        throw cases::CaseError(c.source, where,
                               "value " + std::to_string(value) + " outside [0, pi/2)");
      const double speed = cases::approach_speed(c.impact);
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
  }
  return c;
}

std::vector<nlohmann::json> run_sweep(const cases::Case& base, const SweepRange& range,
                                      int threads) {
  std::vector<nlohmann::json> rows(static_cast<std::size_t>(range.count));
  std::atomic<int> next{0};
  auto worker = [&] {
    for (int i = next++; i < range.count; i = next++) {
      try {
        const cases::Case c = case_at(base, range.variable, range.value(i));
        const cases::Derived d = cases::derive(c);
        rows[i] = summary_json(c, d, solve(c, d, false));
      } catch (const std::exception& error) {
        rows[i] = {{"error", error.what()}};
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < std::max(1, threads); ++t) pool.emplace_back(worker);
  worker();
  for (auto& thread : pool) thread.join();
  return rows;
}

std::string sweep_csv(const SweepRange& range, const std::vector<nlohmann::json>& rows) {
  const auto keys = summary_scalar_keys();
  std::string out = std::string("sweep_") + to_string(range.variable);
  for (const auto& key : keys) out += "," + key;
  out += ",phases,error\n";
  char cell[64];
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::snprintf(cell, sizeof cell, "%.10g", range.value(int(i)));
    out += cell;
    const auto& row = rows[i];
    for (const auto& key : keys) {
      out += ",";
      if (row.contains(key) && row[key].is_number()) {
        std::snprintf(cell, sizeof cell, "%.10g", row[key].get<double>());
        out += cell;
      }
    }
    std::string phases;
    if (row.contains("stick_slip_phases"))
      for (const auto& p : row["stick_slip_phases"])
        phases += (phases.empty() ? "" : "-") + p["mode"].get<std::string>();
    out += "," + phases + ",";
    if (row.contains("error")) {
      std::string message = row["error"].get<std::string>();
      for (char& ch : message)
        if (ch == ',' || ch == '\n' || ch == '"') ch = ' ';
      out += message;
    }
    out += "\n";
  }
  return out;
}

}  // namespace rebound::lumped
