// The FE body's quasi-static contact law (fem/quasi_static.h): the impact integrator against
// Hertz's closed form, the law's balance and contact conditions, and its impact against the
// explicit FEM on the same mesh (what is left between them is the body's inertia).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>

#include "cases/case.h"
#include "cases/derived.h"
#include "fem/fem.h"
#include "fem/quasi_static.h"
#include "tests/fem/fem_cases.h"

namespace fs = std::filesystem;
using rebound::cases::Case;

namespace {

Case small_hertz_p1() {
  return rebound::test::small_hertz(1);
}

double relative(double value, double exact) {
  return std::abs(value - exact) / std::abs(exact);
}

}  // namespace

// On Hertz's own law F = (4/3) E* sqrt(R) delta^(3/2) the integrator must return Hertz's duration
// 2.943275 delta_max / v and peak force (docs/THEORY.md sec. 3). The law is given at 12 points
// from 1e-3 to 1.3 of the peak force, so both the power-law joins and the extrapolation below the
// first point are exercised; the step (1e-5 of delta/v) bounds RK4's error far below 1e-6.
TEST(QuasiStaticImpact, HertzLawGivesHertzDurationAndPeakForce) {
  const Case c = small_hertz_p1();
  const rebound::cases::Derived d = rebound::cases::derive(c);
  const double k = 4.0 / 3.0 * d.hertz.contact_modulus * std::sqrt(d.hertz.radius);
  rebound::fem::StaticLaw law;
  law.mass = d.hertz.normal_mass;
  for (int i = 0; i < 12; ++i) {
    rebound::fem::StaticLawPoint p;
    p.force = d.hertz.peak_force * 1e-3 * std::pow(1.3e3, i / 11.0);
    p.approach = std::pow(p.force / k, 2.0 / 3.0);
    law.points.push_back(p);
  }
  const rebound::fem::QuasiStaticImpact impact =
      rebound::fem::quasi_static_impact(law, d.hertz.normal_speed);
  std::printf("duration %.9e (Hertz %.9e), peak %.9e (Hertz %.9e), delta_max %.9e (%.9e)\n",
              impact.contact_duration, d.hertz.duration, impact.peak_force, d.hertz.peak_force,
              impact.max_approach, d.hertz.max_compression);
  EXPECT_LT(relative(impact.contact_duration, d.hertz.duration), 1e-6);
  EXPECT_LT(relative(impact.peak_force, d.hertz.peak_force), 1e-6);
  EXPECT_LT(relative(impact.max_approach, d.hertz.max_compression), 1e-6);
  // A law that stops below the peak is refused, not extrapolated.
  law.points.resize(8);
  EXPECT_THROW(rebound::fem::quasi_static_impact(law, d.hertz.normal_speed), std::invalid_argument);
}

// The law on the small Hertz mesh (p = 1): at every force the contact forces balance the body
// force, no candidate penetrates beyond the active set's tolerance (1e-9 of Hertz's approach), the
// contact force acts on the centroid's line (the mesh is symmetric about n), and the approach grows
// with the force. Its impact then equals the explicit FEM's on the same mesh within 0.2 %: the
// explicit run keeps the body's inertia, which at 1 m/s changes the duration and the peak by
// 0.011 % and 0.068 % here (measured 2026-11-26), while a missing rigid approach, a wrong mass or
// a wrong sign move them by percents. (The body force's size matters less: scaled by 0.9 it moved
// them by 0.05 % and 0.15 %, which this tolerance does not resolve; the reciprocity check does.)
TEST(QuasiStaticLaw, SmallHertzBalancesItsLoadsAndMatchesTheExplicitRun) {
  const Case c = small_hertz_p1();
  rebound::fem::StaticLawOptions options;
  options.force_fractions = rebound::fem::default_force_fractions();
  const rebound::fem::StaticLaw law = rebound::fem::static_contact_law(c, options);
  ASSERT_EQ(law.points.size(), options.force_fractions.size());
  EXPECT_GT(law.candidates, 20);
  // Reciprocity of the solves: the body force and the centroid's mean use the same masses (a
  // body force scaled by 0.9 gives 0.11 here).
  EXPECT_LT(law.reciprocity_error, 1e-8);
  std::printf("reciprocity error %.3e\n", law.reciprocity_error);
  double previous = 0;
  for (const rebound::fem::StaticLawPoint& p : law.points) {
    EXPECT_LT(p.balance_error, 1e-10) << p.force;
    EXPECT_LE(p.max_penetration, 1e-9 * p.hertz_approach) << p.force;
    EXPECT_GE(p.contact_nodes, 1);
    EXPECT_LT(p.load_offset, 1e-6 * c.body.radius) << p.force;
    EXPECT_GT(p.approach, previous) << p.force;
    previous = p.approach;
  }
  const rebound::cases::Derived d = rebound::cases::derive(c);
  const rebound::fem::QuasiStaticImpact impact =
      rebound::fem::quasi_static_impact(law, d.hertz.normal_speed);

  rebound::fem::RunOptions run_options;
  run_options.frames = 0;
  const rebound::fem::RunResult run = rebound::fem::run(c, run_options, MPI_COMM_SELF);
  ASSERT_EQ(run.status, "completed") << run.message;
  const double duration = run.summary["contact_duration"], peak = run.summary["peak_normal_force"];
  std::printf(
      "quasi-static: duration %.6e s, peak %.6e N; explicit: %.6e s, %.6e N (%+.3f %%, "
      "%+.3f %%); Hertz %.6e s, %.6e N\n",
      impact.contact_duration, impact.peak_force, duration, peak,
      100 * (impact.contact_duration / duration - 1), 100 * (impact.peak_force / peak - 1),
      d.hertz.duration, d.hertz.peak_force);
  EXPECT_LT(relative(impact.contact_duration, duration), 2e-3);
  EXPECT_LT(relative(impact.peak_force, peak), 2e-3);
}

// The command: `rebound fem CASE --quasi-static` writes the law (one row per force) and a summary
// with units; it refuses --estimate and --frames beside it (exit 2).
TEST(QuasiStaticCommand, WritesTheLawAndRefusesOtherModes) {
  const fs::path dir = rebound::test::coarse_hertz_case_folder("rebound-fem-qs-");
  const auto run = [&](const std::string& options) {
    const std::string command = std::string(REBOUND_FEM_DRIVER) + " " +
                                (dir / "case.json").string() + " -o " + (dir / "out").string() +
                                " " + options + " > " + (dir / "log.txt").string() + " 2>&1";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  ASSERT_EQ(run("--quasi-static -q"), 0);
  std::ifstream law(dir / "out" / "fem-quasi-static" / "static_law.csv");
  std::string line;
  std::getline(law, line);
  EXPECT_EQ(line.rfind("force_N,approach_m,hertz_approach_m,", 0), 0u) << line;
  int rows = 0;
  while (std::getline(law, line)) ++rows;
  EXPECT_EQ(rows, int(rebound::fem::default_force_fractions().size()));
  nlohmann::json summary;
  std::ifstream(dir / "out" / "fem-quasi-static" / "summary.json") >> summary;
  for (const char* key : {"contact_duration", "peak_normal_force", "max_approach", "mass"}) {
    EXPECT_TRUE(summary.contains(key)) << key;
    EXPECT_TRUE(summary["units"].contains(key)) << key;
  }
  nlohmann::json manifest;
  std::ifstream(dir / "out" / "fem-quasi-static" / "manifest.json") >> manifest;
  EXPECT_EQ(manifest["status"], "completed");
  EXPECT_EQ(run("--quasi-static --estimate"), 2);
  EXPECT_EQ(run("--quasi-static --frames 3"), 2);
  fs::remove_all(dir);
}

// A deformable target (the half-space's block, a target sphere; an elastic socket, naming its
// target.material) is refused up front, exit 2 naming target.type, by the commands that handle the
// body alone: --quasi-static (which holds the body on a rigid target) and mesh --inp (which writes
// the body's cells only); nothing is written.
TEST(QuasiStaticCommand, RefusesADeformableTargetAsMeshInpDoes) {
  const fs::path dir = fs::temp_directory_path() / "rebound-deformable-refused";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto run = [&](const std::string& arguments) {
    const std::string command = std::string(REBOUND_BINARY) + " " + arguments + " > " +
                                (dir / "log.txt").string() + " 2>&1";
    const int status = std::system(command.c_str());
    std::ifstream log(dir / "log.txt");
    const std::string text((std::istreambuf_iterator<char>(log)), {});
    return std::pair{WIFEXITED(status) ? WEXITSTATUS(status) : -1, text};
  };
  const std::string source = REBOUND_SOURCE_DIR "/cases/";
  const auto [quasi, quasi_log] = run("fem " + source + "sphere-halfspace-steel.json -o " +
                                      (dir / "qs").string() + " --quasi-static");
  EXPECT_EQ(quasi, 2) << quasi_log;
  EXPECT_NE(quasi_log.find("target.type is \"elastic_halfspace\""), std::string::npos) << quasi_log;
  EXPECT_FALSE(fs::exists(dir / "qs"));
  const auto [inp, inp_log] = run("mesh " + source + "sphere-sphere-steel.json -o " +
                                  (dir / "mesh").string() + " --inp " + (dir / "x.inp").string());
  EXPECT_EQ(inp, 2) << inp_log;
  EXPECT_NE(inp_log.find("target.type is not rigid"), std::string::npos) << inp_log;
  EXPECT_FALSE(fs::exists(dir / "x.inp"));
  // An elastic socket: its target.material is what to change.
  const std::string socket = source + "socket-wang-gao-0.1mm-steel.json -o ";
  const auto [quasi_socket, quasi_socket_log] =
      run("fem " + socket + (dir / "qs").string() + " --quasi-static");
  EXPECT_EQ(quasi_socket, 2) << quasi_socket_log;
  EXPECT_NE(quasi_socket_log.find("target.material is given: the socket is elastic"),
            std::string::npos)
      << quasi_socket_log;
  const auto [inp_socket, inp_socket_log] =
      run("mesh " + socket + (dir / "mesh").string() + " --inp " + (dir / "x.inp").string());
  EXPECT_EQ(inp_socket, 2) << inp_socket_log;
  EXPECT_NE(inp_socket_log.find("target.material is given: a deformable target"), std::string::npos)
      << inp_socket_log;
  EXPECT_FALSE(fs::exists(dir / "qs"));
  EXPECT_FALSE(fs::exists(dir / "x.inp"));
  fs::remove_all(dir);
}
