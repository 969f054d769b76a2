// cases/resolved.h: the case as the solvers read it, every default filled, parses back to the
// same case; its hash is FNV-1a.
#include <gtest/gtest.h>

#include <filesystem>

#include "cases/case.h"
#include "cases/resolved.h"

using namespace rebound::cases;
namespace fs = std::filesystem;

TEST(Resolved, EveryShippedCaseRoundTrips) {
  int cases = 0;
  for (const auto& entry : fs::directory_iterator(REBOUND_SOURCE_DIR "/cases")) {
    const std::string path = entry.path().string();
    if (entry.path().extension() != ".json" || path.find(".schema.") != std::string::npos) continue;
    const Case c = load_case(path);
    const nlohmann::json resolved = resolved_json(c);
    const Case again = parse_case(resolved, path);
    EXPECT_EQ(resolved_json(again), resolved) << path;
    // The velocity components are carried exactly (no round trip through angles).
    EXPECT_EQ(again.impact.normal_speed, c.impact.normal_speed) << path;
    EXPECT_EQ(again.impact.tangential_speed, c.impact.tangential_speed) << path;
    EXPECT_EQ(again.fem.cfl, c.fem.cfl) << path;
    EXPECT_EQ(again.lumped.relative_tolerance, c.lumped.relative_tolerance) << path;
    // Defaults are filled: a key the file leaves out is present.
    EXPECT_TRUE(resolved["fem"].contains("degree")) << path;
    EXPECT_TRUE(resolved["lumped"].contains("model")) << path;
    ++cases;
  }
  EXPECT_GE(cases, 17);
}

// Options a shipped case does not use round-trip too: a dissipative law with its published
// calibration, the MDR and half-space keys, an end time, a yield stress.
TEST(Resolved, ModelOptionsRoundTrip) {
  Case c = load_case(REBOUND_SOURCE_DIR "/cases/sphere-lai-psi2.json");
  c.lumped.normal_law = "hunt-crossley";
  c.lumped.restitution = 0.7;
  c.lumped.restitution_calibration = "published";
  c.fem.end_time = 1e-4;
  c.material.yield_stress = 2e8;
  EXPECT_EQ(resolved_json(parse_case(resolved_json(c), "x")), resolved_json(c));
  for (const char* model : {"mdr", "halfspace"}) {
    Case m = load_case(REBOUND_SOURCE_DIR "/cases/sphere-lai-psi2.json");
    m.lumped.model = model;
    m.lumped.springs = 321, m.lumped.cells = 16, m.lumped.dundurs_coupling = false;
    const nlohmann::json once = resolved_json(m);
    EXPECT_EQ(resolved_json(parse_case(once, "x")), once) << model;
  }
}

// FNV-1a 64 of "" and "a" (the published test vectors).
TEST(Resolved, TextHashIsFnv1a64) {
  EXPECT_EQ(text_hash(""), "cbf29ce484222325");
  EXPECT_EQ(text_hash("a"), "af63dc4c8601ec8c");
}
