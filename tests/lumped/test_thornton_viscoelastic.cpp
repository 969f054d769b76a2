// The normal laws with a material constant of their own (docs/THEORY.md §7): Thornton's
// elastic-perfectly-plastic sphere (Thornton 1997, J. Appl. Mech. 64:383) and the viscoelastic
// sphere of Brilliantov, Spahn, Hertzsch & Poeschel (1996, Phys. Rev. E 53:5382). Their
// restitution against the published closed forms, written out here: in the 1-DOF normal impact,
// in Lai's model head-on and oblique, and from a case in SI units.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/lai.h"
#include "lumped/normal_laws.h"
#include "lumped/solve.h"
#include "lumped/summary.h"

using namespace rebound::lumped;

namespace {

// Thornton 1997's coefficient of restitution of the sphere on a plane, r = V_y / V <= 1:
// e = (6 sqrt(3) / 5)^{1/2} [1 - r^2 / 6]^{1/2} {r / [r + 2 sqrt(6/5 - r^2 / 5)]}^{1/4}.
double thornton_closed_form(double r) {
  return std::sqrt(6 * std::sqrt(3.0) / 5) * std::sqrt(1 - r * r / 6) *
         std::pow(r / (r + 2 * std::sqrt(6.0 / 5 - r * r / 5)), 0.25);
}

// The same e from the energy balance of the law as implemented (u = delta_max / delta_y,
// f = F_max / F_y): the work to delta_max is F_y delta_y [2/5 + (u - 1) + (3/4)(u - 1)^2] and
// (1/2) m V_y^2 = (2/5) F_y delta_y, so (V / V_y)^2 = 1 + (5/2)[(u - 1) + (3/4)(u - 1)^2];
// f = 1 + (3/2)(u - 1); unloading returns (2/5) F_max (delta_max - delta_f) with delta_max -
// delta_f = 3 F_max / (4 E* a_p), (a_p / a_y)^2 = (2 f + 1) / 3, so e^2 = f^2 r^2 (3 / (2 f +
// 1))^{1/2}. An independent route to the closed form: both must agree to round-off.
double thornton_energy_balance(double r) {
  const double w = 1 / (r * r), a = 1.875, b = 2.5, c = 1 - w;
  const double du = (-b + std::sqrt(b * b - 4 * a * c)) / (2 * a);
  const double f = 1 + 1.5 * du;
  return std::sqrt(f * f * r * r * std::sqrt(3 / (2 * f + 1)));
}

// x_y of a normal impact x'' = -n F, x'(0) = c at V / V_y = k: at V_y the Hertz energy stored at
// x_y, n (8/15) x_y^{5/2}, is the kinetic c_y^2 / 2, so x_y = (15 c^2 / (16 n k^2))^{2/5}.
double yield_compression_at(double k, double n = 1, double c = 1) {
  return std::pow(15.0 / 16.0 * c * c / (n * k * k), 0.4);
}

// Mueller & Poeschel 2011 (Phys. Rev. E 84:021302), the [3/6] Pade approximant of the
// viscoelastic sphere's e in v* = beta^{1/2} v^{1/10}, beta = (3/2) A (rho / m)^{2/5}, rho =
// (4/3) E* sqrt(R), v the normal impact speed (Schwager & Poeschel 2008, Phys. Rev. E 78:051304,
// give the series e = 1 - 1.153449 v*^2 + ... it approximates).
double pade_3_6(double v) {
  const double a[] = {1.0, 1.07232, 0.574198, 0.141552};
  const double b[] = {1.0, 1.07232, 1.72765, 1.37842, 1.19449, 0.467273, 0.235585};
  double numerator = 0, denominator = 0;
  for (int i = 3; i >= 0; --i) numerator = numerator * v + a[i];
  for (int i = 6; i >= 0; --i) denominator = denominator * v + b[i];
  return numerator / denominator;
}

// A in Lai's units for v*: in Lai's units rho / m = (4/3) v^2 / eta^{5/2}, and the normal impact
// x'' = -n F at x'(0) = c is the SI one with m / n and the speed c v, so v*^2 = beta (c v)^{1/5} =
// (3/2) (4/3)^{2/5} n^{2/5} c^{1/5} (A v / eta).
double dissipative_constant_at(double v_star, double n = 1, double c = 1) {
  return v_star * v_star / (1.5 * std::pow(4.0 / 3.0, 0.4) * std::pow(n, 0.4) * std::pow(c, 0.2));
}

const std::vector<double> kYieldRatios = {2, 5, 10, 20, 50, 100};  // V / V_y

Configuration head_on(double lambda = 0) {
  Configuration c;
  c.lambda = lambda;
  c.friction = 0.5;
  c.incidence_angle = 0;
  c.relative_tolerance = 1e-10;
  return c;
}

}  // namespace

// The closed form is the energy balance of the law (an algebraic identity), and the law's
// branches meet: F and dF/dx continuous at x_y, the unloading branch through (x_max, F_max) and
// zero at x_f, with Thornton's R_p = (4 E* / (3 F_max)) ((2 F_max + F_y) / (2 pi p_y))^{3/2}
// evaluated in SI for a steel-like contact.
TEST(ThorntonLaw, ClosedFormBranchesAndEnlargedRadius) {
  for (double k : {1.0, 1.0001, 1.5, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 1e4})
    EXPECT_NEAR(thornton_closed_form(1 / k), thornton_energy_balance(1 / k), 1e-14) << k;
  EXPECT_NEAR(thornton_closed_form(1.0), 1.0, 1e-15);

  const double xy = 0.3;
  const double below = thornton_loading_force(xy * (1 - 1e-7), xy),
               above = thornton_loading_force(xy * (1 + 1e-7), xy);
  EXPECT_NEAR(below, 4.0 / 3.0 * std::pow(xy, 1.5), 1e-7);
  EXPECT_NEAR(above, below, 1e-7);
  EXPECT_NEAR((above - below) / (2e-7 * xy), 2 * std::sqrt(xy), 1e-6);  // Hertz's slope at x_y

  const double x_max = 2.5;
  const ThorntonUnloading u = thornton_unloading(x_max, xy);
  EXPECT_NEAR(u.max_force, thornton_loading_force(x_max, xy), 1e-14);
  EXPECT_NEAR(4.0 / 3.0 * u.stiffness * std::pow(x_max - u.residual, 1.5), u.max_force, 1e-12);
  EXPECT_GT(u.residual, 0);
  EXPECT_LT(u.residual, x_max);
  // SI: E* = 115 GPa, R = 5 mm, p_y = 1.6 * 400 MPa; delta = x delta_y / x_y (any length unit
  // eta keeps the ratios): R_p / R from Thornton's formula against sqrt(R_p / R)^2.
  const double E = 115e9, R = 5e-3, p = 640e6;
  const double delta_y = std::pow(M_PI * p / (2 * E), 2) * R, eta = delta_y / xy;
  // Lai's force unit m v^2 / eta = E* sqrt(R) eta^{3/2} (Hertz's (4/3) E* sqrt(R) delta^{3/2} is
  // (4/3) x^{3/2} in it).
  const double force_unit = E * std::sqrt(R) * std::pow(eta, 1.5);
  const double F_max = u.max_force * force_unit,
               F_y = 4.0 / 3.0 * E * std::sqrt(R) * std::pow(delta_y, 1.5);
  const double R_p = 4 * E / (3 * F_max) * std::pow((2 * F_max + F_y) / (2 * M_PI * p), 1.5);
  EXPECT_NEAR(R_p / R, u.stiffness * u.stiffness, 1e-12 * R_p / R);
  // Below yield the unloading is Hertz's own.
  const ThorntonUnloading elastic = thornton_unloading(0.2, xy);
  EXPECT_EQ(elastic.stiffness, 1.0);
  EXPECT_EQ(elastic.residual, 0.0);
}

// The 1-DOF normal impact of the law restitutes Thornton's closed form. The integration's
// rtol 1e-11 carries ~1e-10 in e; the brief's bound is 1e-4.
TEST(ThorntonLaw, NormalImpactRestitutesTheClosedForm) {
  double worst = 0;
  for (double k : kYieldRatios) {
    const double e = achieved_restitution(thornton_spring(yield_compression_at(k), 1.0));
    const double error = std::abs(e - thornton_closed_form(1 / k));
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-8) << "V/V_y = " << k << ": e = " << e;
  }
  std::printf("[ thornton 1-DOF ] max |e - closed form| = %.3g\n", worst);
  // Below V_y the contact stays elastic: e = 1.
  for (double k : {0.2, 0.9, 0.999}) {
    const NormalImpact impact =
        simulate_normal_impact(thornton_spring(yield_compression_at(k), 1.0));
    EXPECT_NEAR(impact.restitution, 1.0, 1e-9) << k;
    EXPECT_FALSE(impact.force_cut);
  }
  // Above it the force vanishes at the plastic dent x_f > 0, before x returns to 0.
  const NormalImpact plastic = simulate_normal_impact(thornton_spring(yield_compression_at(5), 1));
  EXPECT_TRUE(plastic.force_cut);
  EXPECT_GT(plastic.cut_compression, 0.1 * plastic.max_compression);
}

// Lai's model, head-on: the central sphere (lambda = 0) and Maw's solid sphere (lambda = 5/9,
// the normal equation x'' = -(4/9) F) restitute the closed form at their V / V_y; below yield
// e = 1. The law's memory is the solve's own: solving twice gives the same result.
TEST(ThorntonLaw, LaiHeadOnRestitutesTheClosedForm) {
  double worst = 0;
  for (double lambda : {0.0, 5.0 / 9.0}) {
    for (double k : kYieldRatios) {
      Configuration c = head_on(lambda);
      c.normal_law = "thornton";
      c.yield_compression = yield_compression_at(k, 1 - lambda);
      const Outcome o = solve_lai(c);
      ASSERT_TRUE(o.achieved_restitution.has_value());
      EXPECT_FALSE(o.prescribed_restitution.has_value());  // it takes none
      const double error = std::abs(*o.achieved_restitution - thornton_closed_form(1 / k));
      worst = std::max(worst, error);
      EXPECT_LT(error, 1e-4) << "lambda = " << lambda << ", V/V_y = " << k;
      EXPECT_EQ(*solve_lai(c).achieved_restitution, *o.achieved_restitution);
    }
    Configuration c = head_on(lambda);
    c.normal_law = "thornton";
    c.yield_compression = yield_compression_at(0.9, 1 - lambda);
    EXPECT_NEAR(*solve_lai(c).achieved_restitution, 1.0, 1e-8);
  }
  std::printf("[ thornton Lai ] max |e - closed form| = %.3g\n", worst);
  EXPECT_LT(worst, 1e-6);  // rtol 1e-10
  Configuration missing = head_on();
  missing.normal_law = "thornton";
  EXPECT_THROW(solve_lai(missing), std::invalid_argument);
}

// Oblique inside Lai's model. Without friction the tangential velocity of P is unchanged (no
// tangential force) and the normal e is the head-on one at the same normal speed, whatever the
// tangential speed. With friction (stick and slip) the dissipation -(Delta K + V), V counting
// the energy thornton's unloading would return, is never negative and never decreases, and ends
// at the kinetic-energy loss.
TEST(ThorntonLaw, ObliqueInLaisModel) {
  for (double alpha : {0.3, 0.8, 1.2}) {
    for (double lambda : {0.0, 5.0 / 9.0}) {
      Configuration c = head_on(lambda);
      c.friction = 0;
      c.incidence_angle = alpha;
      c.normal_law = "thornton";
      c.yield_compression = yield_compression_at(10, 1 - lambda, std::cos(alpha));
      const Outcome o = solve_lai(c);
      EXPECT_NEAR(o.separation_velocity.x(), std::sin(alpha), 1e-12);
      EXPECT_NEAR(*o.achieved_restitution, thornton_closed_form(0.1), 1e-6) << alpha;
    }
  }
  for (double alpha : {0.2, 0.5, 0.9}) {
    Configuration c = head_on(5.0 / 9.0);
    c.incidence_angle = alpha;
    c.normal_law = "thornton";
    c.yield_compression = yield_compression_at(5, 4.0 / 9.0, std::cos(alpha));
    const Outcome o = solve_lai(c);
    ASSERT_GE(o.history.size(), 100u);
    double previous = 0;
    for (const Sample& s : o.history) {
      EXPECT_GE(s.dissipation, -1e-8) << "tau = " << s.tau;
      EXPECT_GE(s.dissipation, previous - 1e-8) << "tau = " << s.tau;
      previous = std::max(previous, s.dissipation);
    }
    const double loss = -0.5 * (incident_velocity(alpha) + o.separation_velocity).dot(o.impulse);
    EXPECT_NEAR(o.history.back().dissipation, loss, 1e-8);
    EXPECT_GT(loss, 0);
  }
}

// Coulomb's law holds on the normal law's own force in Lai's model, for every law of the plane:
// at every sample of the history the tangential force is at most mu times the normal force (to
// 1e-9 of it), equal to it while the contact slips, and zero once the force is cut or released.
// At 60 degrees and mu = 0.1 the contact slips throughout (tan alpha = 1.73, beyond the gross-slip
// bound 3.5 mu (1 + e) < 0.7 of a rigid sphere), so |J_t| = mu J_n to 1e-9, but for the
// viscoelastic law, which sticks at first touch (|J_t| = 0.9998 mu J_n). A slip cone taken from
// Hertz's force instead (C x, the elastic law's) gave |J_t| / (mu J_n) = 2.18 for Thornton's law
// at V / V_y = 10 and 1.51 for Michalczyk's at R = 0.66 here, and |F_t| / (mu F_n) up to 2.0
// (Hunt-Crossley) and 493 (viscoelastic, near the cut) within an impact.
TEST(DissipativeLaws, CoulombBoundsTheTangentialForceInLaisModel) {
  struct Law {
    const char* name;
    double restitution, dissipative_constant;  // (< 0: not set)
  };
  const Law laws[] = {{"thornton", -1, -1},
                      {"hunt-crossley", 0.66, -1},
                      {"lankarani-nikravesh", 0.8, -1},
                      {"flores", 0.66, -1},
                      {"michalczyk", 0.66, -1},
                      {"viscoelastic", -1, dissipative_constant_at(0.8)}};
  for (const double mu : {0.1, 0.5}) {
    for (const Law& law : laws) {
      for (double alpha : {0.1, 0.4, 1.0472}) {
        Configuration c = head_on(5.0 / 9.0);
        c.friction = mu;
        c.incidence_angle = alpha;
        c.normal_law = law.name;
        if (law.restitution > 0) c.restitution = law.restitution;
        if (law.dissipative_constant > 0) c.dissipative_constant = law.dissipative_constant;
        if (std::string(law.name) == "thornton")
          c.yield_compression = yield_compression_at(10, 4.0 / 9.0, std::cos(alpha));
        const Outcome o = solve_lai(c);
        SCOPED_TRACE(std::string(law.name) + ", mu " + std::to_string(mu) + ", alpha " +
                     std::to_string(alpha));
        ASSERT_GE(o.history.size(), 100u);
        double worst = 0;
        int slipping = 0;
        for (const Sample& s : o.history) {
          if (s.mode == Mode::separated) continue;
          const double bound = mu * s.force.y();
          EXPECT_LE(std::abs(s.force.x()), bound + 1e-9 * std::abs(bound) + 1e-15)
              << "tau " << s.tau;
          if (s.mode == Mode::slip) {
            ++slipping;
            worst = std::max(worst, std::abs(std::abs(s.force.x()) - bound));
          }
        }
        EXPECT_LT(worst, 1e-9);
        const double ratio = std::abs(o.impulse.x()) / o.impulse.y();
        std::printf("[ %s, Lai, mu = %.1f ] alpha = %.4f: |J_t| / (mu J_n) = %.12f, e_N = %.6f\n",
                    law.name, mu, alpha, ratio / mu, *o.achieved_restitution);
        // (The viscoelastic contact sticks at first: its force ~ A x' sqrt(x) dwarfs Hertz's
        // near first touch, and so does its friction.)
        if (alpha > 1 && mu < 0.2 && std::string(law.name) != "viscoelastic") {
          EXPECT_GT(slipping, 0);
          EXPECT_NEAR(ratio, mu, 1e-9 * mu);
        } else {
          EXPECT_LE(ratio, mu * (1 + 1e-9));
        }
      }
    }
  }
}

// The viscoelastic law's e against Mueller & Poeschel's [3/6] Pade approximant. Measured here
// against the integrated e (rtol 1e-11), the approximant is within 3e-8 for v* <= 0.1, 1e-6 for
// v* <= 0.5 and 6.5e-4 up to v* = 5 (its largest deviation, near v* = 2-3); the test takes v* in
// [0.05, 5] at 1e-3 and the small-v* end (v* <= 0.3, e >= 0.9) at 1e-6.
TEST(ViscoelasticLaw, NormalImpactRestitutesThePadeApproximant) {
  double worst = 0;
  for (double v_star : {0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0}) {
    const NormalImpact impact =
        simulate_normal_impact(viscoelastic_spring(dissipative_constant_at(v_star), 1.0));
    const double error = std::abs(impact.restitution - pade_3_6(v_star));
    worst = std::max(worst, error);
    EXPECT_LT(error, v_star <= 0.3 ? 1e-6 : 1e-3) << "v* = " << v_star;
    EXPECT_TRUE(impact.force_cut);  // the force vanishes before x = 0 (Schwager & Poeschel 2008)
  }
  std::printf("[ viscoelastic 1-DOF ] max |e - Pade [3/6]| = %.3g\n", worst);
  // A = 0 is Hertz.
  EXPECT_NEAR(achieved_restitution(viscoelastic_spring(0, 1.0)), 1.0, 1e-9);
  EXPECT_THROW(viscoelastic_spring(-1e-3, 1.0), std::invalid_argument);
  // The impact depends on A and the speed through v* only: at x'(0) = c with A taken for v* = 1
  // at that speed, e is the e of v* = 1 at x'(0) = 1.
  for (double c : {0.5, 2.0}) {
    const double e =
        achieved_restitution(viscoelastic_spring(dissipative_constant_at(1.0, 1, c), c));
    EXPECT_NEAR(e, achieved_restitution(viscoelastic_spring(dissipative_constant_at(1.0), 1.0)),
                1e-8);
  }
}

// Lai's model: head-on it restitutes the 1-DOF e (the central and the eccentric sphere); oblique
// without friction the tangential velocity is unchanged and the normal e is the head-on one at
// the same normal speed; with friction the energy never increases.
TEST(ViscoelasticLaw, InLaisModel) {
  for (double lambda : {0.0, 5.0 / 9.0})
    for (double v_star : {0.3, 1.0, 3.0}) {
      Configuration c = head_on(lambda);
      c.normal_law = "viscoelastic";
      c.dissipative_constant = dissipative_constant_at(v_star, 1 - lambda);
      const Outcome o = solve_lai(c);
      ASSERT_TRUE(o.achieved_restitution.has_value());
      EXPECT_FALSE(o.prescribed_restitution.has_value());
      const double reference =
          achieved_restitution(viscoelastic_spring(dissipative_constant_at(v_star), 1.0));
      EXPECT_NEAR(*o.achieved_restitution, reference, 1e-7) << lambda << " " << v_star;
    }
  for (double alpha : {0.4, 1.0}) {
    Configuration c = head_on(5.0 / 9.0);
    c.friction = 0;
    c.incidence_angle = alpha;
    c.normal_law = "viscoelastic";
    c.dissipative_constant = dissipative_constant_at(1.0, 4.0 / 9.0, std::cos(alpha));
    const Outcome o = solve_lai(c);
    EXPECT_NEAR(o.separation_velocity.x(), std::sin(alpha), 1e-12);
    EXPECT_NEAR(*o.achieved_restitution,
                achieved_restitution(viscoelastic_spring(dissipative_constant_at(1.0), 1.0)), 1e-7);
    c.friction = 0.5;
    const Outcome f = solve_lai(c);
    double previous = 0;
    for (const Sample& s : f.history) {
      EXPECT_GE(s.dissipation, previous - 1e-8) << "tau = " << s.tau;
      previous = std::max(previous, s.dissipation);
    }
    const double loss = -0.5 * (incident_velocity(alpha) + f.separation_velocity).dot(f.impulse);
    EXPECT_NEAR(f.history.back().dissipation, loss, 1e-8);
    EXPECT_GT(loss, 0);
  }
}

// From a case in SI units (lumped::solve converts Y and A into Lai's units), on the rigid plane
// and on an elastic half-space of the same material (E* = E / (2 (1 - nu^2)), the pair's): the
// shipped steel sphere, its friction set to 0 (its tangential speed kept), restitutes Thornton's
// closed form at its V / V_y, with V_y = 1.56 sqrt(p_y^5 / (E*^4 rho)) for a sphere on a plane
// (the constant is sqrt(pi^4 / 40) = 1.5605); the shipped viscoelastic sphere, frictionless too,
// the Pade approximant at its v* = beta^{1/2} v_n^{1/10}. The summary states V_y or v* and the
// normal impact's e. As shipped (with friction) both solve.
namespace {
using rebound::cases::Case;
using rebound::cases::Derived;
// E* of the case's contact, and the sphere's mass, written out here.
double contact_modulus_of(const Case& c) {
  const double body = (1 - std::pow(c.material.poisson_ratio, 2)) / c.material.young_modulus;
  return 1 / (c.target.rigid()
                  ? body
                  : body + (1 - std::pow(c.target.poisson_ratio, 2)) / c.target.young_modulus);
}
double sphere_mass(const Case& c) {
  return 4.0 / 3.0 * M_PI * std::pow(c.body.radius, 3) * c.material.density;
}
std::vector<Case> on_both_targets(const char* file) {
  Case plane = rebound::cases::load_case(std::string(REBOUND_SOURCE_DIR "/cases/") + file);
  EXPECT_NO_THROW(solve(plane, rebound::cases::derive(plane)));  // as shipped
  plane.contact.friction = 0;
  Case halfspace = plane;
  halfspace.target.type = rebound::cases::TargetType::elastic_halfspace;
  halfspace.target.young_modulus = plane.material.young_modulus;
  halfspace.target.poisson_ratio = plane.material.poisson_ratio;
  return {plane, halfspace};
}
}  // namespace

TEST(PlasticAndViscoelasticCases, ThorntonFromSiUnits) {
  for (const Case& c : on_both_targets("sphere-thornton-steel.json")) {
    ASSERT_EQ(c.lumped.normal_law, "thornton");
    const Derived d = rebound::cases::derive(c);
    const double p_y = 1.6 * *c.material.yield_stress, E = contact_modulus_of(c);
    const double V_y = std::sqrt(std::pow(M_PI, 4) / 40 * std::pow(p_y, 5) /
                                 (std::pow(E, 4) * c.material.density));
    const double V = c.impact.normal_speed;
    ASSERT_GT(V / V_y, 2);
    const Outcome o = solve(c, d);
    EXPECT_NEAR(*o.achieved_restitution, thornton_closed_form(V_y / V), 1e-6)
        << "V / V_y = " << V / V_y << " on " << to_string(c.target.type);
    const nlohmann::json j = summary_json(c, d, o);
    EXPECT_NEAR(j.at("yield_velocity").get<double>(), V_y, 1e-12 * V_y);
    EXPECT_NEAR(j.at("normal_impact_restitution").get<double>(), thornton_closed_form(V_y / V),
                1e-8);
  }
}

TEST(PlasticAndViscoelasticCases, ViscoelasticFromSiUnits) {
  for (const Case& c : on_both_targets("sphere-viscoelastic.json")) {
    ASSERT_EQ(c.lumped.normal_law, "viscoelastic");
    const Derived d = rebound::cases::derive(c);
    const double rho = 4.0 / 3.0 * contact_modulus_of(c) * std::sqrt(c.body.radius);
    const double beta = 1.5 * *c.lumped.dissipative_constant * std::pow(rho / sphere_mass(c), 0.4);
    const double v_star = std::sqrt(beta) * std::pow(c.impact.normal_speed, 0.1);
    const Outcome o = solve(c, d);
    EXPECT_NEAR(*o.achieved_restitution, pade_3_6(v_star), 1e-3)
        << "v* = " << v_star << " on " << to_string(c.target.type);
    const nlohmann::json j = summary_json(c, d, o);
    EXPECT_NEAR(j.at("viscoelastic_v_star").get<double>(), v_star, 1e-12);
    EXPECT_NEAR(j.at("normal_impact_restitution").get<double>(), *o.achieved_restitution, 1e-7);
  }
}

// Michalczyk (2008, sec. 3) takes R as a function of Bagrejev's energy-flux density Phi = m_w
// v_n^2 / (2 R^3) alone. In Thornton's law it is exactly that: (1/2) m_w V_y^2 = (2/5) F_y
// delta_y with F_y delta_y = (4/3) E* R^3 (pi p_y / (2 E*))^5, so (V / V_y)^2 = Phi / Phi_y with
// Phi_y = (pi^5 / 60) p_y^5 / E*^4, a constant of the material (docs/THEORY.md sec. 7). Spheres
// of two sizes and Lai's rod at three axis angles (three reduced masses m_w), frictionless, at
// the same Phi = 25 Phi_y restitute Thornton's e at V / V_y = 5.
TEST(ThorntonLaw, RestitutionDependsOnTheEnergyFluxDensityAlone) {
  std::vector<Case> bodies;
  for (double radius : {0.005, 0.01}) {
    Case c = rebound::cases::load_case(REBOUND_SOURCE_DIR "/cases/sphere-thornton-steel.json");
    c.body.radius = radius;
    bodies.push_back(c);
  }
  for (double theta : {0.0, 0.27018, 0.6}) {
    Case c = rebound::cases::load_case(REBOUND_SOURCE_DIR "/cases/rod-lai-a.json");
    c.material.yield_stress = 1e9;
    c.lumped.normal_law = "thornton";
    c.lumped.lambda.reset();
    c.lumped.theta.reset();
    c.impact.theta = theta;
    bodies.push_back(c);
  }
  std::vector<double> reduced_masses;
  for (Case& c : bodies) {
    c.contact.friction = 0;
    c.impact.tangential_speed = 0;
    c.impact.spin = 0;
    c.impact.normal_speed = 1;
    const Derived at_one = rebound::cases::derive(c);
    const double E = at_one.contact_modulus, p_y = 1.6 * *c.material.yield_stress;
    const double flux_y = std::pow(M_PI, 5) / 60 * std::pow(p_y, 5) / std::pow(E, 4);
    const double m_w = at_one.hertz.normal_mass, R = at_one.hertz.radius;
    c.impact.normal_speed = std::sqrt(2 * R * R * R * 25 * flux_y / m_w);
    const Derived d = rebound::cases::derive(c);
    EXPECT_NEAR(d.energy_flux_density / (25 * flux_y), 1.0, 1e-12);
    EXPECT_NEAR(c.impact.normal_speed / d.thornton.yield_speed, 5.0, 1e-12);
    const double e = *solve(c, d).achieved_restitution;
    std::printf("%s, R = %g m, theta = %g: m_w = %.4f kg, v_n = %.5g m/s, e = %.8f\n",
                c.name.c_str(), c.body.radius, c.impact.theta, m_w, c.impact.normal_speed, e);
    EXPECT_NEAR(e, thornton_closed_form(0.2), 1e-6)
        << c.name << " at theta " << c.impact.theta << ", m_w " << m_w << " kg";
    reduced_masses.push_back(m_w);
  }
  // The rods' reduced masses differ (the test is not five copies of one impact).
  EXPECT_GT(reduced_masses[2] / reduced_masses[4], 1.5);
}
