// Maw's sphere, the configuration of Lai (1999), Figs. 5.4-5.14 and Table 6.1 (THEORY §5), and of
// the thesis Predicting Rebound of Planar Elastic Collisions, sec. 5.3.1: a solid sphere (lambda =
// 5/9, theta = 0), nu = 0.3 and mu = 0.5 unless given, at a given Psi1 = 2 (1 - nu) / (mu (2 - nu))
// tan(alpha). mu = 0 has no Psi1: normal incidence (alpha = 0). One copy for tests/lumped,
// tests/halfspace and bench/.
#pragma once

#include <cmath>

#include "cases/case.h"
#include "lumped/outcome.h"

namespace rebound::test {

inline lumped::Configuration maw_sphere(double psi1, double mu = 0.5, double nu = 0.3) {
  lumped::Configuration c;
  c.lambda = 5.0 / 9.0;
  c.theta = 0;
  c.friction = mu;
  c.poisson_ratio = nu;
  c.incidence_angle = mu > 0 ? std::atan(psi1 / cases::psi_scale(nu, mu)) : 0.0;
  return c;
}

}  // namespace rebound::test
