#include "observables/units.h"

#include <map>
#include <stdexcept>

namespace rebound::observables {

const std::vector<std::pair<std::string, std::string>>& unit_table() {
  static const std::vector<std::pair<std::string, std::string>> table = {
      // The rebound quantities of every summary (summary_scalar_keys(), in order) ...
      {"psi1", "1"},
      {"psi2", "1"},
      {"incidence_angle", "rad"},
      {"rebound_angle", "rad"},
      {"e_newton", "1"},
      {"e_poisson", "1"},
      {"e_stronge", "1"},
      {"tangential_cor", "1"},
      {"spin_final", "rad/s"},
      {"normal_impulse", "N s"},
      {"tangential_impulse", "N s"},
      {"contact_duration", "s"},
      {"peak_normal_force", "N"},
      {"kinetic_energy_loss", "J"},
      {"kinetic_energy_loss_fraction", "1"},
      {"lambda", "1"},
      {"theta", "rad"},
      // ... and the rest of its rigid-body state.
      {"center_velocity_initial", "m/s"},
      {"center_velocity_final", "m/s"},
      {"contact_point_velocity_initial", "m/s"},
      {"contact_point_velocity_final", "m/s"},
      {"spin_initial", "rad/s"},
      {"kinetic_energy_initial", "J"},
      {"effective_mass", "kg"},
      {"energy_flux_density", "J/m^3"},
      {"reduced_mass", "kg"},
      // A free target (target.type "sphere"): its state after the impact.
      {"target_center_velocity_final", "m/s"},
      {"target_spin_final", "rad/s"},
      {"target_center_velocity_final_t", "m/s"},  // sweep.csv (lumped::kFreeTargetColumns)
      {"target_center_velocity_final_n", "m/s"},
      // A restitution table's value at an impact (summary.json's restitution_draw, sweep.csv).
      {"restitution_mean", "1"},
      {"restitution_std", "1"},
      {"restitution", "1"},
      {"sweep_sample", "1"},
      // sweep.csv: the swept value, the phases and the error of each point.
      {"sweep_psi1", "1"},
      {"sweep_incidence_angle", "rad"},
      {"sweep_friction", "1"},
      {"phases", ""},
      {"error", ""},
      // history.csv, every solver (observables::ContactPointSample).
      {"time", "s"},
      {"normal_force", "N"},
      {"tangential_force", "N"},
      {"normal_velocity", "m/s"},
      {"tangential_velocity", "m/s"},
      {"normal_displacement", "m"},
      {"tangential_displacement", "m"},
      {"kinetic_energy", "J"},
      // history.csv of the lumped models (lumped::history_table): SI, then Lai's
      // non-dimensional variables (gamma, delta, epsilon, tau).
      {"tangential_spring_extension", "m"},
      {"mode", ""},
      {"dissipation", "J"},
      {"gamma_t", "1"},
      {"gamma_n", "1"},
      {"delta_t", "1"},
      {"delta_n", "1"},
      {"epsilon", "1"},
      {"tau", "1"},
      {"center_velocity_t", "m/s"},
      {"center_velocity_n", "m/s"},
      {"spin", "rad/s"},
      {"stick_fraction", "1"},
      {"target_center_velocity_t", "m/s"},
      {"target_center_velocity_n", "m/s"},
      {"target_spin", "rad/s"},
      // history.csv of the FEM (fem::history_table).
      {"internal_energy", "J"},
      {"rigid_kinetic_energy", "J"},
      {"vibration_kinetic_energy", "J"},
      {"frictional_dissipation", "J"},
      {"total_energy", "J"},
      {"contact_nodes", "1"},
      {"contact_area", "m^2"},
      {"contact_node_velocity_t", "m/s"},
      {"contact_node_velocity_n", "m/s"},
      {"normal_force_smoothed", "N"},
      {"binormal_impulse", "N s"},
      {"lowest_boundary_height", "m"},
      {"normal_contact_loss", "J"},
      {"plastic_dissipation", "J"},
      {"viscous_dissipation", "J"},
      {"material_model", ""},
      // sweep_fem.csv and refinement.csv: the FEM runs' statistics and bookkeeping.
      {"status", ""},
      {"message", ""},
      {"level", "1"},
      {"refinement", "1"},
      {"contact_resolution", "1"},
      {"degree", "1"},
      {"mpi_ranks", "1"},
      {"dofs", "1"},
      {"cells", "1"},
      {"steps", "1"},
      {"h_contact", "m"},
      {"h_max", "m"},
      {"time_step", "s"},
      {"wall_time", "s"},
      {"energy_balance_error", "1"},
      {"case", ""},
      {"case_hash", ""},
      {"directory", ""},
      // summary.json's other numbers (to_json(Summary) lists each it holds under "units").
      // Lumped: Lai's length scale and the calibration of a dissipative normal law.
      {"eta", "m"},
      {"normal_law_damping", "1"},
      {"hysteresis_damping_factor", "s/m"},
      {"normal_impact_restitution", "1"},
      {"yield_velocity", "m/s"},
      {"viscoelastic_v_star", "1"},
      {"prescribed_restitution", "1"},
      {"achieved_restitution", "1"},
      // FEM: the run's space, step, end and energies.
      {"cfl", "1"},
      {"constrained_dofs", "1"},
      {"extra_levels", "1"},
      {"simd_lanes", "1"},
      {"end_time", "s"},
      {"loop_wall_time", "s"},
      {"dof_steps_per_second", "1/s"},
      {"lambda_max", "1/s^2"},
      {"lambda_mesh", "1"},
      {"theta_mesh", "rad"},
      {"total_mass_exact", "kg"},
      {"total_mass_lumped", "kg"},
      {"internal_energy_final", "J"},
      {"vibration_kinetic_energy_final", "J"},
      {"target_internal_energy_final", "J"},
      {"target_vibration_kinetic_energy_final", "J"},
      {"target_kinetic_energy_final", "J"},
      {"block_size", "m"},
      {"peak_normal_force_raw", "N"},
      // summary.json's numbers inside objects, by dotted path (observables::number_names).
      // Lumped: the phases (in N s for the rigid-body laws, whose axis is the normal impulse) and
      // Lai's non-dimensional results.
      {"stick_slip_phases.start", "s"},
      {"stick_slip_phases.end", "s"},
      {"non_dimensional.gamma_t", "1"},
      {"non_dimensional.gamma_n", "1"},
      {"non_dimensional.tau_end", "1"},
      {"non_dimensional.separation_velocity", "1"},
      // A restitution table's value at the impact (Michalczyk 2008, sec. 3-4).
      {"restitution_draw.flux_density", "J/m^3"},
      {"restitution_draw.mean", "1"},
      {"restitution_draw.std", "1"},
      {"restitution_draw.value", "1"},
      {"restitution_draw.seed", "1"},
      {"restitution_draw.impact", "1"},
      // FEM: Hertz's reference, the FE body's mass properties, the mesh (meshes::MeshStatistics)
      // and the local time stepping's levels.
      {"hertz.duration", "s"},
      {"hertz.peak_force", "N"},
      {"hertz.contact_radius", "m"},
      {"mesh_mass_properties.volume", "m^3"},
      {"mesh_mass_properties.mass", "kg"},
      {"mesh_mass_properties.radius_of_gyration", "m"},
      {"mesh_mass_properties.contact_offset", "m"},
      {"mesh_mass_properties.contact_radius", "m"},
      {"mesh_mass_properties.centre_of_mass", "m"},
      {"mesh_mass_properties.inertia_central", "kg m^2"},
      {"mesh_mass_properties.body_axis", "1"},
      {"mesh.cells", "1"},
      {"mesh.vertices", "1"},
      {"mesh.coarse_cells", "1"},
      {"mesh.global_levels", "1"},
      {"mesh.extra_levels", "1"},
      {"mesh.max_level", "1"},
      {"mesh.dofs_q1", "1"},
      {"mesh.dofs_q2", "1"},
      {"mesh.mapping_degree", "1"},
      {"mesh.volume", "m^3"},
      {"mesh.volume_exact", "m^3"},
      {"mesh.mass", "kg"},
      {"mesh.mass_exact", "kg"},
      {"mesh.centroid", "m"},
      {"mesh.centroid_exact", "m"},
      {"mesh.inertia_central", "kg m^2"},
      {"mesh.inertia_central_exact", "kg m^2"},
      {"mesh.lambda", "1"},
      {"mesh.theta", "rad"},
      {"mesh.lambda_exact", "1"},
      {"mesh.theta_exact", "rad"},
      {"mesh.contact_offset", "m"},
      {"mesh.contact_offset_exact", "m"},
      {"mesh.radius_of_gyration", "m"},
      {"mesh.radius_of_gyration_exact", "m"},
      {"mesh.h_min", "m"},
      {"mesh.h_max", "m"},
      {"mesh.h_contact", "m"},
      {"mesh.h_contact_target", "m"},
      {"mesh.edge_min", "m"},
      {"mesh.a_max", "m"},
      {"mesh.contact_resolution", "1"},
      {"mesh.contact_vertex_shift", "m"},
      {"mesh.lowest_vertex", "m"},
      {"mesh.min_jacobian_ratio", "1"},
      {"mesh.min_jacobian_ratio_contact", "1"},
      {"mesh.min_jacobian", "m^3"},
      {"mesh.wave_speed", "m/s"},
      {"mesh.contact_duration", "s"},
      {"mesh.cfl", "1"},
      {"mesh.stable_time_step_estimate.p1", "s"},
      {"mesh.stable_time_step_estimate.p2", "s"},
      {"mesh.steps_for_contact.p1", "1"},
      {"mesh.steps_for_contact.p2", "1"},
      {"mesh.time_step_levels", "1"},
      {"mesh.ranks", "1"},
      {"mesh.seconds", "s"},
  };
  return table;
}

namespace {

const std::map<std::string, std::string>& units_by_name() {
  static const std::map<std::string, std::string> map = [] {
    std::map<std::string, std::string> m;
    for (const auto& [name, unit] : unit_table()) {
      if (!m.emplace(name, unit).second)
        throw std::logic_error("observables/units.cpp: '" + name + "' is listed twice");
    }
    return m;
  }();
  return map;
}

// CSV header -> plain name, for the names whose header differs from the name.
const std::map<std::string, std::string>& names_by_header() {
  static const std::map<std::string, std::string> map = [] {
    std::map<std::string, std::string> m;
    for (const auto& [name, unit] : unit_table())
      if (!unit_suffix(unit).empty()) m.emplace(name + "_" + unit_suffix(unit), name);
    return m;
  }();
  return map;
}

}  // namespace

const std::string& unit_of(const std::string& name) {
  const auto& map = units_by_name();
  const auto at = map.find(name);
  if (at == map.end())
    throw std::logic_error("no unit for the output column '" + name +
                           "': add it to observables/units.cpp (\"1\" if dimensionless, \"\" for "
                           "text)");
  return at->second;
}

bool has_unit(const std::string& name) {
  return units_by_name().count(name) != 0;
}

std::string unit_suffix(const std::string& unit) {
  if (unit == "1") return "";
  std::string out;
  for (const char ch : unit) {
    if (ch == ' ')
      out += '_';
    else if (ch == '/')
      out += "_per_";
    else if (ch != '^')
      out += ch;
  }
  return out;
}

std::string csv_column(const std::string& name) {
  const std::string suffix = unit_suffix(unit_of(name));
  return suffix.empty() ? name : name + "_" + suffix;
}

std::string plain_column(const std::string& header) {
  const auto& map = names_by_header();
  const auto at = map.find(header);
  return at == map.end() ? header : at->second;
}

}  // namespace rebound::observables
