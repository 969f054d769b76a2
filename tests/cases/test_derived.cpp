// Derived quantities of the case description: mass properties, N, lambda, theta, Hertz scales.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "cases/case.h"
#include "cases/derived.h"

using namespace rebound::cases;

namespace {

Body make_body(Shape shape, double radius, double length = 0, double thickness = 0) {
  Body b;
  b.shape = shape;
  b.radius = radius;
  b.length = length;
  b.thickness = thickness;
  return b;
}

double lambda_of(const MassProperties& p) {
  const double k2 = p.radius_of_gyration * p.radius_of_gyration,
               b2 = p.contact_offset * p.contact_offset;
  return b2 / (2 * k2 + b2);  // Lai 1999, eq. 3.56
}

const Material aluminium{7e10, 0.3, 2700};

}  // namespace

// Lai 1999, Table 5.1: lambda of four objects (printed to 3 decimals); exact values 5/9, 1/2,
// 3/7 (thin shell), 1/3 (thin hoop).
TEST(Derived, Table51LambdaValues) {
  const double sphere = lambda_of(mass_properties(make_body(Shape::sphere, 0.05), aluminium, 0));
  const double disc =
      lambda_of(mass_properties(make_body(Shape::disc, 0.05, 0, 0.01), aluminium, 0));
  const double shell =
      lambda_of(mass_properties(make_body(Shape::shell, 0.05, 0, 0.05e-6), aluminium, 0));
  const double hoop =
      lambda_of(mass_properties(make_body(Shape::hoop, 0.05, 0, 0.05e-6), aluminium, 0));
  EXPECT_NEAR(sphere, 5.0 / 9.0, 1e-14);
  EXPECT_NEAR(disc, 0.5, 1e-14);
  // Thin limits: the wall (wire) is 1e-6 R, so the deviation is O(1e-6).
  EXPECT_NEAR(shell, 3.0 / 7.0, 1e-5);
  EXPECT_NEAR(hoop, 1.0 / 3.0, 1e-5);
  // The printed table, to its rounding.
  EXPECT_NEAR(sphere, 0.556, 5e-4);
  EXPECT_NEAR(disc, 0.5, 5e-4);
  EXPECT_NEAR(shell, 0.429, 5e-4);
  EXPECT_NEAR(hoop, 0.333, 5e-4);
}

// Capsule mass, transverse and axial inertia against an independent numerical integration:
// the body is cut into discs along its axis (composite Simpson, 20000 panels per piece), each
// disc contributing dm = rho pi r^2 dz, dI_transverse = dm (r^2/4 + z^2), dI_axial = dm r^2/2.
TEST(Derived, CapsuleInertiaMatchesNumericalIntegration) {
  const double R = 0.01, L = 0.05, rho = 7800;
  const Material steel{2e11, 0.28, rho};
  const MassProperties p = mass_properties(make_body(Shape::capsule, R, L), steel, 0.0);
  auto radius_at = [&](double z) {
    const double a = std::abs(z);
    if (a <= L / 2) return R;
    const double d = a - L / 2;
    return std::sqrt(std::max(0.0, R * R - d * d));
  };
  double mass = 0, transverse = 0, axial = 0;
  const double breaks[] = {-L / 2 - R, -L / 2, L / 2, L / 2 + R};
  for (int piece = 0; piece < 3; ++piece) {
    const int panels = 20000;
    const double a = breaks[piece], b = breaks[piece + 1], h = (b - a) / panels;
    for (int i = 0; i <= panels; ++i) {
      const double z = a + i * h;
      const double weight = (i == 0 || i == panels) ? 1 : (i % 2 ? 4 : 2);
      const double r = radius_at(z), dm = rho * M_PI * r * r;
      mass += weight * h / 3 * dm;
      transverse += weight * h / 3 * dm * (r * r / 4 + z * z);
      axial += weight * h / 3 * dm * r * r / 2;
    }
  }
  EXPECT_NEAR(p.mass / mass, 1.0, 1e-10);
  // Along the axis (here n, theta = 0) the axial moment; across it the transverse one.
  EXPECT_NEAR(p.central_inertia(1, 1) / axial, 1.0, 1e-10);
  EXPECT_NEAR(p.central_inertia(0, 0) / transverse, 1.0, 1e-10);
  EXPECT_NEAR(p.central_inertia(2, 2) / transverse, 1.0, 1e-10);
  EXPECT_NEAR(p.radius_of_gyration * p.radius_of_gyration, transverse / mass,
              1e-10 * transverse / mass);
}

// docs/THEORY.md §12 (Lai's rod lambda): for L/R = 5 at theta = 0.27018, eqs. 5.76-5.79 give
// lambda ~ 0.621, not the 0.63922 printed in Table 5.2.
TEST(Derived, CapsuleLambdaErratumOfTable52) {
  const Material steel{2e11, 0.28, 7800};
  const double theta = 0.27018;
  const MassProperties p = mass_properties(make_body(Shape::capsule, 0.01, 0.05), steel, theta);
  EXPECT_NEAR(lambda_of(p), 0.621, 1e-3);
  EXPECT_GT(0.63922 - lambda_of(p), 0.015);
  // The centre of mass makes the angle theta with n and lies at |PG|.
  EXPECT_NEAR(std::atan2(-p.centre_of_mass.x(), p.centre_of_mass.y()), theta, 1e-14);
  // G = touching cap centre (0, R, 0) + (L/2) axis.
  const Eigen::Vector3d g = Eigen::Vector3d(0, 0.01, 0) + 0.025 * p.body_axis;
  EXPECT_NEAR((g - p.centre_of_mass).norm(), 0.0, 1e-15);
}

// N from the generalized-speed formulation (l^T m^-1 l) equals the inverse of the closed form
// (3.48) and the principal form (3.34); planar_inertia recovers m, lambda and theta.
TEST(Derived, InverseInertiaFormulationsAgree) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    const double mass = 0.1 + 10 * unit(random), k = 0.01 + unit(random),
                 b = 0.01 + 2 * unit(random), theta = (unit(random) - 0.5) * 3.1;
    const Eigen::Matrix2d generalized = inverse_inertia_generalized(mass, k, b, theta);
    const Eigen::Matrix2d closed = inverse_inertia_closed_form(mass, k, b, theta);
    EXPECT_LT((generalized - closed).norm(), 1e-12 * closed.norm());
    const PlanarInertia planar = planar_inertia(generalized);
    EXPECT_NEAR(planar.lambda, b * b / (2 * k * k + b * b), 1e-12);  // (3.56)
    EXPECT_NEAR(planar.effective_mass, 2 * k * k * mass / (2 * k * k + b * b),
                1e-12 * mass);  // (3.55)
    EXPECT_NEAR(planar.theta, theta, 1e-10);
    const Eigen::Matrix2d principal =
        inverse_inertia_principal(planar.effective_mass, planar.lambda, planar.theta);
    EXPECT_LT((principal - generalized).norm(), 1e-12 * generalized.norm());
  }
}

// docs/THEORY.md §12 (Lai's sphere velocities): Table 6.1's v_t follows from Psi1: v_t = v_n mu
// (2-nu)/(2(1-nu)) Psi1 = 0.06071 Psi1 m/s, i.e. 0.1214 (printed 0.1164) at Psi1 = 2 and 0.2429
// (printed 0.2378) at 4.
TEST(Derived, Table61TangentialSpeedFromPsi1) {
  for (const double psi1 : {0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0}) {
    const std::string text = R"({"name": "t", "body": {"shape": "sphere", "radius": 0.05},
      "material": {"young_modulus": 7e10, "poisson_ratio": 0.3, "density": 2700},
      "contact": {"friction": 0.1},
      "impact": {"theta": 0, "normal_speed": 0.5, "psi1": )" +
                             std::to_string(psi1) + "}}";
    const Case c = parse_case(text);
    EXPECT_NEAR(c.impact.tangential_speed, 0.5 * 0.1 * 1.7 / 1.4 * psi1, 1e-12);
    EXPECT_NEAR(c.impact.tangential_speed, 0.06071 * psi1, 5e-6 * psi1);
    EXPECT_NEAR(derive(c).psi1, psi1, 1e-12);
  }
  const std::string psi2 = R"({"name": "t", "body": {"shape": "sphere", "radius": 0.05},
      "material": {"young_modulus": 7e10, "poisson_ratio": 0.3, "density": 2700},
      "contact": {"friction": 0.1}, "impact": {"theta": 0, "normal_speed": 0.5, "psi1": 2}})";
  EXPECT_NEAR(parse_case(psi2).impact.tangential_speed, 0.1214, 5e-5);
}

// Hertz scales: energy balance 1/2 M v^2 = (8/15) E* sqrt(R) delta_max^{5/2}; the Table 6.1
// sphere has a_max ~ 1.6 mm (issue 4).
TEST(Derived, HertzScales) {
  const Case c = load_case(REBOUND_SOURCE_DIR "/cases/sphere-lai-psi2.json");
  const Derived d = derive(c);
  const HertzScales& h = d.hertz;
  EXPECT_NEAR(h.normal_mass, d.body.mass, 1e-12 * d.body.mass);
  const double kinetic = 0.5 * h.normal_mass * 0.25;
  const double stored =
      8.0 / 15.0 * h.contact_modulus * std::sqrt(h.radius) * std::pow(h.max_compression, 2.5);
  EXPECT_NEAR(stored / kinetic, 1.0, 1e-12);
  EXPECT_NEAR(h.contact_radius, 1.6e-3, 0.1e-3);
  EXPECT_NEAR(
      h.peak_force,
      4.0 / 3.0 * h.contact_modulus * std::sqrt(h.radius) * std::pow(h.max_compression, 1.5),
      1e-9 * h.peak_force);
  // Lai's eta for theta = 0: delta_max / eta = (15/16)^{2/5} (1 - lambda)^{-2/5} with speed v_n.
}

// The centre velocity follows from P's velocity and the spin: v_G = v_P - omega x r_GP.
TEST(Derived, CentreVelocityFromSpin) {
  const std::string text = R"({"name": "t", "body": {"shape": "sphere", "radius": 0.05},
      "material": {"young_modulus": 7e10, "poisson_ratio": 0.3, "density": 2700},
      "contact": {"friction": 0.1},
      "impact": {"theta": 0, "normal_speed": 0.5, "tangential_speed": 0.2, "spin": 4.0}})";
  const Derived d = derive(parse_case(text));
  // omega about b = t x n; r_GP = -R n; omega x r_GP = omega R t.
  EXPECT_NEAR(d.centre_velocity.x(), 0.2 - 4.0 * 0.05, 1e-15);
  EXPECT_NEAR(d.centre_velocity.y(), -0.5, 1e-15);
}

TEST(Derived, StickLimit) {
  const double kappa = kappa_of(0.3);
  EXPECT_NEAR(kappa, 1.7 / 2.1, 1e-15);
  EXPECT_NEAR(stick_limit(kappa, 0.5), 4.0 * (1 - std::sqrt(1 - kappa * 0.25)), 1e-15);
  EXPECT_TRUE(std::isinf(stick_limit(kappa, 1.2)));  // kappa mu^2 >= 1: always stick
  EXPECT_EQ(stick_limit(kappa, 0.0), 0.0);
}

// Mass properties of a discretised body (e.g. a FEM mesh) give that body's own lambda, theta and
// m (Lai 1999, eqs. 3.55-3.56), which is what a paired lumped run uses.
TEST(Derived, FromGivenMassProperties) {
  const Case c = load_case(REBOUND_SOURCE_DIR "/cases/rod-lai-a.json");
  MassProperties p = mass_properties(c.body, c.material, c.impact.theta);
  const Derived exact = derive(c, p);
  EXPECT_NEAR(exact.geometry.lambda, derive(c).geometry.lambda, 1e-15);
  EXPECT_NEAR(exact.geometry.theta, c.impact.theta, 1e-14);
  // A mesh 1 % lighter with a 0.5 % smaller radius of gyration and G rotated by 1 mrad.
  p.mass *= 0.99;
  p.radius_of_gyration *= 0.995;
  const double rotate = 1e-3, cr = std::cos(rotate), sr = std::sin(rotate);
  const Eigen::Vector3d g = p.centre_of_mass;
  p.centre_of_mass = Eigen::Vector3d(cr * g.x() - sr * g.y(), sr * g.x() + cr * g.y(), 0);
  const Derived mesh = derive(c, p);
  const double k2 = p.radius_of_gyration * p.radius_of_gyration,
               b2 = p.contact_offset * p.contact_offset;
  EXPECT_NEAR(mesh.geometry.lambda, b2 / (2 * k2 + b2), 1e-14);
  EXPECT_NEAR(mesh.geometry.theta, c.impact.theta + rotate, 1e-12);  // CCW about b raises theta
  EXPECT_NEAR(mesh.effective_mass, 2 * k2 * p.mass / (2 * k2 + b2), 1e-14);
  // The case's table overrides still win for the lumped model's lambda and theta.
  EXPECT_EQ(mesh.lambda, 0.63922);
}

// Dropping the table overrides gives the body's own lambda (the erratum value 0.621 for rod a,
// not the table's 0.63922) and theta; the case is otherwise unchanged.
TEST(Derived, WithoutLumpedOverridesUsesTheBodysOwnLambda) {
  const Case c = load_case(REBOUND_SOURCE_DIR "/cases/rod-lai-a.json");
  ASSERT_TRUE(c.lumped.lambda.has_value());
  const Case own = without_lumped_overrides(c);
  EXPECT_FALSE(own.lumped.lambda.has_value());
  EXPECT_FALSE(own.lumped.theta.has_value());
  const Derived d = derive(own);
  EXPECT_NEAR(d.lambda, 0.621, 1e-3);
  EXPECT_NEAR(d.theta, c.impact.theta, 1e-14);
  EXPECT_FALSE(d.lambda_overridden);
  EXPECT_EQ(own.impact.tangential_speed, c.impact.tangential_speed);
}

// Mass properties survive a JSON text round trip exactly (summary.json carries the FE body's), and
// a missing or malformed key is reported by name.
TEST(Derived, MassPropertiesJsonRoundTrip) {
  const Case c = load_case(REBOUND_SOURCE_DIR "/cases/rod-lai-a.json");
  const MassProperties p = mass_properties(c.body, c.material, c.impact.theta);
  const nlohmann::json text = nlohmann::json::parse(to_json(p).dump());
  const MassProperties q = mass_properties_from_json(text, "summary.json");
  EXPECT_EQ(q.mass, p.mass);
  EXPECT_EQ(q.volume, p.volume);
  EXPECT_EQ(q.radius_of_gyration, p.radius_of_gyration);
  EXPECT_EQ(q.contact_offset, p.contact_offset);
  EXPECT_EQ(q.contact_radius, p.contact_radius);
  EXPECT_EQ(q.centre_of_mass, p.centre_of_mass);
  EXPECT_EQ(q.central_inertia, p.central_inertia);
  EXPECT_EQ(q.body_axis, p.body_axis);
  EXPECT_EQ(derive(c, q).geometry.lambda, derive(c, p).geometry.lambda);
  nlohmann::json broken = text;
  broken.erase("radius_of_gyration");
  try {
    mass_properties_from_json(broken, "summary.json");
    FAIL() << "a missing key must throw";
  } catch (const CaseError& e) {
    EXPECT_NE(std::string(e.what()).find("summary.json: radius_of_gyration"), std::string::npos)
        << e.what();
  }
  broken = text;
  broken["inertia_central"][1] = {1.0, "x", 2.0};
  EXPECT_THROW(mass_properties_from_json(broken, "summary.json"), CaseError);
}

// Thornton's (1997) scales of a sphere on a plane: the yield speed is his 1.56 sqrt(p_y^5 /
// (E*^4 rho)) (exactly pi^2/sqrt(40)); the loading's work to the largest approach is the impact
// energy; below V_y everything is Hertz's, and the contact zone grows continuously from Hertz's
// a_max at V_y towards the radius sqrt(2 R delta_max) of the sphere cut by the plane.
TEST(Derived, ThorntonScales) {
  Case c = load_case(REBOUND_SOURCE_DIR "/cases/hertz-steel-sphere.json");
  c.material.yield_stress = 1e9;
  const double E = derive(c).contact_modulus, rho = c.material.density, p_y = 1.6e9;
  const double v_y =
      M_PI * M_PI / std::sqrt(40.0) * std::sqrt(std::pow(p_y, 5) / (std::pow(E, 4) * rho));
  const auto at = [&](double speed) {
    Case s = c;
    s.impact.normal_speed = speed;
    return derive(s);
  };
  const Derived d = at(1.0);
  const ThorntonScales& t = d.thornton;
  EXPECT_NEAR(t.limiting_pressure, p_y, 1e-6);
  EXPECT_NEAR(t.yield_speed / v_y, 1.0, 1e-12);
  EXPECT_NEAR(1.56 / (M_PI * M_PI / std::sqrt(40.0)), 1.0, 1e-3);  // his rounded constant
  ASSERT_GT(1.0, 10 * t.yield_speed);
  const double R = d.hertz.radius, x = t.max_compression - t.yield_approach;
  const double work =
      0.4 * t.yield_force * t.yield_approach + t.yield_force * x + 0.5 * M_PI * p_y * R * x * x;
  EXPECT_NEAR(work / (0.5 * d.hertz.normal_mass), 1.0, 1e-12);
  EXPECT_GT(t.max_compression, d.hertz.max_compression);
  EXPECT_NEAR(t.contact_zone_radius, std::sqrt(R * (2 * t.max_compression - t.yield_approach)),
              1e-15);
  const Derived below = at(0.5 * t.yield_speed);
  EXPECT_EQ(below.thornton.max_compression, below.hertz.max_compression);
  EXPECT_EQ(below.thornton.contact_zone_radius, below.hertz.contact_radius);
  const Derived under = at(t.yield_speed * (1 - 1e-9)), over = at(t.yield_speed * (1 + 1e-9));
  EXPECT_NEAR(over.thornton.contact_zone_radius / under.thornton.contact_zone_radius, 1.0, 1e-6);
  c.material.yield_stress.reset();  // an elastic body has no Thornton scales
  EXPECT_EQ(derive(c).thornton.yield_speed, 0.0);
}
