// Restitution as a function of Bagrejev's energy-flux density Phi (Michalczyk, J. (2008),
// Phenomenon of force impulse restitution in collision modelling, Journal of Theoretical and
// Applied Mechanics, sec. 3-4; docs/THEORY.md sec. 8): Phi and the eccentric reduced mass m_w of a
// rod by hand (eqs. 3.1, 3.10-3.13), the cut normal's quantile and moments, the sample
// statistics of the draws against the closed form, reproducible draws independent of threads, and
// a constant deterministic table giving the numbers of a constant restitution.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <cstdio>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/random_restitution.h"
#include "lumped/rigid_laws.h"
#include "lumped/solve.h"
#include "lumped/summary.h"
#include "lumped/sweep.h"

namespace rebound::lumped {
namespace {

using json = nlohmann::json;

cases::Case shipped(const char* name) {
  return cases::load_case(std::string(REBOUND_SOURCE_DIR "/cases/") + name);
}

// Phi and m_w of a shipped rod (Lai's capsule of case c: R = 0.01 m, L = 0.05 m, steel, PG at
// theta = -0.62204 rad from n) computed by hand from the capsule's mass, central inertia, the
// lever arm r = P - G and the normal n (eqs. 3.9-3.10 in 3-D: 1/m_w = 1/m + ([I^-1 (r x n)] x r).n
// for a body on a rigid, immobile target), against cases::derive to 1e-12 (relative). The case's
// lumped lambda/theta overrides (Lai's table values) are dropped: the hand computation is of the
// geometry; with them m_w is the overridden N's normal mass m / (1 - lambda cos 2 theta).
TEST(EnergyFluxDensity, RodByHandFromEquations3_10To3_13) {
  const cases::Case with_overrides = shipped("rod-lai-c.json");
  const cases::Case c = cases::without_lumped_overrides(with_overrides);
  const double R = c.body.radius, L = c.body.length, rho = c.material.density;
  const double theta = c.impact.theta, v = c.impact.normal_speed;
  ASSERT_EQ(c.body.shape, cases::Shape::capsule);

  // Mass: a cylinder of length L and two hemispherical caps (a sphere).
  const double cylinder = rho * M_PI * R * R * L, hemisphere = rho * 2.0 / 3.0 * M_PI * R * R * R;
  const double mass = cylinder + 2 * hemisphere;
  // Central inertia: about the axis, the cylinder's m R^2/2 and the sphere's (2/5) m R^2; about
  // a transverse axis through G, the cylinder's m (3R^2 + L^2)/12 and each cap's (2/5) m R^2
  // about its flat face's diameter, moved to the cap's centroid (3R/8 from the face) and then to
  // G (L/2 + 3R/8 away).
  const double axial = cylinder * R * R / 2 + 2 * (2.0 / 5.0) * hemisphere * R * R;
  const double offset = L / 2 + 3 * R / 8;
  const double transverse = cylinder * (3 * R * R + L * L) / 12 +
                            2 * (hemisphere * (2.0 / 5.0) * R * R - hemisphere * 9 * R * R / 64 +
                                 hemisphere * offset * offset);
  // The axis a (from the cap at P to the other cap) makes phi with n; G = C + (L/2) a with C the
  // cap's centre R above P: G - P = (-(L/2) sin phi, R + (L/2) cos phi) makes theta with n, so
  // sin(phi - theta) = (2R/L) sin theta (Lai 1999, eq. 5.78).
  const double phi = theta + std::asin(2 * R / L * std::sin(theta));
  const Eigen::Vector3d n(0, 1, 0), a(-std::sin(phi), std::cos(phi), 0);
  const Eigen::Vector3d r = -(R * n + L / 2 * a);  // P - G
  const Eigen::Matrix3d inertia =
      transverse * (Eigen::Matrix3d::Identity() - a * a.transpose()) + axial * a * a.transpose();
  const Eigen::Vector3d rn = r.cross(n);
  const double m_w = 1.0 / (1.0 / mass + (inertia.inverse() * rn).cross(r).dot(n));  // (3.10)
  const double flux = m_w * v * v / (2 * R * R * R);  // (3.1), r_w = R on a plane (3.2)

  const cases::Derived d = cases::derive(c);
  EXPECT_NEAR(d.body.mass, mass, 1e-12 * mass);
  EXPECT_NEAR(d.hertz.normal_mass, m_w, 1e-12 * m_w);
  EXPECT_NEAR(d.energy_flux_density, flux, 1e-12 * flux);
  EXPECT_LT(m_w, 0.8 * mass);  // the eccentric impact's m_w is well below the mass
  // Measured: mass 0.1551946771 kg, m_w 0.07828744934 kg, Phi 39143.72467 J/m^3 at 1 m/s.
  RecordProperty("m_w", std::to_string(m_w));
  RecordProperty("Phi", std::to_string(flux));
  std::printf("rod-lai-c by hand: mass %.10g kg, m_w %.10g kg, Phi %.10g J/m^3\n", mass, m_w, flux);

  // Eq. 3.13: Phi = v_w Pi_1 / (2 r_w^3) with Pi_1 the compression impulse of the frictionless
  // impact (Newton's law at mu = 0: Pi_1 = m_w v_w).
  cases::Case frictionless = c;
  frictionless.contact.friction = 0;
  frictionless.lumped.model = "newton";
  frictionless.lumped.restitution = 0.5;
  const cases::Derived df = cases::derive(frictionless);
  const Outcome o = solve(frictionless, df, false);
  const double compression_impulse = o.compression_normal_impulse * df.impulse_scale;
  EXPECT_NEAR(v * compression_impulse / (2 * R * R * R), flux, 1e-12 * flux);

  // With Lai's lambda/theta overrides Phi takes the N the lumped model solves with.
  const cases::Derived dover = cases::derive(with_overrides);
  const double m_override =
      dover.effective_mass /
      (1 - *with_overrides.lumped.lambda * std::cos(2 * *with_overrides.lumped.theta));
  EXPECT_NEAR(dover.hertz.normal_mass, m_override, 1e-12 * m_override);
  EXPECT_NEAR(dover.energy_flux_density, m_override * v * v / (2 * R * R * R),
              1e-12 * dover.energy_flux_density);
}

TEST(EnergyFluxDensity, SphereIsItsMassOverTwiceTheCubedRadius) {
  const cases::Case c = shipped("sphere-lai-psi2.json");
  const cases::Derived d = cases::derive(c);
  const double R = c.body.radius, v = c.impact.normal_speed;
  EXPECT_NEAR(d.hertz.normal_mass, d.body.mass, 1e-14 * d.body.mass);  // a sphere: m_w = m
  EXPECT_NEAR(d.energy_flux_density, d.body.mass * v * v / (2 * R * R * R),
              1e-14 * d.energy_flux_density);
  const json j = cases::to_json(c, d);
  EXPECT_EQ(j["energy_flux_density"].get<double>(), d.energy_flux_density);
  EXPECT_EQ(j["reduced_mass"].get<double>(), d.hertz.normal_mass);
}

TEST(RandomRestitution, NormalQuantileInvertsTheDistribution) {
  EXPECT_NEAR(normal_quantile(0.975), 1.959963984540054, 1e-14);
  EXPECT_NEAR(normal_quantile(0.5), 0.0, 1e-15);
  EXPECT_NEAR(normal_quantile(1e-10), -6.361340902404056, 1e-12);
  for (const double p : {1e-300, 1e-20, 1e-8, 0.001, 0.02425, 0.1, 0.3, 0.5, 0.7, 0.97575, 0.999}) {
    const double x = normal_quantile(p);
    // Compared in the tail p lies in: relative to p below 1/2, to 1 - p above.
    if (p <= 0.5) {
      EXPECT_NEAR(normal_cdf(x), p, 1e-13 * p) << p;
    } else {
      EXPECT_NEAR(normal_cdf(-x), 1 - p, 1e-13 * (1 - p)) << p;
    }
  }
}

// The closed-form moments against the numerically integrated density of eq. 4.1 (composite
// Simpson on [0, 1], 20000 intervals: error ~1e-14 for these smooth densities).
TEST(RandomRestitution, ClosedFormMomentsIntegrateEquation4_1) {
  for (const auto& [mean, sigma] : std::vector<std::pair<double, double>>{
           {0.5, 0.1}, {0.9, 0.1}, {0.05, 0.1}, {0.8, 0.5}, {0.0, 0.2}, {1.0, 0.3}, {0.7, 3.0}}) {
    const int n = 20000;
    double mass = 0, first = 0, second = 0;
    for (int i = 0; i <= n; ++i) {
      const double r = double(i) / n, w = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
      const double f = std::exp(-0.5 * (r - mean) * (r - mean) / (sigma * sigma));
      mass += w * f, first += w * f * r, second += w * f * r * r;
    }
    const double m = first / mass, s = std::sqrt(second / mass - m * m);
    const Moments cut = truncated_normal_moments(mean, sigma);
    EXPECT_NEAR(cut.mean, m, 1e-12) << mean << " " << sigma;
    EXPECT_NEAR(cut.sigma, s, 1e-12) << mean << " " << sigma;
  }
  EXPECT_EQ(truncated_normal_moments(0.7, 0.0).mean, 0.7);
  EXPECT_EQ(truncated_normal_moments(0.7, 0.0).sigma, 0.0);
}

// 20000 draws (impacts 0 to 19999 of one seed) against the cut normal's closed-form mean and
// standard deviation. The sample mean's standard error is s/sqrt(N) and the sample standard
// deviation's s sqrt((kurtosis - 1)/(4N)) (large N), with the kurtosis m4/s^4 of the draws
// themselves: a normal cut on both sides is flatter than the normal (kurtosis < 3, down to the
// uniform's 1.8), one cut at its mean (R0 = 0 or 1) is the half-normal (3.87). Each is held
// within 4 standard errors: for independent draws a false alarm has probability 6e-5 per
// comparison (two-sided normal tail), while a quantile or seeding error of a tenth of a standard
// deviation (about 14 standard errors of the mean) fails. Every draw lies in [0, 1].
TEST(RandomRestitution, SampleMomentsMatchTheCutNormal) {
  constexpr int kSamples = 20000;
  for (const auto& [mean, sigma] : std::vector<std::pair<double, double>>{
           {0.5, 0.1}, {0.9, 0.1}, {0.05, 0.1}, {0.8, 0.5}, {0.0, 0.2}, {1.0, 0.3}}) {
    double sum = 0, squares = 0;
    std::vector<double> draws;
    for (std::uint64_t k = 0; k < kSamples; ++k) {
      const double r = truncated_normal_quantile(mean, sigma, impact_uniform(2008, k));
      ASSERT_GE(r, 0.0);
      ASSERT_LE(r, 1.0);
      draws.push_back(r);
      sum += r;
    }
    const double m = sum / kSamples;
    double fourth = 0;
    for (const double r : draws) {
      squares += (r - m) * (r - m);
      fourth += std::pow(r - m, 4);
    }
    const double s = std::sqrt(squares / (kSamples - 1));
    const double kurtosis = fourth / kSamples / std::pow(squares / kSamples, 2);
    const Moments cut = truncated_normal_moments(mean, sigma);
    const double mean_error = cut.sigma / std::sqrt(kSamples);
    const double std_error = cut.sigma * std::sqrt((kurtosis - 1) / (4.0 * kSamples));
    EXPECT_NEAR(m, cut.mean, 4 * mean_error) << "R0 " << mean << " sigma " << sigma;
    EXPECT_NEAR(s, cut.sigma, 4 * std_error) << "R0 " << mean << " sigma " << sigma;
    std::printf(
        "R0 %.2f sigma %.2f: sample mean %.6f (cut normal %.6f, %+.2f SE), sigma %.6f (%.6f, "
        "%+.2f SE, kurtosis %.3f)\n",
        mean, sigma, m, cut.mean, (m - cut.mean) / mean_error, s, cut.sigma,
        (s - cut.sigma) / std_error, kurtosis);
  }
}

json random_case(const char* model = "newton") {
  json d = json::parse(R"({
    "name": "random-test",
    "body": {"shape": "sphere", "radius": 0.01},
    "material": {"young_modulus": 2e11, "poisson_ratio": 0.3, "density": 7800},
    "contact": {"friction": 0.3},
    "impact": {"normal_speed": 1.0, "tangential_speed": 0.5},
    "lumped": {"restitution": {"flux_density": [0, 1e5, 1e6], "mean": [0.9, 0.8, 0.6],
                               "std": [0.05, 0.1, 0.1]}, "seed": 7}
  })");
  d["lumped"]["model"] = model;
  return d;
}

// Phi of this sphere at 1 m/s: m v^2/(2 R^3) = 0.032673 kg m^2/s^2 / 2e-6 m^3 = 16336 J/m^3,
// between the first two nodes: R0 and sigma interpolated linearly.
TEST(RandomRestitution, TableInterpolatesAtTheCasesPhi) {
  const cases::Case c = cases::parse_case(random_case(), "random.json");
  const cases::Derived d = cases::derive(c);
  const double w = d.energy_flux_density / 1e5;
  ASSERT_GT(w, 0);
  ASSERT_LT(w, 1);
  const RestitutionDraw draw = draw_restitution(c, d, 0);
  EXPECT_NEAR(draw.mean, 0.9 + w * (0.8 - 0.9), 1e-15);
  EXPECT_NEAR(draw.sigma, 0.05 + w * (0.1 - 0.05), 1e-15);
  EXPECT_FALSE(draw.beyond);
  EXPECT_TRUE(draw.random);
  // Reproducible: the same (seed, impact) gives the same R; other impacts and seeds others.
  EXPECT_EQ(draw_restitution(c, d, 0).value, draw.value);
  EXPECT_NE(draw_restitution(c, d, 1).value, draw.value);
  cases::Case other = c;
  other.lumped.seed = 8;
  EXPECT_NE(draw_restitution(other, d, 0).value, draw.value);
  // Beyond the last node the end values hold, and the case warns.
  const cases::RestitutionAt far = cases::restitution_at(*c.lumped.restitution_table, 1e9);
  EXPECT_TRUE(far.beyond);
  EXPECT_EQ(far.mean, 0.6);
  EXPECT_EQ(far.sigma, 0.1);
  // The solve takes the draw of impact 0, and the summary says so.
  const json s = summary_json(c, d, solve(c, d));
  EXPECT_EQ(s["restitution_draw"]["value"].get<double>(), draw.value);
  EXPECT_EQ(s["restitution_draw"]["seed"].get<std::uint64_t>(), 7u);
  EXPECT_NEAR(s["e_newton"].get<double>(), draw.value, 1e-12);
  EXPECT_EQ(s["energy_flux_density"].get<double>(), d.energy_flux_density);
  EXPECT_EQ(s["units"]["energy_flux_density"], "J/m^3");
}

// A Monte Carlo sweep gives the same rows on 1 and 3 threads (each sample draws from its own
// (seed, impact) stream), and sample k's row is the case solved with R fixed to impact k's draw.
TEST(RandomRestitution, SamplesAreIndependentOfThreads) {
  json document = random_case("lai");
  document["lumped"]["normal_law"] = "michalczyk";  // Hertz's law is elastic: no R to draw
  const cases::Case c = cases::parse_case(document, "random.json");
  const SweepRange range = sample_range(40);
  const auto one = run_sweep(c, range, 1);
  const auto three = run_sweep(c, range, 3);
  ASSERT_EQ(one.size(), 40u);
  for (std::size_t k = 0; k < one.size(); ++k) {
    ASSERT_TRUE(one[k].error.empty()) << one[k].error;
    ASSERT_TRUE(one[k].draw && three[k].draw);
    EXPECT_EQ(one[k].draw->value, three[k].draw->value);
    EXPECT_EQ(one[k].scalars, three[k].scalars);
    EXPECT_EQ(one[k].draw->impact, k);
  }
  cases::Case fixed = c;
  const cases::Derived d = cases::derive(c);
  fix_restitution(fixed, d, 17);
  EXPECT_EQ(*fixed.lumped.restitution, one[17].draw->value);
  EXPECT_EQ(rebound_quantities(fixed, d, solve(fixed, d, false)).scalars(), one[17].scalars);
  // Impact 0 is what `rebound lumped` solves.
  EXPECT_EQ(one[0].scalars, rebound_quantities(c, d, solve(c, d, false)).scalars());
  // A case without a random table has no samples to draw.
  cases::Case constant = c;
  constant.lumped.restitution_table.reset();
  constant.lumped.restitution = 0.8;
  EXPECT_THROW(case_at(constant, SweepVariable::sample, 0), cases::CaseError);
}

// A deterministic table that is constant in Phi gives, for every model that takes a restitution,
// exactly the numbers of the constant lumped.restitution (bit for bit: the interpolation returns
// the node's value unchanged).
TEST(RandomRestitution, ConstantDeterministicTableIsAConstantRestitution) {
  for (const auto& [model, law] :
       std::vector<std::pair<const char*, const char*>>{{"newton", "hertz"},
                                                        {"poisson", "hertz"},
                                                        {"stronge", "hertz"},
                                                        {"smith", "hertz"},
                                                        {"lai", "michalczyk"},
                                                        {"lai", "hunt-crossley"},
                                                        {"lai", "flores"}}) {
    json table = random_case(model);
    table["lumped"]["normal_law"] = law;
    table["lumped"]["restitution"] = {{"flux_density", {0.0, 1e4, 1e8}}, {"mean", {0.7, 0.7, 0.7}}};
    table["lumped"].erase("seed");
    json number = table;
    number["lumped"]["restitution"] = 0.7;
    const cases::Case a = cases::parse_case(table, "table.json");
    const cases::Case b = cases::parse_case(number, "number.json");
    const cases::Derived d = cases::derive(a);
    const auto qa = rebound_quantities(a, d, solve(a, d, false)).scalars();
    const auto qb = rebound_quantities(b, d, solve(b, d, false)).scalars();
    EXPECT_EQ(qa.size(), qb.size());
    for (std::size_t k = 0; k < qa.size(); ++k)
      if (!(std::isnan(qa[k]) && std::isnan(qb[k]))) {
        EXPECT_EQ(qa[k], qb[k]) << model << " " << law << " scalar " << k;
      }
    // The same along a sweep of Psi1.
    SweepRange range;
    range.start = 0;
    range.stop = 4;
    range.count = 5;
    const auto ra = run_sweep(a, range, 1), rb = run_sweep(b, range, 1);
    for (std::size_t i = 0; i < ra.size(); ++i) {
      ASSERT_TRUE(ra[i].draw.has_value());
      EXPECT_EQ(ra[i].draw->value, 0.7);
      for (std::size_t k = 0; k < ra[i].scalars.size(); ++k)
        if (!(std::isnan(ra[i].scalars[k]) && std::isnan(rb[i].scalars[k]))) {
          EXPECT_EQ(ra[i].scalars[k], rb[i].scalars[k]) << model << " point " << i;
        }
    }
  }
}

}  // namespace
}  // namespace rebound::lumped
