// Errors of a study, mapped to exit statuses by the command line.
#pragma once

#include <stdexcept>

namespace rebound::studies {

// The study was asked for something it cannot do (a level out of range, a results table of
// another case under resume): bad input, exit status 2. The message names the option or file.
class StudyInputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace rebound::studies
