#include "observables/files.h"

#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>

#include "cases/format.h"

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

namespace {

// "solution_0012.vtu" -> "solution_*.vtu" (a numbered series); other names unchanged.
std::string series_of(const std::string& name) {
  const auto dot = name.find('.');
  const std::string stem = name.substr(0, dot);
  const std::string extension = dot == std::string::npos ? "" : name.substr(dot);
  const auto underscore = stem.rfind('_');
  if (underscore == std::string::npos || underscore + 1 == stem.size()) return name;
  for (std::size_t k = underscore + 1; k < stem.size(); ++k)
    if (!std::isdigit(static_cast<unsigned char>(stem[k]))) return name;
  return stem.substr(0, underscore + 1) + "*" + extension;
}

}  // namespace

std::string format_size(double bytes) {
  if (bytes < 1e4) return cases::format("%.0f B", bytes);
  if (bytes < 1e6) return cases::format("%.1f kB", bytes / 1e3);
  return cases::format("%.1f MB", bytes / 1e6);
}

std::string folder_listing(const std::string& directory) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (!fs::is_directory(directory, error)) {
    return "  " + directory + "/  (not written)";
  }
  struct Group {
    int count = 0;
    double bytes = 0;
  };
  std::map<std::string, Group> groups;  // relative name or series -> count, size
  for (auto it = fs::recursive_directory_iterator(directory, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (!it->is_regular_file(error)) continue;
    if (it->path().filename().string().rfind('.', 0) == 0) continue;  // the run's lock file
    const fs::path relative = fs::relative(it->path(), directory, error);
    const fs::path parent = relative.parent_path();
    const std::string name =
        (parent.empty() ? "" : parent.string() + "/") + series_of(relative.filename().string());
    Group& g = groups[name];
    ++g.count;
    g.bytes += double(it->file_size(error));
  }
  std::string text = "files in " + directory + "/:\n";
  double total = 0;
  int count = 0;
  for (const auto& [name, g] : groups) {
    text += "  " + name + "  " + format_size(g.bytes) +
            (g.count > 1 ? " (" + std::to_string(g.count) + " files)" : "") + "\n";
    total += g.bytes;
    count += g.count;
  }
  text += "  " + std::to_string(count) + " file" + (count == 1 ? "" : "s") + ", " +
          format_size(total) + "\n";
  return text;
}

}  // namespace rebound::observables
