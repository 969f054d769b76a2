// The event time inside a step (lumped/event_root.h), the Illinois regula falsi shared by the
// DOPRI5 integrator and the MDR model: the returned time is on the "after" side of the root,
// within the tolerance asked for, and found in the few evaluations of a superlinear method.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "lumped/event_root.h"

namespace rebound::lumped {
namespace {

bool within_ulps(double a, double b) {
  return std::abs(b - a) <= 4 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(b));
}

// g(t) = t^3 - 2 on [1, 2]: the root is 2^(1/3). g is convex there, so plain regula falsi keeps
// the end t = 2 fixed and converges only linearly (41 points to 4 ulp, measured with the halving
// removed); the Illinois halving makes it superlinear (8 points). The bound 14 leaves room for a
// different rounding, not for a linear method.
TEST(EventRoot, ConvexEventFoundOnTheAfterSideInFewPoints) {
  const double root = std::cbrt(2.0);
  int points = 0;
  auto g = [&points](double t) {
    ++points;
    return t * t * t - 2;
  };
  const double t = event_time_after(1.0, 2.0, g(1.0), g(2.0), g, within_ulps, 100);
  EXPECT_GE(t * t * t - 2, 0.0) << "the event has not happened at the returned time";
  EXPECT_NEAR(t, root, 8 * std::numeric_limits<double>::epsilon() * root);
  EXPECT_LE(points - 2, 14) << "not superlinear: " << points - 2 << " regula falsi points";
}

// A decreasing event function (the after side has g < 0), and a bracket that is already an event
// at its end (g(b) = 0: no point is evaluated, b is returned).
TEST(EventRoot, DecreasingEventAndEventAtTheEnd) {
  auto g = [](double t) { return std::cos(t); };  // root pi/2 in [1, 2], decreasing
  const double t = event_time_after(1.0, 2.0, g(1.0), g(2.0), g, within_ulps, 100);
  EXPECT_LE(std::cos(t), 0.0);
  EXPECT_NEAR(t, M_PI / 2, 1e-15);

  int points = 0;
  auto counted = [&points](double t) { return ++points, t - 3; };
  EXPECT_EQ(event_time_after(1.0, 3.0, -2.0, 0.0, counted, within_ulps, 100), 3.0);
  EXPECT_EQ(points, 0);
}

// The MDR model's use: a tolerance relative to the step length, and an iteration cap. Whatever
// the cap, the returned time is on the after side, and a larger cap never returns a later time
// (the after end of the bracket only moves toward the root).
TEST(EventRoot, ToleranceAndIterationCapKeepTheAfterSide) {
  auto g = [](double t) { return std::expm1(5 * (t - 0.3)); };  // root 0.3, convex
  const double h = 1.0;
  auto converged = [h](double a, double b) { return std::abs(b - a) <= 1e-14 * h; };
  const double t = event_time_after(0.0, h, g(0.0), g(h), g, converged, 60);
  EXPECT_GE(g(t), 0.0);
  EXPECT_NEAR(t, 0.3, 1e-14);
  double previous = h;
  for (int cap = 0; cap <= 60; ++cap) {
    const double capped = event_time_after(0.0, h, g(0.0), g(h), g, converged, cap);
    EXPECT_GE(g(capped), 0.0) << cap;
    EXPECT_LE(capped, previous) << cap;
    previous = capped;
  }
  EXPECT_EQ(previous, t);
}

}  // namespace
}  // namespace rebound::lumped
