// The SI unit of every quantity and column the outputs carry, in one table: summary.json's
// "units" block (summary_units(), observables/quantities.h) and the column names of every CSV
// file (history.csv, sweep.csv, sweep_fem.csv, refinement.csv) are derived from it, so that the
// two cannot disagree.
//
// CSV column names: the quantity's name, "_", and its unit written with "_" for a space, "_per_"
// for "/" and exponents as plain digits: time_s, normal_force_N, normal_impulse_N_s,
// normal_velocity_m_per_s, spin_rad_per_s, contact_area_m2, kinetic_energy_J. Dimensionless
// quantities (unit "1": psi1, psi2, e_newton, counts) and text columns (mode, phases, status)
// keep their plain name. In memory (History, TableRow, summaries) every column has its plain name;
// the unit is added when a CSV is written and removed when one is read back.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace rebound::observables {

// Every (name, unit) of the table: "1" for dimensionless numbers, "" for text columns.
const std::vector<std::pair<std::string, std::string>>& unit_table();

// The unit of a quantity or column; throws std::logic_error naming it (and this file) when the
// table lacks it, so that no CSV column is written without a decision about its unit.
const std::string& unit_of(const std::string& name);
bool has_unit(const std::string& name);

// "N s" -> "N_s", "m/s" -> "m_per_s", "m^2" -> "m2"; "" for "1" and for text ("").
std::string unit_suffix(const std::string& unit);

// The CSV header of a column: name + "_" + unit_suffix(unit_of(name)), or the name when it has
// no suffix (dimensionless, text). Throws std::logic_error for a name not in the table.
std::string csv_column(const std::string& name);

// The plain name of a CSV header: csv_column's inverse for the names of the table; any other
// header (a user's file, a file written before the units) is returned unchanged.
std::string plain_column(const std::string& header);

}  // namespace rebound::observables
