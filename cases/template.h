// A complete case file for a shape, as `rebound init` writes it: JSON with // comments, every
// key with its default (keys that do not apply to the example are shown commented out), the unit
// and the accepted range of each in its comment.
#pragma once

#include <optional>
#include <string>

#include "cases/case.h"

namespace rebound::cases {

// Shape from its name ("sphere", ...); empty for an unknown name.
std::optional<Shape> shape_from_string(const std::string& name);

// The commented case file of an example body of `shape` named `name` (the defaults of the lumped
// and fem options are those of LumpedOptions and FemOptions).
std::string case_template(Shape shape, const std::string& name);

}  // namespace rebound::cases
