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

// Bytes for humans: "812 B", "14.2 kB", "3.1 MB".
std::string format_size(double bytes);

// What a folder holds (`-v`'s files written): "files in DIR/:", then a line per file or numbered
// series ("solution_*.vtu") with its size (and count), then the count and the total; lock files
// (names starting with '.') left out. "  DIR/  (not written)" when there is no such folder.
std::string folder_listing(const std::string& directory);

}  // namespace rebound::observables
