// The lumped models as a case file names and configures them: one entry per value of
// lumped.model with what reading, writing back and warning about a case need to know of it (its
// normal contact, its own keys). Each model's solver is registered under the same name in
// lumped/models.h (cases/ is below lumped/ and cannot see it); the two lists are checked to agree
// (lumped::lumped_solvers(), test LumpedModels.EveryCaseModelHasASolver). Adding a model: an entry
// here, one there, and the model's files (docs/ARCHITECTURE.md, "How to add a lumped model").
#pragma once

#include <string>
#include <vector>

namespace rebound::cases {

// How a model treats the normal contact of the body with the target.
enum class NormalContact {
  // A normal spring whose law is lumped.normal_law: Hertz's (elastic) or one of the dissipative
  // laws of docs/THEORY.md §7 with a prescribed lumped.restitution (lai, uncoupled).
  normal_spring,
  // The body's own elastic contact, Hertz's only (the MDR bed of springs, THEORY §9; the
  // half-space, THEORY §10).
  elastic_body,
  // No compliance and no contact time: a rigid-body restitution law (THEORY §8), which needs a
  // prescribed lumped.restitution.
  rigid_body_law,
};

struct LumpedModel {
  const char* name;  // the value of lumped.model
  NormalContact normal_contact;
  // lumped.restitution_calibration applies (with a dissipative normal_law): how the law takes
  // its damping from the prescribed restitution (lai only).
  bool calibrates_restitution = false;
  // The model takes the ball in a spherical socket (target.type "spherical_socket").
  bool takes_socket = true;
};

// Every model, in the order the help texts and sweeps list them.
const std::vector<LumpedModel>& lumped_models();
// The model named `name`; throws std::invalid_argument for a name not in lumped_models().
const LumpedModel& lumped_model(const std::string& name);
// The values of lumped.model (lumped_models()' names, same order).
const std::vector<std::string>& lumped_model_names();

// True for a model with a contact that lasts a time (a spring, a bed, a half-space): every
// NormalContact but rigid_body_law.
inline bool compliant(const LumpedModel& model) {
  return model.normal_contact != NormalContact::rigid_body_law;
}

// Keys of "lumped" that are options of one model only (given for another model they would be
// silently ignored, so the parser refuses them there). `required`, when set, says what the model
// needs the key for, and a case of that model without it is refused.
struct ModelOption {
  const char* key;
  const char* model;
  const char* required = nullptr;
};
inline constexpr ModelOption kModelOptions[] = {
    {"springs", "mdr"},
    {"cells", "halfspace"},
    {"time_steps", "halfspace"},
    {"dundurs_coupling", "halfspace"},
    {"impulse_ratio", "brach", "the ratio of tangential to normal impulse (>= 0)"}};

// True when `key` is an option of `model` in kModelOptions.
bool is_option_of(const std::string& key, const std::string& model);

}  // namespace rebound::cases
