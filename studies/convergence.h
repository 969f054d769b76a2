// Observed order of convergence and Richardson extrapolation of a quantity computed on a
// sequence of meshes (Roache, Verification and Validation in Computational Science and
// Engineering, 1998, ch. 5; generalised to a non-constant refinement ratio). Header-only.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace rebound::studies {

struct Convergence {
  // "ok": order and extrapolation computed (order > 0);
  // "too few runs": fewer than three runs with a value;
  // "undefined": a value is missing (null/NaN) in the last three runs;
  // "h unchanged": h_contact did not decrease between the last three runs;
  // "unchanged": the last values agree to round-off (extrapolated = finest, error 0);
  // "oscillating": the last two differences change sign (no order);
  // "differences grow": |q2 - q3| >= |q1 - q2| scaled by the ratios (order <= 0): not (yet) in
  // the asymptotic range, no extrapolation.
  std::string status;
  double order = std::numeric_limits<double>::quiet_NaN();
  double extrapolated = std::numeric_limits<double>::quiet_NaN();    // Richardson q_R
  double error_estimate = std::numeric_limits<double>::quiet_NaN();  // |q_R - q_finest|
  double finest = std::numeric_limits<double>::quiet_NaN();          // q of the finest run
  double ratio = std::numeric_limits<double>::quiet_NaN();           // h2 / h3 (last refinement)
};

// From the values q of one quantity on meshes of sizes h, ordered coarse to fine (h decreasing),
// the last three (h1 > h2 > h3): the observed order p solving
//   (q1 - q2) / (q2 - q3) = r2^p (r1^p - 1) / (r2^p - 1),   r1 = h1/h2, r2 = h2/h3,
// which is p = log((q1 - q2)/(q2 - q3)) / log(r) for a constant ratio r, and the Richardson value
//   q_R = q3 + (q3 - q2) / (r2^p - 1)   with the error estimate |q_R - q3|.
// Differences below `noise` (absolute) or 1e-12 |q| count as zero (round-off).
inline Convergence observed_convergence(const std::vector<double>& h, const std::vector<double>& q,
                                        double noise = 0) {
  Convergence c;
  const std::size_t n = std::min(h.size(), q.size());
  if (n < 3) {
    c.status = "too few runs";
    if (n > 0) c.finest = q[n - 1];
    return c;
  }
  const double h1 = h[n - 3], h2 = h[n - 2], h3 = h[n - 1];
  const double q1 = q[n - 3], q2 = q[n - 2], q3 = q[n - 1];
  c.finest = q3;
  if (!std::isfinite(q1) || !std::isfinite(q2) || !std::isfinite(q3)) {
    c.status = "undefined";
    return c;
  }
  if (!(h1 > 0 && h2 > 0 && h3 > 0) || !(h1 > h2 * (1 + 1e-9)) || !(h2 > h3 * (1 + 1e-9))) {
    c.status = "h unchanged";
    return c;
  }
  const double r1 = h1 / h2, r2 = h2 / h3;
  c.ratio = r2;
  const double d1 = q1 - q2, d2 = q2 - q3;
  const double scale = std::max({std::abs(q1), std::abs(q2), std::abs(q3)});
  const double round_off = std::max(1e-12 * scale, noise);
  if (scale == 0 || std::abs(d2) <= round_off) {
    c.status = "unchanged";
    c.extrapolated = q3;
    c.error_estimate = std::abs(d2);
    return c;
  }
  if (std::abs(d1) <= round_off || d1 / d2 < 0) {
    c.status = "oscillating";
    return c;
  }
  const double ratio = d1 / d2;
  // g(p) = r2^p (r1^p - 1) / (r2^p - 1): increasing, g(0) = ln r1 / ln r2, g(-inf) = 0.
  const auto g = [&](double p) {
    return std::pow(r2, p) * (std::pow(r1, p) - 1) / (std::pow(r2, p) - 1);
  };
  double p = std::numeric_limits<double>::quiet_NaN();
  if (std::abs(r1 / r2 - 1) < 1e-6) {
    p = std::log(ratio) / std::log(r2);
  } else {
    const double g0 = std::log(r1) / std::log(r2);
    double lo = ratio > g0 ? 1e-9 : -30.0, hi = ratio > g0 ? 30.0 : -1e-9;
    if ((g(lo) - ratio) * (g(hi) - ratio) <= 0) {
      for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        ((g(mid) - ratio) * (g(lo) - ratio) <= 0 ? hi : lo) = mid;
      }
      p = 0.5 * (lo + hi);
    } else {
      p = ratio > g0 ? 30.0 : -30.0;  // beyond the bracket: reported as such
    }
  }
  c.order = p;
  if (!(p > 0)) {
    c.status = "differences grow";
    return c;
  }
  c.status = "ok";
  c.extrapolated = q3 - d2 / (std::pow(r2, p) - 1);
  c.error_estimate = std::abs(c.extrapolated - q3);
  return c;
}

}  // namespace rebound::studies
