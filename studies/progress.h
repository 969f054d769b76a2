// How a study tells its user what it is doing: text handed to a callback (the command line
// prints it, a library caller may log or drop it). Nothing in studies/ prints by itself.
#pragma once

#include <functional>
#include <string>

#include "cases/format.h"

namespace rebound::studies {

// Progress text: whole lines end in '\n'; a run's line is started ("  [2/5] level 1: ") and
// finished later, so a caller that prints it as it comes shows one line per run.
using Report = std::function<void(const std::string& text)>;

// "42 s", "3 min 5 s", "1 h 02 min" ("?" when not finite or negative).
std::string format_duration(double seconds);

// printf-style formatting into a std::string (for report lines): the project's one formatter.
using cases::format;

}  // namespace rebound::studies
