// The FEM's two seams on their own: the target (fem/targets/) and the material (fem/materials/).
#include <deal.II/base/symmetric_tensor.h>
#include <deal.II/base/vectorization.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "cases/case.h"
#include "cases/derived.h"
#include "fem/materials/material.h"
#include "fem/targets/elastic_halfspace.h"
#include "fem/targets/rigid_plane.h"
#include "fem/targets/target.h"
#include "fem_cases.h"

namespace {

using dealii::SymmetricTensor;
using rebound::fem::materials::LinearElastic;

// Hooke's law in its textbook forms: under uniaxial strain eps along x, sigma_xx = (lambda + 2 mu)
// eps = E (1 - nu) / ((1 + nu)(1 - 2 nu)) eps (the P-wave modulus) and sigma_yy = sigma_zz =
// lambda eps; under a shear strain eps_xy = gamma / 2, sigma_xy = G gamma, G = E / (2 (1 + nu)).
// Steel-like constants; relative tolerance: a few operations' round-off.
TEST(FemMaterial, LinearElasticIsHookesLaw) {
  const double E = 210e9, nu = 0.3, eps = 1e-4, gamma = 2e-4;
  const LinearElastic steel = LinearElastic::from_young_poisson(E, nu);
  SymmetricTensor<2, 3> uniaxial;
  uniaxial[0][0] = eps;
  const SymmetricTensor<2, 3> s = steel.stress(uniaxial);
  const double p_modulus = E * (1 - nu) / ((1 + nu) * (1 - 2 * nu));
  EXPECT_NEAR(s[0][0], p_modulus * eps, 1e-14 * p_modulus * eps);
  EXPECT_NEAR(s[1][1], E * nu / ((1 + nu) * (1 - 2 * nu)) * eps, 1e-14 * p_modulus * eps);
  EXPECT_DOUBLE_EQ(s[1][1], s[2][2]);
  EXPECT_EQ(s[0][1], 0.0);
  SymmetricTensor<2, 3> shear;
  shear[0][1] = gamma / 2;
  const SymmetricTensor<2, 3> t = steel.stress(shear);
  EXPECT_NEAR(t[0][1], E / (2 * (1 + nu)) * gamma, 1e-14 * E * gamma);
  EXPECT_EQ(t[0][0] + t[1][1] + t[2][2], 0.0);  // a shear changes no volume
}

// The kernel evaluates the stress on SIMD batches of cells (VectorizedArray; the widths this
// build's deal.II offers to a test: one lane), the VTK output on doubles: the same numbers.
TEST(FemMaterial, BatchOfCellsGivesTheCellsStress) {
  const LinearElastic m = LinearElastic::from_young_poisson(70e9, 0.22);
  using Batch = dealii::VectorizedArray<double, 1>;
  SymmetricTensor<2, 3, Batch> strains;
  SymmetricTensor<2, 3> one;
  for (unsigned int i = 0; i < 3; ++i)
    for (unsigned int j = i; j < 3; ++j) {
      one[i][j] = 1e-4 * (1 + i + 3 * j);
      strains[i][j][0] = one[i][j];
    }
  const auto batch = m.stress(strains);
  const SymmetricTensor<2, 3> a = m.stress(one);
  for (unsigned int i = 0; i < 3; ++i)
    for (unsigned int j = i; j < 3; ++j) EXPECT_EQ(batch[i][j][0], a[i][j]);
}

// The rigid plane: the gap of a point is its height, the normal +y everywhere, and its contact
// law is fem/contact.h's kinematic Coulomb contact on the height (tests/fem/test_contact.cpp):
// a node 0.2 mm above the plane moving down at 0.5 m/s over 1 ms lands on it, with the impulse
// m (-y/dt - v_y).
TEST(FemTarget, RigidPlaneGapNormalAndContact) {
  const rebound::fem::RigidPlane plane(0.3);
  const Eigen::Vector3d x(0.01, 2e-4, -0.02);
  EXPECT_EQ(plane.gap(x), 2e-4);
  EXPECT_EQ(plane.normal(x), Eigen::Vector3d::UnitY());
  Eigen::Vector3d v(0, -0.5, 0);
  const Eigen::Vector3d v0 = v;
  const double m = 2.0, dt = 1e-3;
  const auto c = plane.contact(x, v, v0, m, dt);
  ASSERT_TRUE(c.active);
  EXPECT_DOUBLE_EQ(x.y() + dt * v.y(), 0.0);
  EXPECT_DOUBLE_EQ(c.impulse.y(), m * (-x.y() / dt + 0.5));
}

// The case's target decides: the rigid plane is the FEM's, its mesh refined over Hertz's contact
// radius; an elastic half-space without its density is refused naming target.material.density,
// before any mesh is built; with it, it is a block.
TEST(FemTarget, CaseChoosesTheTargetAndItsMesh) {
  rebound::cases::Case c = rebound::test::small_hertz(1);
  const auto plane = rebound::fem::make_target(c);
  EXPECT_NE(dynamic_cast<const rebound::fem::RigidPlane*>(plane.get()), nullptr);
  EXPECT_DOUBLE_EQ(rebound::fem::mesh_options(c, 0).contact_radius,
                   rebound::cases::derive(c).hertz.contact_radius);
  c.target.type = rebound::cases::TargetType::elastic_halfspace;
  c.target.young_modulus = 70e9;
  c.target.poisson_ratio = 0.22;
  try {
    rebound::fem::make_target(c);
    FAIL() << "a half-space without a density accepted by the FEM";
  } catch (const rebound::cases::CaseError& error) {
    EXPECT_NE(std::string(error.what()).find("target.material.density"), std::string::npos)
        << error.what();
  }
  // With it: a block, its mesh refined over the pair's Hertz radius.
  c.target.density = 2500;
  const auto block = rebound::fem::make_target(c);
  EXPECT_NE(dynamic_cast<const rebound::fem::ElasticHalfspace*>(block.get()), nullptr);
  const auto options = rebound::fem::mesh_options(c, 0);
  EXPECT_DOUBLE_EQ(options.contact_radius, rebound::cases::derive(c).hertz.contact_radius);
  EXPECT_GT(options.target_block, 0.0);
}

}  // namespace
