// The resumable table of runs that refinement studies (refinement.csv) and FEM sweeps
// (sweep_fem.csv) share: a CSV of text cells, one row per finished run, rewritten after each run;
// under --resume the finished rows of an earlier study of the same case are reused.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cases/case.h"

namespace rebound::studies {

using TableRow = std::map<std::string, std::string>;

// A CSV of text cells with a header row (no quoting: cells never hold commas or newlines). In
// memory the columns have their plain names; the file's header carries the units
// (observables::csv_column: h_contact_m, wall_time_s, ...), removed again when it is read.
struct TextTable {
  std::vector<std::string> columns;
  std::vector<TableRow> rows;
};
TextTable read_text_csv(const std::string& path);  // empty when the file does not exist
std::string text_csv(const TextTable& table);
std::string csv_number(double value);    // "%.10g", empty when not finite
std::string csv_text(std::string text);  // commas, quotes and newlines replaced by spaces
double csv_value(const TableRow& row, const std::string& column);  // NaN when empty or text
bool csv_equals(const std::string& cell, double value);            // same number to 1e-9 (relative)
std::string cell(const TableRow& row, const std::string& column);  // "" when absent

// A stable fingerprint (16 hex digits) of a case description, without its free-text description
// and frame counts: rows of a resumable table are reused only for the same fingerprint.
std::string case_fingerprint(const cases::Case& c);

// The rows of an earlier table at `path` (the rows a study does not produce itself are kept).
// With resume, every earlier row must belong to this case (columns "case" and "case_hash") and
// have `first_column` first, else StudyInputError naming the file and how to proceed. Each row is
// offered to `claim(row, finished)` (finished: status "completed" or "failed"), which returns
// true when one of the study's runs took it; the rows nobody claims are returned. Without
// resume, nothing is claimed and nothing kept (the earlier table is replaced), and `replaced`
// says how many rows that was.
struct EarlierRows {
  std::vector<TableRow> kept;
  std::size_t replaced = 0;
  std::string note;  // for the user when rows are replaced ("note: FILE exists; ..."), else ""
};
EarlierRows resume_rows(const std::string& path, const cases::Case& c, const std::string& hash,
                        const std::string& first_column, bool resume,
                        const std::function<bool(const TableRow& row, bool finished)>& claim);

}  // namespace rebound::studies
