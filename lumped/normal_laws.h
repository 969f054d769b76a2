// Normal contact laws used as the normal spring of the compliant lumped models, in Lai's
// non-dimensional variables: compression x = -delta_n >= 0, compression rate xdot = -delta_n'
// (> 0 while approaching), force in units of m v^2 / eta. The elastic part of every law of the
// plane is Hertz's (4/3) x^{3/2} (Lai 1999, eq. 5.11 non-dimensionalised); the socket's laws liu
// and wang-gao (cases/socket.h; Wang & Gao 2023, eqs. 10-12) have their own, K(x) x.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cases/socket.h"

namespace rebound::cases {
struct Case;
}

namespace rebound::lumped {

struct Configuration;

enum class NormalLaw {
  hertz,
  hunt_crossley,
  lankarani_nikravesh,
  flores,
  michalczyk,
  liu,
  wang_gao
};

// How a dissipative law's coefficient is taken from the prescribed restitution e
// (lumped.restitution_calibration; docs/THEORY.md sec. 7):
//   exact      the damping for which a frictionless central normal impact (x'' = -F(x, x'),
//              x'(0) = x'(-)) restitutes Newton's e_N = -x'(+)/x'(-) = e, found by a bracketing
//              root solve (calibrated_damping); what DEM codes mean by a prescribed e.
//   published  the law's own closed form (published_damping), which achieves e only
//              approximately (Hunt-Crossley and Lankarani-Nikravesh assume e close to 1).
enum class RestitutionCalibration { exact, published };

// "hertz" | "hunt-crossley" | "lankarani-nikravesh" | "flores" | "michalczyk" | "liu" |
// "wang-gao"; throws std::invalid_argument naming the accepted values otherwise.
NormalLaw parse_normal_law(const std::string& name);
const char* to_string(NormalLaw law);
// "exact" | "published"; throws std::invalid_argument naming the accepted values otherwise.
RestitutionCalibration parse_restitution_calibration(const std::string& name);
const char* to_string(RestitutionCalibration calibration);

struct NormalSpring {
  NormalLaw law = NormalLaw::hertz;
  double restitution = 1.0;               // prescribed c_r (1 for hertz)
  double initial_compression_rate = 1.0;  // xdot at first touch (cos alpha for Lai's scaling)
  double damping = 0.0;                   // law coefficient derived from c_r (see below)
  RestitutionCalibration calibration = RestitutionCalibration::exact;  // how damping was found
  // liu, wang_gao (a spherical socket): the geometry in Lai's length unit eta, E* in Lai's units
  // (E* eta^2 / (m v^2) = 1 / sqrt(R_eff / eta), so that Hertz's law is (4/3) x^{3/2}) and
  // Steuermann's polynomial index n.
  cases::SocketGeometry socket;
  double modulus = 0;
  int polynomial_index = 2;
  // (m N)_nn, the normal impact's compliance x'' = -normal_compliance F: only wang_gao's exact
  // calibration depends on it (the Hertz-type laws scale it out).
  double normal_compliance = 1.0;
  bool damped = false;  // wang_gao with a prescribed restitution (eq. 29); the other laws ignore it

  // Non-dimensional normal force, never negative (no adhesion: a law whose damping term would
  // pull is cut at zero, as its authors do).
  double force(double compression, double compression_rate) const;
  // Elastic (stored) part of the force on the loading branch: (4/3) x^{3/2} for every law of the
  // plane, K(x) x for liu and wang_gao.
  double elastic_force(double compression) const;
  // Its integral from 0: the stored energy over m v^2 ((8/15) x^{5/2} for the plane's laws).
  double elastic_energy(double compression) const;
  // The force depends on the compression rate: every law but hertz, liu and an undamped wang_gao.
  bool dissipative() const;
  // Elastic part scaled as the law prescribes for the current direction of motion: Michalczyk's
  // unloading branch (xdot < 0) is R^2 (4/3) x^{3/2}; the other laws' elastic part does not
  // depend on the direction.
  double elastic_force(double compression, double compression_rate) const;
  // True when the force depends on the sign of the compression rate with a jump at xdot = 0
  // (Michalczyk's hysteresis): integrators must stop at the end of compression.
  bool discontinuous_at_maximum_compression() const { return law == NormalLaw::michalczyk; }
};

// The force laws, with D = damping and x'(-) = initial_compression_rate:
//   hunt_crossley, lankarani_nikravesh, flores   F = (4/3) x^{3/2} [1 + D x' / x'(-)]
//   michalczyk                                   F = (4/3) x^{3/2} {1 - D [1 - sgn(x')]}
// The three viscous laws share one form and differ only in their published D(c_r):
//   hunt_crossley        D = 3 (1 - c_r) / 2
//   lankarani_nikravesh  D = 3 (1 - c_r^2) / 4
//   flores               D = 8 (1 - c_r) / (5 c_r)
//   michalczyk           D = (1 - R^2) / 2, R = c_r
// (Hunt & Crossley 1975, Lankarani & Nikravesh 1990, Flores et al. 2011, Michalczyk 2008 eq.
// 2.17.) Hertz ignores restitution (stored as 1). The socket's laws (K(x) x, cases/socket.h):
//   liu                                          F = K_c(x) x (elastic)
//   wang_gao                                     F = K(x) x + (4/3) D x^{3/2} x' / x'(-)
//   wang_gao             D = 60 sqrt(2) n (1 - c_r) / (13 (2n + 1) c_r)
// (Wang & Gao 2023, eq. 29: chi delta^{3/2} delta' with chi = 50 H (1 - c_r)/(13 c_r
// delta'(-)), H their eq. 18, is (4/3) D x^{3/2} x'/x'(-) in Lai's units), cut at zero.
// published_damping returns these; it throws std::invalid_argument for c_r outside [0, 1]
// ((0, 1] for Flores and Wang & Gao) or for an elastic law (hertz, liu).
double published_damping(NormalLaw law, double restitution, int polynomial_index = 2);

// Smallest e the exact calibration of the viscous laws reaches
// (cases::kMinimumCalibratedRestitution).
double minimum_calibrated_restitution(NormalLaw law);

// The damping for which the frictionless normal impact achieves e exactly (to 1e-10 in e, the
// accuracy of simulate_normal_impact at its default tolerance). The normal impact is universal
// (x -> x / x'(-)^{4/5}, tau -> tau x'(-)^{1/5} removes x'(-)), so D depends on (law, e) only:
//   viscous laws  D solves e_N(D) = e on [0, 1/e] by Brent's method: e_N(0) = 1, and e_N(D) <= 1/D
//                 because the force is cut when x' reaches -x'(-)/D (no adhesion), so the map is
//                 bracketed; it is the same D for the three laws (one force form). Results are
//                 cached (per thread and shared), so a sweep at one e solves once.
//   michalczyk    D = (1 - e^2)/2 in closed form: the unloading branch is e^2 times the loading
//                 one, which returns e^2 of the stored energy, so e_N = e exactly (the published
//                 value is already exact).
// Throws std::invalid_argument naming the restitution when e is outside (0, 1], below
// minimum_calibrated_restitution(law), or the law is hertz.
double calibrated_damping(NormalLaw law, double restitution);

// The spring of `law` for the prescribed restitution with the chosen calibration. Throws
// std::invalid_argument as published_damping / calibrated_damping, or for a non-positive
// initial_compression_rate.
NormalSpring make_normal_spring(NormalLaw law, double restitution, double initial_compression_rate,
                                RestitutionCalibration calibration);
// The spring of a configuration: its normal_law, restitution and calibration at x'(-) = cos alpha;
// the socket's laws with Configuration::socket (which they need: std::invalid_argument without
// it), polynomial_index and (m N)_nn = 1 - lambda cos 2 theta. wang_gao without a restitution is
// elastic; with one, its "exact" damping is the root of e_N(D) = e for this configuration's
// frictionless normal impact x'' = -(m N)_nn F, x'(0) = cos alpha (its e depends on the speed and
// the geometry, unlike the Hertz-type laws'), on the bracket [0, r/e], r its light-load ratio
// to Hertz (the force is cut once x' < -r x'(-)/D).
NormalSpring normal_spring(const Configuration& configuration);

// Restitution the law achieves in a frictionless 1-DOF normal impact m x'' = -F(x, x'), in the
// non-dimensional form x'' = -F, x(0) = 0, x'(0) = initial_compression_rate, integrated with
// DormandPrince<2> (events: end of compression x' = 0, where Michalczyk's force jumps; the force
// cut at zero, after which x' stays constant; separation x = 0). Returns e = -x'_end / x'(0).
double achieved_restitution(const NormalSpring& spring, double relative_tolerance = 1e-11);

// The same impact in more detail (for the validation report).
struct NormalImpact {
  double restitution = 0;       // e = -x'_end / x'(0)
  double duration = 0;          // tau from touch to separation (or to the force cut)
  double max_compression = 0;   // x at x' = 0
  double peak_force = 0;        // max F
  double compression_time = 0;  // tau at x' = 0
  bool force_cut = false;       // the damping term reached -1 before x returned to 0
  double cut_compression = 0;   // x where the force was cut (0 if not cut)
};
NormalImpact simulate_normal_impact(const NormalSpring& spring, double relative_tolerance = 1e-11);

// ---- Static laws in SI (rebound.normal_law, docs/PYTHON.md) ----------------------------------

// Checks a rigid approach delta (m) of a static law of the case: throws std::invalid_argument
// naming the approach when it is negative or not finite, or beyond the body: delta >= 2 R2 on a
// socket (the two spheres no longer overlap as Wang & Gao's cos theta assumes, and the exact gap
// is undefined), delta >= 2 R on a plane (R the body's radius of curvature at P, Hertz's R).
void check_static_approach(const cases::Case& c, double approach);

// The elastic part of the case's lumped.normal_law (with its lumped.polynomial_index) at each
// rigid approach, in N: on a socket cases::socket_force of the law (hertz with R_eff for hertz and
// the Hertz-type dissipative laws, liu, wang-gao); on a plane Hertz's (4/3) E* sqrt(R) delta^{3/2}
// (the elastic part of every law of the plane), the NormalSpring the lumped solve integrates
// taken to SI with the case's force and length scales. E* is the pair's (the ball's alone on the
// rigid socket or plane). Throws as check_static_approach.
std::vector<double> elastic_normal_forces(const cases::Case& c,
                                          const std::vector<double>& approaches);

}  // namespace rebound::lumped
