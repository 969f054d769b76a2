// The restitution of an impact when lumped.restitution is a table in Bagrejev's energy-flux
// density Phi (Michalczyk, J. (2008), Phenomenon of force impulse restitution in collision
// modelling, Journal of Theoretical and Applied Mechanics, sec. 3-4; docs/THEORY.md sec. 8):
// R0(Phi) and sigma(Phi) from the table (cases::restitution_at) at the case's Phi
// (cases::Derived::energy_flux_density), and R drawn from the normal distribution N(R0, sigma^2)
// cut to [0, 1] and renormalised (eq. 4.1), independently for every impact.
//
// The draw is reproducible and independent of threads: impact k (0 for `rebound lumped`, the
// point or sample index of a sweep) of seed S (lumped.seed, `rebound sweep --seed`) takes the
// first output of std::mt19937_64 seeded by std::seed_seq{S_lo, S_hi, k_lo, k_hi} (32-bit halves;
// both are specified exactly by the C++ standard), u = (x >> 11 + 1/2) / 2^53 in (0, 1), and R is
// the cut normal's quantile at u (inverse CDF: one uniform per impact, no rejection loop, and R
// rises with u, so the same (S, k) at another Phi gives the same quantile).
#pragma once

#include <cstdint>

#include "cases/case.h"
#include "cases/derived.h"

namespace rebound::lumped {

// The standard normal's distribution function Phi(x) = erfc(-x/sqrt 2)/2.
double normal_cdf(double x);
// Its inverse for p in (0, 1): Acklam's rational approximation refined by one Halley step on
// normal_cdf (relative error ~1e-15).
double normal_quantile(double p);

// The quantile at u in (0, 1) of N(mean, sigma^2) cut to [0, 1] (eq. 4.1), for mean in [0, 1] and
// sigma >= 0: mean + sigma x with Phi(x) = Phi(alpha) + u (Phi(beta) - Phi(alpha)), alpha =
// -mean/sigma, beta = (1 - mean)/sigma, taken from the nearer tail so that no digits cancel. sigma
// = 0 gives the mean; sigma >= 1e4 the uniform distribution on [0, 1] (the density then varies by
// less than 1/(2 sigma^2) = 5e-9 across it).
double truncated_normal_quantile(double mean, double sigma, double u);

// Mean and standard deviation of N(mean, sigma^2) cut to [0, 1], in closed form: with
// Z = Phi(beta) - Phi(alpha) and phi the standard normal density,
//   E R = mean + sigma (phi(alpha) - phi(beta)) / Z,
//   Var R = sigma^2 [1 + (alpha phi(alpha) - beta phi(beta)) / Z - ((phi(alpha) - phi(beta)) /
//   Z)^2].
struct Moments {
  double mean = 0, sigma = 0;
};
Moments truncated_normal_moments(double mean, double sigma);

// The uniform number u in (0, 1) of impact `impact` of seed `seed` (see above).
double impact_uniform(std::uint64_t seed, std::uint64_t impact);

// The restitution of one impact of a case whose lumped.restitution is a table.
struct RestitutionDraw {
  double flux_density = 0;     // Phi of the impact, J/m^3
  double mean = 0, sigma = 0;  // R0(Phi), sigma(Phi)
  bool beyond = false;         // Phi outside the table's nodes (end values held)
  bool random = false;         // the table has a sigma > 0: R was drawn
  std::uint64_t seed = 0, impact = 0;
  double value = 0;  // R: the mean when deterministic, else the draw
};
// Throws std::logic_error when the case has no table.
RestitutionDraw draw_restitution(const cases::Case& c, const cases::Derived& d,
                                 std::uint64_t impact);
// The restitution a lumped model takes from the case: lumped.restitution when a number, the
// draw of `impact` when a table, none otherwise.
std::optional<double> restitution_of(const cases::Case& c, const cases::Derived& d,
                                     std::uint64_t impact = 0);
// The case of impact `impact`: lumped.restitution set to draw_restitution's value and the table
// dropped (what the sweeps solve), returning the draw. A case without a table is left alone.
std::optional<RestitutionDraw> fix_restitution(cases::Case& c, const cases::Derived& d,
                                               std::uint64_t impact);

}  // namespace rebound::lumped
