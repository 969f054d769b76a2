#include "observables/history.h"

#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

#include "observables/files.h"
#include "observables/units.h"

namespace rebound::observables {

std::size_t History::rows() const {
  if (!values.empty()) return values.begin()->second.size();
  return labels.empty() ? 0 : labels.begin()->second.size();
}

void History::add(const std::string& name, std::vector<double> data) {
  columns.push_back(name);
  values[name] = std::move(data);
}

void History::add_labels(const std::string& name, std::vector<std::string> data) {
  columns.push_back(name);
  labels[name] = std::move(data);
}

std::string to_csv(const History& history, std::size_t max_rows) {
  std::string out;
  for (std::size_t k = 0; k < history.columns.size(); ++k)
    out += (k ? "," : "") + csv_column(history.columns[k]);
  out += "\n";
  const std::size_t rows = history.rows();
  const std::size_t stride = max_rows > 0 && rows > max_rows ? (rows + max_rows - 1) / max_rows : 1;
  // The columns resolved once: a pointer to the numbers or to the labels of each.
  struct Column {
    const std::vector<double>* numbers = nullptr;
    const std::vector<std::string>* text = nullptr;
    bool integer = false;
  };
  std::vector<Column> columns;
  for (const auto& name : history.columns) {
    Column c;
    if (history.values.count(name)) c.numbers = &history.values.at(name);
    if (history.labels.count(name)) c.text = &history.labels.at(name);
    c.integer = history.integer_columns.count(name) != 0;
    columns.push_back(c);
  }
  char cell[64];
  for (std::size_t i = 0; i < rows; ++i) {
    if (i % stride != 0 && i + 1 != rows) continue;
    for (std::size_t k = 0; k < columns.size(); ++k) {
      if (k) out += ',';
      const Column& c = columns[k];
      if (c.text) {
        out += (*c.text)[i];
      } else if (c.integer) {
        std::snprintf(cell, sizeof cell, "%d", int((*c.numbers)[i]));
        out += cell;
      } else {
        std::snprintf(cell, sizeof cell, "%.10e", (*c.numbers)[i]);
        out += cell;
      }
    }
    out += '\n';
  }
  return out;
}

History read_history_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw FileError("cannot read " + path);
  History table;
  std::string line;
  if (!std::getline(in, line)) throw FileError(path + " is empty");
  {
    std::stringstream header(line);
    for (std::string name; std::getline(header, name, ',');)
      table.columns.push_back(plain_column(name));
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
      table.values[name].push_back(
          end != cell.c_str() && *end == '\0' ? value : std::numeric_limits<double>::quiet_NaN());
    }
  }
  return table;
}

double interpolate(const std::vector<double>& x, const std::vector<double>& y, double x0) {
  if (x.empty() || x0 < x.front() || x0 > x.back()) return std::numeric_limits<double>::quiet_NaN();
  std::size_t hi = 1;
  while (hi < x.size() && x[hi] < x0) ++hi;
  if (hi >= x.size()) return y.back();
  const double span = x[hi] - x[hi - 1];
  const double s = span > 0 ? (x0 - x[hi - 1]) / span : 1.0;
  return (1 - s) * y[hi - 1] + s * y[hi];
}

}  // namespace rebound::observables
