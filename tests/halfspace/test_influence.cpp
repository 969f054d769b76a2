// Influence coefficients (halfspace/influence.h) and the static Hertz contact: closed-form
// displacements of uniform tractions (Johnson, Contact Mechanics, sec. 3.4-3.6; Love 1929), the
// FFT convolution against the dense blocks, and the grid's Hertz force and radius with their
// observed order of convergence. Non-dimensional: moduli in E*, so the Boussinesq displacement of
// a point load F is F/(pi r).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "halfspace/contact.h"
#include "halfspace/influence.h"

using namespace rebound::halfspace;

namespace {

constexpr double kPi = 3.14159265358979323846;

// Uniform traction on the cells whose centres lie in a disc of radius `radius`.
Influence::Field disc(const Influence& influence, double radius) {
  const int m = influence.cells();
  Influence::Field f = Influence::Field::Zero(influence.size());
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j)
      if (std::hypot(influence.coordinate(i), influence.coordinate(j)) < radius) f[i * m + j] = 1;
  return f;
}

}  // namespace

// A uniform pressure on a square of side 2c made of k x k cells: the cells' integrals add up to
// the square's, so the centre displacement is Love's closed form (8/pi) ln(1 + sqrt 2) c
// (Timoshenko & Goodier sec. 139: 2.24 p c (1 - nu^2)/E), to round-off: 1e-12 relative (the FFT
// of the padded grid adds ~1e-15 per term).
TEST(Influence, UniformSquareHasLovesDisplacement) {
  const int m = 31, k = 11;
  const double h = 0.1, c = 0.5 * k * h;
  Influence influence(m, h, 0.3, 0.0);
  Influence::Field p = Influence::Field::Zero(influence.size()), u;
  const int lo = (m - k) / 2;
  for (int i = lo; i < lo + k; ++i)
    for (int j = lo; j < lo + k; ++j) p[i * m + j] = 1;
  influence.normal(p, u);
  const double centre = 8 / kPi * std::log(1 + std::sqrt(2.0)) * c;
  EXPECT_NEAR(u[(m / 2) * m + m / 2] / centre, 1.0, 1e-12);
  // A larger square (2k - 1 cells) about the same centre: the same law.
  Influence::Field full = Influence::Field::Zero(influence.size()), uf;
  const int centre_cell = m / 2, n2 = 2 * k - 1, lo2 = centre_cell - (k - 1);
  for (int i = lo2; i < lo2 + n2; ++i)
    for (int j = lo2; j < lo2 + n2; ++j) full[i * m + j] = 1;
  influence.normal(full, uf);
  const double full_centre = 8 / kPi * std::log(1 + std::sqrt(2.0)) * 0.5 * n2 * h;
  EXPECT_NEAR(uf[centre_cell * m + centre_cell] / full_centre, 1.0, 1e-12);
}

// The FFT convolution equals the dense sum of the 3 x 3 blocks (all kernels, with coupling) for
// a random traction: 1e-12 relative (round-off of the transforms).
TEST(Influence, FftEqualsDenseBlocks) {
  const int m = 9;
  Influence influence(m, 0.3, 0.3, 0.286);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uniform(-1, 1);
  Influence::Field p(influence.size()), qt(influence.size()), qb(influence.size());
  for (int i = 0; i < influence.size(); ++i)
    p[i] = uniform(rng), qt[i] = uniform(rng), qb[i] = uniform(rng);
  Influence::Field un, ut, ub, cn, ct, cb;
  influence.normal(p, un);
  influence.tangential(qt, qb, ut, ub);
  influence.normal_from_shear(qt, qb, cn);
  influence.shear_from_pressure(p, ct, cb);
  un += cn;
  ut += ct;
  ub += cb;
  double scale = 0, error = 0;
  for (int fi = 0; fi < m; ++fi) {
    for (int fj = 0; fj < m; ++fj) {
      Eigen::Vector3d u = Eigen::Vector3d::Zero();
      for (int si = 0; si < m; ++si)
        for (int sj = 0; sj < m; ++sj) {
          const int s = si * m + sj;
          u += influence.block(fi, fj, si, sj) * Eigen::Vector3d(p[s], qt[s], qb[s]);
        }
      const int f = fi * m + fj;
      error = std::max(error, (u - Eigen::Vector3d(un[f], ut[f], ub[f])).cwiseAbs().maxCoeff());
      scale = std::max(scale, u.cwiseAbs().maxCoeff());
    }
  }
  EXPECT_LT(error, 1e-12 * scale);
  // Reciprocity: the block matrix is symmetric (C_fs = C_sf^T).
  EXPECT_LT((influence.block(1, 2, 5, 7) - influence.block(5, 7, 1, 2).transpose()).norm(), 1e-15);
}

// Uniform tractions on a disc of radius a (Johnson sec. 3.4-3.5, in units of E*):
// Boussinesq: u_n(0) = 2 a;  Cerruti: u_t(0) = (2 - nu)/(1 - nu) a;  coupling: the radial
// displacement inside the disc is -beta r (Johnson eq. 3.32: -(1-2nu)(1+nu) p r/(2E)).
// The staircase disc of cells converges at first order in h/a (its boundary error); 3 grids
// give the observed order (~1) and the finest is within 0.5 %.
TEST(Influence, UniformDiscConverges) {
  const double a = 1.0, nu = 0.3, beta = (1 - 2 * nu) / (2 * (1 - nu));
  std::vector<double> errors_n, errors_t, errors_r;
  for (const int across : {20, 40, 80}) {
    const double h = 2 * a / across;
    const int m = across + 5;  // odd
    Influence influence(m, h, nu, beta);
    const Influence::Field p = disc(influence, a);
    Influence::Field un, ut, ub, zero = Influence::Field::Zero(influence.size());
    // A disc of the same area as the staircase, so that the comparison is of like with like.
    const double area_radius = std::sqrt(p.sum() * h * h / kPi);
    influence.normal(p, un);
    const int c = m / 2;
    errors_n.push_back(std::abs(un[c * m + c] / (2 * area_radius) - 1));
    influence.tangential(p, zero, ut, ub);
    errors_t.push_back(std::abs(ut[c * m + c] / ((2 - nu) / (1 - nu) * area_radius) - 1));
    influence.shear_from_pressure(p, ut, ub);
    const int i = c + across / 4;  // r = a/2 along t
    errors_r.push_back(std::abs(ut[i * m + c] / (-beta * influence.coordinate(i)) - 1));
    EXPECT_NEAR(ub[i * m + c], 0.0, 1e-12);  // no out-of-plane component on the axis
  }
  for (const auto* e : {&errors_n, &errors_t, &errors_r}) {
    EXPECT_LT(e->back(), 5e-3);
    EXPECT_LT(e->back(), e->front());
  }
}

// Hertz static contact: for the approach d the grid's force and contact radius against
// F = (4/3) d^{3/2}, a = sqrt(d) (units: E* = R = 1). Three grids of 16, 32, 64 cells across the
// Hertz diameter; the force error must fall at an observed order >= 1.5 (collocation with
// piecewise-constant pressure: ~2), and be below 0.5 % at 32 cells; the contact radius (from the
// contact area) within one cell.
TEST(Hertz, StaticForceAndRadiusConverge) {
  const double d = 0.7, a = std::sqrt(d), force = 4.0 / 3.0 * std::pow(d, 1.5);
  std::vector<double> errors;
  for (const int across : {16, 32, 64}) {
    const double h = 2 * a / across;
    int m = int(std::ceil(1.25 * across));
    if (m % 2 == 0) ++m;
    Contact contact(m, h, 0.3, 0.0, 0.0);
    contact.step(d, Eigen::Vector2d::Zero());
    const double error = contact.normal_force() / force - 1;
    const double radius = std::sqrt(contact.contact_cells() * h * h / kPi);
    EXPECT_NEAR(radius, a, h) << across;
    errors.push_back(error);
    std::printf("  Hertz static: %3d cells across, F/F_Hertz - 1 = %+.3e, a/a_Hertz - 1 = %+.3e\n",
                across, error, radius / a - 1);
  }
  const double order_1 = std::log2(std::abs(errors[0] / errors[1]));
  const double order_2 = std::log2(std::abs(errors[1] / errors[2]));
  std::printf("  observed orders %.2f, %.2f\n", order_1, order_2);
  EXPECT_GT(0.5 * (order_1 + order_2), 1.5);
  EXPECT_LT(std::abs(errors[1]), 5e-3);
}
