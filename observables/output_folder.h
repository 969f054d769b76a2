// A run owns the output folder it writes (docs/USAGE.md, "Failure behaviour"):
//  - a lock (flock on DIR/.rebound.lock, released by the kernel when the process ends, also on a
//    crash) refuses a second run into the same folder while the first writes, naming it;
//  - the files a previous run left there under the names this run writes (its patterns) are
//    removed first, so that a shorter or failed run never sits beside stale results;
//  - manifest.json lists the files of the run, their sizes, the command and its status.
// Files the patterns do not match (the user's own) are never touched.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace rebound::observables {

// Another run holds the folder (what() names the folder, the holder's pid and command).
class FolderBusy : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class OutputFolder {
 public:
  // Creates `directory`, takes its lock (throws FolderBusy when another process holds it, and
  // FileError when it cannot be created) and removes the files matching `patterns` (file names
  // relative to the folder; '*' matches any run of characters within a name, a pattern with a
  // '/' matches in that subfolder) and the previous manifest. `command` is recorded as the
  // holder and in the manifest. `role` names a command that shares its folder with others
  // (results/<case>/ holds pair's, sweep's and refine's files): its lock and manifest are then
  // .rebound-ROLE.lock and manifest-ROLE.json, so that the commands neither block nor overwrite
  // each other; empty: .rebound.lock and manifest.json.
  OutputFolder(std::string directory, std::vector<std::string> patterns, std::string command,
               const std::string& role = "");
  // Releases the lock. The manifest is written by finish(); when an exception unwinds past a
  // folder that was not finished, the destructor writes it with status "failed" (errors ignored).
  ~OutputFolder();
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;
  // The lock moves with the folder (a function can take a folder and return it).
  OutputFolder(OutputFolder&& other) noexcept
      : directory_(std::move(other.directory_)),
        patterns_(std::move(other.patterns_)),
        command_(std::move(other.command_)),
        lock_name_(std::move(other.lock_name_)),
        manifest_name_(std::move(other.manifest_name_)),
        lock_fd_(std::exchange(other.lock_fd_, -1)),
        finished_(other.finished_),
        uncaught_(other.uncaught_) {}
  OutputFolder& operator=(OutputFolder&&) = delete;

  // Writes manifest.json: {"command", "status", "files": [{"name", "bytes"}...]} with every file
  // now in the folder that matches the patterns. Throws FileError when it cannot be written.
  void finish(const std::string& status);

  const std::string& directory() const { return directory_; }
  // The files now in the folder that match the patterns (relative names, sorted).
  std::vector<std::string> owned_files() const;

 private:
  std::string directory_;
  std::vector<std::string> patterns_;
  std::string command_;
  std::string lock_name_, manifest_name_;
  int lock_fd_ = -1;
  bool finished_ = false;
  int uncaught_ = 0;  // std::uncaught_exceptions() when the folder was taken
};

// True when `name` matches `pattern` ('*' = any run of characters, no other wildcards).
bool matches_pattern(const std::string& pattern, const std::string& name);

}  // namespace rebound::observables
