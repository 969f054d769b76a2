#include "cases/warnings.h"

#include <cmath>
#include <cstdio>

#include "cases/format.h"
#include "cases/normal_law_table.h"

namespace rebound::cases {

std::vector<std::string> physical_warnings(const Case& c, const Derived& d) {
  std::vector<std::string> warnings;
  const double ratio = d.hertz.contact_radius / d.hertz.radius;
  if (ratio > kHertzContactRatioLimit)
    warnings.push_back(format(
        "the Hertz contact radius a_max = %.3g m is %.0f %% of the radius of curvature R = %.3g m: "
        "Hertz's small-contact theory (a << R) does not hold; check the units of "
        "material.young_modulus (Pa), body.radius (m) and material.density (kg/m^3)",
        d.hertz.contact_radius, 100 * ratio, d.hertz.radius));
  if (c.material.yield_stress) {
    // Hertz's peak pressure; yield begins below the surface at p0 = 1.60 Y (von Mises, nu = 0.3;
    // Johnson 1985, sec. 4.2).
    const double p0 =
        1.5 * d.hertz.peak_force / (M_PI * d.hertz.contact_radius * d.hertz.contact_radius);
    const double y = *c.material.yield_stress;
    // lumped.normal_law "thornton" models the yield (Thornton 1997), material.model
    // "elastic-plastic" the FE body's; the other laws and models are elastic.
    const bool plastic_fem = c.material.model == MaterialModel::elastic_plastic;
    if (p0 > kYieldPressureFactor * y && c.lumped.normal_law != "thornton")
      warnings.push_back(format(
          "Hertz's peak pressure p0 = 3 F_max / (2 pi a_max^2) = %.4g Pa exceeds 1.6 "
          "material.yield_stress = %.4g Pa, the onset of yield below the surface (Johnson 1985, "
          "sec. 4.2): the body yields and every model here%s, being elastic, overestimates "
          "the rebound (p0 / Y = %.3g); lumped.normal_law \"thornton\" models the yield",
          p0, kYieldPressureFactor * y,
          plastic_fem ? " but the FEM (material.model \"elastic-plastic\")" : "", p0 / y));
  }
  const double c0 = std::sqrt(c.material.young_modulus / c.material.density);
  const double mach = c.impact.normal_speed / c0;
  if (mach > kWaveSpeedRatioLimit)
    warnings.push_back(format(
        "impact.normal_speed %.3g m/s is %.2f %% of the bar-wave speed sqrt(E/rho) = %.4g m/s: "
        "at such speeds metals yield and the contact stops being quasi-static, while every model "
        "here is linear elastic",
        c.impact.normal_speed, 100 * mach, c0));
  if (c.target.moves()) {  // the target sphere's own wave speed
    const double c2 = std::sqrt(c.target.young_modulus / *c.target.density);
    if (c.impact.normal_speed / c2 > kWaveSpeedRatioLimit)
      warnings.push_back(format(
          "impact.normal_speed %.3g m/s is %.2f %% of the target sphere's bar-wave speed "
          "sqrt(E2/rho2) = %.4g m/s: the contact stops being quasi-static, while every model "
          "here is linear elastic",
          c.impact.normal_speed, 100 * c.impact.normal_speed / c2, c2));
  }
  const bool elastic_contact =
      !dissipative_normal_law(c.lumped) && compliant(lumped_model(c.lumped.model));
  if (c.lumped.restitution && elastic_contact) {
    std::string dissipative;  // the target's dissipative laws
    for (const NormalLawEntry& law : normal_law_table())
      if (applies_to(law, c.target) && law.restitution != LawRestitution::none)
        dissipative += (dissipative.empty() ? "" : ", ") + std::string(law.name);
    warnings.push_back(
        format("lumped.restitution = %.6g is ignored: model \"", *c.lumped.restitution) +
        c.lumped.model + "\" with normal_law \"" + c.lumped.normal_law +
        "\" is elastic in the normal direction (e close to 1); a dissipative normal_law (" +
        dissipative + ") achieves a prescribed e");
  }
  if (c.lumped.restitution_table && elastic_contact)
    warnings.push_back(
        "lumped.restitution (a table in the energy-flux density) is ignored: model \"" +
        c.lumped.model + "\" with normal_law \"" + c.lumped.normal_law +
        "\" is elastic in the normal direction; a rigid-body law or a dissipative "
        "normal_law takes it");
  if (const auto& table = c.lumped.restitution_table;
      table && !elastic_contact && restitution_at(*table, d.energy_flux_density).beyond)
    warnings.push_back(format(
        "the energy-flux density Phi = %.6g J/m^3 lies outside lumped.restitution.flux_density "
        "[%.6g, %.6g]: R0 and sigma are held at the nearest node's values",
        d.energy_flux_density, table->flux_density.front(), table->flux_density.back()));
  return warnings;
}

}  // namespace rebound::cases
