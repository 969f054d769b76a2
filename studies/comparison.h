// Side-by-side comparison of two solutions of the same case (lumped vs FEM, or two lumped runs
// on different bodies): the rebound quantities and the histories on one normalised time axis.
// Works on the typed results in memory (observables::Summary, observables::History).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "observables/history.h"
#include "observables/quantities.h"

namespace rebound::studies {

// One solution of a comparison: its label ("lumped", "fem", "exact", "mesh"), summary, history.
struct Solution {
  std::string name;
  const observables::Summary& summary;
  const observables::History& history;
};

// The history columns both solvers write and that are compared.
const std::vector<std::string>& compared_history_columns();

// comparison.json: "first", "second"; "summary": for every rebound quantity, the effective mass
// and every numeric detail both summaries carry, {first, second, difference (second - first),
// relative_difference (difference / |first|, null if first is 0)} (vectors: both and the
// difference); "histories": both resampled on t / contact_duration in [0, 1] (`samples` points)
// with the L2 (root-mean-square) and max differences of each compared column.
nlohmann::json compare(const Solution& first, const Solution& second, int samples = 201);

// report.md: the ten-second table (Psi1, Psi2, e, tangential COR, spin, impulses, duration, peak
// force, energy loss) from a comparison.
std::string report_markdown(const nlohmann::json& comparison, const std::string& title);

}  // namespace rebound::studies
