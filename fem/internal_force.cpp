// The one-lane operator (deal.II's own instantiations) and the choice of width.
#include "fem/internal_force.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "fem/internal_force_kernel.h"

namespace rebound::fem {

#ifdef REBOUND_WITH_SIMD_LANES2
// internal_force_lanes.cpp compiled for 128 bits
std::unique_ptr<InternalForce> make_internal_force_lanes2(const InternalForce::Setup& setup);
#endif

namespace {

using ModuleFactory = InternalForce* (*)(const InternalForce::Setup*);

// The wider widths live in modules (fem/CMakeLists.txt, internal_force_lanes.cpp): 4 lanes in
// rebound_fem_avx2 (compiled with -mavx2 -mfma), 8 in rebound_fem_avx512 (-mavx512f). Each is
// loaded once, and only when this CPU has its instructions (__builtin_cpu_supports also checks
// that the operating system saves the wider registers), from the directory of the running
// program (build/bin, where the modules are built) or the build tree's. Null when the CPU lacks
// the instructions or the module is not there (the build had no such compiler flags).
ModuleFactory load_module(const char* file) {
#if defined(REBOUND_FEM_MODULE_DIR)
  std::vector<std::string> directories;
  char program[4096];
  const ssize_t length = readlink("/proc/self/exe", program, sizeof program - 1);
  if (length > 0) {
    program[length] = '\0';
    directories.push_back(std::filesystem::path(program).parent_path().string());
  }
  directories.push_back(REBOUND_FEM_MODULE_DIR);
  for (const std::string& directory : directories) {
    const std::string path = directory + "/" + file;
    if (!std::filesystem::exists(path)) continue;
    void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (module == nullptr) continue;
    if (void* entry = dlsym(module, "rebound_make_internal_force"))
      return reinterpret_cast<ModuleFactory>(entry);
  }
#else
  (void)file;
#endif
  return nullptr;
}

ModuleFactory module_factory(unsigned int lanes) {
#if defined(__x86_64__) || defined(__i386__)
  if (lanes == 4) {
    static const ModuleFactory factory = []() -> ModuleFactory {
#if defined(REBOUND_FEM_AVX2_MODULE)
      __builtin_cpu_init();
      if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return load_module(REBOUND_FEM_AVX2_MODULE);
#endif
      return nullptr;
    }();
    return factory;
  }
  if (lanes == 8) {
    static const ModuleFactory factory = []() -> ModuleFactory {
#if defined(REBOUND_FEM_AVX512_MODULE)
      __builtin_cpu_init();
      if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2") &&
          __builtin_cpu_supports("fma"))
        return load_module(REBOUND_FEM_AVX512_MODULE);
#endif
      return nullptr;
    }();
    return factory;
  }
#endif
  (void)lanes;
  return nullptr;
}

std::string lane_list(const std::vector<unsigned int>& lanes) {
  std::string list;
  for (const unsigned int n : lanes) list += (list.empty() ? "" : ", ") + std::to_string(n);
  return list;
}

}  // namespace

unsigned int default_lanes() {
  const std::vector<unsigned int> available = available_lanes();
  const char* value = std::getenv("REBOUND_SIMD_LANES");
  if (value == nullptr || *value == '\0') return available.back();
  const std::string text(value);
  for (const unsigned int n : available)
    if (text == std::to_string(n)) return n;
  throw std::invalid_argument("REBOUND_SIMD_LANES=" + text +
                              ": expected one of the SIMD widths available here (" +
                              lane_list(available) + ")");
}

std::vector<unsigned int> available_lanes() {
  std::vector<unsigned int> lanes{1};
#ifdef REBOUND_WITH_SIMD_LANES2
  lanes.push_back(2);
#endif
  for (const unsigned int n : {4u, 8u})
    if (module_factory(n) != nullptr) lanes.push_back(n);
  return lanes;
}

std::unique_ptr<InternalForce> make_internal_force(const InternalForce::Setup& setup,
                                                   unsigned int lanes) {
  const std::vector<unsigned int> available = available_lanes();
  if (lanes == 0) lanes = default_lanes();
  if (lanes == 1) return kernel::make_operator<dealii::VectorizedArray<double, 1>>(setup);
#ifdef REBOUND_WITH_SIMD_LANES2
  if (lanes == 2) return make_internal_force_lanes2(setup);
#endif
  if ((lanes == 4 || lanes == 8) && module_factory(lanes) != nullptr)
    return std::unique_ptr<InternalForce>(module_factory(lanes)(&setup));
  throw std::invalid_argument(
      "SIMD lanes " + std::to_string(lanes) +
      " are not built or not supported by this CPU (available: " + lane_list(available) + ")");
}

}  // namespace rebound::fem
