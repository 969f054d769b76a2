// Dormand-Prince 5(4) embedded Runge-Kutta pair with step-size control, 4th-order dense output
// (Hairer, Norsett & Wanner, Solving ODEs I, sec. II.5-6, the DOPRI5 coefficients) and event
// location on the dense output. Events are located to ~1e-14 relative in time (bracketing root
// finder on the continuous extension), so a switching surface is never detected "a step late".
//
// Header-only and templated on the state size so that a Lai solve stays on the stack.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <vector>

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
template <int N>
struct Event {
  std::function<double(double, const Eigen::Matrix<double, N, 1>&)> function;
  int direction = 0;
};

template <int N>
class DormandPrince {
 public:
  using State = Eigen::Matrix<double, N, 1>;

  // A completed step with its continuous extension, valid on [t0, t1]. The dense-output
  // coefficients are formed on the first call of at() (most steps never need them), from the
  // stages of the step, which stay valid while the observer and the event location run.
  struct DenseStep {
    double t0 = 0, t1 = 0, h = 0;
    State r1, r2;  // y(t0) and y(t0 + h) - y(t0)
    State at(double t) const {
      if (!ready_) prepare();
      const double s = (t - t0) / h, s1 = 1.0 - s;
      return r1 + s * (r2 + s1 * (r3_ + s * (r4_ + s1 * r5_)));
    }

   private:
    friend class DormandPrince;
    void prepare() const {
      r3_ = h * *k1_ - r2;
      r4_ = r2 - h * *k7_ - r3_;
      r5_ = h * (d1 * *k1_ + d3 * *k3_ + d4 * *k4_ + d5 * *k5_ + d6 * *k6_ + d7 * *k7_);
      ready_ = true;
    }
    const State *k1_ = nullptr, *k3_ = nullptr, *k4_ = nullptr, *k5_ = nullptr, *k6_ = nullptr,
                *k7_ = nullptr;
    mutable State r3_ = State::Zero(), r4_ = State::Zero(), r5_ = State::Zero();
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
  template <class Rhs, class Observer>
  Result integrate(Rhs&& f, double t0, const State& y0, double t_end,
                   const std::vector<Event<N>>& events, Observer&& observer, double h_start = 0) {
    State y = y0, k1 = f(t0, y0), k2, k3, k4, k5, k6, k7, y_new;
    ++statistics_.evaluations;
    double t = t0;
    double h = h_start > 0 ? h_start
                           : (options_.initial_step > 0 ? options_.initial_step
                                                        : initial_step(f, t0, y0, k1, t_end));
    std::vector<double> g_old(events.size());
    for (std::size_t i = 0; i < events.size(); ++i) g_old[i] = events[i].function(t, y);

    double log_error_old = std::log(1e-4);  // PI controller memory
    bool rejected_last = false;
    for (long n = 0;; ++n) {
      if (n > options_.max_steps) throw std::runtime_error("integrator: too many steps");
      h = std::min({h, options_.max_step, t_end - t});
      if (!(h > 0) || !std::isfinite(h))
        throw std::runtime_error("integrator: step size underflow");
      // Stages.
      k2 = f(t + c2 * h, y + h * (a21 * k1));
      k3 = f(t + c3 * h, y + h * (a31 * k1 + a32 * k2));
      k4 = f(t + c4 * h, y + h * (a41 * k1 + a42 * k2 + a43 * k3));
      k5 = f(t + c5 * h, y + h * (a51 * k1 + a52 * k2 + a53 * k3 + a54 * k4));
      k6 = f(t + h, y + h * (a61 * k1 + a62 * k2 + a63 * k3 + a64 * k4 + a65 * k5));
      y_new = y + h * (a71 * k1 + a73 * k3 + a74 * k4 + a75 * k5 + a76 * k6);
      k7 = f(t + h, y_new);
      statistics_.evaluations += 6;
      const State error_vector = h * (e1 * k1 + e3 * k3 + e4 * k4 + e5 * k5 + e6 * k6 + e7 * k7);
      const State scale =
          (options_.absolute_tolerance +
           options_.relative_tolerance * y.cwiseAbs().cwiseMax(y_new.cwiseAbs()).array())
              .matrix();
      const double error = std::sqrt((error_vector.cwiseQuotient(scale)).squaredNorm() / N);
      if (!std::isfinite(error)) {
        h *= 0.1;
        rejected_last = true;
        ++statistics_.rejected;
        continue;
      }
      if (error > 1.0) {
        h *= std::max(0.2, 0.9 * std::pow(error, -0.2));
        rejected_last = true;
        ++statistics_.rejected;
        continue;
      }
      // Accepted: build the continuous extension.
      DenseStep step;
      step.t0 = t;
      step.t1 = t + h;
      step.h = h;
      step.r1 = y;
      step.r2 = y_new - y;
      step.k1_ = &k1, step.k3_ = &k3, step.k4_ = &k4, step.k5_ = &k5, step.k6_ = &k6,
      step.k7_ = &k7;
      ++statistics_.steps;

      // Events: earliest sign change in the requested direction.
      int hit = -1;
      double t_hit = step.t1;
      for (std::size_t i = 0; i < events.size(); ++i) {
        const double g_new = events[i].function(step.t1, y_new);
        const double g0 = g_old[i];
        const bool up = g0 < 0 && g_new >= 0, down = g0 > 0 && g_new <= 0;
        const int dir = events[i].direction;
        if ((dir >= 0 && up) || (dir <= 0 && down)) {
          const double root = locate(events[i].function, step, g0, g_new);
          if (root < t_hit || hit < 0) t_hit = root, hit = int(i);
        }
        g_old[i] = g_new;
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
      // PI step-size control (Hairer's DOPRI5: beta = 0.04).
      const double log_error = std::log(std::max(error, 1e-300));
      double factor = 0.9 * std::exp((-0.2 + 0.04 * 0.75) * log_error + 0.04 * log_error_old);
      factor = std::clamp(factor, 0.2, rejected_last ? 1.0 : 10.0);
      log_error_old = std::max(log_error, std::log(1e-4));
      rejected_last = false;
      h *= factor;
      last_step_ = h;
      if (t >= t_end) return {t, y, -1};
    }
  }

 private:
  template <class G>
  static double locate(const G& g, const DenseStep& step, double g0, double g1) {
    // Illinois-modified regula falsi on the dense output, bracketing [t0, t1].
    double a = step.t0, b = step.t1, fa = g0, fb = g1;
    if (fb == 0) return b;
    int side = 0;
    for (int iteration = 0; iteration < 100; ++iteration) {
      const double c = (fa * b - fb * a) / (fa - fb);
      const double fc = g(c, step.at(c));
      if (fc == 0) return c;
      if ((fc > 0) == (fb > 0)) {
        b = c, fb = fc;
        if (side == -1) fa *= 0.5;
        side = -1;
      } else {
        a = c, fa = fc;
        if (side == 1) fb *= 0.5;
        side = 1;
      }
      if (std::abs(b - a) <=
          4 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(b)))
        break;
    }
    // Return the end of the bracket on the "after" side so the event has happened there.
    return b;
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
};

}  // namespace rebound::lumped
