// The half-space model on the exact gap of a ball in a spherical socket (docs/THEORY.md §10;
// cases::socket_gap): the quasi-static force F(delta) against Hertz with R_eff = R1 R2 / dR, which
// it approaches for a loose socket (a/R2 small) and leaves for a conformal one, where it is
// printed beside Wang & Gao's law (2023, Actuators 12(2):89); and the impact of the shipped case.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "cases/case.h"
#include "cases/derived.h"
#include "cases/socket.h"
#include "halfspace/contact.h"
#include "lumped/solve.h"

using namespace rebound;

namespace {

constexpr double kR2 = 0.05;
// The length unit: Hertz's delta_max of the 1 kg ball at 0.3 m/s in the 0.5 mm socket
// (rebound check cases/socket-wang-gao-0.5mm.json), 7.733 um.
constexpr double kUnit = 7.733e-6;

// The normal force of the half-space at approach d (in kUnit; Hertz's (4/3) d^{3/2} in these
// units), frictionless, on the exact gap of the socket (or the paraboloid), on a grid of `cells`
// across Hertz's contact diameter at d = 1.
double halfspace_force(double clearance, double d, bool exact, int cells = 40) {
  const cases::SocketGeometry g =
      cases::scaled({kR2 + clearance, kR2, (kR2 + clearance) - kR2}, kUnit);
  const double spacing = 2.0 / cells;  // Hertz's contact radius at d = 1 is 1 (sqrt(R_eff kUnit))
  const int grid = 2 * int(0.8 * cells) + 1;  // +-1.6: Hertz's radius at d = 2 is 1.41
  halfspace::Contact contact(grid, spacing, 0.29, 0.0, 0.0);
  if (exact) {
    const double unit = std::sqrt(cases::effective_radius(g));
    contact.set_profile([g, unit](double r) { return cases::socket_gap(g, r * unit); });
  }
  contact.step(d, Eigen::Vector2d::Zero());
  EXPECT_EQ(contact.edge_pressure(), 0.0);
  return contact.normal_force();
}

// A loose socket (a/R2 small): the exact gap is the paraboloid and the model is Hertz's with
// R_eff; the departure falls with the clearance as (a/R2)^2.
TEST(SocketGap, LooseSocketIsHertzWithEffectiveRadius) {
  double previous = 1;
  for (double clearance : {0.5e-3, 5e-3, 50e-3}) {
    const double R = (kR2 + clearance) * kR2 / clearance, a = std::sqrt(R * kUnit);
    const double exact = halfspace_force(clearance, 1.0, true);
    const double paraboloid = halfspace_force(clearance, 1.0, false);
    const double departure = 1 - exact / paraboloid;
    std::printf(
        "dR = %5.1f mm: a/R2 = %.4f, F_exact/F_paraboloid = %.5f, F_paraboloid/Hertz = "
        "%.5f\n",
        clearance * 1e3, a / kR2, exact / paraboloid, paraboloid / (4.0 / 3.0));
    EXPECT_GT(departure, 0);  // the exact gap opens faster than the paraboloid
    EXPECT_LT(departure, 2 * (a / kR2) * (a / kR2));
    EXPECT_LT(departure, previous);
    previous = departure;
    EXPECT_NEAR(paraboloid / (4.0 / 3.0), 1.0, 3e-3);  // the grid's error
    if (clearance == 50e-3) {
      EXPECT_NEAR(exact / (4.0 / 3.0), 1.0, 3e-3);
    }
  }
}

// The conformal clearance of Wang & Gao's dynamic case (0.5 mm): F(delta) of the half-space on
// the exact gap beside Hertz (R_eff) and Wang & Gao's law (n = 2), printed (docs/THEORY.md §10
// quotes it).
TEST(SocketGap, ConformalClearanceForceReported) {
  const double clearance = 0.5e-3;
  const cases::SocketGeometry g = {kR2 + clearance, kR2, (kR2 + clearance) - kR2};
  std::printf(
      "dR = 0.5 mm, R_eff = %.4g m: delta um | a_Hertz/R2 | F_halfspace(exact gap)/F_Hertz "
      "| F_wang-gao(n=2)/F_Hertz\n",
      cases::effective_radius(g));
  for (double d : {0.25, 0.5, 1.0, 2.0}) {
    const double ratio = halfspace_force(clearance, d, true) / (4.0 / 3.0 * std::pow(d, 1.5));
    const double delta = d * kUnit;
    const double wang_gao = cases::socket_force(cases::SocketLaw::wang_gao, 1.0, g, 2, delta) /
                            cases::socket_force(cases::SocketLaw::hertz, 1.0, g, 2, delta);
    std::printf("  %6.3f | %.4f | %.5f | %.5f\n", delta * 1e6,
                cases::socket_contact_radius(cases::SocketLaw::hertz, g, delta) / kR2, ratio,
                wang_gao);
    EXPECT_LT(ratio, 1.0 + 3e-3);  // not stiffer than Hertz beyond the grid's error
    EXPECT_GT(ratio, 0.95);
    EXPECT_GT(wang_gao, 1.6);  // Wang & Gao's overlap radius: ~sqrt(2) Hertz's
  }
}

// The impact of cases/socket-wang-gao-0.5mm.json by the half-space model (elastic, on the exact
// gap): it restitutes e = 1 and its peak force is below Hertz's.
TEST(SocketGap, ImpactOnTheExactGap) {
  cases::Case c = cases::load_case(REBOUND_SOURCE_DIR "/cases/socket-wang-gao-0.5mm.json");
  c.lumped = {};
  c.lumped.model = "halfspace";
  c.lumped.cells = 16;
  c.lumped.time_steps = 60;
  const cases::Derived d = cases::derive(c);
  const lumped::Outcome o = lumped::solve(c, d, false);
  const double peak = o.peak_normal_force * d.force_scale;
  std::printf(
      "halfspace on the exact gap: e_N = %.5f, F_max = %.5g N (Hertz %.5g N), t_c = %.4g s "
      "(Hertz %.4g s)\n",
      o.separation_velocity.y(), peak, d.hertz.peak_force, o.duration * d.time_scale,
      d.hertz.duration);
  EXPECT_NEAR(o.separation_velocity.y(), 1.0, 1e-3);
  EXPECT_LT(peak, d.hertz.peak_force * 1.002);
  EXPECT_GT(peak, d.hertz.peak_force * 0.95);
}

}  // namespace
