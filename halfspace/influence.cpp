#include "halfspace/influence.h"

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>

namespace rebound::halfspace {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Antiderivatives K(x, y) with d^2 K / dx dy = kernel (header comment). Corners never lie on an
// axis (x, y != 0).
double corner_inverse_distance(double x, double y) {
  return x * std::asinh(y / std::abs(x)) + y * std::asinh(x / std::abs(y));
}
double corner_xx(double x, double y) {
  return y * std::asinh(x / std::abs(y));
}
double corner_xy(double x, double y) {
  return -std::hypot(x, y);
}
double corner_x(double x, double y) {
  return x * std::atan(y / x) + 0.5 * y * std::log(x * x + y * y);
}

// int over [X - h/2, X + h/2] x [Y - h/2, Y + h/2] of d^2 K / dx dy.
template <class K>
double over_cell(K corner, double x, double y, double side) {
  const double x1 = x - 0.5 * side, x2 = x + 0.5 * side, y1 = y - 0.5 * side, y2 = y + 0.5 * side;
  return corner(x2, y2) - corner(x1, y2) - corner(x2, y1) + corner(x1, y1);
}

bool smooth_size(int n) {  // only factors 2, 3, 5 (FFTW's fastest lengths)
  for (const int f : {2, 3, 5})
    while (n % f == 0) n /= f;
  return n == 1;
}

}  // namespace

CellIntegrals cell_integrals(double x, double y, double side) {
  CellIntegrals c;
  c.inverse_distance = over_cell(corner_inverse_distance, x, y, side);
  c.xx = over_cell(corner_xx, x, y, side);
  // y^2/r^3 and y/r^2 are the x^2/r^3 and x/r^2 kernels with x and y exchanged.
  c.yy = over_cell([](double a, double b) { return corner_xx(b, a); }, x, y, side);
  c.xy = over_cell(corner_xy, x, y, side);
  c.x = over_cell(corner_x, x, y, side);
  c.y = over_cell([](double a, double b) { return corner_x(b, a); }, x, y, side);
  return c;
}

Eigen::Matrix3d influence_block(double x, double y, double side, double poisson_ratio,
                                double beta) {
  const CellIntegrals c = cell_integrals(x, y, side);
  const double cerruti = poisson_ratio / (1 - poisson_ratio);  // nu/(2 pi G) over 1/(pi E*)
  Eigen::Matrix3d m;
  // Rows: displacement (n, t, b); columns: traction (n, t, b); all over pi.
  m << c.inverse_distance, beta * c.x, beta * c.y,                       //
      -beta * c.x, c.inverse_distance + cerruti * c.xx, cerruti * c.xy,  //
      -beta * c.y, cerruti * c.xy, c.inverse_distance + cerruti * c.yy;
  return m / kPi;
}

namespace {

// Of FFTW's routines only fftw_execute is documented as thread-safe: the planner, plan destruction
// and FFTW's allocation run under this lock (rebound's only FFTW user; another FFTW user in the
// same process, e.g. a Python FFT package beside the module, would not take it).
std::mutex& planner_lock() {
  static std::mutex lock;
  return lock;
}

struct PlanDeleter {
  void operator()(fftw_plan_s* plan) const {
    const std::lock_guard<std::mutex> guard(planner_lock());
    fftw_destroy_plan(plan);
  }
};
using Plan = std::unique_ptr<fftw_plan_s, PlanDeleter>;

template <class T>
struct FftwDeleter {
  void operator()(T* p) const {
    const std::lock_guard<std::mutex> guard(planner_lock());
    fftw_free(p);
  }
};

template <class Make>
Plan make_plan(Make make) {
  const std::lock_guard<std::mutex> guard(planner_lock());
  fftw_plan plan = make();
  if (plan == nullptr) throw std::runtime_error("halfspace: FFTW could not plan a transform");
  return Plan(plan);
}

}  // namespace

// The buffers the plans were made on (FFTW's alignment) and the plans: real-to-complex over rows
// (one plan per row count asked for), complex over the half spectrum's columns (forward,
// backward, in place) and complex-to-real over the first cells rows.
struct RealFft2d::Plans {
  std::unique_ptr<double[], FftwDeleter<double>> real, real_out;
  std::unique_ptr<fftw_complex[], FftwDeleter<fftw_complex>> spectrum;
  std::map<int, Plan> rows_forward;
  Plan columns_forward, columns_backward, rows_backward;
};

RealFft2d::RealFft2d(int cells, int padded)
    : cells_(cells), padded_(padded), half_(padded / 2 + 1), plans_(std::make_unique<Plans>()) {
  if (cells < 1 || padded < cells)
    throw std::invalid_argument("halfspace::RealFft2d: expected 1 <= cells <= padded");
  const std::size_t n = std::size_t(padded) * std::size_t(padded);
  const std::size_t m = std::size_t(padded) * std::size_t(half_);
  Plans& p = *plans_;
  {
    const std::lock_guard<std::mutex> guard(planner_lock());
    p.real.reset(fftw_alloc_real(n));
    p.real_out.reset(fftw_alloc_real(n));
    p.spectrum.reset(fftw_alloc_complex(m));
  }
  if (!p.real || !p.real_out || !p.spectrum) throw std::bad_alloc();
  int length[] = {padded};
  // Columns: padded points at stride half, half of them one after the other, in place.
  p.columns_forward = make_plan([&] {
    return fftw_plan_many_dft(1, length, half_, p.spectrum.get(), nullptr, half_, 1,
                              p.spectrum.get(), nullptr, half_, 1, FFTW_FORWARD, FFTW_ESTIMATE);
  });
  p.columns_backward = make_plan([&] {
    return fftw_plan_many_dft(1, length, half_, p.spectrum.get(), nullptr, half_, 1,
                              p.spectrum.get(), nullptr, half_, 1, FFTW_BACKWARD, FFTW_ESTIMATE);
  });
  p.rows_backward = make_plan([&] {
    return fftw_plan_many_dft_c2r(1, length, cells, p.spectrum.get(), nullptr, 1, half_,
                                  p.real_out.get(), nullptr, 1, padded, FFTW_ESTIMATE);
  });
}

RealFft2d::~RealFft2d() = default;

void RealFft2d::forward(const double* field, int rows, int columns, Complex* spectrum) {
  if (rows < 1 || rows > padded_ || columns < 1 || columns > padded_)
    throw std::invalid_argument("halfspace::RealFft2d::forward: field larger than the padding");
  Plans& p = *plans_;
  Plan& rows_plan = p.rows_forward[rows];
  if (!rows_plan) {
    int length[] = {padded_};
    rows_plan = make_plan([&] {
      return fftw_plan_many_dft_r2c(1, length, rows, p.real.get(), nullptr, 1, padded_,
                                    p.spectrum.get(), nullptr, 1, half_, FFTW_ESTIMATE);
    });
  }
  // Rows (along b): real -> half spectrum; rows beyond `rows` are zero, and so their spectra.
  double* const real = p.real.get();
  for (int r = 0; r < rows; ++r) {
    double* const row = real + std::size_t(r) * padded_;
    std::copy(field + std::size_t(r) * columns, field + std::size_t(r + 1) * columns, row);
    std::fill(row + columns, row + padded_, 0.0);
  }
  fftw_execute(rows_plan.get());
  Complex* const s = reinterpret_cast<Complex*>(p.spectrum.get());  // FFTW's documented layout
  std::fill(s + std::size_t(rows) * half_, s + std::size_t(padded_) * half_, Complex(0, 0));
  // Columns (along t): complex.
  fftw_execute(p.columns_forward.get());
  std::copy(s, s + std::size_t(padded_) * half_, spectrum);
}

void RealFft2d::inverse(const Complex* spectrum, double* field) {
  Plans& p = *plans_;
  Complex* const s = reinterpret_cast<Complex*>(p.spectrum.get());
  std::copy(spectrum, spectrum + std::size_t(padded_) * half_, s);
  fftw_execute(p.columns_backward.get());
  fftw_execute(p.rows_backward.get());  // the first cells rows only (it overwrites s)
  const double scale = 1.0 / (double(padded_) * double(padded_));
  const double* const real = p.real_out.get();
  for (int r = 0; r < cells_; ++r)
    for (int j = 0; j < cells_; ++j)
      field[std::size_t(r) * cells_ + j] = scale * real[std::size_t(r) * padded_ + j];
}

namespace {
int padded_size(int cells) {
  // Linear (not circular) convolution of a cells-wide grid needs >= 2 cells - 1 points: the
  // first length from 2 cells on with no prime factor but 2, 3 and 5.
  int n = 2 * cells;
  while (!smooth_size(n)) ++n;
  return n;
}
}  // namespace

Influence::Influence(int cells, double spacing, double poisson_ratio, double beta)
    : cells_(cells),
      spacing_(spacing),
      poisson_ratio_(poisson_ratio),
      beta_(beta),
      fft_(cells, padded_size(cells)) {
  if (cells < 1 || cells % 2 == 0)
    throw std::invalid_argument("halfspace::Influence: cells must be odd (a cell at the origin)");
  const int n = fft_.padded(), half = fft_.half();
  const std::size_t spectrum_size = std::size_t(n * half);
  for (Spectrum* s : {&a_, &b_, &c_, &w1_, &w2_, &w3_}) s->resize(spectrum_size);
  // Kernels at offsets (di, dj), |di|, |dj| < cells, wrapped onto the padded grid.
  std::vector<std::vector<double>> kernels(6, std::vector<double>(std::size_t(n * n), 0.0));
  const double cerruti = poisson_ratio / (1 - poisson_ratio);
  for (int di = -(cells - 1); di <= cells - 1; ++di) {
    for (int dj = -(cells - 1); dj <= cells - 1; ++dj) {
      const CellIntegrals c = cell_integrals(di * spacing, dj * spacing, spacing);
      const std::size_t at = std::size_t(((di + n) % n) * n + (dj + n) % n);
      kernels[0][at] = c.inverse_distance / kPi;
      kernels[1][at] = (c.inverse_distance + cerruti * c.xx) / kPi;
      kernels[2][at] = (c.inverse_distance + cerruti * c.yy) / kPi;
      kernels[3][at] = cerruti * c.xy / kPi;
      kernels[4][at] = beta * c.x / kPi;
      kernels[5][at] = beta * c.y / kPi;
    }
  }
  self_normal_ = kernels[0][0];
  std::vector<double>* spectra[6] = {&nn_, &tt_, &bb_, &tb_, &nt_, &nb_};
  for (int k = 0; k < 6; ++k) {
    fft_.forward(kernels[std::size_t(k)].data(), n, n, a_.data());
    spectra[k]->resize(spectrum_size);
    // Even kernels have a real spectrum, the odd coupling kernels an imaginary one.
    for (std::size_t i = 0; i < spectrum_size; ++i)
      (*spectra[k])[i] = k < 4 ? a_[i].real() : a_[i].imag();
  }
  for (std::size_t i = 0; i < spectrum_size; ++i) {
    const double mean = 0.5 * (tt_[i] + bb_[i]), diff = 0.5 * (tt_[i] - bb_[i]);
    tangential_norm_ = std::max(tangential_norm_, mean + std::hypot(diff, tb_[i]));
  }
}

void Influence::normal(const Field& p, Field& u_n) {
  transform(p, a_);
  for (std::size_t i = 0; i < a_.size(); ++i) a_[i] *= nn_[i];
  back(a_, u_n);
}

void Influence::tangential(const Field& q_t, const Field& q_b, Field& u_t, Field& u_b) {
  transform(q_t, a_);
  transform(q_b, b_);
  for (std::size_t i = 0; i < a_.size(); ++i) {
    w1_[i] = tt_[i] * a_[i] + tb_[i] * b_[i];
    w2_[i] = tb_[i] * a_[i] + bb_[i] * b_[i];
  }
  back(w1_, u_t);
  back(w2_, u_b);
}

void Influence::normal_from_shear(const Field& q_t, const Field& q_b, Field& u_n) {
  transform(q_t, a_);
  transform(q_b, b_);
  const Complex i_unit(0, 1);
  for (std::size_t i = 0; i < a_.size(); ++i) w1_[i] = i_unit * (nt_[i] * a_[i] + nb_[i] * b_[i]);
  back(w1_, u_n);
}

void Influence::shear_from_pressure(const Field& p, Field& u_t, Field& u_b) {
  transform(p, c_);
  const Complex i_unit(0, 1);
  for (std::size_t i = 0; i < c_.size(); ++i) {
    w2_[i] = -i_unit * nt_[i] * c_[i];
    w3_[i] = -i_unit * nb_[i] * c_[i];
  }
  back(w2_, u_t);
  back(w3_, u_b);
}

Eigen::Matrix3d Influence::block(int field_i, int field_j, int source_i, int source_j) const {
  return influence_block((field_i - source_i) * spacing_, (field_j - source_j) * spacing_, spacing_,
                         poisson_ratio_, beta_);
}

}  // namespace rebound::halfspace
