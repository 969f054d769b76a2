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

// FNV-1a 64 of "" and "a" (the published test vectors).
TEST(Resolved, TextHashIsFnv1a64) {
  EXPECT_EQ(text_hash(""), "cbf29ce484222325");
  EXPECT_EQ(text_hash("a"), "af63dc4c8601ec8c");
}
