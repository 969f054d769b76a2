// Runs a shell command for the command-line tests and captures what it printed.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

namespace rebound::test {

struct Invocation {
  int status = -1;     // exit status, or -1 if killed by a signal
  std::string output;  // stdout and stderr
  double seconds = 0;  // wall time
};

// `command` through /bin/sh with stderr joined to stdout.
inline Invocation shell(const std::string& command) {
  const auto start = std::chrono::steady_clock::now();
  Invocation result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  std::size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

// The `rebound` executable under test with these arguments.
inline Invocation rebound(const std::string& arguments) {
  return shell(std::string(REBOUND_BINARY) + " " + arguments);
}

// An empty folder TMPDIR/<prefix>-<pid>/<name> for one test's files.
inline std::filesystem::path scratch_directory(const std::string& prefix, const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / (prefix + "-" + std::to_string(::getpid())) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace rebound::test
