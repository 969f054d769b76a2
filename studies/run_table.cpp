#include "studies/run_table.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

#include "cases/resolved.h"
#include "observables/units.h"
#include "studies/errors.h"

namespace rebound::studies {
namespace {
const double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

std::string case_fingerprint(const cases::Case& c) {
  nlohmann::json doc = c.raw;
  if (doc.is_object()) {
    doc.erase("description");
    if (doc.contains("fem") && doc["fem"].is_object()) doc["fem"].erase("frames");
    if (doc.contains("lumped") && doc["lumped"].is_object()) doc["lumped"].erase("frames");
  }
  return cases::text_hash(doc.dump());
}

TextTable read_text_csv(const std::string& path) {
  TextTable table;
  std::ifstream in(path);
  if (!in) return table;
  std::string line;
  if (!std::getline(in, line)) return table;
  std::stringstream header(line);
  for (std::string name; std::getline(header, name, ',');)
    table.columns.push_back(observables::plain_column(name));
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    TableRow row;
    std::stringstream cells(line);
    std::string cell;
    for (const auto& name : table.columns) {
      if (!std::getline(cells, cell, ',')) cell.clear();
      row[name] = cell;
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

std::string text_csv(const TextTable& table) {
  std::string out;
  for (std::size_t k = 0; k < table.columns.size(); ++k)
    out += (k ? "," : "") + observables::csv_column(table.columns[k]);
  out += "\n";
  for (const auto& row : table.rows) {
    for (std::size_t k = 0; k < table.columns.size(); ++k) {
      const auto cell = row.find(table.columns[k]);
      out += (k ? "," : "") + (cell == row.end() ? std::string() : cell->second);
    }
    out += "\n";
  }
  return out;
}

std::string csv_number(double value) {
  if (!std::isfinite(value)) return "";
  char text[64];
  std::snprintf(text, sizeof text, "%.10g", value);
  return text;
}

std::string csv_text(std::string text) {
  for (char& ch : text)
    if (ch == ',' || ch == '\n' || ch == '\r' || ch == '"') ch = ' ';
  return text;
}

double csv_value(const TableRow& row, const std::string& column) {
  const auto cell = row.find(column);
  if (cell == row.end() || cell->second.empty()) return kNaN;
  char* end = nullptr;
  const double value = std::strtod(cell->second.c_str(), &end);
  return end != cell->second.c_str() && *end == '\0' ? value : kNaN;
}

bool csv_equals(const std::string& cell, double value) {
  char* end = nullptr;
  const double x = std::strtod(cell.c_str(), &end);
  return end != cell.c_str() && *end == '\0' &&
         std::abs(x - value) <= 1e-9 * std::max(1.0, std::abs(value));
}

std::string cell(const TableRow& row, const std::string& column) {
  const auto at = row.find(column);
  return at == row.end() ? std::string() : at->second;
}

EarlierRows resume_rows(const std::string& path, const cases::Case& c, const std::string& hash,
                        const std::string& first_column, bool resume,
                        const std::function<bool(const TableRow& row, bool finished)>& claim) {
  const TextTable previous = read_text_csv(path);
  EarlierRows earlier;
  if (!resume) {
    earlier.replaced = previous.rows.size();
    if (earlier.replaced > 0)
      earlier.note = "note: " + path + " exists; its " + std::to_string(earlier.replaced) + " row" +
                     (earlier.replaced == 1 ? "" : "s") +
                     " will be replaced (--resume keeps finished runs)\n";
    return earlier;
  }
  for (const TableRow& row : previous.rows) {
    const std::string name = cell(row, "case"), row_hash = cell(row, "case_hash");
    const std::string first = previous.columns.empty() ? "" : previous.columns.front();
    if (name != c.name || row_hash != hash || first != first_column)
      throw StudyInputError(path + " holds runs of another case description or table (case '" +
                            name + "', case_hash " + row_hash + ", first column " + first +
                            "; this one is '" + c.name + "', " + hash + ", " + first_column +
                            "); choose another -o DIR, or run without --resume to replace it");
    const std::string status = cell(row, "status");
    if (!claim(row, status == "completed" || status == "failed" || status == "incomplete"))
      earlier.kept.push_back(row);
  }
  return earlier;
}

}  // namespace rebound::studies
