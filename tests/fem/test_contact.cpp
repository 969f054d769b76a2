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

// The curved-surface form (rigid_surface_contact, used by the spherical socket) is the plane's law
// in the surface's local frame: for any rotation Q, the node state rotated by Q against the
// normal Q e_y gives the plane's velocity, impulse and works rotated by Q (round-off only), in
// each of the law's branches (untouched, stick, slip, released).
TEST(FemContact, CurvedSurfaceLawIsThePlaneLawInTheLocalFrame) {
  using rebound::fem::rigid_surface_contact;
  const Eigen::Matrix3d q = (Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()) *
                             Eigen::AngleAxisd(-1.9, Eigen::Vector3d(-2, 0.5, 1).normalized()))
                                .toRotationMatrix();
  struct State {
    double gap, mu;
    Eigen::Vector3d v;
  };
  const State states[] = {{1e-3, 0.5, {0.3, -0.5, 0}},  {2e-4, 0.0, {0, -0.5, 0}},
                          {-1e-3, 0.5, {0, 5.0, 0}},    {0.0, 0.5, {0.01, -0.5, 0.02}},
                          {0.0, 0.1, {3.0, -0.5, 4.0}}, {-3e-5, 0.3, {-0.2, -0.1, 0.05}}};
  for (const State& s : states) {
    Eigen::Vector3d v_plane = s.v, v0 = s.v;
    const auto plane = rigid_plane_contact(s.gap, v_plane, v0, kMass, kDt, s.mu);
    Eigen::Vector3d v_curved = q * s.v;
    const Eigen::Vector3d v0_curved = q * v0;
    const auto curved = rigid_surface_contact(s.gap, q * Eigen::Vector3d::UnitY(), v_curved,
                                              v0_curved, kMass, kDt, s.mu);
    EXPECT_EQ(curved.active, plane.active);
    EXPECT_EQ(curved.stick, plane.stick);
    EXPECT_LT((v_curved - q * v_plane).norm(), 1e-14 * (1 + s.v.norm()));
    EXPECT_LT((curved.impulse - q * plane.impulse).norm(), 1e-14 * (1 + plane.impulse.norm()));
    EXPECT_NEAR(curved.friction_work, plane.friction_work, 1e-14 * (1 + plane.friction_work));
    EXPECT_NEAR(curved.normal_work, plane.normal_work, 1e-14 * (1 + std::abs(plane.normal_work)));
    if (curved.active) {  // the node ends on the tangent plane
      EXPECT_NEAR(s.gap + kDt * v_curved.dot(q * Eigen::Vector3d::UnitY()), 0, 1e-17);
    }
  }
}
