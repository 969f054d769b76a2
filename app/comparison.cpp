#include "app/comparison.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

#include "app/cli.h"

namespace rebound::app {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

nlohmann::json number_or_null(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json();
}

// Linear interpolation of column y over an increasing x at x0 (NaN outside the range).
double interpolate(const std::vector<double>& x, const std::vector<double>& y, double x0) {
  if (x.empty() || x0 < x.front() || x0 > x.back()) return kNaN;
  std::size_t hi = 1;
  while (hi < x.size() && x[hi] < x0) ++hi;
  if (hi >= x.size()) return y.back();
  const double span = x[hi] - x[hi - 1];
  const double s = span > 0 ? (x0 - x[hi - 1]) / span : 1.0;
  return (1 - s) * y[hi - 1] + s * y[hi];
}

}  // namespace

Table read_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw RunError("cannot read " + path);
  Table table;
  std::string line;
  if (!std::getline(in, line)) throw RunError(path + " is empty");
  {
    std::stringstream header(line);
    for (std::string name; std::getline(header, name, ',');) table.columns.push_back(name);
  }
  for (const auto& name : table.columns) table.values[name];
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::stringstream cells(line);
    std::string cell;
    for (const auto& name : table.columns) {
      if (!std::getline(cells, cell, ',')) cell.clear();
      char* end = nullptr;
      const double value = std::strtod(cell.c_str(), &end);
      table.values[name].push_back(end != cell.c_str() && *end == '\0' ? value : kNaN);
    }
  }
  return table;
}

const std::vector<std::string>& compared_history_columns() {
  static const std::vector<std::string> columns = {"normal_force",    "tangential_force",
                                                   "normal_impulse",  "tangential_impulse",
                                                   "normal_velocity", "tangential_velocity"};
  return columns;
}

nlohmann::json compare(const std::string& first_name, const nlohmann::json& first,
                       const Table& first_history, const std::string& second_name,
                       const nlohmann::json& second, const Table& second_history, int samples) {
  nlohmann::json result;
  result["first"] = first_name;
  result["second"] = second_name;
  nlohmann::json keys = nlohmann::json::object();
  for (const auto& item : first.items()) {
    const std::string& key = item.key();
    if (!second.contains(key)) continue;
    const auto& a = item.value();
    const auto& b = second[key];
    if (a.is_number() && b.is_number()) {
      const double x = a.get<double>(), y = b.get<double>();
      keys[key] = {{first_name, x},
                   {second_name, y},
                   {"difference", y - x},
                   {"relative_difference", number_or_null(x != 0 ? (y - x) / std::abs(x) : kNaN)}};
    } else if (a.is_array() && b.is_array() && a.size() == b.size() && !a.empty() &&
               a[0].is_number()) {
      nlohmann::json difference = nlohmann::json::array();
      for (std::size_t i = 0; i < a.size(); ++i)
        difference.push_back(b[i].is_number() && a[i].is_number()
                                 ? nlohmann::json(b[i].get<double>() - a[i].get<double>())
                                 : nlohmann::json());
      keys[key] = {{first_name, a}, {second_name, b}, {"difference", difference}};
    }
  }
  result["summary"] = keys;

  // Histories on t / contact_duration.
  auto duration_of = [](const nlohmann::json& s) {
    return s.contains("contact_duration") && s["contact_duration"].is_number()
               ? s["contact_duration"].get<double>()
               : kNaN;
  };
  const double first_duration = duration_of(first), second_duration = duration_of(second);
  nlohmann::json histories;
  histories["normalized_time"] = nlohmann::json::array();
  std::vector<double> axis(samples);
  for (int i = 0; i < samples; ++i) {
    axis[i] = double(i) / (samples - 1);
    histories["normalized_time"].push_back(axis[i]);
  }
  histories["contact_duration"] = {{first_name, number_or_null(first_duration)},
                                   {second_name, number_or_null(second_duration)}};
  auto normalized_time = [](const Table& t, double duration) {
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
        const double ya = interpolate(first_axis, first_history.values.at(column), x);
        const double yb = interpolate(second_axis, second_history.values.at(column), x);
        a.push_back(number_or_null(ya));
        b.push_back(number_or_null(yb));
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
                            number_or_null(scale > 0 ? max_difference / scale : kNaN)}};
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
  const std::vector<std::pair<std::string, std::string>> rows = {
      {"psi1", ""},
      {"psi2", ""},
      {"e_newton", ""},
      {"e_poisson", ""},
      {"e_stronge", ""},
      {"tangential_cor", ""},
      {"spin_final", "rad/s"},
      {"normal_impulse", "N s"},
      {"tangential_impulse", "N s"},
      {"contact_duration", "s"},
      {"peak_normal_force", "N"},
      {"kinetic_energy_loss", "J"},
      {"kinetic_energy_loss_fraction", ""},
      {"lambda", ""},
      {"theta", "rad"}};
  char cell[256];
  // A number of the comparison, or "—" where it is undefined (null): a relative difference to 0,
  // max / peak of a history column that stays 0.
  auto text = [](const nlohmann::json& v, const char* format) {
    if (!v.is_number()) return std::string("—");
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, v.get<double>());
    return std::string(buffer);
  };
  for (const auto& [key, unit] : rows) {
    if (!summary.contains(key)) continue;
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

}  // namespace rebound::app
