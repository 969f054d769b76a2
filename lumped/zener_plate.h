// Zener's (1941) normal impact of an elastic sphere on a large elastic plate: Hertz's local contact
// in series with the plate's flexure, the plate standing for an infinite Kirchhoff plate, whose
// surface under a point force F moves at
//     w' = F / (8 sqrt(D rho h)),   D = E h^3 / (12 (1 - nu^2))
// (the point admittance of the infinite plate: real, so the plate radiates the work F w' away as
// flexural waves and never returns it). With the indentation alpha = u - w (u the ball's approach)
// and F = k alpha^(3/2), k = (4/3) E* sqrt(R*), on Hertz's rigid-plane scales alpha_0 =
// (5 m v^2 / (4 k))^(2/5) and alpha_0 / v:
//     U' = -(5/4) a^(3/2),   a' = U - Lambda a^(3/2),   a(0) = 0, U(0) = 1,
//     Lambda = k alpha_0^(3/2) / (8 sqrt(D rho h) v),
// one parameter, the plate's share of the compliance: Lambda = 0 is Hertz's impact (e = 1), and e
// falls as Lambda grows. The energy carried into the plate is 1 - e^2 = (5/2) Lambda integral of
// a^3 dtau, and for Lambda -> 0, 1 - e^2 -> 2 B(8/5, 1/2) Lambda = 3.0268 Lambda (the Hertz
// pulse's integral). For a sphere and a plate of one material Lambda = 0.994 (R/h)^2 (v/c_0)^(1/5)
// (1 - nu^2)^(1/10), c_0 = sqrt(E/rho): the powers of Zener's inelasticity parameter (its
// constant factor not checked against his paper).
//
// No lumped model of the product takes an elastic plate target (cases::require_lumped_target):
// this one is the normal impact only, frictionless, for the FEM's plate to be checked against
// (docs/FEM.md "An elastic plate").
#pragma once

#include "cases/case.h"

namespace rebound::lumped {

struct ZenerPlateImpact {
  double inelasticity = 0;  // Lambda
  double restitution = 0;   // e = -U at separation
  double duration = 0;      // contact duration / (alpha_0 / v)
  double peak_force = 0;    // largest F / (k alpha_0^(3/2)) = largest a^(3/2)
  double plate_energy = 0;  // (5/2) Lambda integral of a^3 dtau: the share of m v^2 / 2 the plate
                            // carried away
};

// The impact at inelasticity Lambda >= 0 (throws std::invalid_argument otherwise, or
// std::runtime_error when the contact does not end within 1000 Hertz-scale times).
ZenerPlateImpact zener_plate_impact(double inelasticity, double relative_tolerance = 1e-10);

// Lambda of a case whose target is an elastic plate (target.type "elastic_plate"; throws
// std::invalid_argument otherwise): k, alpha_0, m and v from cases::derive's Hertz scales of the
// pair, D, rho and h the plate's.
double zener_inelasticity(const cases::Case& c);

}  // namespace rebound::lumped
