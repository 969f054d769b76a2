// Every lumped model and the half-space model on an elastic target (cases::Target): a target
// 1e6 times stiffer than the body reproduces the rigid plane, and identical materials have no
// Dundurs coupling and Hertz's normal impact of the pair's E*.
#include <gtest/gtest.h>

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

// Aluminium sphere (D = 0.1 m, E = 70 GPa, nu = 0.3, mu = 0.1) at 0.5 m/s; `lumped` options as
// each model needs them; the half-space grid coarser than its default (the comparison is of the
// same grid on both targets).
json sphere(double incidence_deg, const json& lumped, const json& target) {
  json d = {{"name", "sphere-target"},
            {"body", {{"shape", "sphere"}, {"radius", 0.05}}},
            {"material", {{"young_modulus", 7e10}, {"poisson_ratio", 0.3}, {"density", 2700}}},
            {"contact", {{"friction", 0.1}}},
            {"impact", {{"speed", 0.5}, {"incidence_angle_deg", incidence_deg}}},
            {"lumped", lumped},
            {"target", target}};
  return d;
}

json elastic(double E, double nu) {
  return {{"type", "elastic_halfspace"},
          {"material", {{"young_modulus", E}, {"poisson_ratio", nu}}}};
}

observables::ReboundQuantities solve(const json& document) {
  const cases::Case c = cases::parse_case(document, "target.json");
  const cases::Derived d = cases::derive(c);
  return lumped::rebound_quantities(c, d, lumped::solve(c, d, false));
}

}  // namespace

// E2 = 1e6 E1 (nu2 = 0.2) against the rigid plane, for every lumped model at a stick-dominated
// (5 degrees, Psi1 = 0.72) and a slip-dominated incidence (20 degrees, Psi1 = 3.0). The pair's
// E*, nu* and beta differ from the body's by O(1e-6) (tests/cases: ContactPair), and every
// result is a smooth function of them, so they agree to 1e-6 times a sensitivity of order one;
// the adaptive integrations (rtol 1e-8) choose steps that depend on the inputs. Tolerance 2e-5,
// relative for the dimensional quantities (duration, spin, impulse), absolute for the
// dimensionless ones; the largest difference measured is 1.1e-6 (printed per model).
TEST(ElasticTarget, StiffTargetReproducesTheRigidPlaneForEveryModel) {
  const json models[] = {
      {{"model", "lai"}},
      {{"model", "uncoupled"}},
      {{"model", "uncoupled-euler"}},
      {{"model", "mdr"}, {"springs", 100}},
      {{"model", "halfspace"}, {"cells", 12}, {"time_steps", 60}},
      {{"model", "halfspace"}, {"cells", 12}, {"time_steps", 60}, {"dundurs_coupling", false}},
      {{"model", "newton"}, {"restitution", 0.9}},
      {{"model", "poisson"}, {"restitution", 0.9}},
      {{"model", "stronge"}, {"restitution", 0.9}},
      {{"model", "smith"}, {"restitution", 0.9}},
      {{"model", "brach"}, {"restitution", 0.9}, {"impulse_ratio", 0.05}},
  };
  for (const json& lumped : models) {
    for (const double angle : {5.0, 20.0}) {
      SCOPED_TRACE(lumped.dump() + " at " + std::to_string(angle) + " degrees");
      const auto rigid = solve(sphere(angle, lumped, {{"type", "rigid_plane"}}));
      const auto stiff = solve(sphere(angle, lumped, elastic(7e16, 0.2)));
      rebound::test::Agreement agree{2e-5};
      agree.absolute(rigid.psi1, stiff.psi1, "psi1");
      agree.absolute(rigid.psi2, stiff.psi2, "psi2");
      agree.absolute(rigid.e_newton, stiff.e_newton, "e_newton");
      agree.absolute(rigid.tangential_cor, stiff.tangential_cor, "tangential_cor");
      agree.relative(rigid.spin_final, stiff.spin_final, "spin_final");
      agree.relative(rigid.normal_impulse, stiff.normal_impulse, "normal_impulse");
      agree.relative(rigid.tangential_impulse, stiff.tangential_impulse, "tangential_impulse");
      agree.relative(rigid.contact_duration, stiff.contact_duration, "contact_duration");
      std::printf("[stiff target] %-60s %4.0f deg: largest difference %.2e\n",
                  lumped.dump().c_str(), angle, agree.worst);
    }
  }
}

// Body = target (E = 70 GPa, nu = 0.3): beta = 0 exactly, so the coupled half-space model is its
// uncoupled run (the same beta = 0 enters both; 1e-12), and the normal impact is Hertz's of
// E* = E/(2(1-nu^2)) (hand formula: delta_max = (15 m v^2/(16 E* sqrt R))^(2/5),
// t_c = 2.943275 delta_max / v, F_max = (4/3) E* sqrt(R) delta_max^(3/2)) within 1 % for Lai's
// model, the MDR bed and the half-space model (their discretisations: < 2e-4 for the half-space
// at its defaults, docs/HALFSPACE.md; Lai's and the MDR's Hertz springs are exact up to rtol).
TEST(ElasticTarget, IdenticalMaterialsHaveNoCouplingAndHertzOfThePair) {
  const json same = elastic(7e10, 0.3);
  for (const double angle : {5.0, 20.0}) {
    SCOPED_TRACE(angle);
    const auto coupled = solve(sphere(angle, {{"model", "halfspace"}, {"cells", 16}}, same));
    const auto uncoupled = solve(
        sphere(angle, {{"model", "halfspace"}, {"cells", 16}, {"dundurs_coupling", false}}, same));
    const auto a = coupled.scalars(), b = uncoupled.scalars();
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
      if (std::isnan(a[k]) && std::isnan(b[k])) continue;
      EXPECT_NEAR(a[k], b[k], 1e-12 * std::max(1.0, std::abs(a[k]))) << k;
    }
  }

  const double E = 7e10, nu = 0.3, R = 0.05, rho = 2700, v = 0.5;
  const double m = rho * 4.0 / 3.0 * M_PI * R * R * R;
  const double contact_modulus = E / (2 * (1 - nu * nu));
  const double delta = std::pow(15 * m * v * v / (16 * contact_modulus * std::sqrt(R)), 0.4);
  const double duration = 2.943275 * delta / v;
  const double peak = 4.0 / 3.0 * contact_modulus * std::sqrt(R) * std::pow(delta, 1.5);
  const cases::Derived d =
      cases::derive(cases::parse_case(sphere(0, {{"model", "lai"}}, same), "same.json"));
  EXPECT_NEAR(d.hertz.duration / duration, 1, 1e-6);
  EXPECT_NEAR(d.hertz.peak_force / peak, 1, 1e-6);
  for (const json& lumped :
       {json{{"model", "lai"}}, json{{"model", "mdr"}}, json{{"model", "halfspace"}}}) {
    SCOPED_TRACE(lumped.dump());
    const auto r = solve(sphere(0, lumped, same));
    EXPECT_NEAR(r.contact_duration / duration, 1, 0.01);
    EXPECT_NEAR(r.peak_normal_force / peak, 1, 0.01);
    std::printf("[identical materials] %-22s t_c %.6e s (Hertz %.6e), F_max %.6e N (Hertz %.6e)\n",
                lumped.dump().c_str(), r.contact_duration, duration, r.peak_normal_force, peak);
  }
}
