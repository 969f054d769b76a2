#include "fem/materials/material.h"

#include "cases/case.h"

namespace rebound::fem::materials {

Material make_material(const cases::Case& c) {
  const LinearElastic elastic =
      LinearElastic::from_young_poisson(c.material.young_modulus, c.material.poisson_ratio);
  if (c.material.model == cases::MaterialModel::elastic) return elastic;
  // The parser requires material.yield_stress with material.model "elastic-plastic".
  return ElasticPlastic{elastic, c.material.yield_stress.value()};
}

}  // namespace rebound::fem::materials
