#include "fem/materials/material.h"

#include "cases/case.h"

namespace rebound::fem::materials {

Material make_material(const cases::Case& c) {
  return LinearElastic::from_young_poisson(c.material.young_modulus, c.material.poisson_ratio);
}

}  // namespace rebound::fem::materials
