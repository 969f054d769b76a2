// A time history in memory: named columns of one row per sample, as every solver writes it to
// history.csv and as the comparison reads it (without going through the file).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <utility>
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

// The first columns of every solver's history.csv: time, the contact force on the body (t, n),
// its impulse, and the rigid-body velocity and displacement of P, the kinetic energy (SI). A
// solver's history row derives from it and adds its own columns.
struct ContactPointSample {
  double time, normal_force, tangential_force, normal_impulse, tangential_impulse;
  double normal_velocity, tangential_velocity, normal_displacement, tangential_displacement;
  double kinetic_energy;
};

// Appends the columns (name, member of Row) to h, one value per row (integers converted).
template <class Row, class Field>
void add_fields(History& h, const std::vector<Row>& rows,
                std::initializer_list<std::pair<const char*, Field>> fields) {
  for (const auto& [name, field] : fields) {
    std::vector<double> values;
    values.reserve(rows.size());
    for (const Row& r : rows) values.push_back(double(r.*field));
    h.add(name, std::move(values));
  }
}

// {"field", &Row::field}: a column named as the row's member (the name cannot drift from it).
#define REBOUND_HISTORY_FIELD(Row, field)         \
  std::pair<const char*, decltype(&Row::field)> { \
#field, &Row::field                           \
  }

// A history with the ContactPointSample columns of the rows, in file order.
template <class Row>
History contact_point_history(const std::vector<Row>& rows) {
  using S = ContactPointSample;
  History h;
  add_fields<Row, double S::*>(h, rows,
                               {{"time", &S::time},
                                {"normal_force", &S::normal_force},
                                {"tangential_force", &S::tangential_force},
                                {"normal_impulse", &S::normal_impulse},
                                {"tangential_impulse", &S::tangential_impulse},
                                {"normal_velocity", &S::normal_velocity},
                                {"tangential_velocity", &S::tangential_velocity},
                                {"normal_displacement", &S::normal_displacement},
                                {"tangential_displacement", &S::tangential_displacement},
                                {"kinetic_energy", &S::kinetic_energy}});
  return h;
}

// history.csv: a header row (each column's name with its unit, csv_column() of
// observables/units.h: time_s, normal_force_N, ...), then one row per sample; reals as %.10e.
// With max_rows > 0 a longer history is decimated to every k-th row (the last row always kept).
// Throws std::logic_error for a column without an entry in the table of units.
std::string to_csv(const History& history, std::size_t max_rows = 0);

// Reads a CSV with a header row into columns named without their units (plain_column(): time_s
// reads as time; other headers as they are); cells that are not numbers read as NaN (text
// columns are kept as numeric NaN columns too). Throws FileError when the file cannot be read or
// is empty.
History read_history_csv(const std::string& path);

// Linear interpolation of y(x) over an increasing x at x0 (NaN outside [x.front(), x.back()]).
double interpolate(const std::vector<double>& x, const std::vector<double>& y, double x0);

}  // namespace rebound::observables
