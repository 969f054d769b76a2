// The one-lane viscoelastic kernel (deal.II's own instantiations), in a unit of its own
// (fem/internal_force_kernel.h, make_viscoelastic_operator).
#include "fem/internal_force_kernel.h"

namespace rebound::fem::kernel {

template <typename Lanes>
std::unique_ptr<InternalForce> make_viscoelastic_operator(const InternalForce::Setup& setup,
                                                          const materials::Viscoelastic& material) {
  return make_kernel<Lanes>(setup, material);
}

template std::unique_ptr<InternalForce>
make_viscoelastic_operator<dealii::VectorizedArray<double, 1>>(const InternalForce::Setup&,
                                                               const materials::Viscoelastic&);

}  // namespace rebound::fem::kernel
