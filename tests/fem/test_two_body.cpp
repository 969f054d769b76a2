// Two deformable bodies: the kinematic node-to-facet contact on its own (fem/two_body_contact.h)
// and the FEM's two-sphere impact (fem/targets/elastic_sphere.h) against two-body Hertz: two
// identical steel spheres head-on, R* = R/2, E* = E/(2(1 - nu^2)), m* = m/2 (Johnson 1985,
// sec. 11.4).
#include <deal.II/base/mpi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "cases/case.h"
#include "cases/derived.h"
#include "fem/fem.h"
#include "fem/targets/elastic_sphere.h"
#include "fem/two_body_contact.h"
#include "tests/fem/fem_cases.h"
#include "tests/fem/summary_difference.h"

namespace {

using rebound::cases::Case;
using rebound::fem::Facet;
using rebound::fem::SurfaceNode;

double relative(double a, double b) {
  return std::abs(a - b) / std::abs(b);
}

// A unit square facet of body 1 in the plane y = 0 (normal +y, out of body 1 below it), corners
// at x, z in {0, h}, masses m each; and a node of body 0 of mass m0 at (x, y, z).
struct Patch {
  std::vector<SurfaceNode> nodes;
  std::vector<Facet> facets;
};

Patch patch(double h, double m, const Eigen::Vector3d& node, double m0) {
  Patch p;
  // (xi, eta) -> (x, z) = (xi h, eta h); dx/dxi x dx/deta = e_x x e_z = -e_y: so xi along z.
  const Eigen::Vector3d corners[4] = {{0, 0, 0}, {0, 0, h}, {h, 0, 0}, {h, 0, h}};
  Facet f;
  f.body = 1;
  for (int c = 0; c < 4; ++c) {
    SurfaceNode n;
    n.body = 1;
    n.X = corners[c];
    n.mass = m;
    n.area = h * h / 4;
    p.nodes.push_back(n);
    f.corner[c] = {{c, 1.0}};
  }
  p.facets.push_back(f);
  SurfaceNode s;
  s.body = 0;
  s.X = node;
  s.mass = m0;
  s.area = h * h / 4;
  p.nodes.push_back(s);
  return p;
}

Eigen::Vector3d momentum(const std::vector<SurfaceNode>& nodes) {
  Eigen::Vector3d p = Eigen::Vector3d::Zero();
  for (const SurfaceNode& n : nodes) p += n.mass * n.v;
  return p;
}

}  // namespace

// The projection onto a bilinear patch: a flat square returns the in-plane coordinates; a warped
// patch returns a point whose offset from s is normal to the patch there.
TEST(TwoBodyContact, ClosestPointOnABilinearPatch) {
  const std::array<Eigen::Vector3d, 4> flat = {{Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(2, 0, 0),
                                                Eigen::Vector3d(0, 2, 0),
                                                Eigen::Vector3d(2, 2, 0)}};
  const Eigen::Vector2d q = rebound::fem::closest_point_on_bilinear(flat, {0.5, 1.5, -0.3});
  EXPECT_NEAR(q[0], 0.25, 1e-14);
  EXPECT_NEAR(q[1], 0.75, 1e-14);
  const std::array<Eigen::Vector3d, 4> warped = {
      {Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1, 0, 0.2), Eigen::Vector3d(0, 1, -0.1),
       Eigen::Vector3d(1, 1, 0.4)}};
  const Eigen::Vector3d s(0.3, 0.6, 0.5);
  const Eigen::Vector2d w = rebound::fem::closest_point_on_bilinear(warped, s);
  const double xi = w[0], eta = w[1];
  const Eigen::Vector3d x = (1 - xi) * (1 - eta) * warped[0] + xi * (1 - eta) * warped[1] +
                            (1 - xi) * eta * warped[2] + xi * eta * warped[3];
  const Eigen::Vector3d t0 = (1 - eta) * (warped[1] - warped[0]) + eta * (warped[3] - warped[2]);
  const Eigen::Vector3d t1 = (1 - xi) * (warped[2] - warped[0]) + xi * (warped[3] - warped[1]);
  EXPECT_LT(std::abs((s - x).dot(t0)), 1e-13);
  EXPECT_LT(std::abs((s - x).dot(t1)), 1e-13);
}

// A node falling onto the facet's interior: after the contact its predicted position lies on the
// facet's predicted plane, the normal impulse is J = -g / (dt w) with w = 1/m0 + sum N_k^2/m, the
// facet's nodes take -N_k J, and the total momentum is unchanged to round-off. Frictionless: the
// node's tangential velocity is kept.
TEST(TwoBodyContact, NodeOnFacetClosesTheGapAndConservesMomentum) {
  const double h = 1e-3, m = 2e-4, m0 = 3e-4, dt = 1e-7;
  Patch p = patch(h, m, {0.3e-3, 1e-9, 0.6e-3}, m0);
  p.nodes[4].v = {0.2, -1.0, -0.1};
  p.nodes[4].v_previous = p.nodes[4].v;
  for (int k = 0; k < 4; ++k) p.nodes[k].v = p.nodes[k].v_previous = {0.01, 0.05, 0};
  const Eigen::Vector3d before = momentum(p.nodes);
  rebound::fem::TwoBodyContactOptions options;
  options.tolerance = 1e-15;
  const auto r = rebound::fem::two_body_contact(p.nodes, p.facets, dt, options);
  const Eigen::Vector3d after = momentum(p.nodes);
  EXPECT_LT((after - before).norm(), 1e-16 * before.norm() + 1e-22);
  // The node's predicted height equals the facet point's: x = 0.3 h, z = 0.6 h -> N = shape(0.6,
  // 0.3) in the facet's (xi along z, eta along x).
  const double xi = 0.6, eta = 0.3;
  const double N[4] = {(1 - xi) * (1 - eta), xi * (1 - eta), (1 - xi) * eta, xi * eta};
  double facet_height = 0, w = 1 / m0;
  for (int k = 0; k < 4; ++k) {
    facet_height += N[k] * (p.nodes[k].X.y() + dt * p.nodes[k].v.y());
    w += N[k] * N[k] / m;
  }
  const double node_height = p.nodes[4].X.y() + dt * p.nodes[4].v.y();
  // The facet tilts under its corners' unequal impulses (dt dv / h ~ 1e-5 rad): the heights agree
  // to the sweeps' tolerance over that tilt, far below the step's travel dt |v| = 1e-7 m.
  EXPECT_NEAR(node_height, facet_height, 1e-11);
  const double gap = 1e-9 + dt * (-1.0 - 0.05);  // before the contact
  EXPECT_NEAR(r.normal_impulse[4].y(), -gap / (dt * w), 1e-4 * std::abs(gap / (dt * w)));
  // The facet's nodes take -N_k J: to 1e-3, since the facet tilts under the unequal impulses of
  // its corners (by dt dv / h ~ 1e-5 rad here) and the next sweep adds its share.
  for (int k = 0; k < 4; ++k)
    EXPECT_NEAR(r.normal_impulse[k].y(), -N[k] * r.normal_impulse[4].y(),
                1e-3 * N[k] * r.normal_impulse[4].y());
  EXPECT_EQ(r.contact_nodes[0], 1);
  EXPECT_DOUBLE_EQ(p.nodes[4].v.x(), 0.2);  // frictionless
  EXPECT_DOUBLE_EQ(p.nodes[4].v.z(), -0.1);
  EXPECT_EQ(r.friction_work, 0);
}

// With the target's exact surface given (TwoBodyContactOptions::surface_gap), the gap is measured
// from it: the facet point lies surface_gap(F) outside the exact surface, at F's reference
// position. A node resting on the facet (apart by 1e-9 m) gets no impulse when the exact surface
// lies 2e-8 m below the facet, nor without it; a node falling onto the facet stops where the
// exact surface is, surface_gap(F) = 1e-4 x_F below the facet point (3e-8 m at x = 0.3 h), instead
// of on the facet; the momentum is kept either way.
TEST(TwoBodyContact, ExactSurfaceGapMeasuresFromTheTrueSurface) {
  const double h = 1e-3, m = 2e-4, m0 = 3e-4, dt = 1e-7;
  rebound::fem::TwoBodyContactOptions options;
  options.tolerance = 1e-15;
  options.surface_gap = [](const Eigen::Vector3d& x) { return 1e-4 * x.x(); };
  Patch p = patch(h, m, {0.3e-3, 0, 0.6e-3}, m0);
  p.nodes[4].v = p.nodes[4].v_previous = {0, -1.0, 0};
  const Eigen::Vector3d before = momentum(p.nodes);
  const auto r = rebound::fem::two_body_contact(p.nodes, p.facets, dt, options);
  EXPECT_LT((momentum(p.nodes) - before).norm(), 1e-16 * before.norm() + 1e-22);
  const double xi = 0.6, eta = 0.3;
  const double N[4] = {(1 - xi) * (1 - eta), xi * (1 - eta), (1 - xi) * eta, xi * eta};
  double facet_height = 0;
  for (int k = 0; k < 4; ++k) facet_height += N[k] * (p.nodes[k].X.y() + dt * p.nodes[k].v.y());
  const double node_height = p.nodes[4].X.y() + dt * p.nodes[4].v.y();
  EXPECT_NEAR(node_height - facet_height, -3e-8, 1e-11);
  EXPECT_GT(r.normal_impulse[4].y(), 0);
  // At rest just above the facet: apart from both the facet and the exact surface below it.
  for (const bool exact : {false, true}) {
    Patch q = patch(h, m, {0.3e-3, 1e-9, 0.6e-3}, m0);
    rebound::fem::TwoBodyContactOptions o;
    if (exact) o.surface_gap = [](const Eigen::Vector3d&) { return 2e-8; };
    const auto rest = rebound::fem::two_body_contact(q.nodes, q.facets, dt, o);
    EXPECT_EQ(rest.contact_nodes[0], 0) << exact;
  }
}

// Coulomb's law between the bodies: a node sliding fast slips with |J_t| = mu J_n against its
// relative sliding direction; a slow one sticks (its relative tangential velocity stopped, within
// the cone). The momentum is conserved in both, and the friction work is positive in slip.
TEST(TwoBodyContact, CoulombFrictionSlipsOrSticks) {
  const double h = 1e-3, m = 2e-4, m0 = 3e-4, dt = 1e-7, mu = 0.3;
  for (const double sliding : {2.0, 0.01}) {
    Patch p = patch(h, m, {0.5e-3, 0, 0.5e-3}, m0);
    p.nodes[4].v = p.nodes[4].v_previous = {sliding, -1.0, 0};
    const Eigen::Vector3d before = momentum(p.nodes);
    rebound::fem::TwoBodyContactOptions options;
    options.friction = mu;
    options.tolerance = 1e-15;
    const auto r = rebound::fem::two_body_contact(p.nodes, p.facets, dt, options);
    EXPECT_LT((momentum(p.nodes) - before).norm(), 1e-15 * before.norm());
    const double jn = r.normal_impulse[4].y(), jt = r.friction_impulse[4].x();
    ASSERT_GT(jn, 0);
    Eigen::Vector3d facet_velocity = Eigen::Vector3d::Zero();
    for (int k = 0; k < 4; ++k) facet_velocity += 0.25 * p.nodes[k].v;
    const double relative_sliding = p.nodes[4].v.x() - facet_velocity.x();
    if (sliding > 1) {
      EXPECT_NEAR(jt, -mu * jn, 1e-12 * jn);
      EXPECT_GT(relative_sliding, 0);
      EXPECT_GT(r.friction_work, 0);
    } else {
      EXPECT_LT(std::abs(jt), mu * jn);
      EXPECT_NEAR(relative_sliding, 0, 1e-12);
    }
  }
}

namespace {

// Four nodes of the body pressed onto one facet of the target (so their sweeps are coupled),
// moving with velocities times scale, mu = 0.3.
std::pair<rebound::fem::TwoBodyContactResult, Patch> coupled_impact(double scale,
                                                                    int max_sweeps = 200) {
  const double h = 1e-3, m = 2e-4, m0 = 3e-4, dt = 1e-7;
  Patch p = patch(h, m, {0.25e-3, 0, 0.25e-3}, m0);
  const double at[3][2] = {{0.75e-3, 0.25e-3}, {0.25e-3, 0.75e-3}, {0.75e-3, 0.75e-3}};
  for (const auto& xz : at) {
    SurfaceNode s = p.nodes[4];
    s.X = {xz[0], 0, xz[1]};
    p.nodes.push_back(s);
  }
  for (int k = 4; k < 8; ++k)
    p.nodes[k].v = p.nodes[k].v_previous = scale * Eigen::Vector3d(0.1 * (k - 4), -1.0, 0.05);
  rebound::fem::TwoBodyContactOptions options;
  options.friction = 0.3;
  options.max_sweeps = max_sweeps;
  return std::make_pair(rebound::fem::two_body_contact(p.nodes, p.facets, dt, options), p);
}

}  // namespace

// The sweeps stop on a tolerance relative to the step's motion, so a slow impact converges as a
// fast one does. Four nodes pressed onto one facet with friction (some stick, some slip): the
// contact step is homogeneous of degree one in the velocities (the gaps at t_n are zero, the
// gap at t_{n+1} is dt v . n, Coulomb's cone scales with J_n), so the same impact 1e4 times
// slower must give the impulses divided by 1e4, to round-off, after the same sweeps. (A
// tolerance in metres, the contact's first form, stopped the slow one after one sweep: at low
// speed its friction was not converged, docs/FEM.md "Two identical spheres, oblique".)
TEST(TwoBodyContact, SlowImpactConvergesAsAFastOne) {
  const double mu = 0.3;
  const auto impact = [](double scale) { return coupled_impact(scale); };
  const auto [fast, fast_nodes] = impact(1.0);
  const auto [slow, slow_nodes] = impact(1e-4);
  ASSERT_GT(fast.sweeps, 2);  // the nodes share the facet: the sweeps are coupled
  EXPECT_EQ(slow.sweeps, fast.sweeps);
  double largest = 0;
  for (int k = 0; k < 8; ++k) largest = std::max(largest, fast.normal_impulse[k].norm());
  for (int k = 0; k < 8; ++k) {
    EXPECT_LT((1e4 * slow.normal_impulse[k] - fast.normal_impulse[k]).norm(), 1e-12 * largest);
    EXPECT_LT((1e4 * slow.friction_impulse[k] - fast.friction_impulse[k]).norm(), 1e-12 * largest);
  }
  int slipping = 0;
  for (int k = 4; k < 8; ++k)
    slipping += fast.friction_impulse[k].norm() > (1 - 1e-9) * mu * fast.normal_impulse[k].norm();
  EXPECT_GT(slipping, 0);  // both regimes of the cone are exercised
  EXPECT_LT(slipping, 4);
  EXPECT_TRUE(fast.converged);
  EXPECT_TRUE(slow.converged);
}

// Sweeps stopped by their limit before the tolerance is met are reported (the run warns of such
// steps, fem/run.cpp); the limit at the sweeps the tolerance needs is not.
TEST(TwoBodyContact, SweepsStoppedShortOfTheToleranceAreReported) {
  const int needed = coupled_impact(1.0).first.sweeps;
  ASSERT_GT(needed, 2);
  const auto short_of_it = coupled_impact(1.0, needed - 1).first;
  EXPECT_EQ(short_of_it.sweeps, needed - 1);
  EXPECT_FALSE(short_of_it.converged);
  EXPECT_GT(short_of_it.correction, 1e-4 * short_of_it.travel);
  EXPECT_TRUE(coupled_impact(1.0, needed).first.converged);
}

namespace {

// The test-sized Hertz sphere (R = 10 mm steel, 1 m/s, tests/fem/fem_cases.h) striking an
// identical sphere at rest.
Case two_spheres(int degree) {
  Case c = rebound::test::small_hertz(degree);
  c.target.type = rebound::cases::TargetType::sphere;
  c.target.radius = c.body.radius;
  c.target.young_modulus = c.material.young_modulus;
  c.target.poisson_ratio = c.material.poisson_ratio;
  c.target.density = c.material.density;
  return c;
}

rebound::fem::RunResult run(const Case& c, MPI_Comm communicator) {
  rebound::fem::RunOptions options;
  options.frames = 0;
  return rebound::fem::run(c, options, communicator);
}

const rebound::fem::RunResult& two_sphere_run() {
  static const rebound::fem::RunResult r = run(two_spheres(1), MPI_COMM_SELF);
  return r;
}

}  // namespace

// Head-on, identical spheres: the contact's duration and peak force within 3 % of two-body Hertz
// (issue 36's acceptance; the same sphere on the rigid plane at this mesh is within 5 %); the
// total momentum of the two bodies conserved to round-off; the velocities exchanged (e ~ 1 less
// the vibrations' share), e in summary.json that of the relative motion; the energy balance of
// both bodies (the contact form that fixed its geometry at the predicted positions grew the energy
// by 162 % within 30 us of this run, the adopted one 3e-7: 1e-5 separates them with a margin).
TEST(FemTwoBody, IdenticalSpheresHeadOnAreTwoBodyHertz) {
  const auto& r = two_sphere_run();
  ASSERT_EQ(r.status, "completed") << r.message;
  // Every step's sweeps met their tolerance (the run warns of those that did not).
  EXPECT_EQ(r.summary["contact_unconverged_steps"].get<long long>(), 0);
  EXPECT_GE(r.summary["contact_sweeps_max"].get<int>(), 1);
  const auto h = rebound::cases::derive(two_spheres(1)).hertz;
  const double duration = r.summary["contact_duration"], peak = r.summary["peak_normal_force"];
  const auto& s0 = r.initial;
  const auto& s1 = r.final;
  const Eigen::Vector3d p0 = s0.momentum + s0.target.momentum;
  const Eigen::Vector3d p1 = s1.momentum + s1.target.momentum;
  const double e = (s1.target.centre_velocity.y() - s1.centre_velocity.y()) /
                   (s0.centre_velocity.y() - s0.target.centre_velocity.y());
  const double balance = r.summary["energy_balance_error"];
  std::printf(
      "two spheres: duration %.6e s (two-body Hertz %.6e, %+.2f %%), peak %.6e N (%.6e, "
      "%+.2f %%), momentum change %.3e of %.3e N s, e = %.5f, energy balance %.3e, %llu dofs\n",
      duration, h.duration, 100 * (duration / h.duration - 1), peak, h.peak_force,
      100 * (peak / h.peak_force - 1), (p1 - p0).norm(), p0.norm(), e, balance, r.info.dofs);
  EXPECT_LT(relative(duration, h.duration), 0.03);
  EXPECT_LT(relative(peak, h.peak_force), 0.03);
  EXPECT_LT((p1 - p0).norm(), 1e-12 * p0.norm());
  EXPECT_GT(e, 0.95);
  EXPECT_LT(e, 1.0);
  EXPECT_LT(balance, 1e-5);
  EXPECT_NEAR(s1.target.mass, s1.mass, 1e-12 * s1.mass);
  // summary.json: e of the relative motion (the body alone nearly stops: its own e is ~0), the
  // target's velocity, and the kinetic energy lost that of both bodies (e^2 = 1 - loss/KE0 for
  // a head-on impact of equal masses).
  EXPECT_NEAR(double(r.summary["e_newton"]), e, 1e-3);
  EXPECT_NEAR(double(r.summary["target_center_velocity_final"][1]), s1.target.centre_velocity.y(),
              1e-12);
  EXPECT_NEAR(1 - double(r.summary["kinetic_energy_loss_fraction"]), e * e, 1e-3);
}

// Two spheres partitioned over two ranks equal the serial run: the replicated contact tables give
// the same impulses on every rank. The coarse pair (p = 1, no global refinement), oblique with
// friction (v_t = 0.5 v_n, mu = 0.2) so that every summary scalar is a quantity, not round-off,
// and the stick and slip of the two-body contact run on both ranks.
TEST(FemMpi, TwoSphereRunEqualsSerial) {
  if (dealii::Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD) < 2)
    GTEST_SKIP() << "run under mpirun -np 2 (CTest: fem.mpi2_equals_serial)";
  Case c = rebound::test::coarse("hertz-steel-sphere");
  c.target.type = rebound::cases::TargetType::sphere;
  c.target.radius = c.body.radius;
  c.target.young_modulus = c.material.young_modulus;
  c.target.poisson_ratio = c.material.poisson_ratio;
  c.target.density = c.material.density;
  c.impact.tangential_speed = 0.5 * c.impact.normal_speed;
  c.contact.friction = 0.2;
  const auto parallel = run(c, MPI_COMM_WORLD);
  const auto serial = run(c, MPI_COMM_SELF);
  ASSERT_EQ(parallel.status, "completed") << parallel.message;
  ASSERT_EQ(parallel.final.step, serial.final.step);
  const auto [worst, worst_key] = rebound::test::worst_summary_difference(parallel, serial);
  const double target = (parallel.final.target.momentum - serial.final.target.momentum).norm() /
                        serial.final.target.momentum.norm();
  if (dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0)
    std::printf(
        "two spheres, 2 ranks vs serial: worst relative difference %.3e (%s), target momentum "
        "%.3e\n",
        worst, worst_key.c_str(), target);
  EXPECT_LT(worst, 1e-8) << worst_key;
  EXPECT_LT(target, 1e-8);
}
