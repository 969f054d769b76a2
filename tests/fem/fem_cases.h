// The cases the FEM tests share (tests/fem/*.cpp).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cases/case.h"

namespace rebound::test {

// The test-sized Hertz sphere: 2 global levels (the Q1 geometry then holds the mass to 1.6 %),
// cells of a_max / 2 in the contact zone; 13.6k dofs for p = 1.
inline cases::Case small_hertz(int degree) {
  cases::Case c =
      cases::load_case(std::string(REBOUND_SOURCE_DIR) + "/cases/hertz-steel-sphere.json");
  c.fem.degree = degree;
  c.fem.refinement = 2;
  c.fem.contact_resolution = 2;
  return c;
}

// cases/NAME.json.
inline cases::Case load(const std::string& name) {
  return cases::load_case(std::string(REBOUND_SOURCE_DIR) + "/cases/" + name + ".json");
}

// cases/NAME.json at the size of the command-line and MPI tests: p = 1, no global refinement,
// contact cells of a_max / 2 (seconds per run).
inline cases::Case coarse(const std::string& name) {
  cases::Case c = load(name);
  c.fem.degree = 1;
  c.fem.refinement = 0;
  c.fem.contact_resolution = 2;
  return c;
}

// A fresh folder TMP/PREFIX<pid> holding case.json: the Hertz sphere at p = 1 with no global
// refinement (seconds for the command-line tests). Returns the folder.
inline std::filesystem::path coarse_hertz_case_folder(const std::string& prefix) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / (prefix + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  nlohmann::json doc;
  std::ifstream(std::string(REBOUND_SOURCE_DIR) + "/cases/hertz-steel-sphere.json") >> doc;
  doc["fem"] = {{"degree", 1}, {"refinement", 0}, {"contact_resolution", 2}};
  std::ofstream(dir / "case.json") << doc.dump(2);
  return dir;
}

}  // namespace rebound::test
