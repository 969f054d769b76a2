// Closed-form rigid-body impact laws for a planar impact of a body on an immobile rigid
// half-space (Lai 1999, ch. 2 eqs. 2.1-2.5; Gilardi & Sharf 2002, eqs. 9-14; docs/THEORY.md §8),
// in Lai's non-dimensional variables: impulse g = m v gamma, velocities of P over v, components
// (t, n). The contact-point velocity after an impulse gamma is w = v0 + (m N) gamma with
// v0 = incident_velocity(alpha) and m N = scaled_inverse_inertia(lambda, theta); the change of
// kinetic energy is Delta K / (m v^2) = (v0 + w) . gamma / 2 (Lai 1999, eq. 5.70).
//
// Laws (model names as in the case files):
//  "newton"  Newton's kinematic coefficient e: w_n = -e v_n (Lai 1999, eq. 2.5; Gilardi & Sharf
//            2002, eq. 9), with the Kane-Levinson/Whittaker friction rule (Lai 1999,
//            eqs. 2.1-2.3, static and kinetic coefficients both equal to Configuration::friction):
//            stick (w_t = 0) if that needs |gamma_t| <= mu gamma_n, otherwise gamma_t = -mu gamma_n
//            sgn(w_t) with the final w_t. This algebraic rule has exactly one solution (w_t is
//            increasing along the line w_n = -e v_n) but it ignores how slip evolves during the
//            impact: when inertia coupling makes slip stop and reverse it can create kinetic energy
//            (Kane's double pendulum, lambda = 0.964). The result says so (creates_energy, notes).
//  "poisson" Poisson/Routh kinetic coefficient c: gamma_n,final = (1 + c) gamma_n,compression,
//            with Coulomb friction followed along the impulse process (Routh's method).
//  "stronge" Stronge's energetic coefficient d: W_nr = d^2 (-W_nc) (Lai 1999, eq. 5.74, Gilardi &
//            Sharf 2002, eq. 11), Coulomb friction along the impulse process.
//  "smith"   Smith (1991): w_n = -e v_n and gamma_t = -mu gamma_n (|v_t| v_t + |w_t| w_t) /
//            (v_t^2 + w_t^2) (Lai 1999, eq. 2.4). At normal incidence (v_t = 0) the weight reduces
//            to sgn(w_t) and the law is the Kane-Levinson rule (stick allowed at w_t = 0).
//  "brach"   Brach's impulse ratio (Gilardi & Sharf 2002, eq. 14) with Newton's e for the
//            normal direction (Configuration::restitution, required): gamma_t = -r s gamma_n with
//            r = Configuration::impulse_ratio (required, >= 0) and s the direction of the
//            approach slip (sgn v_t; at v_t = 0 the direction the normal impulse alone would give
//            the tangential velocity). If the ratio needed to end with w_t = 0 (Brach's critical
//            ratio r0) opposes the approach slip and 0 <= r0 <= r, r0 is used instead (the
//            contact ends rolling). Configuration::friction is not used by this law.
//
// Impulse process ("poisson", "stronge"): the normal impulse gamma_n plays the role of time.
// Slip (w_t != 0): d gamma_t / d gamma_n = -mu sgn(w_t). When w_t reaches 0 the contact sticks
// (d gamma_t / d gamma_n = -N_tn / N_tt keeps w_t = 0) if |N_tn| <= mu N_tt, otherwise slip
// resumes in the direction sgn(N_tn) the tangential velocity then takes (slip reversal). With
// N positive definite the normal velocity always increases after slip stops, so compression
// always ends (no jam).
//
// Outcome fields: impulse, separation_velocity, compression_normal_impulse (gamma_n where
// w_n = 0), normal_work_compression / normal_work_restitution (int w_n d gamma_n over each
// phase, m v^2 units), phases (Phase::start/end hold the NORMAL IMPULSE gamma_n, not tau: a
// rigid-body law has no time scale), creates_energy (Delta K > 1e-12 max(1, K0)), notes.
// duration stays NaN and history empty. The algebraic laws ("newton", "smith", "brach") define
// no process: their phases, compression impulse and normal works are evaluated along the
// straight impulse path gamma(p) = gamma_final p / gamma_n,final (said in notes); along it
// gamma_n,compression = gamma_n,final / (1 + e) and W_nr = e^2 (-W_nc).
//
// Inputs: lambda in [0, 1), alpha in [0, pi/2), mu >= 0, restitution >= 0 (values above 1 are
// accepted: a prescribed coefficient may come from a compliant model with coupling, which can
// exceed 1), impulse_ratio >= 0. A missing or invalid required coefficient throws
// std::invalid_argument naming it; an unknown model name throws std::invalid_argument listing
// the accepted ones.
#pragma once

#include <Eigen/Dense>
#include <string>

#include "lumped/outcome.h"

namespace rebound::lumped {

enum class RigidLaw { newton, poisson, stronge, smith, brach };

// "newton" | "poisson" | "stronge" | "smith" | "brach"; throws std::invalid_argument otherwise.
RigidLaw parse_rigid_law(const std::string& name);
const char* to_string(RigidLaw law);
// True for the names parse_rigid_law accepts.
bool is_rigid_law(const std::string& name);

// Solves one impact with the named law (see above).
Outcome solve_rigid_law(const std::string& model, const Configuration& configuration);
Outcome solve_rigid_law(RigidLaw law, const Configuration& configuration);

// Kinetic energy of the incident motion over m v^2: v0 . (m N)^-1 . v0 / 2 (Lai 1999, eq. 5.72).
double incident_kinetic_energy(const Configuration& configuration);
// Change of kinetic energy over m v^2 produced by the impulse gamma: (v0 + w) . gamma / 2 with
// w = v0 + (m N) gamma (Lai 1999, eq. 5.70).
double kinetic_energy_change(const Configuration& configuration, const Eigen::Vector2d& impulse);

}  // namespace rebound::lumped
