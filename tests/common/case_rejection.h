// The error a case document is rejected with, for the parser tests: parses the document and
// returns its CaseError; a test failure (and an empty error) if the document was accepted.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cases/case.h"

namespace rebound::test {

inline cases::CaseError rejection(const nlohmann::json& document) {
  try {
    cases::parse_case(document, "bad.json");
  } catch (const cases::CaseError& error) {
    return error;
  }
  ADD_FAILURE() << "accepted: " << document.dump();
  return cases::CaseError("", "", "");
}

}  // namespace rebound::test
