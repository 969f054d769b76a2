// Writing result files: every file a solver or a study writes goes through here.
#pragma once

#include <stdexcept>
#include <string>

namespace rebound::observables {

// A result file could not be written or read (the message names the file and the reason).
class FileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes text to path atomically: into a temporary file of a name no other process or thread
// uses (path.tmp.<pid>.<counter>), checked, then renamed into place, so a reader sees the old or
// the new file, never a mixture. Creates the parent folder. Throws FileError (with errno's text).
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace rebound::observables
