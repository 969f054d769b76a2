// Side-by-side comparison of two solutions of the same case (lumped vs FEM, or two lumped
// models): the shared summary keys and the histories on one normalized time axis.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rebound::app {

// A CSV table with a header row; numeric columns only are kept (others read as NaN).
struct Table {
  std::vector<std::string> columns;
  std::map<std::string, std::vector<double>> values;
  std::size_t rows() const { return values.empty() ? 0 : values.begin()->second.size(); }
};
Table read_csv(const std::string& path);

// The history columns both solvers write and that are compared.
const std::vector<std::string>& compared_history_columns();

// comparison.json: for every numeric summary key present in both, {first, second, difference
// (second - first), relative_difference (difference / |first|, null if first is 0)}; for the
// histories, both resampled on t / contact_duration in [0, 1] (`samples` points) with the L2
// (root-mean-square) and max differences of each compared column. `first_name`/`second_name`
// label the two (e.g. "lumped", "fem").
nlohmann::json compare(const std::string& first_name, const nlohmann::json& first_summary,
                       const Table& first_history, const std::string& second_name,
                       const nlohmann::json& second_summary, const Table& second_history,
                       int samples = 201);

// report.md: the ten-second table (Psi1, Psi2, e, tangential COR, spin, impulses, duration, peak
// force, energy loss) from a comparison.
std::string report_markdown(const nlohmann::json& comparison, const std::string& title);

}  // namespace rebound::app
