// The one-lane operator (deal.II's own instantiations) and the choice of width.
#include "fem/elastic_operator.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "fem/elastic_operator_kernel.h"

namespace rebound::fem {

#ifdef REBOUND_WITH_SIMD_LANES2
// elastic_operator_lanes2.cpp
std::unique_ptr<ElasticOperator> make_elastic_operator_lanes2(const ElasticOperator::Setup& setup);
#endif

namespace {

using Lanes4Factory = ElasticOperator* (*)(const ElasticOperator::Setup*);

// The four-lane operator lives in the module rebound_fem_avx2 (compiled with -mavx2 -mfma),
// loaded once, and only when this CPU has AVX2 and FMA, from the directory of the running
// program (build/bin, where the module is built) or the build tree's. Null when the CPU lacks
// the instructions or the module is not there (the build had no AVX2 compiler flags).
Lanes4Factory lanes4_factory() {
  static const Lanes4Factory factory = []() -> Lanes4Factory {
#if defined(REBOUND_FEM_AVX2_MODULE) && (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return nullptr;
    std::vector<std::string> directories;
    char program[4096];
    const ssize_t length = readlink("/proc/self/exe", program, sizeof program - 1);
    if (length > 0) {
      program[length] = '\0';
      directories.push_back(std::filesystem::path(program).parent_path().string());
    }
    directories.push_back(REBOUND_FEM_MODULE_DIR);
    for (const std::string& directory : directories) {
      const std::string path = directory + "/" + REBOUND_FEM_AVX2_MODULE;
      if (!std::filesystem::exists(path)) continue;
      void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (module == nullptr) continue;
      if (void* entry = dlsym(module, "rebound_make_elastic_operator_lanes4"))
        return reinterpret_cast<Lanes4Factory>(entry);
    }
#endif
    return nullptr;
  }();
  return factory;
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
  if (lanes4_factory() != nullptr) lanes.push_back(4);
  return lanes;
}

std::unique_ptr<ElasticOperator> make_elastic_operator(const ElasticOperator::Setup& setup,
                                                       unsigned int lanes) {
  const std::vector<unsigned int> available = available_lanes();
  if (lanes == 0) lanes = default_lanes();
  if (lanes == 1) return kernel::make_operator<dealii::VectorizedArray<double, 1>>(setup);
#ifdef REBOUND_WITH_SIMD_LANES2
  if (lanes == 2) return make_elastic_operator_lanes2(setup);
#endif
  if (lanes == 4 && lanes4_factory() != nullptr)
    return std::unique_ptr<ElasticOperator>(lanes4_factory()(&setup));
  throw std::invalid_argument(
      "SIMD lanes " + std::to_string(lanes) +
      " are not built or not supported by this CPU (available: " + lane_list(available) + ")");
}

}  // namespace rebound::fem
