// Quantities derived from a case description: mass properties, the planar inertia operator N
// (PHYSICS §2), Lai's scales (PHYSICS §3) and the Hertz normal-impact scales (PHYSICS §6).
//
// Frame: x = t (tangent, in the plane of motion), y = n (plane normal, into the body),
// z = b = t x n. The contact point P is the origin, the plane is y = 0, and the centre of mass
// G lies at (-|PG| sin(theta), |PG| cos(theta), 0), so that r_GP = |PG|(sin theta, -cos theta)
// as in Lai (1999), eq. 3.39.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <optional>
#include <vector>

#include "cases/case.h"

namespace rebound::cases {

struct MassProperties {
  double volume = 0;                // m^3 (custom bodies: mass / density)
  double mass = 0;                  // kg
  double radius_of_gyration = 0;    // m, central, about b
  double contact_offset = 0;        // m, |PG|
  double contact_radius = 0;        // m, radius of curvature of the body at P (Hertz R)
  Eigen::Vector3d centre_of_mass;   // m, relative to P, in (t, n, b)
  Eigen::Matrix3d central_inertia;  // kg m^2, about G, in (t, n, b)
  Eigen::Vector3d body_axis;        // capsule: unit axis (cap at P -> other cap); else b
};

// Mass properties of the body placed with angle theta between PG and n.
MassProperties mass_properties(const Body& body, const Material& material, double theta);

// Capsule (cylinder radius R, length L between cap centres, hemispherical caps): central radius
// of gyration about a transverse axis (Lai 1999, eq. 5.77), squared.
double capsule_transverse_gyration_squared(double radius, double length);
// Angle between the capsule axis and n when P is on a cap and PG makes angle theta with n
// (Lai 1999, eq. 5.78). Defined for |theta| < capsule_theta_limit(radius, length) only.
double capsule_axis_angle(double radius, double length, double theta);
// Largest |theta| at which the capsule touches the plane with its hemispherical cap:
// atan(L / (2R)), where the axis lies parallel to the plane (|phi| = pi/2). Beyond it there is
// no contact point on the cap (the asin of capsule_axis_angle has no solution there).
double capsule_theta_limit(double radius, double length);
// |theta| at which the capsule's axis makes the angle `axis_angle` (in [0, pi/2)) with n: the
// inverse of capsule_axis_angle on [0, capsule_theta_limit).
double capsule_theta_for_axis_angle(double radius, double length, double axis_angle);

// The FEM mesh's geometric bounds (meshes::place_body and meshes::build_mesh check the same; the
// case parser rejects a case beyond them, so that `rebound check` refuses what `rebound mesh`
// and `rebound fem` would).
// Largest |phi| of a capsule's axis from n for which the contact mesh is built.
constexpr double kMeshMaxAxisAngle = 0.45 * M_PI;
// Largest Hertz contact radius a_max for which the refined contact zone (3 a_max around P) stays
// on the touching cap: 3 a_max <= R (pi/2 - |phi|) / 2; phi = 0 for a sphere (a_max <= pi R/12).
double mesh_contact_radius_limit(double radius, double axis_angle);
// The axis angle phi of the case's body (capsule_axis_angle for a capsule, 0 otherwise).
double body_axis_angle(const Body& body, double theta);

// Inverse inertia operator N (2x2, (t, n)) from the generalized-speed formulation
// N = l^T m^-1 l (Lai 1999, eqs. 3.18-3.20, 3.44, 3.47) for a body of mass m_B, central radius
// of gyration k about b, |PG| = b at angle theta.
Eigen::Matrix2d inverse_inertia_generalized(double body_mass, double gyration, double offset,
                                            double theta);
// The same from the closed form of M (Lai 1999, eq. 3.48): N = M^-1.
Eigen::Matrix2d inverse_inertia_closed_form(double body_mass, double gyration, double offset,
                                            double theta);
// N from its principal form (Lai 1999, eq. 3.34): N = (1/m)[[1+l c2t, l s2t],[l s2t, 1-l c2t]].
Eigen::Matrix2d inverse_inertia_principal(double effective_mass, double lambda, double theta);

struct PlanarInertia {
  double effective_mass = 0;  // m (3.35), kg
  double lambda = 0;          // (3.36)
  double theta = 0;           // (3.33), rad, in (-pi/2, pi/2)
};
// m, lambda, theta of a given N (inverse of inverse_inertia_principal).
PlanarInertia planar_inertia(const Eigen::Matrix2d& inverse_inertia);

// N at a point P of a rigid body of mass m and central moment of inertia I about b whose centre
// of mass lies at `centre` (t, n) from P: an impulse J at P changes the centre's velocity by J/m
// and the spin by (r x J)_b / I, r = P - G = -centre, so P's velocity by N J with
// N = 1/m + s s^T / I, s = b x r = (-r_n, r_t) (Lai 1999, eq. 3.21 in Cartesian form).
Eigen::Matrix2d inverse_inertia_at(double mass, double moment_of_inertia,
                                   const Eigen::Vector2d& centre);

// The free target sphere of target.type "sphere" (radius R2, target.material's density): its mass
// properties as mass_properties() gives a sphere's, with its centre of mass at (0, -R2, 0) from P
// (below the tangent plane at P, the body being above it).
MassProperties target_mass_properties(const Target& target);

struct HertzScales {
  double contact_modulus = 0;  // E* = E/(1-nu^2), Pa
  double radius = 0;       // R, m (a socket: R1 R2 / dR, cases/socket.h; a sphere: R1 R2/(R1 + R2))
  double normal_mass = 0;  // 1/N_nn, kg (the body mass for a sphere; m1 m2/(m1 + m2) of two)
  double normal_speed = 0;     // m/s
  double max_compression = 0;  // delta_max, m
  double duration = 0;         // t_c, s
  double peak_force = 0;       // F_max, N
  double contact_radius = 0;   // a_max, m
};
// tau_c / x_max of Hertz's normal impact x'' = -(4/3) x^{3/2}, x'(0) = 1:
// 2 sqrt(pi) Gamma(7/5) / Gamma(9/10) = 2.943275... (often quoted as 2.9432;
// docs/THEORY.md sec. 3).
double hertz_duration_constant();

HertzScales hertz_scales(double contact_modulus, double radius, double normal_mass,
                         double normal_speed);

// Thornton's (1997, J. Appl. Mech. 64:383) elastic-perfectly-plastic normal impact on the Hertz
// scales h of a body whose yield stress is Y: Hertz's law until the peak pressure reaches the
// limiting pressure p_y = 1.6 Y at delta_y = (pi p_y / (2 E*))^2 R, then F = F_y + pi p_y R
// (delta - delta_y); the yield speed is that of the energy (2/5) F_y delta_y, V_y =
// sqrt(4 F_y delta_y / (5 m)) (1.56 sqrt(p_y^5 / (E*^4 rho)) for a sphere on a plane), and the
// largest approach the one where the loading's work is m v^2 / 2 (docs/THEORY.md sec. 7).
struct ThorntonScales {
  double limiting_pressure = 0;  // p_y = 1.6 Y, Pa
  double yield_approach = 0;     // delta_y, m
  double yield_force = 0;        // F_y, N
  double yield_speed = 0;        // V_y, m/s
  double max_compression = 0;    // delta_max (Hertz's when v <= V_y), m
  // The radius of the FE body's contact zone (the mesh's refined region, meshes::mesh_options):
  // sqrt(R (2 delta_max - delta_y)), Hertz's a_max = sqrt(R delta_max) up to the yield speed,
  // growing to the radius sqrt(2 R delta_max) of the sphere cut by the plane when the impact is
  // far above it (docs/FEM.md, "Elastic-plastic material").
  double contact_zone_radius = 0;
};
ThorntonScales thornton_scales(const HertzScales& h, double yield_stress);

// The elastic constants of the contact of the body (material) with its target (Johnson,
// Contact Mechanics, sec. 4.2, 5.4, 7.2; docs/THEORY.md sec. 3): everything the models take from
// E and nu comes from here.
//   1/E* = sum (1 - nu_i^2)/E_i,   1/G* = sum (2 - nu_i)/(4 G_i)  (the MDR bed's convention:
//   G* = 4 G/(2 - nu) for one body; Johnson's Mindlin stiffness 8 a G*_J has G* = 4 G*_J), so
//   that the full-stick tangential stiffness is 2 a G* and the normal one 2 a E*;
//   beta = (1/2)[(1-2nu_1)/G_1 - (1-2nu_2)/G_2] / [(1-nu_1)/G_1 + (1-nu_2)/G_2] (Dundurs).
// A rigid target has E_2 = infinity: E* = E/(1-nu^2), G* = 4G/(2-nu), beta = (1-2nu)/(2(1-nu)).
struct ContactPair {
  double contact_modulus = 0;  // E*, Pa
  double shear_modulus = 0;    // G*, Pa
  double stiffness_ratio = 0;  // k = G*/E* = K_t/K_n at full stick (2(1-nu)/(2-nu) for one body)
  // The pair's effective Poisson ratio nu*: 2(1 - nu*)/(2 - nu*) = G*/E*. Every non-dimensional
  // formula of the lumped and half-space models written with the body's nu on a rigid plane
  // (kappa, Maw's Psi scale, the uncoupled springs, the MDR ratio, the half-space's Cerruti term
  // nu/(1-nu) = sum(nu_i/G_i)/sum((1-nu_i)/G_i)) holds for the pair with nu*; it lies between
  // nu_1 and nu_2 and equals the body's nu on a rigid plane.
  double poisson_ratio = 0;
  double dundurs_beta = 0;  // beta of the body (1) on the target (2)
};
ContactPair contact_pair(const Material& body, const Target& target);
// Dundurs' beta of a body of Poisson ratio nu on a rigid plane: (1 - 2nu)/(2(1 - nu)).
double rigid_plane_dundurs_beta(double poisson_ratio);

struct Derived {
  MassProperties body;
  // m, lambda, theta of the geometry: the body's on a fixed target; the pair's, of N1 + N2, on a
  // free target sphere (what lumped.lambda and lumped.theta override).
  PlanarInertia geometry;
  Eigen::Matrix2d inverse_inertia;  // N used by the lumped model (overrides applied)
  // The contact points' compliances (Stronge 2000, ch. 3 and 5; Johnson 1985, ch. 11;
  // docs/THEORY.md §2): an impulse J on the body at P (and -J on the target) changes the body's
  // velocity of P by N1 J and the target's by -N2 J, so their relative velocity by (N1 + N2) J.
  // N2 = 0 on a fixed target (the rigid plane, the half-space, the socket), where the pair is the
  // body; on a free sphere (Target::moves()) N1 + N2 is an equivalent body on a rigid plane, whose
  // m, lambda and theta every lumped model takes (1/N_nn = m1 m2/(m1 + m2) for a body with PG
  // along n; two spheres: N = diag(3.5, 1)/m*, lambda = 5/9, theta = 0, as one sphere of m*).
  Eigen::Matrix2d body_inverse_inertia = Eigen::Matrix2d::Zero();    // N1
  Eigen::Matrix2d target_inverse_inertia = Eigen::Matrix2d::Zero();  // N2
  PlanarInertia body_geometry;                // m, lambda, theta of N1 (the body's lever arm at P)
  std::optional<MassProperties> target_body;  // the free target sphere; empty: a fixed target
  double effective_mass = 0;                  // m used by the lumped model, kg
  double lambda = 0;                          // used by the lumped model (override or geometry)
  double theta = 0;  // used by the lumped model (override or geometry), rad
  bool lambda_overridden = false;
  bool theta_overridden = false;

  double approach_speed = 0;               // |v_P|, m/s
  double incidence_angle = 0;              // alpha, rad
  double psi1 = 0;                         // Maw's incidence (NaN when mu = 0)
  Eigen::Vector2d contact_point_velocity;  // (v_t, v_n), m/s
  Eigen::Vector2d centre_velocity;         // of G, (t, n), m/s
  double spin = 0;                         // rad/s about b

  ContactPair pair;            // E*, G*, nu*, beta of the body on its target
  double contact_modulus = 0;  // E* = pair.contact_modulus (E/(1-nu^2) on a rigid plane), Pa
  double kappa = 0;            // (2-nu*)/(3(1-nu*)) (5.28)
  double stick_limit = 0;      // C = (2/mu)(1 - sqrt(1 - kappa mu^2)) (5.30); +inf if mu = 0 ...
  bool always_stick = false;   // kappa mu^2 >= 1
  double chi = 0;              // (1-nu)(1+lambda)/((2-nu)(1-lambda)) (5.67)
  // G of the gross-slip line Psi2 = Psi1 - G: sliding from touch to separation (gamma_t =
  // -mu gamma_n) with Newton's e_N = 1 (an elastic normal contact), at any theta (docs/THEORY.md
  // sec. 5); 4 chi at theta = 0. NaN when mu = 0 or the sliding normal mass is not positive.
  double gross_slip_offset = 0;
  double length_scale = 0;   // eta = (m^2 v^4/(E^2 R))^(1/5) (5.40), m; R = hertz.radius
  double time_scale = 0;     // eta / v, s
  double impulse_scale = 0;  // m v, N s
  double force_scale = 0;    // m v^2 / eta, N
  HertzScales hertz;
  ThorntonScales thornton;  // when material.yield_stress is set (else all zero)
  // Bagrejev's energy-flux density Phi = m_w v_w^2 / (2 r_w^3) (Michalczyk 2008, eq. 3.1; docs/
  // THEORY.md sec. 8), J/m^3: m_w the eccentric reduced mass at P (eqs. 3.9-3.10), for a body on
  // a rigid or infinitely massive target its normal mass 1/N_nn (hertz.normal_mass), v_w the
  // normal approach speed of P, r_w the reduced radius of curvature (eq. 3.2), the body's R at P
  // on a plane (hertz.radius).
  double energy_flux_density = 0;
};

// Phi = m_w v_w^2 / (2 r_w^3) (Michalczyk 2008, eq. 3.1), J/m^3.
double energy_flux_density(double reduced_mass, double normal_speed, double reduced_radius);

// The table's R0 and sigma at Phi: piecewise linear between the nodes, the end node's values
// beyond them (`beyond` says so); sigma 0 for a table without std.
struct RestitutionAt {
  double mean = 0, sigma = 0;
  bool beyond = false;
};
RestitutionAt restitution_at(const RestitutionTable& table, double flux_density);

Derived derive(const Case& c);
// The same for given mass properties (e.g. those of a FEM mesh): lambda, theta and m follow from
// `body` (its mass, radius of gyration about b, |PG| and the direction of G from P) unless the
// case overrides lambda/theta.
Derived derive(const Case& c, const MassProperties& body);

// The case with its lumped lambda/theta overrides dropped, so that derive() uses the body's own
// mass distribution (a pair compares the FE body with the same body in the lumped model).
Case without_lumped_overrides(Case c);

// Every derived quantity that must be a finite number (and, with `positive`, > 0) for an
// accepted case: what the parser checks after reading the keys (extreme inputs such as E = 1e300
// or a density of 1e-300 overflow or underflow them).
struct DerivedValue {
  const char* name;
  const char* unit;
  double value;
  bool positive;  // must be > 0 (else >= 0 or any sign, finite)
};
std::vector<DerivedValue> derived_values(const Case& c, const Derived& d);

// tan(alpha) above which a theta = 0 contact slips from first touch to separation, for a
// tangential spring held on the cone |eps| = C (-delta_n) while slipping (slip ratio exactly mu,
// elastic normal impulse 2 cos(alpha)/(1 - lambda)): slip starts at once if tan(alpha) > C and
// survives to separation if sgn(eps) delta_t' + C delta_n' > 0 there, i.e. tan(alpha) >
// 2 mu (1 + lambda)/(1 - lambda) - C (docs/THEORY.md sec. 5 slip rule; the uncoupled-spring
// thesis, Table T3.1 case a). `stick_limit` is the model's C (Lai's stick_limit(), or the
// uncoupled model's); infinite when the contact always sticks. Maw's Psi1 of the threshold is
// psi_scale(nu, mu) times this.
double gross_slip_tan(double friction, double lambda, double stick_limit);

// Lower stick limit C of Lai's model; returns +infinity when kappa mu^2 >= 1 (always stick) and
// 0 when mu = 0 (always slip, frictionless).
double stick_limit(double kappa, double friction);
double kappa_of(double poisson_ratio);

}  // namespace rebound::cases

namespace rebound::cases {
// Machine-readable form of the derived quantities (SI; the keys are documented in
// cases/README.md).
nlohmann::json to_json(const Case& c, const Derived& d);
// Mass properties as JSON (the keys of to_json(Case, Derived) plus body_axis) and back; `what`
// names the object in the CaseError thrown for a missing or non-numeric key.
nlohmann::json to_json(const MassProperties& body);
MassProperties mass_properties_from_json(const nlohmann::json& j, const std::string& what);
}  // namespace rebound::cases
