// Numbers in JSON documents (summaries, reports): NaN is written as null, and a missing or
// non-numeric value reads as NaN. The one definition every layer uses.
#pragma once

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

namespace rebound::cases {

// x as JSON, or null when x is not finite.
inline nlohmann::json finite_or_null(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}

// The number at `key` of an object, or NaN when the key is missing or not a number.
inline double number_or_nan(const nlohmann::json& object, const std::string& key) {
  return object.is_object() && object.contains(key) && object[key].is_number()
             ? object[key].get<double>()
             : std::numeric_limits<double>::quiet_NaN();
}

// A JSON value as a number, or NaN when it is not one.
inline double number_or_nan(const nlohmann::json& value) {
  return value.is_number() ? value.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace rebound::cases
