// The one-lane operator (deal.II's own instantiations) and the choice of width.
#include "fem/elastic_operator.h"

#include <stdexcept>
#include <string>

#include "fem/elastic_operator_kernel.h"

namespace rebound::fem {

#ifdef REBOUND_WITH_SIMD_LANES2
// elastic_operator_lanes2.cpp
std::unique_ptr<ElasticOperator> make_elastic_operator_lanes2(const ElasticOperator::Setup& setup);
#endif

std::vector<unsigned int> available_lanes() {
#ifdef REBOUND_WITH_SIMD_LANES2
  return {1, 2};
#else
  return {1};
#endif
}

std::unique_ptr<ElasticOperator> make_elastic_operator(const ElasticOperator::Setup& setup,
                                                       unsigned int lanes) {
  const std::vector<unsigned int> available = available_lanes();
  if (lanes == 0) lanes = available.back();
  if (lanes == 1) return kernel::make_operator<dealii::VectorizedArray<double, 1>>(setup);
#ifdef REBOUND_WITH_SIMD_LANES2
  if (lanes == 2) return make_elastic_operator_lanes2(setup);
#endif
  std::string list;
  for (const unsigned int n : available) list += (list.empty() ? "" : ", ") + std::to_string(n);
  throw std::invalid_argument("SIMD lanes " + std::to_string(lanes) +
                              " are not built or not supported by this CPU (available: " + list +
                              ")");
}

}  // namespace rebound::fem
