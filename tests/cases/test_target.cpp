// The target of a case: the rigid plane (default) or an elastic half-space. The pair's elastic
// constants (cases::contact_pair) against hand values, the parser's errors for a bad target, and
// the FEM's refusal of an elastic target.
#include <gtest/gtest.h>

#include <cmath>

#include "cases/case.h"
#include "cases/derived.h"
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

// The FEM models the rigid targets only: the FEM commands refuse an elastic target naming the
// file, target.type and what the FEM supports (tests/app: exit 2 of each command).
TEST(Target, FemRefusesAnElasticTarget) {
  const Case rigid = parse_case(sphere_on({{"type", "rigid_plane"}}), "rigid.json");
  EXPECT_EQ(fem_target_problem(rigid), "");
  EXPECT_NO_THROW(require_fem_target(rigid));
  const Case c = parse_case(sphere_on(glass()), "glass.json");
  try {
    require_fem_target(c);
    ADD_FAILURE() << "accepted";
  } catch (const CaseError& error) {
    EXPECT_EQ(error.key(), "target.type");
    const std::string message = error.what();
    EXPECT_NE(message.find("glass.json: target.type is \"elastic_halfspace\""), std::string::npos)
        << message;
    EXPECT_NE(message.find("expected target.type \"rigid_plane\""), std::string::npos) << message;
  }
}
