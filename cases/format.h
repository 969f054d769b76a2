// The one number formatter of the project: printf patterns into a std::string, for messages,
// warnings, reports, tables and the text files written (case templates, Abaqus .inp, CSV names).
// Each caller names its pattern, so every output keeps its digits.
#pragma once

#include <string>

namespace rebound::cases {

// printf-style formatting into a std::string, of any length.
std::string format(const char* pattern, ...) __attribute__((format(printf, 1, 2)));

// One number with a printf pattern for a double; "%.6g" (what messages show) unless given.
std::string format_number(double value, const char* pattern = "%.6g");

// The shortest text that reads back as the same double, as valid JSON: integers below a million
// as such (2700), else the shortest %g (7e+10, 1e-08, 0.05).
std::string format_shortest(double value);

}  // namespace rebound::cases
