#include "observables/files.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace rebound::observables {

void write_file_atomically(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  static std::atomic<unsigned long> counter{0};
  const fs::path target(path);
  std::error_code error;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), error);
  if (error)
    throw FileError("cannot create folder " + target.parent_path().string() + ": " +
                    error.message());
  const std::string temporary =
      target.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  std::FILE* out = std::fopen(temporary.c_str(), "wb");
  if (!out) throw FileError("cannot write " + temporary + ": " + std::strerror(errno));
  const bool written = std::fwrite(text.data(), 1, text.size(), out) == text.size();
  const int write_errno = errno;
  const bool closed = std::fclose(out) == 0;
  if (!written || !closed) {
    const int cause = !written ? write_errno : errno;
    std::remove(temporary.c_str());
    throw FileError("write failed for " + path + ": " + std::strerror(cause));
  }
  fs::rename(temporary, target, error);
  if (error) {
    std::remove(temporary.c_str());
    throw FileError("cannot rename " + temporary + " to " + path + ": " + error.message());
  }
}

}  // namespace rebound::observables
