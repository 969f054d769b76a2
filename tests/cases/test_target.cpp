// The target of a case: the rigid plane (default) or an elastic half-space. The pair's elastic
// constants (cases::contact_pair) against hand values, the parser's errors for a bad target, and
// the FEM's refusal of an elastic target.
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

#include "cases/case.h"
#include "cases/derived.h"
#include "cases/derived_text.h"
#include "tests/common/case_rejection.h"

using namespace rebound::cases;
using json = nlohmann::json;
using rebound::test::rejection;

namespace {

json sphere_on(const json& target) {
  json d = json::parse(R"({
    "name": "sphere-target",
    "body": {"shape": "sphere", "radius": 0.0025},
    "material": {"young_modulus": 380e9, "poisson_ratio": 0.23, "density": 4000},
    "contact": {"friction": 0.092},
    "impact": {"speed": 3.9, "incidence_angle_deg": 30}
  })");
  d["target"] = target;
  return d;
}

json glass() {
  return {{"type", "elastic_halfspace"},
          {"material", {{"young_modulus", 70e9}, {"poisson_ratio", 0.25}}}};
}

Material material(double E, double nu) {
  Material m;
  m.young_modulus = E;
  m.poisson_ratio = nu;
  m.density = 1000;
  return m;
}

Target elastic(double E, double nu) {
  Target t;
  t.type = TargetType::elastic_halfspace;
  t.young_modulus = E;
  t.poisson_ratio = nu;
  return t;
}

void expect_rejected(const json& target, const std::string& key, const std::string& fragment) {
  SCOPED_TRACE(target.dump());
  const CaseError error = rejection(sphere_on(target));
  EXPECT_EQ(error.key(), key) << error.what();
  const std::string message = error.what();
  EXPECT_NE(message.find("bad.json: " + key), std::string::npos) << message;
  EXPECT_NE(message.find(fragment), std::string::npos) << message;
}

}  // namespace

// Alumina (E = 380 GPa, nu = 0.23) on soda-lime glass (70 GPa, 0.25), by hand:
//   G1 = 380e9/2.46 = 154.4715447e9 Pa, G2 = 70e9/2.5 = 28e9 Pa,
//   1/E* = 0.9471/380e9 + 0.9375/70e9 = 1.58852...e-11  ->  E* = 62.95157698e9 Pa,
//   1/G* = 1.77/(4 G1) + 1.75/(4 G2)                     ->  G* = 54.08444289e9 Pa,
//   beta = 0.5 (0.54/G1 - 0.5/G2) / (0.77/G1 + 0.75/G2) = -0.2260174608,
//   nu* from G*/E* = 0.8591435749 = 2(1-nu*)/(2-nu*)    ->  nu* = 0.2469310283.
// Pure arithmetic: equal to 1e-9 relative (the hand values' 10 digits).
TEST(ContactPair, AluminaOnSodaLimeGlassAgainstHandValues) {
  const ContactPair p = contact_pair(material(380e9, 0.23), elastic(70e9, 0.25));
  EXPECT_NEAR(p.contact_modulus, 62.95157698e9, 1e-9 * 62.95e9);
  EXPECT_NEAR(p.shear_modulus, 54.08444289e9, 1e-9 * 54.08e9);
  EXPECT_NEAR(p.stiffness_ratio, 0.8591435749, 1e-9);
  EXPECT_NEAR(p.dundurs_beta, -0.2260174608, 1e-9);
  EXPECT_NEAR(p.poisson_ratio, 0.2469310283, 1e-9);
  // nu* lies between the two Poisson ratios (G*/E* is a weighted mean of the bodies' ratios).
  EXPECT_GT(p.poisson_ratio, 0.23);
  EXPECT_LT(p.poisson_ratio, 0.25);
  // Johnson's convention 1/G*_J = sum (2-nu_i)/G_i is a quarter of this G*.
  const double G1 = 380e9 / 2.46, G2 = 28e9;
  EXPECT_NEAR(p.shear_modulus / 4, 1 / (1.77 / G1 + 1.75 / G2), 1e-12 * p.shear_modulus);
}

// On the rigid plane the pair is the body: E* = E/(1-nu^2), G* = 4G/(2-nu), nu* = nu exactly,
// beta = (1-2nu)/(2(1-nu)) (0.2857 for nu = 0.3).
TEST(ContactPair, RigidPlaneIsTheBodyAlone) {
  const double E = 7e10, nu = 0.3, G = E / 2.6;
  const ContactPair p = contact_pair(material(E, nu), Target{});
  EXPECT_NEAR(p.contact_modulus, E / 0.91, 1e-12 * E);
  EXPECT_NEAR(p.shear_modulus, 4 * G / 1.7, 1e-12 * E);
  EXPECT_EQ(p.poisson_ratio, nu);
  EXPECT_NEAR(p.dundurs_beta, 0.4 / 1.4, 1e-15);
  EXPECT_NEAR(p.stiffness_ratio, 2 * 0.7 / 1.7, 1e-15);
}

// Identical materials: beta = 0 (Maw's case), E* and G* halved, nu* = nu.
TEST(ContactPair, IdenticalMaterialsHaveNoCoupling) {
  for (const double nu : {-0.5, 0.0, 0.3, 0.49}) {
    SCOPED_TRACE(nu);
    const ContactPair p = contact_pair(material(2e11, nu), elastic(2e11, nu));
    EXPECT_EQ(p.dundurs_beta, 0.0);
    EXPECT_NEAR(p.contact_modulus, 2e11 / (2 * (1 - nu * nu)), 1e-12 * 2e11);
    EXPECT_NEAR(p.poisson_ratio, nu, 1e-14);
  }
}

// A stiff target tends to the rigid plane: E2 = 1e6 E1 moves E*, nu* and beta by O(1e-6).
TEST(ContactPair, StiffTargetTendsToTheRigidPlane) {
  const ContactPair rigid = contact_pair(material(7e10, 0.3), Target{});
  const ContactPair stiff = contact_pair(material(7e10, 0.3), elastic(7e16, 0.2));
  EXPECT_NEAR(stiff.contact_modulus / rigid.contact_modulus, 1, 2e-6);
  EXPECT_NEAR(stiff.poisson_ratio, rigid.poisson_ratio, 2e-6);
  EXPECT_NEAR(stiff.dundurs_beta, rigid.dundurs_beta, 2e-6);
}

// The parsed case routes the pair into every derived quantity: E* of the Hertz scales, kappa and
// the stick limit from nu*, Maw's Psi1 from nu*.
TEST(Target, DerivedQuantitiesTakeThePair) {
  const Case c = parse_case(sphere_on(glass()), "glass.json");
  EXPECT_EQ(c.target.type, TargetType::elastic_halfspace);
  EXPECT_EQ(c.target.young_modulus, 70e9);
  EXPECT_FALSE(c.target.density.has_value());
  const Derived d = derive(c);
  EXPECT_NEAR(d.contact_modulus, 62.95157698e9, 1e-9 * 62.95e9);
  EXPECT_EQ(d.hertz.contact_modulus, d.contact_modulus);
  EXPECT_EQ(d.kappa, kappa_of(d.pair.poisson_ratio));
  EXPECT_NEAR(d.psi1, psi_scale(0.2469310283, 0.092) * std::tan(M_PI / 6), 1e-8);
  // The JSON of `rebound check --json` names the target and the pair.
  const json j = to_json(c, d);
  EXPECT_EQ(j["target"], "elastic_halfspace");
  EXPECT_NEAR(j["dundurs_beta"].get<double>(), -0.2260174608, 1e-9);
}

// impact.psi1 converts to the tangential speed with the pair's nu*, not the body's nu.
TEST(Target, Psi1FormUsesThePairsPoissonRatio) {
  json d = sphere_on(glass());
  d["impact"] = {{"normal_speed", 1.0}, {"psi1", 2.0}};
  const Case c = parse_case(d, "glass.json");
  EXPECT_NEAR(c.impact.tangential_speed, 2.0 / psi_scale(0.2469310283, 0.092), 1e-9);
  EXPECT_NEAR(derive(c).psi1, 2.0, 1e-12);
}

TEST(Target, BadTargetsAreRejectedNamingTheKey) {
  expect_rejected({{"type", "elastic_halfspace"}}, "target.material", "is missing; expected");
  expect_rejected({{"type", "elastic"}}, "target.type", "\"rigid_plane\" | \"elastic_halfspace\"");
  expect_rejected({{"type", "rigid_plane"}, {"material", {{"young_modulus", 1e9}}}},
                  "target.material", "rigid_plane");
  json t = glass();
  t["material"]["young_modulus"] = 0;
  expect_rejected(t, "target.material.young_modulus", "E > 0 Pa");
  t = glass();
  t["material"]["young_modulus"] = -7e10;
  expect_rejected(t, "target.material.young_modulus", "E > 0 Pa");
  t = glass();
  t["material"].erase("young_modulus");
  expect_rejected(t, "target.material.young_modulus", "is missing");
  for (const double nu : {0.5, -1.0, 0.7}) {
    t = glass();
    t["material"]["poisson_ratio"] = nu;
    expect_rejected(t, "target.material.poisson_ratio", "a Poisson ratio in (-1, 0.5)");
  }
  t = glass();
  t["material"]["density"] = 0;
  expect_rejected(t, "target.material.density", "a density > 0");
  t = glass();
  t["material"]["shear_modulus"] = 3e10;
  expect_rejected(t, "target.material.shear_modulus", "is not a known key");
  t = glass();
  t["stiffness"] = 1;
  expect_rejected(t, "target.stiffness", "is not a known key");
}

// The FEM meshes an elastic half-space as a block of its own material (fem/targets/
// elastic_halfspace.h): it needs its density, refused naming target.material.density and what it
// expected (tests/app: exit 2 of each command), and an elastic sphere as the body.
TEST(Target, FemTakesAHalfspaceWithItsDensity) {
  const Case rigid = parse_case(sphere_on({{"type", "rigid_plane"}}), "rigid.json");
  EXPECT_EQ(fem_target_problem(rigid), "");
  EXPECT_NO_THROW(require_fem_target(rigid));
  try {
    require_fem_target(parse_case(sphere_on(glass()), "glass.json"));
    ADD_FAILURE() << "accepted without a density";
  } catch (const CaseError& error) {
    EXPECT_EQ(error.key(), "target.material.density");
    const std::string message = error.what();
    EXPECT_NE(message.find("glass.json: target.material.density is missing"), std::string::npos)
        << message;
    EXPECT_NE(message.find("expected the half-space's density"), std::string::npos) << message;
  }
  json with_density = glass();
  with_density["material"]["density"] = 2500;
  EXPECT_EQ(fem_target_problem(parse_case(sphere_on(with_density), "glass.json")), "");
  json capsule = sphere_on(with_density);
  capsule["body"] = {{"shape", "capsule"}, {"radius", 0.0025}, {"length", 0.005}};
  capsule["impact"] = {{"speed", 3.9}, {"incidence_angle_deg", 30}, {"theta", 0.0}};
  const Case c = parse_case(capsule, "capsule.json");
  EXPECT_NE(fem_target_problem(c).find("expected body.shape \"sphere\""), std::string::npos)
      << fem_target_problem(c);
}

// fem.block_size belongs to the half-space's block only.
TEST(Target, BlockSizeIsTheHalfspacesOnly) {
  json d = sphere_on({{"type", "rigid_plane"}});
  d["fem"] = {{"block_size", 0.1}};
  const CaseError error = [&] {
    try {
      parse_case(d, "bad.json");
    } catch (const CaseError& e) {
      return e;
    }
    return CaseError("", "<none>", "accepted");
  }();
  EXPECT_EQ(error.key(), "fem.block_size") << error.what();
  EXPECT_NE(std::string(error.what()).find("expected target.type \"elastic_halfspace\""),
            std::string::npos)
      << error.what();
  d["target"] = glass();
  EXPECT_EQ(*parse_case(d, "good.json").fem.block_size, 0.1);
  d["fem"]["block_size"] = -1;
  EXPECT_THROW(parse_case(d, "bad.json"), CaseError);
}

// ---- target.type "sphere": a second free sphere at rest --------------------------------------

namespace {

json steel_sphere_target(double radius) {
  return {{"type", "sphere"},
          {"radius", radius},
          {"material", {{"young_modulus", 210e9}, {"poisson_ratio", 0.3}, {"density", 7850}}}};
}

json two_steel_spheres() {
  return {{"name", "two-spheres"},
          {"body", {{"shape", "sphere"}, {"radius", 0.005}}},
          {"material", {{"young_modulus", 210e9}, {"poisson_ratio", 0.3}, {"density", 7850}}},
          {"target", steel_sphere_target(0.005)},
          {"contact", {{"friction", 0.1}}},
          {"impact", {{"normal_speed", 1.0}, {"tangential_speed", 0.0}}}};
}

void expect_sphere_rejected(const json& target, const std::string& key,
                            const std::string& fragment) {
  json document = two_steel_spheres();
  document["target"] = target;
  SCOPED_TRACE(target.dump());
  const CaseError error = rejection(document);
  bool named = false;  // the key among the problems, with the file and what was expected
  for (const Problem& p : error.problems()) named |= p.key == key;
  EXPECT_TRUE(named) << error.what();
  const std::string message = error.what();
  EXPECT_NE(message.find("bad.json: " + key), std::string::npos) << message;
  EXPECT_NE(message.find(fragment), std::string::npos) << message;
}

}  // namespace

// Two identical steel spheres (R = 5 mm, rho = 7850): the pair's quantities against their
// definitions computed here from the inputs. m* = m/2, R* = R/2, E* = E/(2(1 - nu^2)), beta = 0;
// the compliance at P is N1 + N2 = diag(1/m + R^2/I, 1/m) x 2 = diag(3.5, 1)/m*, so lambda =
// 2.5/4.5 = 5/9 and theta = 0 (one sphere of mass m* on a rigid plane), Hertz's normal mass m*.
// Arithmetic on the same inputs in another order: 1e-14 relative.
TEST(SphereTarget, IdenticalSpheresHaveTheEquivalentBodysConstants) {
  const Case c = parse_case(two_steel_spheres(), "two.json");
  EXPECT_EQ(c.target.type, TargetType::sphere);
  EXPECT_TRUE(c.target.moves());
  EXPECT_FALSE(c.target.rigid());
  EXPECT_EQ(c.target.radius, 0.005);
  EXPECT_EQ(*c.target.density, 7850);
  const Derived d = derive(c);
  const double R = 0.005, m = 7850 * 4.0 / 3.0 * M_PI * R * R * R, m_star = m / 2;
  ASSERT_TRUE(d.target_body.has_value());
  EXPECT_NEAR(d.target_body->mass, m, 1e-14 * m);
  EXPECT_NEAR(d.target_body->central_inertia(2, 2), 0.4 * m * R * R, 1e-14 * m * R * R);
  EXPECT_EQ(d.target_body->centre_of_mass, Eigen::Vector3d(0, -R, 0));
  EXPECT_NEAR(d.hertz.normal_mass, m_star, 1e-14 * m);
  EXPECT_NEAR(d.hertz.radius, R / 2, 1e-16);
  EXPECT_NEAR(d.contact_modulus, 210e9 / (2 * (1 - 0.09)), 1e-14 * 210e9);
  EXPECT_EQ(d.pair.dundurs_beta, 0.0);
  EXPECT_NEAR(d.pair.poisson_ratio, 0.3, 1e-14);
  EXPECT_NEAR(d.lambda, 5.0 / 9.0, 1e-14);
  EXPECT_EQ(d.theta, 0.0);
  EXPECT_NEAR(d.effective_mass, m_star / 2.25, 1e-14 * m);
  const Eigen::Matrix2d N = d.body_inverse_inertia + d.target_inverse_inertia;
  EXPECT_NEAR(N(0, 0), 3.5 / m_star, 1e-13 / m_star);
  EXPECT_NEAR(N(1, 1), 1.0 / m_star, 1e-13 / m_star);
  EXPECT_EQ(N(0, 1), 0.0);
  EXPECT_NEAR((d.inverse_inertia - N).norm(), 0, 1e-13 / m_star);
  // The target's own compliance is the body's (identical spheres, centres mirrored through P).
  EXPECT_NEAR((d.target_inverse_inertia - d.body_inverse_inertia).norm(), 0, 1e-13 / m);
  // Michalczyk's reduced mass and radius of the pair (eqs. 3.2, 3.10): Phi = m* v^2 / (2 R*^3).
  EXPECT_NEAR(d.energy_flux_density, m_star / (2 * std::pow(R / 2, 3)),
              1e-13 * d.energy_flux_density);
  // `rebound check --json` carries the target sphere and both compliances.
  const json j = to_json(c, d);
  EXPECT_EQ(j["target"], "sphere");
  EXPECT_NEAR(j["target_body"]["mass"].get<double>(), m, 1e-14 * m);
  EXPECT_EQ(j["inverse_inertia_target"].size(), 2u);
}

// Unequal spheres (R2 = 2 R1, aluminium on steel) and a capsule against a sphere: the pair's
// compliance is the sum of the bodies' at P, whatever the body. For the rod, N1 is the rod's on a
// rigid plane (the same function of its mass properties) and N2 the sphere's diag(3.5, 1)/m2;
// lambda, theta and m follow from N1 + N2 (planar_inertia), R* = R1 R2/(R1 + R2).
TEST(SphereTarget, PairComplianceIsTheSumOfTheBodies) {
  json document = two_steel_spheres();
  document["material"] = {{"young_modulus", 70e9}, {"poisson_ratio", 0.33}, {"density", 2700}};
  document["target"] = steel_sphere_target(0.01);
  const Derived d = derive(parse_case(document, "unequal.json"));
  const double m1 = 2700 * 4.0 / 3.0 * M_PI * std::pow(0.005, 3);
  const double m2 = 7850 * 4.0 / 3.0 * M_PI * std::pow(0.01, 3);
  const double m_star = m1 * m2 / (m1 + m2);
  EXPECT_NEAR(d.hertz.normal_mass, m_star, 1e-14 * m_star);
  EXPECT_NEAR(d.hertz.radius, 0.005 * 0.01 / 0.015, 1e-16);
  EXPECT_NEAR(d.inverse_inertia(0, 0), 3.5 / m_star, 1e-13 / m_star);
  EXPECT_NEAR(d.lambda, 5.0 / 9.0, 1e-14);
  EXPECT_EQ(d.theta, 0.0);

  const Case rod_on_plane = load_case(REBOUND_SOURCE_DIR "/cases/rod-lai-a.json");
  json rod = rod_on_plane.raw;
  rod["lumped"].erase("lambda");
  rod["lumped"].erase("theta");
  rod["lumped"].erase("theta_deg");
  rod["target"] = steel_sphere_target(0.2);
  const Case rod_on_sphere = parse_case(rod, "rod.json");
  const Derived plane = derive(without_lumped_overrides(rod_on_plane));
  const Derived sphere = derive(rod_on_sphere);
  EXPECT_NEAR((sphere.body_inverse_inertia - plane.inverse_inertia).norm(), 0,
              1e-12 * plane.inverse_inertia.norm());
  const double m_sphere = 7850 * 4.0 / 3.0 * M_PI * std::pow(0.2, 3);
  EXPECT_NEAR(sphere.target_inverse_inertia(0, 0), 3.5 / m_sphere, 1e-13 / m_sphere);
  EXPECT_NEAR(sphere.target_inverse_inertia(1, 1), 1.0 / m_sphere, 1e-13 / m_sphere);
  const PlanarInertia pair = planar_inertia(plane.inverse_inertia + sphere.target_inverse_inertia);
  EXPECT_NEAR(sphere.lambda, pair.lambda, 1e-12);
  EXPECT_NEAR(sphere.theta, pair.theta, 1e-12);
  EXPECT_NEAR(sphere.effective_mass, pair.effective_mass, 1e-12 * pair.effective_mass);
  // The sphere's compliance adds most along t (3.5/m2 against 1/m2): the pair's principal
  // direction and lambda move away from the rod's own.
  EXPECT_NE(sphere.lambda, plane.lambda);
  const double R1 = rod_on_plane.body.radius;
  EXPECT_NEAR(sphere.hertz.radius, R1 * 0.2 / (R1 + 0.2), 1e-16);
}

// A target sphere of huge radius and density is the elastic half-space of its material: m2 and
// R2 -> infinity leave N2 -> 0 and R* -> R1. With R2 = 1e7 R1, R* differs by 1e-7 and N2 by
// 1e-18 of N1; the derived quantities agree to 1e-6 relative.
TEST(SphereTarget, HugeSphereIsTheElasticHalfSpace) {
  json document = two_steel_spheres();
  document["target"] = steel_sphere_target(0.005 * 1e7);
  document["target"]["material"]["density"] = 1e5;
  const Derived huge = derive(parse_case(document, "huge.json"));
  document["target"] = {{"type", "elastic_halfspace"},
                        {"material", {{"young_modulus", 210e9}, {"poisson_ratio", 0.3}}}};
  const Derived halfspace = derive(parse_case(document, "halfspace.json"));
  for (const auto& [name, a, b] :
       {std::tuple{"effective mass", huge.effective_mass, halfspace.effective_mass},
        std::tuple{"lambda", huge.lambda, halfspace.lambda},
        std::tuple{"E*", huge.contact_modulus, halfspace.contact_modulus},
        std::tuple{"R", huge.hertz.radius, halfspace.hertz.radius},
        std::tuple{"t_c", huge.hertz.duration, halfspace.hertz.duration},
        std::tuple{"F_max", huge.hertz.peak_force, halfspace.hertz.peak_force},
        std::tuple{"eta", huge.length_scale, halfspace.length_scale}})
    EXPECT_NEAR(a / b, 1, 1e-6) << name;
  EXPECT_EQ(huge.theta, halfspace.theta);
}

TEST(SphereTarget, BadSphereTargetsAreRejectedNamingFileAndKey) {
  json t = steel_sphere_target(0.005);
  t["material"].erase("density");
  expect_sphere_rejected(t, "target.material.density", "is missing; expected the target sphere's");
  t = steel_sphere_target(-0.005);
  expect_sphere_rejected(t, "target.radius", "is -0.005; expected the target sphere's radius R2");
  t = steel_sphere_target(0);
  expect_sphere_rejected(t, "target.radius", "R2 > 0 m");
  t = steel_sphere_target(0.005);
  t.erase("radius");
  expect_sphere_rejected(t, "target.radius", "is missing");
  t = steel_sphere_target(0.005);
  t["mass"] = 1;
  expect_sphere_rejected(t, "target.mass", "is not a known key");
  t = steel_sphere_target(0.005);
  t["material"]["yield_stress"] = 1e9;
  expect_sphere_rejected(t, "target.material.yield_stress", "is not a known key");
  t = steel_sphere_target(0.005);
  t["material"]["density"] = -1;
  expect_sphere_rejected(t, "target.material.density", "density > 0");
  t = steel_sphere_target(0.005);
  t.erase("material");
  expect_sphere_rejected(t, "target.material", "\"density\"} of the target sphere");
  // Both problems of one file are reported, not only the first.
  t = steel_sphere_target(-1);
  t["material"].erase("density");
  json document = two_steel_spheres();
  document["target"] = t;
  EXPECT_EQ(rejection(document).problems().size(), 2u);
  // A radius belongs to the socket and the sphere only.
  expect_rejected({{"type", "elastic_halfspace"},
                   {"radius", 0.1},
                   {"material", {{"young_modulus", 70e9}, {"poisson_ratio", 0.25}}}},
                  "target.radius", "\"spherical_socket\" or \"sphere\" with it");
}

// The FEM takes the target sphere struck by an elastic sphere, of the same material or another
// (each body's cells have their own); another body shape or material model is refused naming
// what to change.
TEST(SphereTarget, FemTakesAnElasticSphereOfItsOwnMaterial) {
  EXPECT_EQ(fem_target_problem(parse_case(two_steel_spheres(), "two.json")), "");
  json glass = two_steel_spheres();
  glass["target"]["material"] = {
      {"young_modulus", 70e9}, {"poisson_ratio", 0.22}, {"density", 2500}};
  EXPECT_EQ(fem_target_problem(parse_case(glass, "two.json")), "");
  const auto refused = [](json document, const std::string& key, const std::string& fragment) {
    const Case c = parse_case(document, "two.json");
    EXPECT_NE(fem_target_problem(c).find(fragment), std::string::npos) << fem_target_problem(c);
    try {
      require_fem_target(c);
      ADD_FAILURE() << "accepted: " << document.dump();
    } catch (const CaseError& error) {
      EXPECT_EQ(error.key(), key);
      const std::string message = error.what();
      EXPECT_NE(message.find("two.json: " + key), std::string::npos) << message;
    }
  };
  json capsule = two_steel_spheres();
  capsule["body"] = {{"shape", "capsule"}, {"radius", 0.005}, {"length", 0.01}};
  capsule["impact"]["theta"] = 0.0;
  refused(capsule, "body.shape", "expected body.shape \"sphere\"");
}

// `rebound check`'s table says whether the FEM takes the case's target, and if not, why in the
// words of its refusal: a half-space without its density is the lumped models' only; with it,
// every model's (the FEM meshes it as a block of that mass).
TEST(ElasticTarget, CheckSaysWhetherTheFemTakesTheHalfspace) {
  const Case bare = parse_case(sphere_on(glass()), "glass.json");
  const std::string refused = derived_table(bare, derive(bare));
  EXPECT_NE(refused.find("(lumped and half-space models only; not the FEM: "
                         "target.material.density is missing;"),
            std::string::npos)
      << refused;
  json dense = glass();
  dense["material"]["density"] = 2500;
  const Case c = parse_case(sphere_on(dense), "glass.json");
  const std::string taken = derived_table(c, derive(c));
  EXPECT_NE(taken.find("rho = 2500 kg/m^3 (every model, the FEM included)"), std::string::npos)
      << taken;
}

namespace {

json glass_plate() {
  return {{"type", "elastic_plate"},
          {"thickness", 0.004},
          {"half_width", 0.05},
          {"material", {{"young_modulus", 70e9}, {"poisson_ratio", 0.25}, {"density", 2500}}}};
}

}  // namespace

// A plate's keys: thickness and half-width required and > 0, edge "free" (default) or "clamped",
// its material with the density its flexure needs; the keys a plate alone has are refused on
// another target. Each problem names the file and the key.
TEST(PlateTarget, ReadsItsGeometryAndRefusesBadValuesNamingTheKey) {
  const Case c = parse_case(sphere_on(glass_plate()), "plate.json");
  EXPECT_EQ(c.target.type, TargetType::elastic_plate);
  EXPECT_EQ(c.target.thickness, 0.004);
  EXPECT_EQ(c.target.half_width, 0.05);
  EXPECT_EQ(c.target.edge, PlateEdge::free);
  EXPECT_FALSE(c.target.rigid());
  EXPECT_FALSE(c.target.moves());
  json clamped = glass_plate();
  clamped["edge"] = "clamped";
  EXPECT_EQ(parse_case(sphere_on(clamped), "plate.json").target.edge, PlateEdge::clamped);
  // The local contact is Hertz's on the plate's material: the half-space's pair.
  json halfspace = glass();
  halfspace["material"]["density"] = 2500;
  EXPECT_EQ(derive(c).hertz.contact_modulus,
            derive(parse_case(sphere_on(halfspace), "glass.json")).hertz.contact_modulus);

  const auto bad = [](const std::string& key, const json& value, const std::string& fragment) {
    json t = glass_plate();
    if (value.is_null())
      t.erase(key);
    else
      t[key] = value;
    expect_rejected(t, "target." + key, fragment);
  };
  bad("thickness", nullptr, "the plate's thickness h > 0 m");
  bad("thickness", 0, "the plate's thickness h > 0 m");
  bad("half_width", nullptr, "the plate's half-width L > 0 m");
  bad("half_width", -0.05, "the plate's half-width L > 0 m");
  bad("edge", "simply_supported", "\"free\"");
  json no_density = glass_plate();
  no_density["material"].erase("density");
  expect_rejected(no_density, "target.material.density", "the plate's density > 0 kg/m^3");
  json on_halfspace = glass();
  on_halfspace["thickness"] = 0.004;
  expect_rejected(on_halfspace, "target.thickness", "expected target.type \"elastic_plate\"");
}

// The FEM takes the plate struck by an elastic sphere; the lumped and half-space models do not
// (none has its flexure), and `rebound check` says so.
TEST(PlateTarget, TheFemOnlyTakesIt) {
  const Case c = parse_case(sphere_on(glass_plate()), "plate.json");
  EXPECT_EQ(fem_target_problem(c), "");
  EXPECT_NE(lumped_target_problem(c).find("no lumped or half-space model has a plate's flexure"),
            std::string::npos);
  try {
    require_lumped_target(c);
    ADD_FAILURE() << "the lumped models took a plate";
  } catch (const CaseError& error) {
    EXPECT_EQ(error.key(), "target.type");
  }
  EXPECT_EQ(lumped_target_problem(parse_case(sphere_on(glass()), "glass.json")), "");
  const std::string table = derived_table(c, derive(c));
  EXPECT_NE(table.find("target: elastic plate, thickness h = 0.004 m, half-width L = 0.05 m, "
                       "edges free"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("(the FEM only: no lumped or half-space model has its flexure)"),
            std::string::npos)
      << table;
}
