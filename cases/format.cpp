#include "cases/format.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace rebound::cases {

std::string format(const char* pattern, ...) {
  va_list arguments;
  va_start(arguments, pattern);
  va_list copy;
  va_copy(copy, arguments);
  const int length = std::vsnprintf(nullptr, 0, pattern, copy);
  va_end(copy);
  std::string text(length > 0 ? std::size_t(length) : 0, '\0');
  if (length > 0) std::vsnprintf(text.data(), text.size() + 1, pattern, arguments);
  va_end(arguments);
  return text;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
std::string format_number(double value, const char* pattern) {
  return format(pattern, value);
}
#pragma GCC diagnostic pop

std::string format_shortest(double value) {
  if (value == std::floor(value) && std::abs(value) < 1e6) return format("%.0f", value);
  std::string text;
  for (int digits = 1; digits <= 17; ++digits) {
    text = format("%.*g", digits, value);
    if (std::strtod(text.c_str(), nullptr) == value) break;
  }
  return text;
}

}  // namespace rebound::cases
