// Normal contact laws used as the normal spring of the compliant lumped models, in Lai's
// non-dimensional variables: compression x = -delta_n >= 0, compression rate xdot = -delta_n'
// (> 0 while approaching), force in units of m v^2 / eta. The elastic part of every law is
// Hertz's (4/3) x^{3/2} (seed 000 eq. 5.11 non-dimensionalised).
#pragma once

#include <string>

namespace rebound::lumped {

enum class NormalLaw { hertz, hunt_crossley, lankarani_nikravesh, flores, michalczyk };

// "hertz" | "hunt-crossley" | "lankarani-nikravesh" | "flores" | "michalczyk"; throws
// std::invalid_argument naming the accepted values otherwise.
NormalLaw parse_normal_law(const std::string& name);
const char* to_string(NormalLaw law);

struct NormalSpring {
  NormalLaw law = NormalLaw::hertz;
  double restitution = 1.0;               // prescribed c_r (1 for hertz)
  double initial_compression_rate = 1.0;  // xdot at first touch (cos alpha for Lai's scaling)
  double damping = 0.0;                   // law coefficient derived from c_r (see .cpp)

  // Non-dimensional normal force, never negative (no adhesion: a law whose damping term would
  // pull is cut at zero, as its authors do).
  double force(double compression, double compression_rate) const;
  // Elastic (stored) part of the force on the loading branch: (4/3) x^{3/2} for every law.
  double elastic_force(double compression) const;
  // Elastic part scaled as the law prescribes for the current direction of motion: Michalczyk's
  // unloading branch (xdot < 0) is R^2 (4/3) x^{3/2}; the other laws' elastic part does not
  // depend on the direction.
  double elastic_force(double compression, double compression_rate) const;
  // True when the force depends on the sign of the compression rate with a jump at xdot = 0
  // (Michalczyk's hysteresis): integrators must stop at the end of compression.
  bool discontinuous_at_maximum_compression() const { return law == NormalLaw::michalczyk; }
};

// Coefficients (PHYSICS sec. 4; checked against seed 001 eq. 2.17 and seed 002 sec. 3.2):
//   hunt_crossley        damping = 3 (1 - c_r) / 2
//   lankarani_nikravesh  damping = 3 (1 - c_r^2) / 4
//   flores               damping = 8 (1 - c_r) / (5 c_r)
//   michalczyk           damping = (1 - R^2) / 2, R = c_r
// with F = (4/3) x^{3/2} [1 + damping xdot / xdot(-)] for the first three and
// F = (4/3) x^{3/2} {1 - damping [1 - sgn(xdot)]} for Michalczyk. Hertz ignores restitution
// (stored as 1). Throws std::invalid_argument for c_r outside [0, 1] ((0, 1] for Flores) or a
// non-positive initial_compression_rate.
NormalSpring make_normal_spring(NormalLaw law, double restitution, double initial_compression_rate);

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

}  // namespace rebound::lumped
