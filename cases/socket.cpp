#include "cases/socket.h"

#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "cases/case.h"
#include "cases/derived.h"

namespace rebound::cases {
namespace {

// Gauss-Legendre nodes and weights on [0, 1] (Newton on P_n from the Chebyshev guesses).
constexpr int kGaussPoints = 20;
struct Gauss {
  std::array<double, kGaussPoints> nodes{}, weights{};
};
const Gauss& gauss() {
  static const Gauss rule = [] {
    Gauss g;
    const int n = kGaussPoints;
    for (int i = 0; i < n; ++i) {
      double x = std::cos(M_PI * (i + 0.75) / (n + 0.5)), derivative = 0;
      for (int iteration = 0; iteration < 100; ++iteration) {
        double p0 = 1, p1 = x;  // P_0, P_1, then up to P_n by the three-term recurrence
        for (int k = 2; k <= n; ++k) {
          const double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
          p0 = p1;
          p1 = p2;
        }
        derivative = n * (x * p1 - p0) / (x * x - 1);
        const double step = p1 / derivative;
        x -= step;
        if (std::abs(step) < 1e-16) break;
      }
      g.nodes[i] = 0.5 * (1 + x);
      g.weights[i] = 1.0 / ((1 - x * x) * derivative * derivative);  // 2/((1-x^2)P'^2) over 2
    }
    return g;
  }();
  return rule;
}

double steuermann_factor(int polynomial_index) {
  if (polynomial_index < 1)
    throw std::invalid_argument("socket law: polynomial index n must be >= 1");
  return 4.0 * polynomial_index / (2.0 * polynomial_index + 1.0);
}

}  // namespace

SocketGeometry socket_geometry(const Case& c) {
  if (c.target.type != TargetType::spherical_socket)
    throw std::invalid_argument("socket_geometry: the case's target is not a spherical socket");
  SocketGeometry g;
  g.socket_radius = c.target.radius;
  g.ball_radius = c.body.radius;
  g.clearance = c.target.radius - c.body.radius;
  return g;
}

SocketGeometry scaled(const SocketGeometry& g, double length) {
  return {g.socket_radius / length, g.ball_radius / length, g.clearance / length};
}

double effective_radius(const SocketGeometry& g) {
  return g.socket_radius * g.ball_radius / g.clearance;
}

double wang_gao_sine(const SocketGeometry& g, double delta) {
  if (!(delta > 0)) return 0.0;
  const double R1 = g.socket_radius, R2 = g.ball_radius, dR = g.clearance;
  // 1 - cos = delta (2 R2 - delta) / (2 D R1), 1 + cos = (2 dR + delta)(2 R1 + delta) / (2 D R1),
  // D = dR + delta (R1 - dR = R2).
  const double product = delta * (2 * R2 - delta) * (2 * dR + delta) * (2 * R1 + delta);
  return product > 0 ? std::sqrt(product) / (2 * (dR + delta) * R1) : 0.0;
}

double liu_sine(const SocketGeometry& g, double delta) {
  if (!(delta > 0)) return 0.0;
  const double dR = g.clearance;
  return std::sqrt(delta * (2 * dR + delta)) / (dR + delta);
}

const char* to_string(SocketLaw law) {
  switch (law) {
    case SocketLaw::hertz:
      return "hertz";
    case SocketLaw::liu:
      return "liu";
    case SocketLaw::wang_gao:
      return "wang-gao";
  }
  return "?";
}

double socket_force(SocketLaw law, double E, const SocketGeometry& g, int n, double delta) {
  if (!(delta > 0)) return 0.0;
  switch (law) {
    case SocketLaw::hertz:
      return 4.0 / 3.0 * E * std::sqrt(effective_radius(g)) * delta * std::sqrt(delta);
    case SocketLaw::liu:
      return steuermann_factor(n) * E * g.socket_radius * liu_sine(g, delta) * delta;
    case SocketLaw::wang_gao:
      return steuermann_factor(n) * E * g.socket_radius * wang_gao_sine(g, delta) * delta;
  }
  return 0.0;
}

double socket_contact_radius(SocketLaw law, const SocketGeometry& g, double delta) {
  if (!(delta > 0)) return 0.0;
  switch (law) {
    case SocketLaw::hertz:
      return std::sqrt(effective_radius(g) * delta);
    case SocketLaw::liu:
      return g.socket_radius * liu_sine(g, delta);
    case SocketLaw::wang_gao:
      return g.socket_radius * wang_gao_sine(g, delta);
  }
  return 0.0;
}

double socket_elastic_energy(SocketLaw law, double E, const SocketGeometry& g, int n,
                             double delta) {
  if (!(delta > 0)) return 0.0;
  if (law == SocketLaw::hertz)
    return 0.4 * socket_force(law, E, g, n, delta) * delta;  // (8/15) E* sqrt(R) delta^{5/2}
  // U = int_0^sqrt(delta) F(s^2) 2 s ds: F ~ s^3 near 0 and analytic in s; two panels.
  const Gauss& rule = gauss();
  const double top = std::sqrt(delta);
  double sum = 0;
  for (int panel = 0; panel < 2; ++panel)
    for (int i = 0; i < kGaussPoints; ++i) {
      const double s = top * 0.5 * (panel + rule.nodes[i]);
      sum += rule.weights[i] * socket_force(law, E, g, n, s * s) * 2 * s;
    }
  return sum * top * 0.5;
}

double light_load_ratio(SocketLaw law, const SocketGeometry& g, int n) {
  // sin theta -> sqrt(2 R2 delta / (dR R1)) (Wang & Gao), sqrt(2 delta / dR) (Liu): with
  // (4/3) sqrt(R1 R2 / dR) the ratios below.
  const double steuermann = 3.0 * n * std::sqrt(2.0) / (2.0 * n + 1.0);
  switch (law) {
    case SocketLaw::hertz:
      return 1.0;
    case SocketLaw::liu:
      return steuermann * std::sqrt(g.socket_radius / g.ball_radius);
    case SocketLaw::wang_gao:
      return steuermann;
  }
  return 1.0;
}

double wang_gao_energy_coefficient(double E, const SocketGeometry& g, int n) {
  return 8.0 * std::sqrt(2.0) * n * E * std::sqrt(effective_radius(g)) / (5.0 * (2.0 * n + 1.0));
}

double socket_gap(const SocketGeometry& g, double r) {
  const double R1 = g.socket_radius, R2 = g.ball_radius, r2 = r * r;
  if (!(r < R2)) return std::numeric_limits<double>::infinity();
  // sqrt(R1^2 - r^2) - sqrt(R2^2 - r^2) = dR (R1 + R2)/(S1 + S2), and R_i - S_i = r^2/(R_i + S_i).
  const double S1 = std::sqrt(R1 * R1 - r2), S2 = std::sqrt(R2 * R2 - r2);
  return g.clearance * (r2 / (R1 + S1) + r2 / (R2 + S2)) / (S1 + S2);
}

std::vector<SocketImpactEstimate> socket_impact_estimates(double E, const SocketGeometry& g, int n,
                                                          double mass, double speed) {
  const double energy = 0.5 * mass * speed * speed;
  std::vector<SocketImpactEstimate> estimates;
  for (SocketLaw law : {SocketLaw::hertz, SocketLaw::liu, SocketLaw::wang_gao}) {
    SocketImpactEstimate e;
    e.law = law;
    e.light_load_ratio = light_load_ratio(law, g, n);
    // U rises monotonically with delta: bracket from Hertz's delta_max, then bisect.
    double low = 0,
           high = std::pow(
               15.0 * mass * speed * speed / (16.0 * E * std::sqrt(effective_radius(g))), 0.4);
    for (int i = 0; i < 200 && socket_elastic_energy(law, E, g, n, high) < energy; ++i)
      low = high, high *= 2;
    for (int i = 0; i < 200; ++i) {
      const double middle = 0.5 * (low + high);
      if (!(middle > low && middle < high)) break;
      (socket_elastic_energy(law, E, g, n, middle) < energy ? low : high) = middle;
    }
    e.max_approach = 0.5 * (low + high);
    e.peak_force = socket_force(law, E, g, n, e.max_approach);
    e.contact_radius = socket_contact_radius(law, g, e.max_approach);
    estimates.push_back(e);
  }
  return estimates;
}

double socket_overlap_radius(const Case& c, double force) {
  const HertzScales h = derive(c).hertz;
  const double approach =
      std::cbrt(9 * force * force / (16 * h.contact_modulus * h.contact_modulus * h.radius));
  return socket_contact_radius(SocketLaw::wang_gao, socket_geometry(c), approach);
}

double socket_fem_contact_radius_limit(const Case& c) {
  return std::sin(35.0 * M_PI / 180.0) * c.body.radius;
}

}  // namespace rebound::cases
