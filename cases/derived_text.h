// The case and its derived quantities as `rebound check` prints them: the body and target, mass
// properties, planar inertia, the impact, Lai's model's constants and Hertz's normal impact.
#pragma once

#include <string>

#include "cases/case.h"
#include "cases/derived.h"

namespace rebound::cases {

std::string derived_table(const Case& c, const Derived& d);

}  // namespace rebound::cases
