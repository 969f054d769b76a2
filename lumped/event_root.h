// The time of an event inside a step: the Illinois-modified regula falsi (Dowell & Jarratt,
// BIT 11, 1971) on a bracket [a, b] whose ends have event functions of opposite sign, or
// g(b) = 0. Shared by the DOPRI5 integrator's event location (on its dense output) and the MDR
// model's (on RK4 steps of the found length).
#pragma once

#include <cmath>

namespace rebound::lumped {

// Returns the end of the final bracket on b's side, the side where the event has happened
// (g has g(b)'s sign there, or is zero), so that a switch taken at the returned time never comes
// "a step early". g(c) is evaluated at each regula falsi point c; the bracket shrinks until
// converged(a, b) or after max_iterations points. When one end stays fixed for two points in a
// row, its value is halved (Illinois), which keeps the convergence superlinear.
template <class EventFunction, class Converged>
double event_time_after(double a, double b, double g_a, double g_b, EventFunction&& g,
                        Converged&& converged, int max_iterations) {
  int side = 0;
  for (int iteration = 0; iteration < max_iterations && g_b != 0; ++iteration) {
    if (converged(a, b)) break;
    const double c = (g_a * b - g_b * a) / (g_a - g_b);
    const double g_c = g(c);
    if ((g_c > 0) == (g_b > 0) || g_c == 0) {
      b = c, g_b = g_c;
      if (side == -1) g_a *= 0.5;
      side = -1;
    } else {
      a = c, g_a = g_c;
      if (side == 1) g_b *= 0.5;
      side = 1;
    }
  }
  return b;
}

}  // namespace rebound::lumped
