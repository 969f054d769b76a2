#include "studies/progress.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace rebound::studies {

std::string format_duration(double seconds) {
  char text[64];
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  if (seconds < 60)
    std::snprintf(text, sizeof text, "%.0f s", seconds);
  else if (seconds < 3600)
    std::snprintf(text, sizeof text, "%d min %02d s", int(seconds / 60), int(seconds) % 60);
  else
    std::snprintf(text, sizeof text, "%d h %02d min", int(seconds / 3600), int(seconds / 60) % 60);
  return text;
}

}  // namespace rebound::studies
