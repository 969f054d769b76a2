// A time history in memory: named columns of one row per sample, as every solver writes it to
// history.csv and as the comparison reads it (without going through the file).
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace rebound::observables {

struct History {
  std::vector<std::string> columns;                        // in file order
  std::map<std::string, std::vector<double>> values;       // numeric columns (NaN: not a number)
  std::map<std::string, std::vector<std::string>> labels;  // text columns (e.g. the lumped mode)
  std::set<std::string> integer_columns;                   // written as integers (e.g. node counts)

  std::size_t rows() const;
  bool has(const std::string& column) const { return values.count(column) != 0; }
  const std::vector<double>& column(const std::string& name) const { return values.at(name); }
  // Appends a numeric column (of the same length as the others).
  void add(const std::string& name, std::vector<double> data);
  void add_labels(const std::string& name, std::vector<std::string> data);
};

// history.csv: a header row, then one row per sample; reals as %.10e. With max_rows > 0 a longer
// history is decimated to every k-th row (the last row always kept).
std::string to_csv(const History& history, std::size_t max_rows = 0);

// Reads a CSV with a header row; cells that are not numbers read as NaN (text columns are kept
// as numeric NaN columns too). Throws FileError when the file cannot be read or is empty.
History read_history_csv(const std::string& path);

// Linear interpolation of y(x) over an increasing x at x0 (NaN outside [x.front(), x.back()]).
double interpolate(const std::vector<double>& x, const std::vector<double>& y, double x0);

}  // namespace rebound::observables
