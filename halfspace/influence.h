// Influence coefficients of an elastic half-space (the body) pressed on a rigid plane, for a
// square grid of cells carrying uniform tractions, and their FFT-accelerated application.
//
// Non-dimensional variables (Lai 1999 eqs. 5.40-5.45, docs/THEORY.md §10; lumped/halfspace.h):
// in-plane lengths in sqrt(R eta), surface displacements in eta, tractions in m v^2 / (R eta^2),
// moduli in E*. In these units the surface displacement of a point load F_n on the half-space
// (Boussinesq) is F_n / (pi r) and the half-space problem has no parameter left but nu.
//
// Surface displacements of the body at a field point (x, y) from a point traction at the origin
// (Johnson, Contact Mechanics, eqs. 3.19-3.20 (Boussinesq) and 3.22 (Cerruti) at z = 0; Love
// 1929), with 1/(pi E*) = (1 - nu)/(2 pi G), beta = (1 - 2 nu)/(2 (1 - nu)) the rigid plane's
// Dundurs constant (Johnson sec. 5.4) and u_n positive into the body (away from the plane):
//   u_n = [ F_n / r + beta (x F_t + y F_b) / r^2 ] / pi
//   u_t = [ F_t / r + nu/(1-nu) (x^2 F_t + x y F_b) / r^3 - beta x F_n / r^2 ] / pi
//   u_b = [ F_b / r + nu/(1-nu) (x y F_t + y^2 F_b) / r^3 - beta y F_n / r^2 ] / pi
// (F_n pushes into the body; (F_t, F_b) is the tangential force on the body.) The terms in beta
// are the normal-tangential coupling: a pressure pulls the surface radially towards the load,
// a shear lifts the surface ahead of it. The operator is symmetric (reciprocal theorem).
//
// A cell of side h with uniform traction: the kernels integrated over the square, in closed
// form (Love 1929; Johnson sec. 3.6): for a field point at offset (X, Y) from the cell centre,
//   I[k](X, Y) = sum over corners (x, y) = (X -+ h/2, Y -+ h/2), signs + - - +, of K(x, y), with
//   1/r     : K = x asinh(y/|x|) + y asinh(x/|y|)
//   x^2/r^3 : K = y asinh(x/|y|)          y^2/r^3 : K = x asinh(y/|x|)
//   x y/r^3 : K = -r
//   x/r^2   : K = x atan(y/x) + (y/2) ln(x^2 + y^2)     (and y/r^2 with x, y exchanged)
// (the terms x ln|x| of x ln(y + r) cancel between the corners). On a grid of cells centred at
// integer multiples of h no corner lies on an axis, so none of these is singular.
#pragma once

#include <Eigen/Dense>
#include <complex>
#include <memory>
#include <vector>

namespace rebound::halfspace {

// Kernels of a uniform unit traction on a square cell of side `side`, integrated over the cell,
// at the field offset (x, y) from its centre (without the factor 1/pi).
struct CellIntegrals {
  double inverse_distance = 0;    // int 1/r
  double xx = 0, yy = 0, xy = 0;  // int x^2/r^3, y^2/r^3, x y/r^3
  double x = 0, y = 0;            // int x/r^2, y/r^2
};
CellIntegrals cell_integrals(double x, double y, double side);

// Displacements (u_n, u_t, u_b) at a field point from a unit traction (n, t, b) on a cell at
// field offset (x, y): the 3x3 block of the influence matrix, row = displacement, column =
// traction, in the order (n, t, b).
Eigen::Matrix3d influence_block(double x, double y, double side, double poisson_ratio, double beta);

// 2-D real FFT of a cells x cells field zero-padded to padded x padded (rows along t, columns
// along b), to the half spectrum padded x (padded/2 + 1), by FFTW (plans made with FFTW_ESTIMATE,
// which picks by heuristics, not timing: without wisdom imported into the process, which rebound
// never does, the same sizes take the same plan and the same round-off on every run):
// real-to-complex transforms of the given rows only, then complex transforms of the half
// spectrum's columns; the inverse transforms the columns, then back to real only the first cells
// rows. FFTW's planner is not thread-safe: plans are made and destroyed under one lock of
// rebound's, so that the threads of a sweep can each build their own grid; executing them needs
// no lock.
class RealFft2d {
 public:
  using Complex = std::complex<double>;
  RealFft2d(int cells, int padded);
  ~RealFft2d();
  RealFft2d(const RealFft2d&) = delete;
  RealFft2d& operator=(const RealFft2d&) = delete;
  int padded() const { return padded_; }
  int half() const { return half_; }
  // field: rows x columns (row-major; rows, columns <= padded), padded with zeros to padded x
  // padded. spectrum: padded x half, row-major.
  void forward(const double* field, int rows, int columns, Complex* spectrum);
  // The first cells x cells values of the inverse transform (scaled by 1/padded^2: inverse of
  // forward).
  void inverse(const Complex* spectrum, double* field);

 private:
  struct Plans;
  int cells_, padded_, half_;
  std::unique_ptr<Plans> plans_;
};

// The influence operator on a cells x cells grid of side h centred at the origin (cell (i, j)
// at ((i - (cells-1)/2) h, (j - (cells-1)/2) h), i along t, j along b; fields stored row-major,
// index i cells + j). cells must be odd so that the origin is a cell centre.
//
// The matrix of a grid is block Toeplitz; it is applied as a circular convolution on a grid
// padded to at least 2 cells - 1 (exact: no wrap-around reaches the grid), by FFT.
class Influence {
 public:
  using Field = Eigen::VectorXd;
  Influence(int cells, double spacing, double poisson_ratio, double beta);

  int cells() const { return cells_; }
  int size() const { return cells_ * cells_; }
  double spacing() const { return spacing_; }
  double cell_area() const { return spacing_ * spacing_; }
  double beta() const { return beta_; }
  double coordinate(int i) const { return (i - 0.5 * (cells_ - 1)) * spacing_; }
  // Self-influence of a cell (u_n at its centre per unit pressure on it).
  double self_normal() const { return self_normal_; }
  // Largest eigenvalue of the tangential operator (bounded by its circulant symbol: the grid's
  // Toeplitz matrix is a principal submatrix of the padded circulant, Cauchy interlacing).
  double tangential_norm() const { return tangential_norm_; }

  // u_n = C_nn p.
  void normal(const Field& p, Field& u_n);
  // (u_t, u_b) = C_tt q (tangential from tangential, Cerruti).
  void tangential(const Field& q_t, const Field& q_b, Field& u_t, Field& u_b);
  // The coupling terms (beta): u_n = C_nt q from the shear, (u_t, u_b) = C_tn p from the pressure
  // (C_tn = C_nt^T).
  void normal_from_shear(const Field& q_t, const Field& q_b, Field& u_n);
  void shear_from_pressure(const Field& p, Field& u_t, Field& u_b);

  // Dense block (for tests): displacements at cell `field` from unit tractions at cell `source`.
  Eigen::Matrix3d block(int field_i, int field_j, int source_i, int source_j) const;

 private:
  using Complex = RealFft2d::Complex;
  using Spectrum = std::vector<Complex>;
  void transform(const Field& f, Spectrum& s) { fft_.forward(f.data(), cells_, cells_, s.data()); }
  void back(const Spectrum& s, Field& f) {
    f.resize(size());
    fft_.inverse(s.data(), f.data());
  }

  int cells_;
  double spacing_, poisson_ratio_, beta_;
  RealFft2d fft_;
  // Spectra of the kernels (real for the even kernels, imaginary for the odd coupling ones).
  std::vector<double> nn_, tt_, bb_, tb_, nt_, nb_;
  double self_normal_ = 0, tangential_norm_ = 0;
  Spectrum a_, b_, c_, w1_, w2_, w3_;  // work spectra
};

}  // namespace rebound::halfspace
