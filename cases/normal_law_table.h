// The normal laws as a case file names them (lumped.normal_law): which targets each applies to and
// whether it takes lumped.restitution. The parser, the resolved case and the warnings read this
// table; lumped/normal_laws.h implements the laws under the same names.
#pragma once

#include <string>
#include <vector>

#include "cases/case.h"

namespace rebound::cases {

enum class LawRestitution {
  none,      // elastic: a restitution given is ignored (warned about)
  required,  // dissipative: needs lumped.restitution
  optional,  // elastic without lumped.restitution, dissipative with it (wang-gao, eq. 29)
  // dissipative through a material constant of its own (NormalLawEntry::constant): a
  // lumped.restitution (or its calibration) is refused (thornton, viscoelastic)
  refused,
};

struct NormalLawEntry {
  const char* name;  // the value of lumped.normal_law
  bool on_plane;     // the rigid plane and the elastic half-space
  bool on_socket;    // the spherical socket (docs/THEORY.md §7)
  LawRestitution restitution;
  // The force form (4/3) x^{3/2} [1 + D x'/x'(-)] whose exact calibration needs e >=
  // kMinimumCalibratedRestitution (hunt-crossley, lankarani-nikravesh, flores).
  bool viscous = false;
  bool polynomial_index = false;  // takes lumped.polynomial_index (Steuermann's n)
  // The key of the law's own constant, which it requires (LawRestitution::refused): thornton's
  // material.yield_stress, viscoelastic's lumped.dissipative_constant; and what it is.
  const char* constant = nullptr;
  const char* constant_meaning = nullptr;
};

// Every law, in the order help texts list them.
const std::vector<NormalLawEntry>& normal_law_table();
// The entry of `name`; throws std::invalid_argument for a name not in the table.
const NormalLawEntry& normal_law_entry(const std::string& name);
// The values of lumped.normal_law (the table's names, same order).
std::vector<std::string> normal_law_names();
// The laws that apply to `target`, quoted and joined by `separator` ("\"hertz\" | \"liu\"").
std::string normal_laws_on(const Target& target, const char* separator);
bool applies_to(const NormalLawEntry& law, const Target& target);
// True when the case's normal law dissipates: a law that requires restitution, wang-gao with it
// (a number or a table in the energy-flux density), or a law with its own constant (thornton,
// viscoelastic).
bool dissipative_normal_law(const LumpedOptions& lumped);
// True when the case's normal law takes its dissipation from lumped.restitution (a dissipative
// law but thornton and viscoelastic): what lumped.restitution_calibration applies to.
bool calibrated_normal_law(const LumpedOptions& lumped);

}  // namespace rebound::cases
