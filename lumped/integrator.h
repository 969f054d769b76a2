// Dormand-Prince 5(4) embedded Runge-Kutta pair with step-size control, 4th-order dense output
// (Hairer, Norsett & Wanner, Solving ODEs I, sec. II.5-6, the DOPRI5 coefficients) and event
// location on the dense output. Events are located to ~1e-14 relative in time (bracketing root
// finder on the continuous extension), so a switching surface is never detected "a step late".
//
// Header-only and templated on the state size, the right-hand side, the event set and the
// observer, so that a solve stays on the stack and inlined: no heap allocation, no indirect call
// and no libm call per step.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "lumped/event_root.h"

namespace rebound::lumped {

struct IntegratorOptions {
  double relative_tolerance = 1e-8;
  double absolute_tolerance = 1e-12;
  double max_step = std::numeric_limits<double>::infinity();
  double initial_step = 0;  // 0: automatic (Hairer's initial step heuristic)
  long max_steps = 10'000'000;
};

struct IntegratorStatistics {
  long steps = 0;
  long rejected = 0;
  long evaluations = 0;
};

// An event: g(t, y) crossing zero upward (direction > 0), downward (< 0) or either (0).
// A std::vector<Event<N>> is the convenient, type-erased event set; a hot loop passes its own
// event set instead (see DormandPrince::integrate).
template <int N>
struct Event {
  std::function<double(double, const Eigen::Matrix<double, N, 1>&)> function;
  int direction = 0;
};

namespace detail {

// log2 and exp2 to ~1e-8 relative without a libm call: the step-size controller needs
// error^(-1/5)-like factors on every step, not correctly rounded ones.
inline double log2_approx(double x) {  // x normal and > 0
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  const int exponent = int((bits >> 52) & 0x7ff) - 1023;
  bits = (bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL;
  double m;  // mantissa, in [1, 2)
  std::memcpy(&m, &bits, sizeof m);
  // log2 m = (2 / ln 2) atanh u, u = (m - 1) / (m + 1) in [0, 1/3).
  const double u = (m - 1) / (m + 1), u2 = u * u;
  return exponent +
         2.8853900817779268 * u *
             (1 + u2 * (1.0 / 3 + u2 * (1.0 / 5 + u2 * (1.0 / 7 + u2 * (1.0 / 9 + u2 / 11)))));
}

inline double exp2_approx(double x) {              // |x| < 1000
  const int n = int(x) - (x < 0);                  // floor(x) unless x is a negative integer
  const double f = (x - n) * 0.69314718055994531;  // in [0, ln 2]
  // e^f by its Taylor polynomial of degree 9 (remainder < 3e-9 relative).
  double p = 1.0 / 362880;
  for (const double c :
       {1.0 / 40320, 1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 1.0 / 2, 1.0, 1.0})
    p = c + f * p;
  const std::uint64_t bits = std::uint64_t(n + 1023) << 52;  // 2^n
  double scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return p * scale;
}

// A std::vector<Event<N>> as an event set.
template <int N>
struct EventList {
  const std::vector<Event<N>>& events;
  int size() const { return int(events.size()); }
  int direction(int i) const { return events[std::size_t(i)].direction; }
  double value(int i, double t, const Eigen::Matrix<double, N, 1>& y) const {
    return events[std::size_t(i)].function(t, y);
  }
};

}  // namespace detail

// Component layout: y = (dynamic components | Q quadratures). A quadrature has y_i' = f_i(t, y)
// with f not depending on any quadrature (a work integral, the physical time of a
// time-transformed problem, ...): the stages skip them, and f receives, in their place, their
// values at the start of the step. Only the first E components enter the error norm (RMS over
// E): the others are quadratures computed for output, integrated on the steps the others choose
// (so adding or removing them changes nothing else).
template <int N, int Q = 0, int E = N>
class DormandPrince {
  static_assert(Q >= 0 && Q < N, "the state needs at least one component that is not a quadrature");
  static_assert(E >= N - Q && E <= N, "only quadratures may stay out of the error norm");
  static constexpr int M = N - Q;  // components the right-hand side depends on

 public:
  using State = Eigen::Matrix<double, N, 1>;
  static constexpr int kMaxEvents = 16;  // per integrate() call (their values live on the stack)

  struct Coefficients {  // of a step's continuous extension
    State r2, r3, r4, r5;
  };
  // A completed step with its continuous extension, valid on [t0, t1]. The dense-output
  // coefficients are formed on the first call of at() (most steps never need them), from the
  // stages of the step, which stay valid while the observer and the event location run.
  struct DenseStep {
    double t0 = 0, t1 = 0, h = 0;  // t1 < t0 + h when the step is truncated at an event
    const State& start() const { return *y0_; }  // y(t0)
    // y(t0 + h) and f(t0 + h, y(t0 + h)): the end of the step as computed (at(t1) and f there
    // unless the step is truncated).
    const State& end() const { return *y1_; }
    const State& end_derivative() const { return *k7_; }
    State at(double t) const {
      if (!ready_) prepare();
      const double s = (t - t0) / h, s1 = 1.0 - s;
      const Coefficients& r = *r_;
      return *y0_ + s * (r.r2 + s1 * (r.r3 + s * (r.r4 + s1 * r.r5)));
    }
    double at(double t, int i) const {  // component i of at(t)
      if (!ready_) prepare();
      const double s = (t - t0) / h, s1 = 1.0 - s;
      const Coefficients& r = *r_;
      return (*y0_)[i] + s * (r.r2[i] + s1 * (r.r3[i] + s * (r.r4[i] + s1 * r.r5[i])));
    }

    // Component i as a polynomial in theta = (t - t0) / h: at(t)[i] =
    // c[0] + theta (c[1] + (1 - theta) (c[2] + theta (c[3] + (1 - theta) c[4]))).
    std::array<double, 5> coefficients(int i) const {
      if (!ready_) prepare();
      const Coefficients& r = *r_;
      return {(*y0_)[i], r.r2[i], r.r3[i], r.r4[i], r.r5[i]};
    }

   private:
    friend class DormandPrince;
    void prepare() const {
      Coefficients& r = *r_;
      r.r2 = *y1_ - *y0_;
      r.r3 = h * *k1_ - r.r2;
      r.r4 = r.r2 - h * *k7_ - r.r3;
      r.r5 = h * (d1 * *k1_ + d3 * *k3_ + d4 * *k4_ + d5 * *k5_ + d6 * *k6_ + d7 * *k7_);
      ready_ = true;
    }
    const State *y0_ = nullptr, *y1_ = nullptr, *k1_ = nullptr, *k3_ = nullptr, *k4_ = nullptr,
                *k5_ = nullptr, *k6_ = nullptr, *k7_ = nullptr;
    Coefficients* r_ = nullptr;  // the integrator's storage, filled by prepare()
    mutable bool ready_ = false;
  };

  struct Result {
    double t = 0;
    State y;
    int event = -1;  // index of the event that stopped the integration, -1 if t_end reached
  };

  explicit DormandPrince(IntegratorOptions options = {}) : options_(options) {}

  const IntegratorStatistics& statistics() const { return statistics_; }
  // Step size to start the next integrate() call with (continuity across events).
  double last_step() const { return last_step_; }

  // Integrates y' = f(t, y) from (t0, y0) until t_end or the first event, whichever comes first.
  // observer(const DenseStep&) is called for every accepted step (the last one truncated at the
  // event). A sign change is an event only if g is strictly on the "before" side at the start of
  // a step, so an integration may start on a switching surface.
  //
  // events: a std::vector<Event<N>>, or an event set, any object with int size(),
  // int direction(int i) and double value(int i, double t, const State& y) (inlined: no
  // std::function call per step).
  template <class Rhs, class Observer>
  Result integrate(Rhs&& f, double t0, const State& y0, double t_end,
                   const std::vector<Event<N>>& events, Observer&& observer, double h_start = 0) {
    return integrate(f, t0, y0, t_end, detail::EventList<N>{events}, observer, h_start);
  }

  template <class Rhs, class Events, class Observer,
            class = std::enable_if_t<!std::is_same_v<std::decay_t<Events>, std::vector<Event<N>>>>>
  Result integrate(Rhs&& f, double t0, const State& y0, double t_end, const Events& events,
                   Observer&& observer, double h_start = 0) {
    const int n_events = events.size();
    if (n_events > kMaxEvents) throw std::invalid_argument("integrator: too many events");
    State y = y0, k1 = f(t0, y0), z = y0;  // z: stage state
    ++statistics_.evaluations;
    double t = t0;
    double h = h_start > 0 ? h_start
                           : (options_.initial_step > 0 ? options_.initial_step
                                                        : initial_step(f, t0, y0, k1, t_end));
    std::array<double, kMaxEvents> g_old;
    for (int i = 0; i < n_events; ++i) g_old[std::size_t(i)] = events.value(i, t, y);

    const double rtol = options_.relative_tolerance, atol = options_.absolute_tolerance;
    constexpr double kLog2ErrorFloor = -13.287712379549449;  // log2(1e-4)
    double log2_error_old = kLog2ErrorFloor;                 // PI controller memory
    bool rejected_last = false;
    for (long n = 0;; ++n) {
      if (n > options_.max_steps) throw std::runtime_error("integrator: too many steps");
      h = std::min({h, options_.max_step, t_end - t});
      if (!(h > 0) || !std::isfinite(h))
        throw std::runtime_error("integrator: step size underflow");
      // Stages (the stage results are constructed in place; the quadratures of z stay at y's).
      auto head = [](auto& v) { return v.template head<M>(); };
      head(z) = head(y) + (h * a21) * head(k1);
      const State k2 = f(t + c2 * h, z);
      head(z) = head(y) + (h * a31) * head(k1) + (h * a32) * head(k2);
      const State k3 = f(t + c3 * h, z);
      head(z) = head(y) + (h * a41) * head(k1) + (h * a42) * head(k2) + (h * a43) * head(k3);
      const State k4 = f(t + c4 * h, z);
      head(z) = head(y) + (h * a51) * head(k1) + (h * a52) * head(k2) + (h * a53) * head(k3) +
                (h * a54) * head(k4);
      const State k5 = f(t + c5 * h, z);
      head(z) = head(y) + (h * a61) * head(k1) + (h * a62) * head(k2) + (h * a63) * head(k3) +
                (h * a64) * head(k4) + (h * a65) * head(k5);
      const State k6 = f(t + h, z);
      const State y_new =
          y + (h * a71) * k1 + (h * a73) * k3 + (h * a74) * k4 + (h * a75) * k5 + (h * a76) * k6;
      const State k7 = f(t + h, y_new);
      statistics_.evaluations += 6;
      // Error: RMS over the first E components of err_i / (atol + rtol max(|y_i|, |y_new_i|));
      // its square is compared with 1 and only its logarithm is needed.
      auto normed = [](const auto& v) { return v.template head<E>().array(); };
      const auto error_vector = (h * e1) * normed(k1) + (h * e3) * normed(k3) +
                                (h * e4) * normed(k4) + (h * e5) * normed(k5) +
                                (h * e6) * normed(k6) + (h * e7) * normed(k7);
      const auto scale = atol + rtol * normed(y).abs().max(normed(y_new).abs());
      const double error2 = (error_vector / scale).matrix().squaredNorm() / E;
      if (!(error2 <= std::numeric_limits<double>::max())) {  // NaN or infinite
        h *= 0.1;
        rejected_last = true;
        ++statistics_.rejected;
        continue;
      }
      const double log2_error = 0.5 * detail::log2_approx(std::max(error2, 1e-300));
      if (error2 > 1.0) {
        h *= std::max(0.2, 0.9 * detail::exp2_approx(-0.2 * log2_error));  // 0.9 err^(-1/5)
        rejected_last = true;
        ++statistics_.rejected;
        continue;
      }
      // Accepted: the continuous extension refers to the stages.
      if constexpr (Q > 0) z.template tail<Q>() = y_new.template tail<Q>();
      DenseStep step;
      step.t0 = t;
      step.t1 = t + h;
      step.h = h;
      step.y0_ = &y, step.y1_ = &y_new, step.r_ = &dense_;
      step.k1_ = &k1, step.k3_ = &k3, step.k4_ = &k4, step.k5_ = &k5, step.k6_ = &k6,
      step.k7_ = &k7;
      ++statistics_.steps;

      // Events: earliest sign change in the requested direction.
      int hit = -1;
      double t_hit = step.t1;
      for (int i = 0; i < n_events; ++i) {
        const double g_new = events.value(i, step.t1, y_new);
        const double g0 = g_old[std::size_t(i)];
        const bool up = g0 < 0 && g_new >= 0, down = g0 > 0 && g_new <= 0;
        const int dir = events.direction(i);
        if ((dir >= 0 && up) || (dir <= 0 && down)) {
          const double root = locate(events, i, step, g0, g_new);
          if (root < t_hit || hit < 0) t_hit = root, hit = i;
        }
        g_old[std::size_t(i)] = g_new;
      }
      if (hit >= 0) {
        step.t1 = t_hit;
        observer(step);
        last_step_ = h;
        return {t_hit, step.at(t_hit), hit};
      }
      observer(step);
      t = step.t1;
      y = y_new;
      k1 = k7;  // FSAL
      // PI step-size control (Hairer's DOPRI5, beta = 0.04):
      // factor = 0.9 err^(-0.2 + 0.75 beta) err_old^beta.
      double factor =
          0.9 * detail::exp2_approx((-0.2 + 0.04 * 0.75) * log2_error + 0.04 * log2_error_old);
      factor = std::clamp(factor, 0.2, rejected_last ? 1.0 : 10.0);
      log2_error_old = std::max(log2_error, kLog2ErrorFloor);
      rejected_last = false;
      h *= factor;
      last_step_ = h;
      if (t >= t_end) return {t, y, -1};
    }
  }

 private:
  template <class Events>
  static double locate(const Events& events, int i, const DenseStep& step, double g0, double g1) {
    // On the dense output, bracketing [t0, t1], to 4 ulp of the time (at least 4 eps).
    return event_time_after(
        step.t0, step.t1, g0, g1, [&](double t) { return events.value(i, t, step.at(t)); },
        [](double a, double b) {
          return std::abs(b - a) <=
                 4 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(b));
        },
        100);
  }

  template <class Rhs>
  double initial_step(Rhs& f, double t0, const State& y0, const State& f0, double t_end) {
    const State scale =
        (options_.absolute_tolerance + options_.relative_tolerance * y0.cwiseAbs().array())
            .matrix();
    const double d0 = std::sqrt(y0.cwiseQuotient(scale).squaredNorm() / N);
    const double d1 = std::sqrt(f0.cwiseQuotient(scale).squaredNorm() / N);
    double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
    h0 = std::min(h0, t_end - t0);
    const State f1 = f(t0 + h0, State(y0 + h0 * f0));
    ++statistics_.evaluations;
    const double d2 = std::sqrt((f1 - f0).cwiseQuotient(scale).squaredNorm() / N) / h0;
    const double h1 = std::max(d1, d2) <= 1e-15 ? std::max(1e-6, h0 * 1e-3)
                                                : std::pow(0.01 / std::max(d1, d2), 0.2);
    return std::min(100 * h0, h1);
  }

  static constexpr double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
  static constexpr double a21 = 1.0 / 5;
  static constexpr double a31 = 3.0 / 40, a32 = 9.0 / 40;
  static constexpr double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
  static constexpr double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561,
                          a54 = -212.0 / 729;
  static constexpr double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247,
                          a64 = 49.0 / 176, a65 = -5103.0 / 18656;
  static constexpr double a71 = 35.0 / 384, a73 = 500.0 / 1113, a74 = 125.0 / 192,
                          a75 = -2187.0 / 6784, a76 = 11.0 / 84;
  static constexpr double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920,
                          e5 = -17253.0 / 339200, e6 = 22.0 / 525, e7 = -1.0 / 40;
  static constexpr double d1 = -12715105075.0 / 11282082432.0, d3 = 87487479700.0 / 32700410799.0,
                          d4 = -10690763975.0 / 1880347072.0, d5 = 701980252875.0 / 199316789632.0,
                          d6 = -1453857185.0 / 822651844.0, d7 = 69997945.0 / 29380423.0;

  IntegratorOptions options_;
  IntegratorStatistics statistics_;
  double last_step_ = 0;
  Coefficients dense_;  // of the current step's continuous extension
};

}  // namespace rebound::lumped
