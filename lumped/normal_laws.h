// Normal contact laws used as the normal spring of the compliant lumped models, in Lai's
// non-dimensional variables: compression x = -delta_n >= 0, compression rate xdot = -delta_n'
// (> 0 while approaching), force in units of m v^2 / eta. The elastic part of every law of the
// plane is Hertz's (4/3) x^{3/2} (Lai 1999, eq. 5.11 non-dimensionalised), up to yield for
// thornton's elastic-perfectly-plastic law; the socket's laws liu and wang-gao (cases/socket.h;
// Wang & Gao 2023, eqs. 10-12) have their own, K(x) x.
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
  wang_gao,
  thornton,     // Thornton 1997: Hertz to yield, then plastic; elastic unloading (memory)
  viscoelastic  // Brilliantov, Spahn, Hertzsch & Poeschel 1996: Hertz + (3/2) A x^{1/2} x'
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
// "wang-gao" | "thornton" | "viscoelastic"; throws std::invalid_argument naming the accepted values
// otherwise.
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
  // calibration and the e of thornton and viscoelastic depend on it (the Hertz-type damping laws
  // scale it out); Lai's model applies N itself.
  double normal_compliance = 1.0;
  bool damped = false;  // wang_gao with a prescribed restitution (eq. 29); the other laws ignore it
  // thornton: x_y = delta_y / eta, the compression at which Hertz's peak pressure 2 E* a / (pi R)
  // reaches the limiting pressure p_y = 1.6 Y: delta_y = (pi p_y / (2 E*))^2 R.
  double yield_compression = 0;
  // viscoelastic: Brilliantov et al.'s dissipative constant A in Lai's time unit eta / v.
  double dissipative_constant = 0;
  // thornton's memory of the impact (a fresh spring is a fresh impact): set by
  // start_unloading() at the end of compression, the Hertzian unloading branch on the enlarged
  // radius R_p, F = (4/3) sqrt(R_p / R) (x - x_f)^{3/2} (see thornton_unloading).
  bool unloading = false;
  double max_compression = 0;       // x_max
  double max_force = 0;             // F_max
  double unloading_stiffness = 1;   // sqrt(R_p / R)
  double residual_compression = 0;  // x_f, the plastic indentation left
  // The force has vanished for good (release(): viscoelastic's cut, thornton's x = x_f); an
  // integrator that located the release sets it, after which force() is 0.
  bool released = false;

  // Non-dimensional normal force, never negative (no adhesion: a law whose damping term would
  // pull is cut at zero, as its authors do).
  double force(double compression, double compression_rate) const;
  // Elastic (stored) part of the force on the loading branch: (4/3) x^{3/2} for every law of the
  // plane, K(x) x for liu and wang_gao; thornton's force on its current branch (loading, or
  // unloading after start_unloading).
  double elastic_force(double compression) const;
  // force(x, x') and its partial derivatives in x and x' (0 where the force is cut or released,
  // and across Michalczyk's jump at x' = 0, a constant factor on either side), for the laws of
  // the plane (not liu, wang_gao). Lai's model bounds the tangential force by mu times this force
  // (docs/THEORY.md §7, "Coulomb's bound with a dissipative law").
  struct Slopes {
    double force, compression, rate;
  };
  Slopes force_and_slopes(double compression, double compression_rate) const;
  // Its integral from 0: the stored energy over m v^2 ((8/15) x^{5/2} for the plane's laws);
  // thornton's is what unloading returns, (8/15) sqrt(R_p/R) (x - x_f)^{5/2}, with R_p and x_f
  // of an unloading from this x while still loading.
  double elastic_energy(double compression) const;
  // The law dissipates: every law but hertz, liu, an undamped wang_gao and a viscoelastic law with
  // A = 0 (thornton always counts: it dissipates once it yields).
  bool dissipative() const;
  // The law's dissipation is a prescribed restitution's (the damping laws: restitution, damping,
  // calibration are set); thornton and viscoelastic dissipate through their own material
  // constant (Y, A) and restitute whatever e follows.
  bool calibrated() const {
    return dissipative() && law != NormalLaw::thornton && law != NormalLaw::viscoelastic;
  }
  // thornton: switches to the unloading branch from x_max = `compression` (the end of
  // compression); the other laws ignore it.
  void start_unloading(double compression);
  // The law's force vanishes for good during restitution, where release(x, x') reaches 0 from
  // above (after which x' stays constant in a 1-DOF impact):
  //   hunt_crossley, lankarani_nikravesh, flores   1 + D x'/x'(-)   (the force cut at zero)
  //   viscoelastic                                 x + (3/2) A x'   (the force cut at zero)
  //   thornton (after start_unloading)             x - x_f          (the plastic dent left)
  // releases() says whether the law has such a point (a damping or an indentation > 0).
  bool releases() const;
  double release(double compression, double compression_rate) const;
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
// ((0, 1] for Flores and Wang & Gao) or for an elastic law (hertz, liu), and for thornton and
// viscoelastic, which take no restitution:
//   thornton      F = (4/3) x^{3/2} for x <= x_y, F_y + 2 sqrt(x_y) (x - x_y) beyond, on loading;
//                 F = (4/3) sqrt(R_p/R) (x - x_f)^{3/2} on unloading (thornton_unloading)
//   viscoelastic  F = (4/3) [x^{3/2} + (3/2) A x^{1/2} x'], cut at zero
// (Thornton 1997, J. Appl. Mech. 64:383; Brilliantov, Spahn, Hertzsch & Poeschel 1996, Phys.
// Rev. E 53:5382, with A in Lai's time unit eta / v: A v / eta of the SI constant).
double published_damping(NormalLaw law, double restitution, int polynomial_index = 2);

// Thornton's unloading branch from x_max (Thornton 1997, in Lai's units where Hertz is
// (4/3) x^{3/2}): loading is Hertz to x_y, then F = F_y + 2 sqrt(x_y) (x - x_y) (the mean pressure
// p_y on the plastic annulus: pi p_y R (delta - delta_y) in SI, whose slope is Hertz's at x_y);
// unloading is Hertz on R_p/R = (F_y/F_max) ((2 F_max + F_y)/(3 F_y))^{3/2}, i.e. R_p =
// (4 E*/(3 F_max)) ((2 F_max + F_y)/(2 pi p_y))^{3/2}, from x_f = x_max - (3 F_max/(4
// sqrt(R_p/R)))^{2/3}. Below yield (x_max <= x_y) it is Hertz itself (R_p = R, x_f = 0).
struct ThorntonUnloading {
  double max_force;  // F_max
  double stiffness;  // sqrt(R_p / R)
  double residual;   // x_f
};
ThorntonUnloading thornton_unloading(double max_compression, double yield_compression);
// Thornton's loading force at x (Hertz, then linear past x_y).
double thornton_loading_force(double compression, double yield_compression);

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
// The springs of the laws with their own material constant, at x'(-) = initial_compression_rate:
// thornton with x_y > 0, viscoelastic with A >= 0 (in Lai's units). Throw std::invalid_argument
// otherwise.
NormalSpring thornton_spring(double yield_compression, double initial_compression_rate);
NormalSpring viscoelastic_spring(double dissipative_constant, double initial_compression_rate);

// The spring of a configuration: its normal_law, restitution and calibration at x'(-) = cos alpha;
// the socket's laws with Configuration::socket (which they need: std::invalid_argument without
// it), polynomial_index and (m N)_nn = 1 - lambda cos 2 theta; thornton with
// Configuration::yield_compression, viscoelastic with Configuration::dissipative_constant
// (std::invalid_argument without them). wang_gao without a restitution is
// elastic; with one, its "exact" damping is the root of e_N(D) = e for this configuration's
// frictionless normal impact x'' = -(m N)_nn F, x'(0) = cos alpha (its e depends on the speed and
// the geometry, unlike the Hertz-type laws'), on the bracket [0, r/e], r its light-load ratio
// to Hertz (the force is cut once x' < -r x'(-)/D).
NormalSpring normal_spring(const Configuration& configuration);

// Restitution the law achieves in a frictionless 1-DOF normal impact m x'' = -F(x, x'), in the
// non-dimensional form x'' = -F, x(0) = 0, x'(0) = initial_compression_rate, integrated with
// DormandPrince<2> (events: end of compression x' = 0, where Michalczyk's force jumps and
// Thornton's unloading starts; the law's release (NormalSpring::release), after which x' stays
// constant; separation x = 0). Returns e = -x'_end / x'(0).
double achieved_restitution(const NormalSpring& spring, double relative_tolerance = 1e-11);

// The same impact in more detail (for the validation report).
struct NormalImpact {
  double restitution = 0;       // e = -x'_end / x'(0)
  double duration = 0;          // tau from touch to separation (or to the force cut)
  double max_compression = 0;   // x at x' = 0
  double peak_force = 0;        // max F
  double compression_time = 0;  // tau at x' = 0
  bool force_cut = false;       // the force was released (NormalSpring::release) before x = 0
  double cut_compression = 0;   // x where the force was released (0 if not)
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
