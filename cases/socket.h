// The ball in a spherical socket (target.type "spherical_socket"; docs/THEORY.md §7, "Ball in a
// spherical socket"): a sphere of radius R2 (the body) inside a fixed spherical socket (rigid, or
// elastic with target.material: the pair's E*) of radius R1 = R2 + dR, struck along the line of
// centres. The approach is delta = |c_ball - c_socket| - dR, the contact normal runs along the
// radius from the socket's centre. The elastic normal laws the literature offers for this conformal
// contact (Wang & Gao 2023, Actuators 12(2):89, eqs. 8-13 and 18, and Liu et al. as that paper
// quotes them), the exact gap of the two spheres, and the laws' estimates of an elastic normal
// impact. Every function takes lengths and the modulus in any one consistent system (SI for
// `rebound check`, Lai's length unit eta in the lumped laws).
#pragma once

#include <string>
#include <vector>

namespace rebound::cases {

struct Case;

struct SocketGeometry {
  double socket_radius = 0;  // R1
  double ball_radius = 0;    // R2
  double clearance = 0;      // dR = R1 - R2 > 0
};

// The case's socket (target.radius) and ball (body.radius); the case's target must be a socket.
SocketGeometry socket_geometry(const Case& c);
// Every length of `g` over `length`.
SocketGeometry scaled(const SocketGeometry& g, double length);
// Hertz's effective radius of the pair, R1 R2 / dR (the socket is concave: 1/R = 1/R2 - 1/R1).
double effective_radius(const SocketGeometry& g);

// sin(theta) of Wang & Gao's contact semi-angle (their eq. 8, cos theta = ((dR + delta)^2 + R1^2 -
// R2^2) / (2 (dR + delta) R1)), in the equivalent form without the cancellation of 1 - cos^2 at
// small delta: sin theta = sqrt(delta (2 R2 - delta) (2 dR + delta) (2 R1 + delta)) /
// (2 (dR + delta) R1). 0 for delta <= 0.
double wang_gao_sine(const SocketGeometry& g, double approach);
// Liu's, as Wang & Gao quote it (their eq. 12): sqrt(1 - (dR / (dR + delta))^2), written
// sqrt(delta (2 dR + delta)) / (dR + delta). 0 for delta <= 0.
double liu_sine(const SocketGeometry& g, double approach);

// The socket's elastic normal laws, F(delta) with the pair's modulus E*:
//   hertz     F = (4/3) E* sqrt(R_eff) delta^{3/2},  R_eff = R1 R2 / dR (Wang & Gao's eq. 13);
//   liu       F = K_c delta, K_c = 4 n E* R1 liu_sine / (2n + 1) (their eq. 12);
//   wang_gao  F = K delta,   K = 4 n E* R1 wang_gao_sine / (2n + 1) (their eqs. 10-11).
// n is Steuermann's polynomial index (n >= 1; Wang & Gao find n = 2 closest to their FEM).
enum class SocketLaw { hertz, liu, wang_gao };
const char* to_string(SocketLaw law);
double socket_force(SocketLaw law, double contact_modulus, const SocketGeometry& g,
                    int polynomial_index, double approach);
// The law's contact radius at approach delta: Hertz's sqrt(R_eff delta), R1 liu_sine, R1
// wang_gao_sine (the geometric overlap of the two spheres).
double socket_contact_radius(SocketLaw law, const SocketGeometry& g, double approach);
// The law's strain energy int_0^delta F (Gauss-Legendre in s = sqrt(delta'), where the integrand
// is smooth; to round-off for hertz, ~1e-15 relative for the others).
double socket_elastic_energy(SocketLaw law, double contact_modulus, const SocketGeometry& g,
                             int polynomial_index, double approach);
// F_law / F_hertz as delta -> 0 (light load, delta << dR): 1 for hertz, 3n sqrt(2)/(2n + 1) for
// wang_gao (their overlap radius is sqrt(2) Hertz's), 3n sqrt(2)/(2n + 1) sqrt(R1/R2) for liu.
// Both depart from it as 1 - (3/4) delta/dR.
double light_load_ratio(SocketLaw law, const SocketGeometry& g, int polynomial_index);
// Wang & Gao's strain-energy coefficient (their eq. 18), U = H delta_max^{5/2} at light load:
// H = 8 sqrt(2) n E* sqrt(R1 R2 / dR) / (5 (2n + 1)).
double wang_gao_energy_coefficient(double contact_modulus, const SocketGeometry& g,
                                   int polynomial_index);

// The gap between the ball and the socket at distance r from the line of centres, measured along
// it, when they touch: sqrt(R1^2 - r^2) - sqrt(R2^2 - r^2) - dR (written without cancellation).
// r^2/(2 R_eff) to leading order; larger beyond (the quartic terms). +infinity for r >= R2.
double socket_gap(const SocketGeometry& g, double radius);

// The elastic normal impact of mass m at speed v_n by each law, from the energy balance
// int_0^delta_max F = m v_n^2 / 2: what `rebound check` prints for a socket.
struct SocketImpactEstimate {
  SocketLaw law;
  double light_load_ratio = 0;  // F / F_hertz as delta -> 0
  double max_approach = 0;      // delta_max
  double peak_force = 0;        // F(delta_max)
  double contact_radius = 0;    // a(delta_max)
};
std::vector<SocketImpactEstimate> socket_impact_estimates(double contact_modulus,
                                                          const SocketGeometry& g,
                                                          int polynomial_index, double normal_mass,
                                                          double normal_speed);

// The contact zone the FEM meshes for the ball in the socket (fem/targets/spherical_socket.h):
// the overlap radius R1 sin(theta) of the undeformed spheres (wang_gao_sine) at Hertz's approach
// under the normal force F with R_eff, delta = (9 F^2 / (16 E*^2 R_eff))^(1/3): sqrt(2) Hertz's
// contact radius at light load, and larger as the contact turns conformal. SI; the case's target
// must be a socket.
double socket_overlap_radius(const Case& c, double force);

// The largest conformal contact zone the FEM meshes on the ball in a socket: R2 sin 35 deg, a
// contact semi-angle of 35 deg, so that the FE static law reaches the approach of Wang & Gao's
// 30 deg (their overlap angle) with the FE ball's stiffer contact (about 1.4 times Hertz's force
// there). The zone lies on the ball's touching half and the quasi-static law's candidates (1.3
// times the zone at 1.3 times the force) stay below the ball's equator; the strain stays small
// because the contact is conformal (the plane's Hertz zone is held to R pi/12 instead,
// cases::mesh_contact_radius_limit, where a/R is the strain).
double socket_fem_contact_radius_limit(const Case& c);

}  // namespace rebound::cases
