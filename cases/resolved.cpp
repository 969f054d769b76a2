#include "cases/resolved.h"

#include <cstdint>
#include <cstdio>

#include "cases/normal_law_table.h"

namespace rebound::cases {

nlohmann::json resolved_json(const Case& c) {
  nlohmann::json j;
  j["name"] = c.name;
  if (!c.description.empty()) j["description"] = c.description;
  const Body& b = c.body;
  nlohmann::json body = {{"shape", to_string(b.shape)}, {"radius", b.radius}};
  if (b.shape == Shape::capsule) body["length"] = b.length;
  if (b.shape == Shape::disc || b.shape == Shape::shell || b.shape == Shape::hoop)
    body["thickness"] = b.thickness;
  if (b.shape == Shape::custom) {
    body["mass"] = b.mass;
    body["radius_of_gyration"] = b.radius_of_gyration;
    body["contact_offset"] = b.contact_offset;
  }
  j["body"] = body;
  j["material"] = {{"young_modulus", c.material.young_modulus},
                   {"poisson_ratio", c.material.poisson_ratio},
                   {"density", c.material.density}};
  if (c.material.yield_stress) j["material"]["yield_stress"] = *c.material.yield_stress;
  if (c.material.relaxation_strength)
    j["material"]["relaxation_strength"] = *c.material.relaxation_strength;
  if (c.material.relaxation_time) j["material"]["relaxation_time"] = *c.material.relaxation_time;
  if (c.material.model != MaterialModel::elastic)
    j["material"]["model"] = to_string(c.material.model);
  j["target"] = {{"type", to_string(c.target.type)}};
  if (c.target.socket() || c.target.moves()) j["target"]["radius"] = c.target.radius;
  if (c.target.socket() && !c.target.rigid()) j["target"]["outer_radius"] = c.target.outer_radius;
  if (c.target.type == TargetType::elastic_plate) {
    j["target"]["thickness"] = c.target.thickness;
    j["target"]["half_width"] = c.target.half_width;
    j["target"]["edge"] = to_string(c.target.edge);
  }
  if (!c.target.rigid()) {
    j["target"]["material"] = {{"young_modulus", c.target.young_modulus},
                               {"poisson_ratio", c.target.poisson_ratio}};
    if (c.target.density) j["target"]["material"]["density"] = *c.target.density;
  }
  j["contact"] = {{"friction", c.contact.friction}};
  j["impact"] = {{"theta", c.impact.theta},
                 {"normal_speed", c.impact.normal_speed},
                 {"tangential_speed", c.impact.tangential_speed},
                 {"spin", c.impact.spin}};
  const LumpedOptions& o = c.lumped;
  nlohmann::json lumped = {{"model", o.model},
                           {"normal_law", o.normal_law},
                           {"relative_tolerance", o.relative_tolerance},
                           {"euler_step", o.euler_step},
                           {"frames", o.frames}};
  if (o.lambda) lumped["lambda"] = *o.lambda;
  if (o.theta) lumped["theta"] = *o.theta;
  if (o.restitution) lumped["restitution"] = *o.restitution;
  if (const auto& table = o.restitution_table) {
    lumped["restitution"] = {{"flux_density", table->flux_density}, {"mean", table->mean}};
    if (!table->sigma.empty()) lumped["restitution"]["std"] = table->sigma;
    if (table->random()) lumped["seed"] = o.seed;
  }
  // Accepted only for a dissipative normal law of Lai's model that takes a restitution.
  if (lumped_model(o.model).calibrates_restitution && calibrated_normal_law(o))
    lumped["restitution_calibration"] = o.restitution_calibration;
  if (normal_law_entry(o.normal_law).polynomial_index)
    lumped["polynomial_index"] = o.polynomial_index;
  if (o.dissipative_constant) lumped["dissipative_constant"] = *o.dissipative_constant;
  if (o.impulse_ratio) lumped["impulse_ratio"] = *o.impulse_ratio;
  // Keys of one model only (the parser rejects them for another model).
  if (is_option_of("springs", o.model)) lumped["springs"] = o.springs;
  if (is_option_of("cells", o.model)) lumped["cells"] = o.cells;
  if (is_option_of("time_steps", o.model)) lumped["time_steps"] = o.time_steps;
  if (is_option_of("dundurs_coupling", o.model)) lumped["dundurs_coupling"] = o.dundurs_coupling;
  j["lumped"] = lumped;
  const FemOptions& f = c.fem;
  nlohmann::json fem = {{"degree", f.degree},
                        {"refinement", f.refinement},
                        {"contact_resolution", f.contact_resolution},
                        {"cfl", f.cfl},
                        {"frames", f.frames}};
  if (f.end_time) fem["end_time"] = *f.end_time;
  j["fem"] = fem;
  return j;
}

std::string text_hash(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a, 64 bits: offset basis, prime
  for (const unsigned char byte : text) {
    hash ^= byte;
    hash *= 1099511628211ull;
  }
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(hash));
  return out;
}

}  // namespace rebound::cases
