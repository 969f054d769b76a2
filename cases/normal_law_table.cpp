#include "cases/normal_law_table.h"

#include <stdexcept>

namespace rebound::cases {

const std::vector<NormalLawEntry>& normal_law_table() {
  using R = LawRestitution;
  static const std::vector<NormalLawEntry> laws = {
      // Hertz's elastic law (on the socket with R_eff = R1 R2 / dR).
      {"hertz", true, true, R::none},
      // The viscous laws (THEORY §7), on the socket with its Hertz stiffness as Wang & Gao
      // compare them.
      {"hunt-crossley", true, true, R::required, true},
      {"lankarani-nikravesh", true, true, R::required, true},
      {"flores", true, true, R::required, true},
      // Michalczyk 2008, eq. 2.17: a law of the plane here.
      {"michalczyk", true, false, R::required},
      // The socket's conformal laws (Wang & Gao 2023, eqs. 11-12 and 29).
      {"liu", false, true, R::none, false, true},
      {"wang-gao", false, true, R::optional, false, true},
      // Thornton 1997: elastic-perfectly-plastic, Hertz up to the limiting pressure 1.6 Y.
      {"thornton", true, false, R::refused, false, false, "material.yield_stress",
       "the yield stress Y > 0 Pa (Thornton's limiting contact pressure is p_y = 1.6 Y)"},
      // Brilliantov, Spahn, Hertzsch & Poeschel 1996: viscoelastic Hertz.
      {"viscoelastic", true, false, R::refused, false, false, "lumped.dissipative_constant",
       "the dissipative constant A >= 0 s of F = (4/3) E* sqrt(R) [delta^{3/2} + (3/2) A "
       "delta^{1/2} delta']"}};
  return laws;
}

const NormalLawEntry& normal_law_entry(const std::string& name) {
  for (const NormalLawEntry& law : normal_law_table())
    if (name == law.name) return law;
  throw std::invalid_argument("unknown normal law \"" + name + "\"");
}

std::vector<std::string> normal_law_names() {
  std::vector<std::string> names;
  for (const NormalLawEntry& law : normal_law_table()) names.emplace_back(law.name);
  return names;
}

bool applies_to(const NormalLawEntry& law, const Target& target) {
  return target.socket() ? law.on_socket : law.on_plane;
}

std::string normal_laws_on(const Target& target, const char* separator) {
  std::string list;
  for (const NormalLawEntry& law : normal_law_table())
    if (applies_to(law, target))
      list += (list.empty() ? "" : separator) + ("\"" + std::string(law.name) + "\"");
  return list;
}

bool dissipative_normal_law(const LumpedOptions& lumped) {
  const NormalLawEntry& law = normal_law_entry(lumped.normal_law);
  return law.restitution == LawRestitution::required ||
         law.restitution == LawRestitution::refused ||
         (law.restitution == LawRestitution::optional &&
          (lumped.restitution.has_value() || lumped.restitution_table.has_value()));
}

bool calibrated_normal_law(const LumpedOptions& lumped) {
  return dissipative_normal_law(lumped) &&
         normal_law_entry(lumped.normal_law).restitution != LawRestitution::refused;
}

}  // namespace rebound::cases
