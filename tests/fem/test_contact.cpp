// The FEM's kinematic Coulomb contact (fem/contact.h) on one node, against what the law states:
// the node ends exactly on the plane, the normal impulse is compressive, stick stops the node
// within the friction cone, slip takes exactly mu J_n off against the sliding direction, and
// friction never does positive work.
#include <gtest/gtest.h>

#include <cmath>

#include "fem/contact.h"

using rebound::fem::rigid_plane_contact;

namespace {
constexpr double kMass = 2.0, kDt = 1e-3;
}

TEST(FemContact, NodeAboveThePlaneAfterTheStepIsUntouched) {
  Eigen::Vector3d v(0.3, -0.5, 0), v0 = v;
  const auto c = rigid_plane_contact(1e-3, v, v0, kMass, kDt, 0.5);  // y + dt vy = 5e-4 > 0
  EXPECT_FALSE(c.active);
  EXPECT_EQ(v, v0);
}

TEST(FemContact, PenetratingNodeEndsOnThePlaneWithACompressiveImpulse) {
  const double y = 2e-4;
  Eigen::Vector3d v(0, -0.5, 0), v0 = v;  // would reach y + dt vy = -3e-4
  const auto c = rigid_plane_contact(y, v, v0, kMass, kDt, 0.0);
  ASSERT_TRUE(c.active);
  EXPECT_DOUBLE_EQ(y + kDt * v.y(), 0.0);
  EXPECT_DOUBLE_EQ(c.impulse.y(), kMass * (-y / kDt + 0.5));
  EXPECT_GT(c.impulse.y(), 0);
  EXPECT_EQ(c.friction_work, 0);
}

TEST(FemContact, NodeMovingAwayIsReleased) {
  // Below the plane (y < 0) but leaving faster than the correction asks: no tensile impulse.
  Eigen::Vector3d v(0, 5.0, 0), v0 = v;
  const auto c = rigid_plane_contact(-1e-3, v, v0, kMass, kDt, 0.5);  // -y/dt = 1 < 5
  EXPECT_FALSE(c.active);
  EXPECT_EQ(v, v0);
}

TEST(FemContact, StickStopsTheNodeInsideTheCone) {
  Eigen::Vector3d v(0.01, -0.5, 0.02), v0 = v;
  const auto c = rigid_plane_contact(0.0, v, v0, kMass, kDt, 0.5);  // J_n = m 0.5 = 1
  ASSERT_TRUE(c.active);
  EXPECT_EQ(v.x(), 0);
  EXPECT_EQ(v.z(), 0);
  EXPECT_LE(std::hypot(c.impulse.x(), c.impulse.z()), 0.5 * c.impulse.y());
  EXPECT_GE(c.friction_work, 0);
}

TEST(FemContact, SlipTakesMuJnAgainstTheSlidingDirection) {
  const double mu = 0.1;
  Eigen::Vector3d v(3.0, -0.5, 4.0), v0 = v;  // |v_t| = 5, m |v_t| = 10 > mu J_n = 0.1
  const auto c = rigid_plane_contact(0.0, v, v0, kMass, kDt, mu);
  ASSERT_TRUE(c.active);
  const double jn = c.impulse.y();
  EXPECT_NEAR(std::hypot(c.impulse.x(), c.impulse.z()), mu * jn, 1e-15);
  // Against (3, 4)/5, and the velocity keeps its direction with |v_t| reduced by mu J_n / m.
  EXPECT_NEAR(c.impulse.x() / c.impulse.z(), 0.75, 1e-14);
  EXPECT_LT(c.impulse.x(), 0);
  EXPECT_NEAR(std::hypot(v.x(), v.z()), 5 - mu * jn / kMass, 1e-14);
  EXPECT_NEAR(v.x() / v.z(), 0.75, 1e-14);
  EXPECT_GT(c.friction_work, 0);
}
