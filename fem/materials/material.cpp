#include "fem/materials/material.h"

#include "cases/case.h"

namespace rebound::fem::materials {

Material make_material(const cases::Case& c) {
  const LinearElastic elastic =
      LinearElastic::from_young_poisson(c.material.young_modulus, c.material.poisson_ratio);
  switch (c.material.model) {
    case cases::MaterialModel::elastic:
      return elastic;
    case cases::MaterialModel::elastic_plastic:
      // The parser requires material.yield_stress with material.model "elastic-plastic" ...
      return ElasticPlastic{elastic, c.material.yield_stress.value()};
    case cases::MaterialModel::viscoelastic:
      // ... and relaxation_strength, relaxation_time with "viscoelastic".
      return Viscoelastic::from(elastic, c.material.relaxation_strength.value(),
                                c.material.relaxation_time.value());
  }
  return elastic;
}

}  // namespace rebound::fem::materials
