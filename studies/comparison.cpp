#include "studies/comparison.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

#include "cases/json_numbers.h"

namespace rebound::studies {
namespace {

using cases::finite_or_null;
const double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

const std::vector<std::string>& compared_history_columns() {
  static const std::vector<std::string> columns = {"normal_force",    "tangential_force",
                                                   "normal_impulse",  "tangential_impulse",
                                                   "normal_velocity", "tangential_velocity"};
  return columns;
}

nlohmann::json compare(const Solution& a, const Solution& b, int samples) {
  const std::string& first_name = a.name;
  const std::string& second_name = b.name;
  nlohmann::json result;
  result["first"] = first_name;
  result["second"] = second_name;
  nlohmann::json keys = nlohmann::json::object();
  // Dimensionless quantities (and angles in rad) of order one: below 1e-12 both values are
  // round-off of zero (theta = 2.6e-17 against 0), and a relative difference of them means
  // nothing. Dimensional ones keep theirs (a micro-particle's impulse is legitimately tiny).
  static const std::set<std::string> order_one = {"psi1",
                                                  "psi2",
                                                  "e_newton",
                                                  "e_poisson",
                                                  "e_stronge",
                                                  "tangential_cor",
                                                  "lambda",
                                                  "theta",
                                                  "incidence_angle",
                                                  "rebound_angle",
                                                  "kinetic_energy_loss_fraction"};
  const auto scalar = [&](const std::string& key, double x, double y) {
    if (!std::isfinite(x) || !std::isfinite(y)) return;  // null in a summary: not compared
    const bool round_off = order_one.count(key) > 0 && std::max(std::abs(x), std::abs(y)) < 1e-12;
    keys[key] = {{first_name, x},
                 {second_name, y},
                 {"difference", y - x},
                 {"relative_difference",
                  finite_or_null(x != 0 && !round_off ? (y - x) / std::abs(x) : kNaN)}};
  };
  const auto vector = [&](const std::string& key, const Eigen::Vector2d& x,
                          const Eigen::Vector2d& y) {
    if (!std::isfinite(x.x())) return;  // undefined in the first summary: not compared
    keys[key] = {{first_name, {finite_or_null(x.x()), finite_or_null(x.y())}},
                 {second_name, {finite_or_null(y.x()), finite_or_null(y.y())}},
                 {"difference", {finite_or_null(y.x() - x.x()), finite_or_null(y.y() - x.y())}}};
  };
  const observables::ReboundQuantities &p = a.summary.quantities, &q = b.summary.quantities;
  for (const auto& key : observables::summary_scalar_keys())
    scalar(key, p.scalar(key), q.scalar(key));
  scalar("spin_initial", p.spin_initial, q.spin_initial);
  scalar("kinetic_energy_initial", p.kinetic_energy_initial, q.kinetic_energy_initial);
  scalar("effective_mass", a.summary.effective_mass, b.summary.effective_mass);
  scalar("energy_flux_density", a.summary.energy_flux_density, b.summary.energy_flux_density);
  scalar("reduced_mass", a.summary.reduced_mass, b.summary.reduced_mass);
  vector("center_velocity_initial", p.center_velocity_initial, q.center_velocity_initial);
  vector("center_velocity_final", p.center_velocity_final, q.center_velocity_final);
  vector("contact_point_velocity_initial", p.contact_point_velocity_initial,
         q.contact_point_velocity_initial);
  vector("contact_point_velocity_final", p.contact_point_velocity_final,
         q.contact_point_velocity_final);
  // What else both solvers report as a number (e.g. eta of two lumped runs).
  for (const auto& item : a.summary.details.items()) {
    const auto& other = b.summary.details;
    if (item.value().is_number() && other.contains(item.key()) && other[item.key()].is_number())
      scalar(item.key(), item.value().get<double>(), other[item.key()].get<double>());
  }
  result["summary"] = keys;

  // Histories on t / contact_duration.
  const double first_duration = p.contact_duration, second_duration = q.contact_duration;
  const observables::History& first_history = a.history;
  const observables::History& second_history = b.history;
  nlohmann::json histories;
  histories["normalized_time"] = nlohmann::json::array();
  std::vector<double> axis(samples);
  for (int i = 0; i < samples; ++i) {
    axis[i] = double(i) / (samples - 1);
    histories["normalized_time"].push_back(axis[i]);
  }
  histories["contact_duration"] = {{first_name, finite_or_null(first_duration)},
                                   {second_name, finite_or_null(second_duration)}};
  auto normalized_time = [](const observables::History& t, double duration) {
    std::vector<double> x;
    if (!t.values.count("time")) return x;
    for (double time : t.values.at("time")) x.push_back(time / duration);
    return x;
  };
  const auto first_axis = normalized_time(first_history, first_duration);
  const auto second_axis = normalized_time(second_history, second_duration);
  if (std::isfinite(first_duration) && std::isfinite(second_duration) && !first_axis.empty() &&
      !second_axis.empty()) {
    for (const auto& column : compared_history_columns()) {
      if (!first_history.values.count(column) || !second_history.values.count(column)) continue;
      nlohmann::json a = nlohmann::json::array(), b = nlohmann::json::array();
      double sum_squares = 0, max_difference = 0, scale = 0;
      int count = 0;
      for (double x : axis) {
        const double ya = observables::interpolate(first_axis, first_history.values.at(column), x);
        const double yb =
            observables::interpolate(second_axis, second_history.values.at(column), x);
        a.push_back(finite_or_null(ya));
        b.push_back(finite_or_null(yb));
        if (!std::isfinite(ya) || !std::isfinite(yb)) continue;
        sum_squares += (yb - ya) * (yb - ya);
        max_difference = std::max(max_difference, std::abs(yb - ya));
        scale = std::max(scale, std::abs(ya));
        ++count;
      }
      histories[column] = {{first_name, a},
                           {second_name, b},
                           {"l2_difference", count ? std::sqrt(sum_squares / count) : kNaN},
                           {"max_difference", max_difference},
                           {"max_difference_relative_to_peak",
                            finite_or_null(scale > 0 ? max_difference / scale : kNaN)}};
    }
  }
  result["histories"] = histories;
  return result;
}

std::string report_markdown(const nlohmann::json& comparison, const std::string& title) {
  const std::string a = comparison["first"], b = comparison["second"];
  const auto& summary = comparison["summary"];
  std::string out = "# " + title + "\n\n| quantity | unit | " + a + " | " + b +
                    " | difference | relative |\n|---|---|---|---|---|---|\n";
  // Every rebound quantity of the summaries, in their order, with the summary's unit.
  const std::vector<std::string>& rows = observables::summary_scalar_keys();
  char cell[256];
  // A number of the comparison, or "—" where it is undefined (null): a relative difference to 0,
  // max / peak of a history column that stays 0.
  auto text = [](const nlohmann::json& v, const char* format) {
    if (!v.is_number()) return std::string("—");
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, v.get<double>());
    return std::string(buffer);
  };
  for (const auto& key : rows) {
    if (!summary.contains(key)) continue;
    const std::string unit = observables::summary_units().value(key, std::string("1")) == "1"
                                 ? std::string()
                                 : observables::summary_units()[key].get<std::string>();
    const auto& row = summary[key];
    std::snprintf(cell, sizeof cell, "| %s | %s | %s | %s | %s | %s |\n", key.c_str(), unit.c_str(),
                  text(row[a], "%.6g").c_str(), text(row[b], "%.6g").c_str(),
                  text(row["difference"], "%+.3g").c_str(),
                  text(row["relative_difference"], "%+.2e").c_str());
    out += cell;
  }
  const auto& histories = comparison["histories"];
  bool header = false;
  for (const auto& column : compared_history_columns()) {
    if (!histories.contains(column)) continue;
    if (!header) {
      out += "\nHistories on t / contact duration (" +
             std::to_string(histories["normalized_time"].size()) +
             " points):\n\n| column | L2 difference | max difference | max / peak "
             "|\n|---|---|---|---|\n";
      header = true;
    }
    const auto& h = histories[column];
    out += "| " + column + " | " + text(h["l2_difference"], "%.4g") + " | " +
           text(h["max_difference"], "%.4g") + " | " +
           text(h["max_difference_relative_to_peak"], "%.3g") + " |\n";
  }
  return out;
}

}  // namespace rebound::studies
