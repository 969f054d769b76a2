// Two free spheres (target.type "sphere"): the lumped models solve the pair as one body of the
// compliance N1 + N2 at P on a rigid plane (docs/THEORY.md sec. 2), and each body's rebound
// follows from the impulse J on the body and -J on the target. Checked against two-body Hertz
// (Hertz 1882; Johnson 1985, sec. 4.2 and ch. 11), the conservation of momentum, angular momentum
// and kinetic energy, and the equivalent single body's solution.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/solve.h"
#include "lumped/summary.h"
#include "lumped/sweep.h"
#include "observables/quantities.h"

using namespace rebound;
using json = nlohmann::json;

namespace {

struct Sphere {
  double radius, young_modulus, poisson_ratio, density;
  double mass() const { return density * 4.0 / 3.0 * M_PI * radius * radius * radius; }
  double inertia() const { return 0.4 * mass() * radius * radius; }
  json material() const {
    return {
        {"young_modulus", young_modulus}, {"poisson_ratio", poisson_ratio}, {"density", density}};
  }
};

const Sphere kSteel{0.005, 210e9, 0.3, 7850};
const Sphere kAluminium{0.005, 70e9, 0.33, 2700};

json two_spheres(const Sphere& body, const Sphere& target, const json& impact, double friction,
                 const json& lumped) {
  return {
      {"name", "two-spheres"},
      {"body", {{"shape", "sphere"}, {"radius", body.radius}}},
      {"material", body.material()},
      {"target", {{"type", "sphere"}, {"radius", target.radius}, {"material", target.material()}}},
      {"contact", {{"friction", friction}}},
      {"impact", impact},
      {"lumped", lumped}};
}

struct Solved {
  cases::Case c;
  cases::Derived d;
  lumped::Outcome o;
  observables::ReboundQuantities q;
};

Solved solve(const json& document) {
  Solved s;
  s.c = cases::parse_case(document, "two-spheres.json");
  s.d = cases::derive(s.c);
  s.o = lumped::solve(s.c, s.d);
  s.q = lumped::rebound_quantities(s.c, s.d, s.o);
  return s;
}

// The state of the two bodies after the impact (body 1 from the summary's own keys).
struct TwoBodies {
  Eigen::Vector2d v1, v2;
  double w1, w2;
};
TwoBodies after(const Solved& s) {
  return {s.q.center_velocity_final, s.q.target_center_velocity_final, s.q.spin_final,
          s.q.target_spin_final};
}

double kinetic_energy(const Sphere& a, const Eigen::Vector2d& v, double w) {
  return 0.5 * a.mass() * v.squaredNorm() + 0.5 * a.inertia() * w * w;
}

// Angular momentum about b of the two spheres about the fixed point q: centres at (0, R1) and
// (0, -R2) from P (the impact is impulsive: the positions do not change during it).
double angular_momentum(const Sphere& a, const Sphere& b, const Eigen::Vector2d& v1, double w1,
                        const Eigen::Vector2d& v2, double w2, const Eigen::Vector2d& q) {
  const auto cross = [](const Eigen::Vector2d& r, const Eigen::Vector2d& p) {
    return r.x() * p.y() - r.y() * p.x();
  };
  const Eigen::Vector2d c1(0, a.radius), c2(0, -b.radius);
  return cross(c1 - q, a.mass() * v1) + a.inertia() * w1 + cross(c2 - q, b.mass() * v2) +
         b.inertia() * w2;
}

}  // namespace

// Two identical steel spheres head-on at v = 1 m/s (R = 5 mm, E = 210 GPa, nu = 0.3, rho =
// 7850): two-body Hertz with m* = m/2, R* = R/2, E* = E/(2(1 - nu^2)), computed here from the
// inputs: delta_max = (15 m* v^2/(16 E* sqrt(R*)))^{2/5}, F_max = (4/3) E* sqrt(R*)
// delta_max^{3/2}, t_c = 2.8683 (m*^2/(R* E*^2 v))^{1/5} (the constant 2 sqrt(pi) Gamma(7/5)/
// Gamma(9/10) (15/16)^{2/5}). Lai's model at its tightest tolerance, rtol 1e-13, locates the end
// of the contact and the force peak as events: 1e-11 relative (measured 4e-15 and 2e-14,
// printed). The velocities exchange (e = 1): the body stops, the target leaves at v, to 1e-12
// (measured 2.3e-14); momentum is conserved by construction (J/m1 and -J/m2: round-off, 1e-15),
// the kinetic energy of both bodies to the integration's error, 1e-12 relative (measured 4.6e-14;
// 4e-12 at rtol 1e-11).
TEST(TwoSpheres, HeadOnIdenticalSteelSpheresAreTwoBodyHertz) {
  const Solved s =
      solve(two_spheres(kSteel, kSteel, {{"normal_speed", 1.0}, {"tangential_speed", 0.0}}, 0.1,
                        {{"model", "lai"}, {"relative_tolerance", 1e-13}}));
  const double v = 1.0, m = kSteel.mass(), m_star = m / 2, R_star = kSteel.radius / 2;
  const double E_star = kSteel.young_modulus / (2 * (1 - 0.09));
  const double constant =
      2 * std::sqrt(M_PI) * std::tgamma(1.4) / std::tgamma(0.9) * std::pow(15.0 / 16.0, 0.4);
  EXPECT_NEAR(constant, 2.8683, 5e-5);
  const double duration =
      constant * std::pow(m_star * m_star / (R_star * E_star * E_star * v), 0.2);
  const double max_compression =
      std::pow(15 * m_star * v * v / (16 * E_star * std::sqrt(R_star)), 0.4);
  const double peak = 4.0 / 3.0 * E_star * std::sqrt(R_star) * std::pow(max_compression, 1.5);
  std::printf(
      "two steel spheres: t_c = %.10g s (Hertz %.10g, %.1e), F_max = %.10g N (Hertz "
      "%.10g, %.1e)\n",
      s.q.contact_duration, duration, s.q.contact_duration / duration - 1, s.q.peak_normal_force,
      peak, s.q.peak_normal_force / peak - 1);
  EXPECT_NEAR(s.q.contact_duration / duration, 1, 1e-11);
  EXPECT_NEAR(s.q.peak_normal_force / peak, 1, 1e-11);
  EXPECT_NEAR(s.q.e_newton, 1, 1e-12);

  const TwoBodies b = after(s);
  std::printf("after: body (%.3g, %.3g) m/s, target (%.3g, %.17g) m/s\n", b.v1.x(), b.v1.y(),
              b.v2.x(), b.v2.y());
  EXPECT_NEAR(b.v1.norm(), 0, 1e-12 * v);  // the body stops ...
  EXPECT_NEAR(b.v2.x(), 0, 1e-15);         // ... the target leaves along -n at v
  EXPECT_NEAR(b.v2.y(), -v, 1e-12 * v);
  EXPECT_EQ(b.w1, 0.0);
  EXPECT_EQ(b.w2, 0.0);
  const Eigen::Vector2d momentum_before = m * Eigen::Vector2d(0, -v);
  const Eigen::Vector2d momentum_after = m * b.v1 + m * b.v2;
  EXPECT_NEAR((momentum_after - momentum_before).norm() / (m * v), 0, 1e-15);
  const double energy_before = kinetic_energy(kSteel, Eigen::Vector2d(0, -v), 0);
  const double energy_after =
      kinetic_energy(kSteel, b.v1, b.w1) + kinetic_energy(kSteel, b.v2, b.w2);
  std::printf("kinetic energy after / before - 1 = %.3g\n", energy_after / energy_before - 1);
  EXPECT_NEAR(energy_after / energy_before, 1, 1e-12);
  // The summary's energy balance is of both bodies: initial = the body's, loss = before - after.
  EXPECT_NEAR(s.q.kinetic_energy_initial, energy_before, 1e-15 * energy_before);
  EXPECT_NEAR(s.q.kinetic_energy_loss, energy_before - energy_after, 1e-14 * energy_before);
}

// Unequal spheres (an aluminium ball on a steel sphere twice its radius), oblique with friction,
// in every lumped model: momentum is conserved to round-off; each body's velocity change is the
// impulse over its own mass (J/m1, -J/m2); the contact points' relative velocity changes by
// (N1 + N2) J = (3.5 J_t, J_n)/m*, m* = m1 m2/(m1 + m2) (solid spheres, theta = 0), to round-off
// of the model's own arithmetic (1e-12 relative of v).
TEST(TwoSpheres, UnequalSpheresFollowTheImpulseInEveryModel) {
  Sphere target = kSteel;
  target.radius = 2 * kAluminium.radius;
  const double m1 = kAluminium.mass(), m2 = target.mass(), m_star = m1 * m2 / (m1 + m2);
  const json impact = {{"normal_speed", 2.0}, {"tangential_speed", 0.6}, {"spin", 30.0}};
  const std::vector<json> models = {
      {{"model", "lai"}},
      {{"model", "uncoupled"}},
      {{"model", "uncoupled-euler"}},
      {{"model", "mdr"}, {"springs", 60}},
      {{"model", "halfspace"}, {"cells", 12}, {"time_steps", 60}},
      {{"model", "newton"}, {"restitution", 0.8}},
      {{"model", "poisson"}, {"restitution", 0.8}},
      {{"model", "stronge"}, {"restitution", 0.8}},
      {{"model", "smith"}, {"restitution", 0.8}},
      {{"model", "brach"}, {"restitution", 0.8}, {"impulse_ratio", 0.1}},
      {{"model", "lai"}, {"normal_law", "hunt-crossley"}, {"restitution", 0.7}},
  };
  for (const json& lumped : models) {
    SCOPED_TRACE(lumped.dump());
    const Solved s = solve(two_spheres(kAluminium, target, impact, 0.2, lumped));
    const TwoBodies b = after(s);
    const Eigen::Vector2d J(s.q.tangential_impulse, s.q.normal_impulse);
    const Eigen::Vector2d v1 = s.q.center_velocity_initial;
    const double scale = m1 * v1.norm();
    EXPECT_NEAR(((m1 * b.v1 + m2 * b.v2) - m1 * v1).norm() / scale, 0, 1e-14);
    EXPECT_NEAR((b.v1 - v1 - J / m1).norm() / v1.norm(), 0, 1e-14);
    EXPECT_NEAR((b.v2 + J / m2).norm() / v1.norm(), 0, 1e-14);
    EXPECT_NEAR(b.w1 - 30.0, kAluminium.radius * J.x() / kAluminium.inertia(),
                1e-14 * std::abs(b.w1));
    EXPECT_NEAR(b.w2, target.radius * J.x() / target.inertia(), 1e-14 * std::abs(b.w2) + 1e-300);
    const Eigen::Vector2d relative_change =
        s.q.contact_point_velocity_final - s.q.contact_point_velocity_initial;
    EXPECT_NEAR(relative_change.x(), 3.5 * J.x() / m_star, 1e-12 * v1.norm());
    EXPECT_NEAR(relative_change.y(), J.y() / m_star, 1e-12 * v1.norm());
    // The relative velocity of P from both bodies' final states: v + omega x r, r1 = (0, -R1),
    // r2 = (0, R2); omega b x r = (-omega r_n, omega r_t).
    const Eigen::Vector2d p1 = b.v1 + Eigen::Vector2d(b.w1 * kAluminium.radius, 0);
    const Eigen::Vector2d p2 = b.v2 + Eigen::Vector2d(-b.w2 * target.radius, 0);
    EXPECT_NEAR((p1 - p2 - s.q.contact_point_velocity_final).norm(), 0, 1e-12 * v1.norm());
    std::printf(
        "[unequal spheres] %-70s momentum residual %.1e, relative P velocity %.1e\n",
        lumped.dump().c_str(), ((m1 * b.v1 + m2 * b.v2) - m1 * v1).norm() / scale,
        (relative_change - Eigen::Vector2d(3.5 * J.x(), J.y()) / m_star).norm() / v1.norm());
  }
}

// Two identical spheres, oblique, with friction (mu = 0.3, v_t/v_n = 0.4, no spin): equal and
// opposite impulses at P, r1 = -R n and r2 = +R n, so the spin changes are (r1 x J)/I = R J_t/I
// and (r2 x -J)/I = R J_t/I: equal in sign and magnitude (both spheres roll the same way, as two
// meshing surfaces sheared in opposite directions). Angular momentum about any fixed point is
// conserved, the impulse acting at P and the total momentum being conserved: round-off, 1e-13
// relative of m v R.
TEST(TwoSpheres, ObliqueIdenticalSpheresSpinAlikeAndConserveAngularMomentum) {
  for (const char* model : {"lai", "uncoupled", "mdr", "stronge"}) {
    SCOPED_TRACE(model);
    json lumped = {{"model", model}};
    if (std::string(model) == "stronge") lumped["restitution"] = 0.9;
    const Solved s = solve(two_spheres(
        kSteel, kSteel, {{"normal_speed", 1.0}, {"tangential_speed", 0.4}}, 0.3, lumped));
    const TwoBodies b = after(s);
    ASSERT_LT(s.q.tangential_impulse, 0);  // friction opposes the body's slip along +t
    EXPECT_LT(b.w1, 0);
    EXPECT_NEAR(b.w1, b.w2, 1e-14 * std::abs(b.w1));
    EXPECT_NEAR(b.w1, kSteel.radius * s.q.tangential_impulse / kSteel.inertia(),
                1e-14 * std::abs(b.w1));
    const Eigen::Vector2d v1 = s.q.center_velocity_initial;
    const double scale = kSteel.mass() * v1.norm() * kSteel.radius;
    for (const Eigen::Vector2d& q : {Eigen::Vector2d(0, 0), Eigen::Vector2d(0.01, -0.02),
                                     Eigen::Vector2d(-1, 3), Eigen::Vector2d(0, 0.005)}) {
      const double before = angular_momentum(kSteel, kSteel, v1, 0, Eigen::Vector2d::Zero(), 0, q);
      const double later = angular_momentum(kSteel, kSteel, b.v1, b.w1, b.v2, b.w2, q);
      EXPECT_NEAR((later - before) / scale, 0, 1e-13 * (1 + q.norm() / kSteel.radius))
          << q.transpose();
    }
  }
}

// The equivalent-body mapping: two identical spheres (R, rho, E, nu) are, for every relative
// quantity, one sphere of mass m* = m/2 and radius R* = R/2 (density 4 rho) with E*_pair =
// E/(2(1 - nu^2)) (Young's modulus E/2, same nu) on a rigid plane. Lai's model and the MDR bed at
// the same Psi1: Psi2, e, the rebound angle and e_t agree to 1e-9 (the inputs agree to
// round-off: lambda = 5/9 and nu* of the pair computed another way; the MDR's fixed steps and the
// adaptive steps then give the same solution to well within that). The energy lost agrees; its
// fraction does not (the pair starts with the centre of mass's kinetic energy as well).
TEST(TwoSpheres, EquivalentSingleSphereGivesTheSameRelativeRebound) {
  for (const double psi1 : {0.5, 2.0, 6.0}) {
    for (const json& lumped : {json{{"model", "lai"}}, json{{"model", "mdr"}, {"springs", 100}},
                               json{{"model", "uncoupled"}}}) {
      SCOPED_TRACE(lumped.dump() + " at Psi1 = " + std::to_string(psi1));
      const json impact = {{"normal_speed", 1.0}, {"psi1", psi1}};
      const Solved two = solve(two_spheres(kSteel, kSteel, impact, 0.2, lumped));
      Sphere single{kSteel.radius / 2, kSteel.young_modulus / 2, kSteel.poisson_ratio,
                    4 * kSteel.density};
      json plane = two_spheres(single, kSteel, impact, 0.2, lumped);
      plane["target"] = {{"type", "rigid_plane"}};
      const Solved one = solve(plane);
      EXPECT_NEAR(one.d.hertz.normal_mass / two.d.hertz.normal_mass, 1, 1e-14);
      EXPECT_NEAR(one.d.hertz.duration / two.d.hertz.duration, 1, 1e-14);
      EXPECT_NEAR(two.q.psi1, psi1, 1e-12);
      EXPECT_NEAR(two.q.psi2, one.q.psi2, 1e-9);
      EXPECT_NEAR(two.q.e_newton, one.q.e_newton, 1e-9);
      EXPECT_NEAR(two.q.rebound_angle, one.q.rebound_angle, 1e-9);
      EXPECT_NEAR(two.q.tangential_cor, one.q.tangential_cor, 1e-9);
      // The energy lost is the relative motion's (J); the two bodies start with twice the
      // equivalent body's kinetic energy (m against m* = m/2), the rest being the centre of
      // mass's motion, which the impact does not change.
      EXPECT_NEAR(two.q.kinetic_energy_loss, one.q.kinetic_energy_loss,
                  1e-9 * one.q.kinetic_energy_initial);
      EXPECT_NEAR(two.q.kinetic_energy_initial / one.q.kinetic_energy_initial, 2, 1e-14);
      EXPECT_NEAR(two.q.contact_duration / one.q.contact_duration, 1, 1e-9);
      std::printf(
          "[equivalent body] %-30s Psi1 %.1f: Psi2 %.12f (one sphere %.12f), e %.12f "
          "(%.12f)\n",
          lumped.dump().c_str(), psi1, two.q.psi2, one.q.psi2, two.q.e_newton, one.q.e_newton);
    }
  }
}

// summary.json carries the target's final velocity and spin with their units; a fixed target's
// summary has no such keys. The history has the target's columns on a free sphere only.
TEST(TwoSpheres, SummaryAndHistoryCarryTheTarget) {
  const Solved s = solve(two_spheres(
      kSteel, kSteel, {{"normal_speed", 1.0}, {"tangential_speed", 0.4}}, 0.3, {{"model", "lai"}}));
  const json j = lumped::summary_json(s.c, s.d, s.o);
  ASSERT_TRUE(j.contains("target_center_velocity_final"));
  EXPECT_EQ(j["units"]["target_center_velocity_final"], "m/s");
  EXPECT_EQ(j["units"]["target_spin_final"], "rad/s");
  EXPECT_EQ(j["target_spin_final"].get<double>(), s.q.target_spin_final);
  EXPECT_EQ(observables::quantities_from_json(j).target_center_velocity_final,
            s.q.target_center_velocity_final);
  const observables::History h = lumped::history_table(lumped::history_rows(s.c, s.d, s.o));
  EXPECT_TRUE(h.has("target_spin"));
  EXPECT_TRUE(h.has("target_center_velocity_n"));
  // The last history row is the state after the impact.
  const auto rows = lumped::history_rows(s.c, s.d, s.o);
  EXPECT_NEAR(rows.back().target_spin, s.q.target_spin_final,
              1e-12 * std::abs(s.q.target_spin_final));

  const cases::Case plane = cases::load_case(REBOUND_SOURCE_DIR "/cases/hertz-steel-sphere.json");
  const cases::Derived d = cases::derive(plane);
  const lumped::Outcome o = lumped::solve(plane, d);
  EXPECT_FALSE(lumped::summary_json(plane, d, o).contains("target_spin_final"));
  EXPECT_FALSE(lumped::history_table(lumped::history_rows(plane, d, o)).has("target_spin"));
}

// A sweep of a free target sphere writes the target's velocity and spin after each impact in
// sweep.csv's last three columns: each row's is its own solve's, and with the body's columns they
// conserve the pair's momentum (the target at rest before); a sweep on a plane has none.
TEST(TwoSpheres, SweepCsvEndsWithTheTargetsVelocityAndSpin) {
  const Sphere target{0.008, 70e9, 0.22, 2500};
  const cases::Case base = cases::parse_case(
      two_spheres(kSteel, target, {{"normal_speed", 1.0}, {"tangential_speed", 0.2}}, 0.3,
                  {{"model", "lai"}}),
      "two-spheres.json");
  lumped::SweepRange range;
  range.variable = lumped::SweepVariable::incidence_angle;
  range.start = 0.1;
  range.stop = 1.0;
  range.count = 3;
  const std::vector<lumped::SweepPoint> rows = lumped::run_sweep(base, range, 1);
  const std::string csv = lumped::sweep_csv(range, {{"lai", rows}});
  std::stringstream in(csv);
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header.substr(header.rfind(",model,") + 1),
            "model,target_center_velocity_final_t_m_per_s,target_center_velocity_final_n_m_per_s,"
            "target_spin_final_rad_per_s")
      << header;
  const double m1 = kSteel.mass(), m2 = target.mass();
  for (int i = 0; i < range.count; ++i) {
    ASSERT_TRUE(std::getline(in, line));
    std::vector<double> last;
    std::stringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) last.push_back(std::atof(cell.c_str()));
    // The incidence sweep keeps the approach speed |v_P|.
    const double speed = std::hypot(1.0, 0.2);
    const Solved s = solve(two_spheres(kSteel, target,
                                       {{"normal_speed", speed * std::cos(range.value(i))},
                                        {"tangential_speed", speed * std::sin(range.value(i))}},
                                       0.3, {{"model", "lai"}}));
    const double v2t = last[last.size() - 3], v2n = last[last.size() - 2], w2 = last.back();
    EXPECT_NEAR(v2t, s.q.target_center_velocity_final.x(), 1e-8 * std::abs(v2t)) << line;
    EXPECT_NEAR(v2n, s.q.target_center_velocity_final.y(), 1e-8 * std::abs(v2n)) << line;
    EXPECT_NEAR(w2, s.q.target_spin_final, 1e-8 * std::abs(w2) + 1e-12) << line;
    // Momentum (t, n): m1 v1 + m2 v2 = m1 v0, to the 10 printed digits.
    const Eigen::Vector2d v0 = s.q.center_velocity_initial, v1 = s.q.center_velocity_final;
    EXPECT_NEAR(m1 * v1.x() + m2 * v2t, m1 * v0.x(), 1e-8 * m1 * v0.norm()) << line;
    EXPECT_NEAR(m1 * v1.y() + m2 * v2n, m1 * v0.y(), 1e-8 * m1 * v0.norm()) << line;
  }
  const cases::Case plane = cases::load_case(REBOUND_SOURCE_DIR "/cases/hertz-steel-sphere.json");
  const std::string plane_csv =
      lumped::sweep_csv(range, {{"lai", lumped::run_sweep(plane, range, 1)}});
  EXPECT_EQ(plane_csv.find("target_"), std::string::npos);
}
