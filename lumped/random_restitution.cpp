#include "lumped/random_restitution.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace rebound::lumped {
namespace {

constexpr double kSqrt2 = 1.4142135623730951;
constexpr double kSqrt2Pi = 2.5066282746310002;

double normal_density(double x) {
  return std::exp(-0.5 * x * x) / kSqrt2Pi;
}

// The cut's bounds in standard units and the probabilities outside them.
struct Cut {
  double alpha, beta;  // -mean/sigma, (1 - mean)/sigma
  double below;        // Phi(alpha) <= 1/2 (mean >= 0)
  double above;        // 1 - Phi(beta) = Phi(-beta) <= 1/2 (mean <= 1)
  double mass;         // Z = Phi(beta) - Phi(alpha)
};
Cut cut_of(double mean, double sigma) {
  Cut c;
  c.alpha = -mean / sigma;
  c.beta = (1 - mean) / sigma;
  c.below = normal_cdf(c.alpha);
  c.above = normal_cdf(-c.beta);
  c.mass = (1 - c.below) - c.above;
  return c;
}

void check(double mean, double sigma) {
  if (!(mean >= 0 && mean <= 1) || !(sigma >= 0) || !std::isfinite(sigma))
    throw std::invalid_argument(
        "the cut normal restitution needs a mean in [0, 1] and a finite "
        "std >= 0");
}

}  // namespace

double normal_cdf(double x) {
  return 0.5 * std::erfc(-x / kSqrt2);
}

double normal_quantile(double p) {
  if (!(p > 0 && p < 1)) throw std::invalid_argument("normal_quantile: p must lie in (0, 1)");
  // Acklam's rational approximations (relative error 1.15e-9) ...
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                 -2.759285104469687e+02, 1.383577518672690e+02,
                                 -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                 -1.556989798598866e+02, 6.680131188771972e+01,
                                 -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                 -2.400758277161838e+00, -2.549732539343734e+00,
                                 4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                                 2.445134137142996e+00, 3.754408661907416e+00};
  constexpr double low = 0.02425;
  const auto tail = [&](double q) {  // q = sqrt(-2 log p) of the nearer tail
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  };
  double x;
  if (p < low) {
    x = tail(std::sqrt(-2 * std::log(p)));
  } else if (p <= 1 - low) {
    const double q = p - 0.5, r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    x = -tail(std::sqrt(-2 * std::log1p(-p)));
  }
  // ... refined by one step of Halley's method on normal_cdf(x) = p (error ~1e-15), from the
  // tail p lies in, so that no digits of a small probability are lost.
  const double error = p <= 0.5 ? normal_cdf(x) - p : (1 - p) - normal_cdf(-x);
  const double step = error * kSqrt2Pi * std::exp(0.5 * x * x);
  return std::isfinite(step) ? x - step / (1 + 0.5 * x * step) : x;
}

double truncated_normal_quantile(double mean, double sigma, double u) {
  check(mean, sigma);
  if (!(u > 0 && u < 1)) throw std::invalid_argument("truncated_normal_quantile: u in (0, 1)");
  if (sigma == 0) return mean;
  if (sigma >= 1e4) return u;
  const Cut c = cut_of(mean, sigma);
  // Phi(x) = below + u Z: from the lower tail when at most 1/2, else 1 - Phi(x) = Phi(-x) =
  // above + (1 - u) Z from the upper one (both sums of non-negative terms).
  const double lower = c.below + u * c.mass;
  const double x =
      lower <= 0.5 ? normal_quantile(lower) : -normal_quantile(c.above + (1 - u) * c.mass);
  // mean + sigma x lies in [0, 1] up to rounding, which the bounds absorb.
  return std::clamp(mean + sigma * x, 0.0, 1.0);
}

Moments truncated_normal_moments(double mean, double sigma) {
  check(mean, sigma);
  if (sigma == 0) return {mean, 0};
  const Cut c = cut_of(mean, sigma);
  const double pa = normal_density(c.alpha), pb = normal_density(c.beta);
  const double shift = (pa - pb) / c.mass;
  const double variance =
      sigma * sigma * (1 + (c.alpha * pa - c.beta * pb) / c.mass - shift * shift);
  return {mean + sigma * shift, std::sqrt(std::max(0.0, variance))};
}

double impact_uniform(std::uint64_t seed, std::uint64_t impact) {
  std::seed_seq sequence{std::uint32_t(seed), std::uint32_t(seed >> 32), std::uint32_t(impact),
                         std::uint32_t(impact >> 32)};
  std::mt19937_64 engine(sequence);
  return (double(engine() >> 11) + 0.5) * 0x1.0p-53;
}

RestitutionDraw draw_restitution(const cases::Case& c, const cases::Derived& d,
                                 std::uint64_t impact) {
  if (!c.lumped.restitution_table)
    throw std::logic_error("draw_restitution: the case has no restitution table");
  const cases::RestitutionTable& table = *c.lumped.restitution_table;
  const cases::RestitutionAt at = cases::restitution_at(table, d.energy_flux_density);
  RestitutionDraw draw;
  draw.flux_density = d.energy_flux_density;
  draw.mean = at.mean;
  draw.sigma = at.sigma;
  draw.beyond = at.beyond;
  draw.random = table.random();
  draw.seed = c.lumped.seed;
  draw.impact = impact;
  draw.value = draw.random
                   ? truncated_normal_quantile(at.mean, at.sigma, impact_uniform(draw.seed, impact))
                   : at.mean;
  return draw;
}

std::optional<double> restitution_of(const cases::Case& c, const cases::Derived& d,
                                     std::uint64_t impact) {
  if (c.lumped.restitution || !c.lumped.restitution_table) return c.lumped.restitution;
  return draw_restitution(c, d, impact).value;
}

std::optional<RestitutionDraw> fix_restitution(cases::Case& c, const cases::Derived& d,
                                               std::uint64_t impact) {
  if (!c.lumped.restitution_table) return std::nullopt;
  const RestitutionDraw draw = draw_restitution(c, d, impact);
  c.lumped.restitution = draw.value;
  c.lumped.restitution_table.reset();
  return draw;
}

}  // namespace rebound::lumped
