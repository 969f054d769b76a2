// libFuzzer target for the case parser (built with clang++ -fsanitize=fuzzer,address,undefined
// by tests/CMakeLists.txt when clang supports it; run by the `long` ctest cases.libfuzzer). Any
// input must end in an accepted case with finite derived quantities or in a CaseError naming a
// key on one line per problem; anything else (another exception, a crash, a sanitizer report, a
// hang) is a finding.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "cases/case.h"
#include "cases/derived.h"

using namespace rebound::cases;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const Case c = parse_case(text, "fuzz.json");
    const Derived d = derive(c);
    for (const DerivedValue& v : derived_values(c, d))
      if (!std::isfinite(v.value) || (v.positive && !(v.value > 0))) std::abort();
  } catch (const CaseError& error) {
    const std::string what = error.what();
    if (error.key().empty() || what.find(error.key()) == std::string::npos) std::abort();
    std::size_t lines = 1;
    for (char ch : what) lines += ch == '\n';
    if (lines != error.problems().size()) std::abort();
  }
  return 0;
}
