// The benchmark configuration: Maw's sphere (nu = 0.3, mu = 0.5, lambda = 5/9, theta = 0) at a
// given Psi1, the case of Lai (1999), Figs. 5.4-5.14.
#pragma once

#include <cmath>

#include "cases/case.h"
#include "lumped/outcome.h"

namespace rebound::bench {

inline lumped::Configuration maw_sphere(double psi1, double relative_tolerance = 1e-8) {
  lumped::Configuration c;
  c.lambda = 5.0 / 9.0;
  c.friction = 0.5;
  c.poisson_ratio = 0.3;
  c.incidence_angle = std::atan(psi1 / cases::psi_scale(0.3, 0.5));
  c.relative_tolerance = relative_tolerance;
  return c;
}

}  // namespace rebound::bench
