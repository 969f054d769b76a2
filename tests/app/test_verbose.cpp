// -v/--verbose on every command (app/verbose.h): accepted, exit status unchanged, and it prints
// more on standard error than the default (the case as read and its hash, stages, files);
// -q with -v is a usage error (exit 2) naming both options. The FEM commands run a tiny FE_Q(1)
// mesh (a few seconds each).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "shell.h"

namespace fs = std::filesystem;

namespace {

const std::string kCases = REBOUND_SOURCE_DIR "/cases/";

fs::path scratch(const std::string& name) {
  return rebound::test::scratch_directory("rebound-verbose", name);
}

struct Streams {
  int status = -1;
  std::string out, err;
};

// `rebound ARGUMENTS` with standard output and standard error apart.
Streams run(const std::string& arguments, const fs::path& dir) {
  const fs::path err = dir / "stderr.txt";
  const rebound::test::Invocation r = rebound::test::shell("(" + std::string(REBOUND_BINARY) + " " +
                                                           arguments + " 2>" + err.string() + ")");
  Streams s;
  s.status = r.status;
  s.out = r.output;
  std::ifstream in(err);
  std::stringstream text;
  text << in.rdbuf();
  s.err = text.str();
  return s;
}

bool contains(const std::string& text, const std::string& word) {
  return text.find(word) != std::string::npos;
}

// The default run and the -v run of the same command line: the same exit status, and -v prints
// more on standard error, including every one of `expected`.
void expect_verbose_prints_more(const std::string& arguments, const fs::path& dir,
                                const std::vector<std::string>& expected,
                                bool check_long_form = true) {
  const int status = 0;
  SCOPED_TRACE(arguments);
  const Streams plain = run(arguments, dir);
  const Streams verbose = run(arguments + " -v", dir);
  EXPECT_EQ(plain.status, status) << plain.out << plain.err;
  EXPECT_EQ(verbose.status, status) << verbose.out << verbose.err;
  EXPECT_GT(verbose.err.size(), plain.err.size() + 200) << verbose.err;
  EXPECT_FALSE(contains(plain.err, "[verbose]")) << plain.err;
  for (const std::string& word : expected)
    EXPECT_TRUE(contains(verbose.err, word)) << "'" << word << "' missing from\n" << verbose.err;
  // --verbose is the long form (checked on the light commands, which take milliseconds).
  if (check_long_form) {
    const Streams long_form = run(arguments + " --verbose", dir);
    EXPECT_EQ(long_form.status, status);
    EXPECT_TRUE(contains(long_form.err, "[verbose]")) << long_form.err;
  }
}

}  // namespace

TEST(Cli, VerboseOnTheLightCommandsPrintsMore) {
  const fs::path dir = scratch("light");
  const std::string sphere = kCases + "sphere-lai-psi2.json";
  expect_verbose_prints_more("init --shape capsule -o " + (dir / "new.json").string() + " --force",
                             dir, {"[verbose]", "case_hash", "file written", "new.json", "total:"});
  expect_verbose_prints_more("check " + sphere, dir,
                             {"case 'sphere-lai-psi2'", "case_hash",
                              "\"relative_tolerance\": 1e-08", "read, validated and derived"});
  expect_verbose_prints_more("lumped " + sphere + " --no-plots -o " + (dir / "out").string(), dir,
                             {"case_hash", "derived quantities", "effective_mass = ", "psi1 = ",
                              "solve: ", "write: ", "files in " + (dir / "out" / "lumped").string(),
                              "summary.json", "history.csv", "rigid_body_*.vtp", "total:"});
  expect_verbose_prints_more(
      "sweep " + sphere + " --psi1 0:4:5 --threads 1 --no-plots -o " + (dir / "out").string(), dir,
      {"case_hash", "5 values of psi1 from 0 to 4", "lumped sweep solved", "sweep.csv", "total:"});
  // The lumped halves of one section (with the FEM built, `rebound validate` is rebound-fem's).
  expect_verbose_prints_more(
      "validate --no-fem --sections 4 --no-plots --threads 1 -o " + (dir / "report").string(), dir,
      {"depth quick, sections 4", "section 4", "VALIDATION.md", "validation.json", "total:"},
      false);
  // -q prints nothing on standard output where the default prints its table.
  const Streams quiet = run("check -q " + sphere, dir);
  EXPECT_EQ(quiet.status, 0);
  EXPECT_EQ(quiet.out, "");
  EXPECT_EQ(quiet.err, "");
  fs::remove_all(dir);
}

TEST(Cli, QuietAndVerboseTogetherExitTwo) {
  const fs::path dir = scratch("both");
  const std::string sphere = kCases + "sphere-lai-psi2.json";
  std::vector<std::string> commands = {
      "init", "check " + sphere, "lumped " + sphere + " -o " + (dir / "out").string(),
      "sweep " + sphere + " --psi1 0:4:5 -o " + (dir / "out").string(),
      "validate --no-fem -o " + (dir / "out").string()};
#if defined(REBOUND_HAVE_FEM)
  for (const std::string& command :
       {"mesh " + sphere, "fem " + sphere, "fem " + sphere + " --estimate", "pair " + sphere,
        "refine " + sphere + " --levels 0..1"})
    commands.push_back(command + " -o " + (dir / "out").string());
#endif
  for (const std::string& command : commands) {
    for (const char* options : {" -q -v", " --verbose --quiet"}) {
      SCOPED_TRACE(command + options);
      const Streams r = run(command + options, dir);
      EXPECT_EQ(r.status, 2) << r.out << r.err;
      EXPECT_TRUE(contains(r.err, "-q/--quiet and -v/--verbose exclude each other")) << r.err;
      EXPECT_EQ(r.out, "");
    }
  }
  EXPECT_FALSE(fs::exists(dir / "out")) << "a rejected command line wrote files";
  fs::remove_all(dir);
}

#if defined(REBOUND_HAVE_FEM)

namespace {

// A shipped case on a tiny FE_Q(1) mesh (as tests/app/test_refine.cpp).
std::string tiny_case(const fs::path& dir) {
  nlohmann::json doc;
  std::ifstream(kCases + "hertz-steel-sphere.json") >> doc;
  doc["fem"] = {{"degree", 1}, {"refinement", 0}, {"contact_resolution", 1}, {"frames", 2}};
  const fs::path path = dir / "tiny.json";
  std::ofstream(path) << doc.dump(2);
  return path.string();
}

}  // namespace

TEST(Cli, VerboseOnTheFemCommandsPrintsMore) {
  const fs::path dir = scratch("fem");
  const std::string tiny = tiny_case(dir);
  const std::string out = (dir / "out").string();
  expect_verbose_prints_more("mesh " + tiny + " -o " + out, dir,
                             {"case_hash", "mesher options: 0 global levels", "mesh built",
                              "files in " + out + "/mesh", "mesh.vtu", "summary.json", "total:"},
                             false);
  expect_verbose_prints_more(
      "fem " + tiny + " -o " + out, dir,
      {"case_hash", "derived quantities", "FE space: FE_Q(1)", "stages of the run: mesh",
       "files in " + out + "/fem", "solution_*", "(3 files)", "history.csv", "total:"},
      false);
  // --frames 0: no frames, and the printed file list does not claim a solution.pvd.
  const Streams no_frames = run("fem " + tiny + " --frames 0 -o " + out, dir);
  EXPECT_EQ(no_frames.status, 0) << no_frames.err;
  EXPECT_TRUE(contains(no_frames.out, "(summary.json, history.csv; no frames)")) << no_frames.out;
  EXPECT_FALSE(fs::exists(fs::path(out) / "fem" / "solution.pvd"));
  expect_verbose_prints_more("pair " + tiny + " --no-plots -o " + out, dir,
                             {"case_hash", "FE space: FE_Q(1)", "[1/3] FEM", "[3/3] comparison",
                              "files in " + out + "/lumped-exact", "comparison.json", "total:"},
                             false);
  expect_verbose_prints_more("refine " + tiny + " --refinements 0..0 --no-plots -o " + out, dir,
                             {"case_hash", "run level 0, fem.refinement 0, resolution 1: completed",
                              "refinement.csv", "files in " + out + "/refine", "total:"},
                             false);
  fs::remove_all(dir);
}

#endif  // REBOUND_HAVE_FEM
