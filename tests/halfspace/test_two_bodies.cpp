// The half-space model (and every lumped model) on a free target sphere (target.type "sphere"):
// two-body Hertz (Hertz 1882; Johnson 1985, sec. 4.2 and ch. 11), the m2 -> infinity limit (the
// elastic half-space of the same material) and the equivalent single body on a rigid plane.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/solve.h"
#include "lumped/summary.h"
#include "observables/quantities.h"
#include "tests/common/agreement.h"

using namespace rebound;
using json = nlohmann::json;

namespace {

json steel(double density = 7850) {
  return {{"young_modulus", 210e9}, {"poisson_ratio", 0.3}, {"density", density}};
}

json steel_pair(const json& impact, double friction, const json& lumped, const json& target) {
  return {{"name", "two-spheres"},
          {"body", {{"shape", "sphere"}, {"radius", 0.005}}},
          {"material", steel()},
          {"target", target},
          {"contact", {{"friction", friction}}},
          {"impact", impact},
          {"lumped", lumped}};
}

json sphere_target(double radius, double density = 7850) {
  return {{"type", "sphere"}, {"radius", radius}, {"material", steel(density)}};
}

observables::ReboundQuantities solve(const json& document) {
  const cases::Case c = cases::parse_case(document, "two-spheres.json");
  const cases::Derived d = cases::derive(c);
  return lumped::rebound_quantities(c, d, lumped::solve(c, d, false));
}

}  // namespace

// Two identical steel spheres (R = 5 mm) head-on at 1 m/s in the half-space model at its defaults
// (24 cells, 100 steps per Hertz duration): two-body Hertz's duration and peak force, computed
// here from m* = m/2, R* = R/2, E* = E/(2(1 - nu^2)), within 5e-4 (the model's discretisation
// error on one sphere is 1.9e-4 and 2.1e-4 at these defaults, docs/HALFSPACE.md; measured here
// -1.9e-4 and -2.1e-4, printed); identical
// materials have beta = 0, so the coupled and uncoupled runs are one (1e-12); the velocities
// exchange to the model's energy error (1e-3).
TEST(TwoSpheres, HalfspaceModelGivesTwoBodyHertz) {
  const json impact = {{"normal_speed", 1.0}, {"tangential_speed", 0.0}};
  const auto q = solve(steel_pair(impact, 0.1, {{"model", "halfspace"}}, sphere_target(0.005)));
  const double v = 1.0, R = 0.005, m = 7850 * 4.0 / 3.0 * M_PI * R * R * R;
  const double m_star = m / 2, R_star = R / 2, E_star = 210e9 / (2 * (1 - 0.09));
  const double delta = std::pow(15 * m_star * v * v / (16 * E_star * std::sqrt(R_star)), 0.4);
  const double duration = cases::hertz_duration_constant() * delta / v;
  const double peak = 4.0 / 3.0 * E_star * std::sqrt(R_star) * std::pow(delta, 1.5);
  std::printf("[two spheres, halfspace] t_c %.6e s (Hertz %.6e), F_max %.6e N (Hertz %.6e)\n",
              q.contact_duration, duration, q.peak_normal_force, peak);
  EXPECT_NEAR(q.contact_duration / duration, 1, 5e-4);
  EXPECT_NEAR(q.peak_normal_force / peak, 1, 5e-4);
  EXPECT_NEAR(q.center_velocity_final.y(), 0, 1e-3 * v);
  EXPECT_NEAR(q.target_center_velocity_final.y(), -v, 1e-3 * v);
  const auto uncoupled = solve(steel_pair(
      impact, 0.1, {{"model", "halfspace"}, {"dundurs_coupling", false}}, sphere_target(0.005)));
  EXPECT_NEAR(uncoupled.contact_duration / q.contact_duration, 1, 1e-12);
}

// A target sphere of R2 = 1e7 R1 (50 km) and density 1e5 kg/m^3 against the elastic half-space
// of its material, in every lumped model at a stick-dominated (Psi1 = 0.8) and a slip-dominated
// incidence (Psi1 = 3): N2 / N1 = m1/m2 ~ 1e-23 and R* = R1 (1 - 1e-7), so the two agree to the
// 1e-7 change of R* times a sensitivity of order one (measured largest difference 2e-8, printed);
// tolerance 1e-6, relative for the dimensional quantities, absolute for the others. The target
// moves at m1/m2 of the body's speed.
TEST(TwoSpheres, HugeTargetSphereIsTheElasticHalfSpace) {
  const json models[] = {
      {{"model", "lai"}},
      {{"model", "uncoupled"}},
      {{"model", "uncoupled-euler"}},
      {{"model", "mdr"}, {"springs", 100}},
      {{"model", "halfspace"}, {"cells", 12}, {"time_steps", 60}},
      {{"model", "newton"}, {"restitution", 0.9}},
      {{"model", "stronge"}, {"restitution", 0.9}},
      {{"model", "brach"}, {"restitution", 0.9}, {"impulse_ratio", 0.05}},
  };
  const json halfspace = {{"type", "elastic_halfspace"},
                          {"material", {{"young_modulus", 210e9}, {"poisson_ratio", 0.3}}}};
  for (const json& lumped : models) {
    for (const double psi1 : {0.8, 3.0}) {
      SCOPED_TRACE(lumped.dump() + " at Psi1 = " + std::to_string(psi1));
      const json impact = {{"normal_speed", 1.0}, {"psi1", psi1}};
      const auto plane = solve(steel_pair(impact, 0.2, lumped, halfspace));
      const auto huge = solve(steel_pair(impact, 0.2, lumped, sphere_target(5e4, 1e5)));
      rebound::test::Agreement agree{1e-6};
      agree.absolute(plane.psi2, huge.psi2, "psi2");
      agree.absolute(plane.e_newton, huge.e_newton, "e_newton");
      agree.absolute(plane.tangential_cor, huge.tangential_cor, "tangential_cor");
      agree.absolute(plane.rebound_angle, huge.rebound_angle, "rebound_angle");
      agree.relative(plane.spin_final, huge.spin_final, "spin_final");
      agree.relative(plane.normal_impulse, huge.normal_impulse, "normal_impulse");
      agree.relative(plane.tangential_impulse, huge.tangential_impulse, "tangential_impulse");
      agree.relative(plane.contact_duration, huge.contact_duration, "contact_duration");
      agree.relative(plane.peak_normal_force, huge.peak_normal_force, "peak_normal_force");
      EXPECT_LT(huge.target_center_velocity_final.norm(), 1e-20);
      std::printf("[huge target sphere] %-60s Psi1 %.1f: largest difference %.2e\n",
                  lumped.dump().c_str(), psi1, agree.worst);
    }
  }
}

// The equivalent-body mapping in the half-space model: two identical steel spheres (Dundurs'
// beta = 0 for identical materials) and one sphere of m* = m/2, R* = R/2 (density 4 rho), Young's
// modulus E/2 on a rigid plane with beta = 0 (dundurs_coupling false; its own beta would be
// (1 - 2 nu)/(2 (1 - nu))) have the same Lai configuration and grid: Psi2, e and the duration
// agree to 1e-9 (the inputs agree to round-off; the contact solver's iterations carry it to a
// Psi2 difference of 1.2e-10, printed).
TEST(TwoSpheres, HalfspaceModelMapsOntoTheEquivalentBody) {
  const json impact = {{"normal_speed", 1.0}, {"psi1", 2.0}};
  const json lumped = {{"model", "halfspace"}, {"cells", 12}, {"time_steps", 60}};
  const auto two = solve(steel_pair(impact, 0.2, lumped, sphere_target(0.005)));
  json single = steel_pair(impact, 0.2, lumped, {{"type", "rigid_plane"}});
  single["body"]["radius"] = 0.0025;
  single["material"] = {{"young_modulus", 105e9}, {"poisson_ratio", 0.3}, {"density", 4 * 7850}};
  single["lumped"]["dundurs_coupling"] = false;
  const auto one = solve(single);
  std::printf("[equivalent body, halfspace] Psi2 two spheres %.12f, one sphere %.12f\n", two.psi2,
              one.psi2);
  EXPECT_NEAR(two.psi2, one.psi2, 1e-9);
  EXPECT_NEAR(two.e_newton, one.e_newton, 1e-9);
  EXPECT_NEAR(two.contact_duration / one.contact_duration, 1, 1e-9);
}
