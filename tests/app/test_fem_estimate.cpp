// `rebound fem --estimate` (studies/fem_estimate.h): the FE space of the real run (dofs, cells,
// time step), the steps the end rule implies, a measured step rate and wall time, nothing written
// into the output folder; compared with `rebound mesh` and with real runs of a tiny mesh.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "shell.h"

#if defined(REBOUND_HAVE_FEM)

namespace fs = std::filesystem;

namespace {

using rebound::test::Invocation;
const auto run = rebound::test::rebound;
const std::string kCases = REBOUND_SOURCE_DIR "/cases/";

fs::path scratch(const std::string& name) {
  return rebound::test::scratch_directory("rebound-estimate", name);
}

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// `rebound ARGUMENTS` with standard output only (standard error to /dev/null).
Invocation run_stdout(const std::string& arguments) {
  return rebound::test::shell("(" + std::string(REBOUND_BINARY) + " " + arguments +
                              " 2>/dev/null)");
}

}  // namespace

// The quick case of the README: the estimate's FE space is the mesh's, nothing is written.
TEST(FemEstimate, QuickCaseHasTheMeshDofsAndWritesNothing) {
  const fs::path dir = scratch("quick");
  const std::string quick = kCases + "sphere-lai-psi2-quick.json";
  const fs::path out = dir / "out";
  const Invocation text = run("fem " + quick + " --estimate -o " + out.string());
  ASSERT_EQ(text.status, 0) << text.output;
  for (const char* word : {"FEM run estimate", "dofs", "cells", "time step", "steps", "DoF-steps/s",
                           "estimated wall time"})
    EXPECT_NE(text.output.find(word), std::string::npos) << word << "\n" << text.output;
  EXPECT_FALSE(fs::exists(out)) << "--estimate wrote into the output folder";

  const Invocation json = run_stdout("fem " + quick + " --estimate --json -o " + out.string());
  ASSERT_EQ(json.status, 0) << json.output;
  const nlohmann::json e = nlohmann::json::parse(json.output);
  EXPECT_FALSE(fs::exists(out));
  ASSERT_EQ(run("mesh " + quick + " -q -o " + dir.string()).status, 0);
  const nlohmann::json mesh = read_json(dir / "mesh" / "summary.json");
  const nlohmann::json c = read_json(quick);
  ASSERT_EQ(c["fem"]["degree"], 1);
  EXPECT_EQ(e["dofs"], mesh["dofs_q1"]);
  EXPECT_EQ(e["cells"], mesh["cells"]);
  EXPECT_EQ(e["degree"], 1);
  EXPECT_EQ(e["end_rule"], "contact + settle");
  EXPECT_GE(e["burst_steps"].get<int>(), 50);
  EXPECT_GT(e["dof_steps_per_second"].get<double>(), 1e5);
  // The run it estimates takes 9062 steps (docs/FEM.md, "Estimating a run").
  EXPECT_NEAR(e["steps"].get<double>(), 9062, 0.06 * 9062);
  EXPECT_NEAR(e["total_seconds"].get<double>(),
              e["setup_seconds"].get<double>() + e["loop_seconds"].get<double>() +
                  e["frames_seconds"].get<double>(),
              1e-9);
  EXPECT_LT(e["estimate_seconds"].get<double>(), 15);
  std::printf("[estimate] quick: %s dofs, %s steps, %.3g DoF-steps/s, %.1f s estimated\n",
              e["dofs"].dump().c_str(), e["steps"].dump().c_str(),
              e["dof_steps_per_second"].get<double>(), e["total_seconds"].get<double>());
  // --json without --estimate is a usage error.
  const Invocation bad = run("fem " + quick + " --json -o " + out.string());
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.output.find("--json needs --estimate"), std::string::npos) << bad.output;
  fs::remove_all(dir);
}

// A tiny FE_Q(1) mesh, estimated then run: the same dofs, cells and time step; the steps within
// a few % under the default end rule (the contact duration is the lumped model's) and exactly
// with fem.end_time; the wall time within a factor of 2.5.
TEST(FemEstimate, TinyMeshEstimateMatchesTheRealRun) {
  const fs::path dir = scratch("tiny");
  nlohmann::json doc = read_json(kCases + "hertz-steel-sphere.json");
  doc["fem"] = {{"degree", 1}, {"refinement", 0}, {"contact_resolution", 1}, {"frames", 2}};
  const fs::path tiny = dir / "tiny.json";
  std::ofstream(tiny) << doc.dump(2);
  doc["fem"]["end_time"] = 3e-5;  // inside the contact (Hertz: 5.2e-5 s): status incomplete
  const fs::path timed = dir / "timed.json";
  std::ofstream(timed) << doc.dump(2);

  for (const auto& [path, exact] : {std::pair{tiny, false}, std::pair{timed, true}}) {
    SCOPED_TRACE(path.string());
    const fs::path out = dir / path.stem();
    const Invocation estimated =
        run_stdout("fem " + path.string() + " --estimate --json -o " + out.string());
    ASSERT_EQ(estimated.status, 0) << estimated.output;
    EXPECT_FALSE(fs::exists(out));
    const nlohmann::json e = nlohmann::json::parse(estimated.output);
    const Invocation real = run("fem " + path.string() + " -q -o " + out.string());
    ASSERT_EQ(real.status, exact ? 1 : 0) << real.output;
    const nlohmann::json s = read_json(out / "fem" / "summary.json");
    EXPECT_EQ(e["dofs"], s["dofs"]);
    EXPECT_EQ(e["cells"], s["cells"]);
    EXPECT_EQ(e["time_step"].get<double>(), s["time_step"].get<double>());
    const double steps = s["steps"].get<double>();
    if (exact) {
      EXPECT_EQ(e["end_rule"], "fem.end_time");
      EXPECT_EQ(e["steps"].get<double>(), steps);
    } else {
      EXPECT_EQ(e["contact_duration_from"], "lumped model lai");
      EXPECT_NEAR(e["steps"].get<double>(), steps, 0.06 * steps);
    }
    const double ratio = e["total_seconds"].get<double>() / s["wall_time"].get<double>();
    EXPECT_GT(ratio, 1 / 2.5);
    EXPECT_LT(ratio, 2.5);
    int frames = 0;
    for (const auto& entry : fs::directory_iterator(out / "fem"))
      frames += entry.path().extension() == ".pvtu";
    EXPECT_EQ(e["frames"].get<int>(), frames);
    std::printf(
        "[estimate] %s: %s dofs, %s steps estimated, %.0f run; %.2f s estimated, %.2f s "
        "run\n",
        path.stem().c_str(), e["dofs"].dump().c_str(), e["steps"].dump().c_str(), steps,
        e["total_seconds"].get<double>(), s["wall_time"].get<double>());
  }
  fs::remove_all(dir);
}

#endif  // REBOUND_HAVE_FEM
