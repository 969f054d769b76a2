// The case as the solvers read it: every key with its value after parsing, defaults filled, in
// the file's own units and keys (radians, radius, the components form of the velocity), so that a
// result file can carry the exact input it was computed from (provenance) and parse_case of it
// gives back the same case.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "cases/case.h"

namespace rebound::cases {

// A complete case document (name, description, body, material, target, contact, impact, lumped,
// fem); options without a value (an absent lambda override, end_time) are left out.
nlohmann::json resolved_json(const Case& c);

// FNV-1a (64 bits) of a text, as 16 hex digits: a stable fingerprint of a document's dump().
std::string text_hash(const std::string& text);

}  // namespace rebound::cases
