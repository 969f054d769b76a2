#include "observables/quantities.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "cases/case.h"
#include "observables/units.h"

namespace rebound::observables {

double rebound_psi(const Eigen::Vector2d& w, double poisson_ratio, double friction) {
  return friction > 0 ? cases::psi_scale(poisson_ratio, friction) * w.x() / w.y() : kNaN;
}

double rebound_angle(const Eigen::Vector2d& w) {
  return std::atan2(w.x(), w.y());
}

double newton_restitution(double separation_normal_velocity, double approach_normal_speed) {
  return separation_normal_velocity / approach_normal_speed;
}

double poisson_restitution(double normal_impulse, double compression_normal_impulse) {
  return compression_normal_impulse > 0
             ? (normal_impulse - compression_normal_impulse) / compression_normal_impulse
             : kNaN;
}

double stronge_restitution(double work_compression, double work_restitution) {
  return work_compression < 0 ? std::sqrt(std::max(0.0, work_restitution) / -work_compression)
                              : kNaN;
}

double tangential_restitution(double before, double after) {
  return before != 0 ? after / before : kNaN;
}

const std::vector<std::string>& summary_scalar_keys() {
  static const std::vector<std::string> keys = {"psi1",
                                                "psi2",
                                                "incidence_angle",
                                                "rebound_angle",
                                                "e_newton",
                                                "e_poisson",
                                                "e_stronge",
                                                "tangential_cor",
                                                "spin_final",
                                                "normal_impulse",
                                                "tangential_impulse",
                                                "contact_duration",
                                                "peak_normal_force",
                                                "kinetic_energy_loss",
                                                "kinetic_energy_loss_fraction",
                                                "lambda",
                                                "theta"};
  return keys;
}

namespace {

// The scalar fields in the order of summary_scalar_keys(): the one list both directions use.
template <class Quantities>
auto scalar_fields(Quantities& q) {
  return std::array{&q.psi1,
                    &q.psi2,
                    &q.incidence_angle,
                    &q.rebound_angle,
                    &q.e_newton,
                    &q.e_poisson,
                    &q.e_stronge,
                    &q.tangential_cor,
                    &q.spin_final,
                    &q.normal_impulse,
                    &q.tangential_impulse,
                    &q.contact_duration,
                    &q.peak_normal_force,
                    &q.kinetic_energy_loss,
                    &q.kinetic_energy_loss_fraction,
                    &q.lambda,
                    &q.theta};
}

}  // namespace

std::vector<double> ReboundQuantities::scalars() const {
  std::vector<double> values;
  for (const double* field : scalar_fields(*this)) values.push_back(*field);
  return values;
}

double ReboundQuantities::scalar(const std::string& key) const {
  const auto& keys = summary_scalar_keys();
  const auto at = std::find(keys.begin(), keys.end(), key);
  return at == keys.end() ? kNaN : scalars()[std::size_t(at - keys.begin())];
}

namespace {

nlohmann::json pair(const Eigen::Vector2d& v) {
  return {finite_or_null(v.x()), finite_or_null(v.y())};
}

Eigen::Vector2d vector(const nlohmann::json& j, const std::string& key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_array() || j[key].size() != 2)
    return Eigen::Vector2d::Constant(kNaN);
  const auto& a = j[key];
  return {a[0].is_number() ? a[0].get<double>() : kNaN,
          a[1].is_number() ? a[1].get<double>() : kNaN};
}

}  // namespace

const nlohmann::json& summary_units() {
  // From the one table of units (observables/units.h), which also names the CSV columns.
  static const nlohmann::json units = [] {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& key : summary_scalar_keys()) j[key] = unit_of(key);
    for (const char* key :
         {"center_velocity_initial", "center_velocity_final", "contact_point_velocity_initial",
          "contact_point_velocity_final", "spin_initial", "kinetic_energy_initial",
          "effective_mass", "energy_flux_density", "reduced_mass"})
      j[key] = unit_of(key);
    return j;
  }();
  return units;
}

namespace {

bool is_numbers(const nlohmann::json& value) {
  if (value.is_number()) return true;
  if (!value.is_array() || value.empty()) return false;
  for (const auto& element : value)
    if (!is_numbers(element)) return false;
  return true;
}

void collect_number_names(const nlohmann::json& value, const std::string& name,
                          std::vector<std::string>& names) {
  if (is_numbers(value)) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  } else if (value.is_object()) {
    for (const auto& [key, child] : value.items())
      collect_number_names(child, name.empty() ? key : name + "." + key, names);
  } else if (value.is_array()) {
    for (const auto& element : value)
      if (element.is_object()) collect_number_names(element, name, names);
  }
}

}  // namespace

std::vector<std::string> number_names(const nlohmann::json& summary) {
  std::vector<std::string> names;
  for (const auto& [key, value] : summary.items())
    if (key != "units" && key != "provenance") collect_number_names(value, key, names);
  return names;
}

void list_units(nlohmann::json& summary) {
  // Those of every number the summary holds (its details: a solver's scales, run statistics).
  const std::vector<std::string> names = number_names(summary);
  nlohmann::json& units = summary["units"];
  for (const std::string& name : names)
    if (!units.contains(name) && has_unit(name)) units[name] = unit_of(name);
  if (summary.value("stick_slip_phases_axis", "") == "normal_impulse")
    for (const char* name : {"stick_slip_phases.start", "stick_slip_phases.end"})
      if (units.contains(name)) units[name] = "N s";
}

nlohmann::json to_json(const Summary& s) {
  nlohmann::json j = s.details.is_object() ? s.details : nlohmann::json::object();
  j["case"] = s.case_name;
  j["solver"] = s.solver;
  j["status"] = s.status;
  if (!s.message.empty()) j["message"] = s.message;
  j["warnings"] = s.warnings;
  if (!s.provenance.is_null()) j["provenance"] = s.provenance;
  const auto& keys = summary_scalar_keys();
  const auto values = s.quantities.scalars();
  for (std::size_t i = 0; i < keys.size(); ++i) j[keys[i]] = finite_or_null(values[i]);
  const ReboundQuantities& q = s.quantities;
  j["center_velocity_initial"] = pair(q.center_velocity_initial);
  j["center_velocity_final"] = pair(q.center_velocity_final);
  j["spin_initial"] = finite_or_null(q.spin_initial);
  j["contact_point_velocity_initial"] = pair(q.contact_point_velocity_initial);
  j["contact_point_velocity_final"] = pair(q.contact_point_velocity_final);
  j["kinetic_energy_initial"] = finite_or_null(q.kinetic_energy_initial);
  if (std::isfinite(q.target_spin_final)) {  // a free target (a fixed one has no such keys)
    j["target_center_velocity_final"] = pair(q.target_center_velocity_final);
    j["target_spin_final"] = q.target_spin_final;
  }
  j["effective_mass"] = finite_or_null(s.effective_mass);
  j["energy_flux_density"] = finite_or_null(s.energy_flux_density);
  j["reduced_mass"] = finite_or_null(s.reduced_mass);
  j["units"] = summary_units();
  list_units(j);
  return j;
}

ReboundQuantities quantities_from_json(const nlohmann::json& j) {
  ReboundQuantities q;
  const auto fields = scalar_fields(q);
  const auto& keys = summary_scalar_keys();
  static_assert(std::tuple_size<decltype(fields)>::value == 17);
  for (std::size_t i = 0; i < keys.size(); ++i) *fields[i] = cases::number_or_nan(j, keys[i]);
  q.kinetic_energy_initial = cases::number_or_nan(j, "kinetic_energy_initial");
  q.spin_initial = cases::number_or_nan(j, "spin_initial");
  q.center_velocity_initial = vector(j, "center_velocity_initial");
  q.center_velocity_final = vector(j, "center_velocity_final");
  q.contact_point_velocity_initial = vector(j, "contact_point_velocity_initial");
  q.contact_point_velocity_final = vector(j, "contact_point_velocity_final");
  q.target_center_velocity_final = vector(j, "target_center_velocity_final");
  q.target_spin_final = cases::number_or_nan(j, "target_spin_final");
  return q;
}

}  // namespace rebound::observables
