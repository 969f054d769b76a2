// Warnings about a case that every solver accepts but whose physics may not describe the impact
// (a contact too large for Hertz's theory, an impact too fast to stay elastic and quasi-static,
// an option the chosen model ignores). They never stop a run: they are printed, and written into
// every summary.json under "warnings", so that a result cannot be read without them.
#pragma once

#include <string>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"

namespace rebound::cases {

// Limits of the warnings (docs/USAGE.md, "Failure behaviour").
// Hertz's theory assumes a contact radius small beside the radius of curvature: a_max / R.
constexpr double kHertzContactRatioLimit = 0.1;
// Impact speed over the bar-wave speed c0 = sqrt(E / rho) beyond which an elastic, quasi-static
// contact is doubtful (metals yield far below it; the contact stops being quasi-static near 1 %).
constexpr double kWaveSpeedRatioLimit = 0.005;
// Hertz's peak pressure at the onset of yield, over the yield stress Y (von Mises, nu = 0.3;
// Johnson 1985, sec. 4.2).
constexpr double kYieldPressureFactor = 1.6;

// The warnings of a case (empty when none applies), each naming the key to check.
std::vector<std::string> physical_warnings(const Case& c, const Derived& d);

}  // namespace rebound::cases
