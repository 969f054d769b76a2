#include "cases/lumped_models.h"

#include <stdexcept>

namespace rebound::cases {

const std::vector<LumpedModel>& lumped_models() {
  using N = NormalContact;
  static const std::vector<LumpedModel> models = {
      // Lai's coupled conservative model (Lai 1999; THEORY §5).
      {"lai", N::normal_spring, true},
      // Uncoupled normal and tangential springs (THEORY §6), adaptive and explicit Euler.
      {"uncoupled", N::normal_spring},
      {"uncoupled-euler", N::normal_spring},
      // The method of dimensionality reduction's bed of springs (Popov & Heß 2015; THEORY §9).
      {"mdr", N::elastic_body, false, false},
      // The quasi-static 3-D half-space contact (Kalker 1990; THEORY §10).
      {"halfspace", N::elastic_body},
      // Rigid-body restitution laws (THEORY §8): Newton's kinematic, Poisson's kinetic and
      // Stronge's energetic coefficients, Smith's, Brach's impulse ratio.
      {"newton", N::rigid_body_law},
      {"poisson", N::rigid_body_law},
      {"stronge", N::rigid_body_law},
      {"smith", N::rigid_body_law},
      {"brach", N::rigid_body_law}};
  return models;
}

const LumpedModel& lumped_model(const std::string& name) {
  for (const LumpedModel& model : lumped_models())
    if (name == model.name) return model;
  throw std::invalid_argument("unknown lumped model \"" + name + "\"");
}

const std::vector<std::string>& lumped_model_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const LumpedModel& model : lumped_models()) all.emplace_back(model.name);
    return all;
  }();
  return names;
}

bool is_option_of(const std::string& key, const std::string& model) {
  for (const ModelOption& option : kModelOptions)
    if (key == option.key && model == option.model) return true;
  return false;
}

}  // namespace rebound::cases
