// The half-space model's static F(delta) in SI (lumped::halfspace_static_contact, what
// rebound.halfspace_static and scripts/socket_study.py take): on a plane it is Hertz's to the
// grid's discretisation error, on a socket it approaches Hertz with R_eff = R1 R2 / dR as
// delta/dR -> 0 (the exact gap is the paraboloid there), and a grid too small or an approach
// beyond the ball raises instead of returning a number.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "cases/case.h"
#include "cases/derived.h"
#include "cases/socket.h"
#include "lumped/halfspace.h"
#include "lumped/normal_laws.h"

using namespace rebound;

namespace {

double hertz_force(const cases::Case& c, double approach) {
  const cases::Derived d = cases::derive(c);
  return 4.0 / 3.0 * d.contact_modulus * std::sqrt(d.hertz.radius) * std::pow(approach, 1.5);
}

cases::Case socket_case(double clearance) {
  cases::Case c = cases::load_case(REBOUND_SOURCE_DIR "/cases/socket-wang-gao-0.5mm.json");
  nlohmann::json document = c.raw;
  document["target"]["radius"] = 0.05 + clearance;
  return cases::parse_case(document, c.source);
}

lumped::HalfspaceStaticOptions with_cells(int cells) {
  lumped::HalfspaceStaticOptions options;
  options.cells = cells;
  return options;
}

// A sphere on a plane: the grid's paraboloid is Hertz's problem, so F and the contact radius are
// Hertz's but for the discretisation (uniform pressure on square cells). The error in F falls
// with the cells (measured: 20 -> 40 -> 80 cells across the contact diameter) and is below 1e-3
// at the default 40 cells; the contact radius, counted in whole cells, is Hertz's to about a cell
// (h/a = 2/cells). F scales exactly as delta^{3/2} (the grid is in Hertz's units of each delta).
TEST(HalfspaceStatic, PlaneIsHertzToTheGridError) {
  const cases::Case c = cases::load_case(REBOUND_SOURCE_DIR "/cases/hertz-steel-sphere.json");
  const cases::Derived d = cases::derive(c);
  double previous = 2;
  for (int cells : {20, 40, 80}) {
    const double delta = 1e-6;
    const lumped::HalfspaceStaticContact s =
        lumped::halfspace_static_contact(c, delta, with_cells(cells));
    const double error = std::abs(s.force / hertz_force(c, delta) - 1);
    const double hertz_radius = std::sqrt(d.hertz.radius * delta);
    std::printf("cells %3d: F/F_hertz - 1 = %+.3e, a/a_hertz = %.5f, %d iterations\n", cells,
                s.force / hertz_force(c, delta) - 1, s.contact_radius / hertz_radius, s.iterations);
    EXPECT_EQ(s.edge_pressure, 0.0);
    EXPECT_LT(error, 0.5 * previous);  // converges with the grid
    previous = error;
    if (cells >= 40) {
      EXPECT_LT(error, 3e-4);
    }
    EXPECT_NEAR(s.contact_radius / hertz_radius, 1.0, 2.0 / cells);  // about a cell
  }
  for (double delta : {1e-8, 1e-7, 1e-5}) {  // the same grid in Hertz's units at every delta
    const double ratio = lumped::halfspace_static_contact(c, delta).force / hertz_force(c, delta);
    const double at_micron = lumped::halfspace_static_contact(c, 1e-6).force / hertz_force(c, 1e-6);
    EXPECT_NEAR(ratio, at_micron, 1e-12);
  }
}

// A socket at delta << dR: the exact gap is the paraboloid r^2/(2 R_eff) plus r^4 (1/R2^3 -
// 1/R1^3)/8 + ..., i.e. A r^2 (1 + beta r^2/R2^2) with beta = (3/4)(1 + O(dR/R2)). Sneddon's
// axisymmetric solution for that profile (delta = a int_0^a h'/sqrt(a^2 - r^2), F = 2 E* int_0^a
// r^2 h'/sqrt(a^2 - r^2)) gives, at Hertz's approach, F/F_hertz = 1 - (2/5) beta s = 1 - 0.3 s to
// first order in s = (a_hertz/R2)^2, a_hertz = sqrt(R_eff delta). The grid is the same in Hertz's
// units at every delta, so its error is the plane's (above): F/F_hertz over the plane's grid ratio
// departs from 1 by 0.3 s, which vanishes as delta/dR -> 0 (the socket becomes Hertz with R_eff).
TEST(HalfspaceStatic, SocketApproachesHertzWithEffectiveRadius) {
  const cases::Case plane = cases::load_case(REBOUND_SOURCE_DIR "/cases/hertz-steel-sphere.json");
  const double grid =
      lumped::halfspace_static_contact(plane, 1e-6).force / hertz_force(plane, 1e-6);
  const cases::Case c = socket_case(0.5e-3);
  const cases::SocketGeometry g = cases::socket_geometry(c);
  for (double fraction : {1e-2, 1e-3, 1e-4, 1e-5}) {
    const double delta = fraction * g.clearance;
    const double ratio = lumped::halfspace_static_contact(c, delta).force / hertz_force(c, delta);
    const double s = cases::effective_radius(g) * delta / (g.ball_radius * g.ball_radius);
    const double departure = 1 - ratio / grid;
    std::printf(
        "delta/dR = %.0e: (a_hertz/R2)^2 = %.3e, F/F_hertz(R_eff) = %.7f, departure from the "
        "paraboloid %.4e = %.4f (a_hertz/R2)^2\n",
        fraction, s, ratio, departure, departure / s);
    // Next order: O(s) relative (s <= 0.01) and the grid's error of the perturbation (~1e-3 of
    // it, as of F): 5 % plus 1e-6 absolute.
    EXPECT_NEAR(departure, 0.3 * s, 0.05 * 0.3 * s + 1e-6);
    EXPECT_NEAR(ratio, 1.0, 1e-3 + 0.3 * s);  // Hertz with R_eff to the grid's error
  }
}

// Nothing is returned from a grid the contact outgrows, nor beyond the ball.
TEST(HalfspaceStatic, RaisesForGridTooSmallOrApproachBeyondTheBall) {
  const cases::Case c = socket_case(0.5e-3);
  lumped::HalfspaceStaticOptions tight;
  tight.domain = 0.9;  // narrower than Hertz's contact diameter, which bounds the exact gap's
  EXPECT_THROW(lumped::halfspace_static_contact(c, 1e-6, tight), std::runtime_error);
  EXPECT_THROW(lumped::halfspace_static_contact(c, 0.1), std::invalid_argument);  // 2 R2
  EXPECT_THROW(lumped::halfspace_static_contact(c, -1e-6), std::invalid_argument);
  EXPECT_THROW(lumped::halfspace_static_contact(c, NAN), std::invalid_argument);
  EXPECT_THROW(lumped::halfspace_static_contact(c, 1e-6, with_cells(1)), std::invalid_argument);
  EXPECT_EQ(lumped::halfspace_static_contact(c, 0.0).force, 0.0);
}

}  // namespace
