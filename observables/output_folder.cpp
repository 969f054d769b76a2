#include "observables/output_folder.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "observables/files.h"

namespace rebound::observables {
namespace fs = std::filesystem;

bool matches_pattern(const std::string& pattern, const std::string& name) {
  // Iterative glob with '*' only (backtracking to the last star).
  std::size_t p = 0, n = 0, star = std::string::npos, resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p, ++n;
    } else if (star != std::string::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

namespace {

constexpr const char* kLockName = ".rebound.lock";
constexpr const char* kManifestName = "manifest.json";

// Files of `directory` matching one of the patterns, relative names, sorted.
std::vector<std::string> matching_files(const std::string& directory,
                                        const std::vector<std::string>& patterns) {
  std::vector<std::string> found;
  std::error_code error;
  for (const std::string& pattern : patterns) {
    const fs::path relative(pattern);
    const fs::path folder = fs::path(directory) / relative.parent_path();
    const std::string name_pattern = relative.filename().string();
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
      if (!it->is_regular_file(error)) continue;
      const std::string name = it->path().filename().string();
      if (matches_pattern(name_pattern, name))
        found.push_back((relative.parent_path() / name).string());
    }
    error.clear();
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

}  // namespace

OutputFolder::OutputFolder(std::string directory, std::vector<std::string> patterns,
                           std::string command, const std::string& role)
    : directory_(std::move(directory)),
      patterns_(std::move(patterns)),
      command_(std::move(command)),
      lock_name_(role.empty() ? std::string(kLockName) : ".rebound-" + role + ".lock"),
      manifest_name_(role.empty() ? std::string(kManifestName) : "manifest-" + role + ".json"),
      uncaught_(std::uncaught_exceptions()) {
  std::error_code error;
  fs::create_directories(directory_, error);
  if (error) throw FileError("cannot create folder " + directory_ + ": " + error.message());
  const std::string lock_path = (fs::path(directory_) / lock_name_).string();
  lock_fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd_ < 0) throw FileError("cannot open " + lock_path + ": " + std::strerror(errno));
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    const int cause = errno;
    char holder[512] = {0};
    const ssize_t n = ::pread(lock_fd_, holder, sizeof holder - 1, 0);
    ::close(lock_fd_);
    lock_fd_ = -1;
    if (cause == EWOULDBLOCK) {
      std::string who = n > 0 ? std::string(holder, std::size_t(n)) : "another process";
      while (!who.empty() && (who.back() == '\n' || who.back() == ' ')) who.pop_back();
      throw FolderBusy(directory_ + " is being written by another rebound run (" + who +
                       "); wait for it to finish or choose another output folder (-o DIR)");
    }
    throw FileError("cannot lock " + lock_path + ": " + std::strerror(cause));
  }
  const std::string holder = "pid " + std::to_string(::getpid()) + ": " + command_ + "\n";
  if (::ftruncate(lock_fd_, 0) != 0 ||
      ::pwrite(lock_fd_, holder.data(), holder.size(), 0) != ssize_t(holder.size()))
    throw FileError("cannot write " + lock_path + ": " + std::strerror(errno));
  // Stale results of an earlier run under this run's names.
  std::vector<std::string> stale = matching_files(directory_, patterns_);
  stale.push_back(manifest_name_);
  for (const std::string& name : stale) {
    const fs::path path = fs::path(directory_) / name;
    fs::remove(path, error);
    if (error)
      throw FileError("cannot remove the earlier " + path.string() + ": " + error.message());
  }
}

OutputFolder::~OutputFolder() {
  if (lock_fd_ < 0) return;  // moved from
  if (!finished_ && std::uncaught_exceptions() > uncaught_) {
    try {
      finish("failed");
    } catch (...) {  // the exception in flight says what went wrong
    }
  }
  ::close(lock_fd_);  // releases the flock
}

std::vector<std::string> OutputFolder::owned_files() const {
  return matching_files(directory_, patterns_);
}

void OutputFolder::finish(const std::string& status) {
  nlohmann::json files = nlohmann::json::array();
  std::error_code error;
  for (const std::string& name : owned_files()) {
    const auto bytes = fs::file_size(fs::path(directory_) / name, error);
    files.push_back({{"name", name}, {"bytes", error ? 0 : bytes}});
  }
  const nlohmann::json manifest = {{"command", command_}, {"status", status}, {"files", files}};
  write_file_atomically((fs::path(directory_) / manifest_name_).string(), manifest.dump(2) + "\n");
  finished_ = true;
}

}  // namespace rebound::observables
