// A summary.json on screen: the rebound quantities every summary shares and the summaries of
// `rebound lumped` and `rebound fem` (also `rebound pair`), as text the command line prints.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace rebound::observables {

// A summary value for humans: the number in `pattern`, or "-" for null/missing.
std::string value_text(const nlohmann::json& value, const char* pattern = "%.6g");

// The rebound quantities every summary shares (lumped and FEM: angles, Psi, restitution
// coefficients, impulses, final centre velocity and spin, energy loss), one screen section.
std::string rebound_quantities_text(const nlohmann::json& summary);

// A lumped solve's summary (solver, planar inertia, the quantities, contact duration and peak
// force, stick/slip phases, notes) and where DIR's files went (rigid_body.pvd with `frames`).
std::string lumped_summary_text(const nlohmann::json& summary, const std::string& directory,
                                bool frames);

// An FEM run's summary (FE space, step, lambda and theta of case and mesh, the quantities, Hertz,
// energy balance, status) and where DIR's files went (solution.pvd when frames were written).
std::string fem_summary_text(const nlohmann::json& summary, const std::string& directory);

}  // namespace rebound::observables
