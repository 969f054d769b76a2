// What a hostile or unlucky user does to the command line: two runs into one folder, a rerun with
// fewer frames over an old folder, a full disk, a lumped result that cannot be physical.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/app/shell.h"

namespace fs = std::filesystem;
namespace test = rebound::test;
using rebound::test::scratch_directory;
using rebound::test::shell;

namespace {

const std::string kCases = REBOUND_SOURCE_DIR "/cases/";

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// The last value of a column of a CSV file (the header names the columns).
double last_value(const fs::path& csv, const std::string& column) {
  std::ifstream in(csv);
  std::string header, line, last;
  std::getline(in, header);
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  std::vector<std::string> names, values;
  for (std::stringstream h(header); std::getline(h, line, ',');) names.push_back(line);
  for (std::stringstream v(last); std::getline(v, line, ',');) values.push_back(line);
  for (std::size_t k = 0; k < names.size() && k < values.size(); ++k)
    if (names[k] == column) return std::stod(values[k]);
  return std::nan("");
}

// A case file written from a shipped one with some keys changed.
fs::path variant(const fs::path& dir, const std::string& name, const std::string& shipped,
                 const nlohmann::json& patch) {
  nlohmann::json doc = read_json(kCases + shipped + ".json");
  doc.merge_patch(patch);
  doc["name"] = name;
  const fs::path path = dir / (name + ".json");
  std::ofstream(path) << doc.dump(2);
  return path;
}

}  // namespace

// Two `lumped` runs started together into one folder: one runs, the other is refused with the
// folder and the holder named (exit 1) -- or they happen one after the other. Either way the
// folder's summary.json and history.csv come from one run (its final normal impulse is the
// history's last), and every frame is complete.
TEST(Reliability, ConcurrentRunsIntoOneFolderNeverMixTheirFiles) {
  const fs::path dir = scratch_directory("rebound-reliability", "concurrent");
  int refused = 0;
  for (int round = 0; round < 6; ++round) {
    const auto both =
        shell("cd " + dir.string() + "; (" + REBOUND_BINARY + " lumped " + kCases +
              "sphere-lai-psi2-quick.json -o out --quiet --no-plots > a.log 2>&1; echo $? > "
              "a.status) & (" +
              REBOUND_BINARY + " lumped " + kCases +
              "sphere-lai-psi7.json -o out --quiet --no-plots > b.log 2>&1; echo $? > "
              "b.status) & wait");
    ASSERT_EQ(both.status, 0) << both.output;
    int succeeded = 0;
    for (const char* run : {"a", "b"}) {
      int status = -1;
      std::ifstream(dir / (std::string(run) + ".status")) >> status;
      std::stringstream log;
      log << std::ifstream(dir / (std::string(run) + ".log")).rdbuf();
      if (status == 0) {
        ++succeeded;
      } else {
        EXPECT_EQ(status, 1) << log.str();
        EXPECT_NE(log.str().find("is being written by another rebound run"), std::string::npos)
            << log.str();
        ++refused;
      }
    }
    EXPECT_GE(succeeded, 1);
    const fs::path out = dir / "out" / "lumped";
    const nlohmann::json summary = read_json(out / "summary.json");
    const double jn = summary["normal_impulse"];
    EXPECT_NEAR(last_value(out / "history.csv", "normal_impulse_N_s"), jn, 1e-9 * jn)
        << "summary.json and history.csv of different runs (round " << round << ")";
    EXPECT_EQ(read_json(out / "manifest.json")["status"], "completed");
    for (const auto& entry : fs::directory_iterator(out)) {
      const std::string name = entry.path().filename().string();
      EXPECT_EQ(name.find(".tmp."), std::string::npos) << name;
      if (entry.path().extension() == ".vtp") {
        std::stringstream text;
        text << std::ifstream(entry.path()).rdbuf();
        EXPECT_NE(text.str().find("</VTKFile>"), std::string::npos) << name << " is truncated";
      }
    }
  }
  std::printf("%d of 12 runs refused as the folder was busy\n", refused);
}

// A rerun with fewer frames over an old folder leaves no frame of the old run behind, and the
// user's own files in the folder stay.
TEST(Reliability, RerunWithFewerFramesLeavesNoStaleFrames) {
  const fs::path dir = scratch_directory("rebound-reliability", "stale");
  const fs::path many = variant(dir, "stale", "sphere-lai-psi2", {{"lumped", {{"frames", 12}}}});
  ASSERT_EQ(test::rebound("lumped " + many.string() + " -o " + (dir / "out").string() +
                          " --quiet --no-plots")
                .status,
            0);
  std::ofstream(dir / "out" / "lumped" / "notes.txt") << "mine";
  const fs::path few = variant(dir, "stale", "sphere-lai-psi2", {{"lumped", {{"frames", 3}}}});
  ASSERT_EQ(test::rebound("lumped " + few.string() + " -o " + (dir / "out").string() +
                          " --quiet --no-plots")
                .status,
            0);
  int vtp = 0;
  for (const auto& entry : fs::directory_iterator(dir / "out" / "lumped"))
    vtp += entry.path().extension() == ".vtp";
  EXPECT_EQ(vtp, 3);  // not 12
  EXPECT_TRUE(fs::exists(dir / "out" / "lumped" / "notes.txt"));
  EXPECT_EQ(read_json(dir / "out" / "lumped" / "manifest.json")["files"].size(),
            6u);  // 3 frames, .pvd, summary, history
}

// A full disk (the file-size limit of the process, with SIGXFSZ ignored so that write() returns
// EFBIG as it would return ENOSPC): exit 1, the file and the reason named, no crash, no temporary
// left behind.
TEST(Reliability, FullDiskDuringLumpedNamesTheFileAndTheReason) {
  const fs::path dir = scratch_directory("rebound-reliability", "full");
  const auto run = shell("cd " + dir.string() + " && trap '' XFSZ && ulimit -f 8 && exec " +
                         REBOUND_BINARY + " lumped " + kCases + "sphere-lai-psi2.json -o out");
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_NE(run.output.find("File too large"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("out/lumped/"), std::string::npos) << run.output;
  for (const auto& entry : fs::recursive_directory_iterator(dir / "out"))
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos) << entry.path();
}

// Lai's table rod with lumped.lambda = 1 - 1e-10: the result is not physical; exit 1 with the
// reason and the input, within a second (it used to run 31 s, use 2 GB and exit 0).
TEST(Reliability, UnphysicalLumpedResultExitsOneNamingTheInput) {
  const fs::path dir = scratch_directory("rebound-reliability", "stiff");
  const fs::path c = variant(dir, "stiff", "rod-lai-a", {{"lumped", {{"lambda", 0.9999999999}}}});
  const auto run = test::rebound("lumped " + c.string() + " -o " + (dir / "out").string());
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_NE(run.output.find("not physical"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("lumped.lambda"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(dir / "out" / "lumped" / "summary.json"));
  EXPECT_EQ(read_json(dir / "out" / "lumped" / "manifest.json")["status"], "failed");
}

// Every summary.json says what made it: version, commit, command line, the case as read.
TEST(Provenance, LumpedSummaryCarriesTheCommandAndTheCase) {
  const fs::path dir = scratch_directory("rebound-reliability", "provenance");
  const auto run = test::rebound("lumped " + kCases + "sphere-lai-psi2.json -o " +
                                 (dir / "out").string() + " -q");
  ASSERT_EQ(run.status, 0) << run.output;
  const nlohmann::json p = read_json(dir / "out" / "lumped" / "summary.json")["provenance"];
  EXPECT_NE(p["command_line"].get<std::string>().find("rebound lumped "), std::string::npos);
  EXPECT_NE(p["command_line"].get<std::string>().find(" -q"), std::string::npos);
  EXPECT_EQ(p["case_file"], kCases + "sphere-lai-psi2.json");
  EXPECT_EQ(p["case"]["name"], "sphere-lai-psi2");
  EXPECT_EQ(p["mpi_ranks"], 1);
  EXPECT_EQ(p["git_commit"].get<std::string>().size() >= 7, true);
}

// --json prints what scripts need on standard output, parseable, warnings staying on stderr.
TEST(Scripting, JsonOutputOfLumpedAndSweepParses) {
  const fs::path dir = scratch_directory("rebound-reliability", "json");
  const auto lumped =
      test::shell(std::string(REBOUND_BINARY) + " lumped " + kCases + "sphere-lai-psi2.json -o " +
                  (dir / "a").string() + " --json --no-plots 2>/dev/null");
  ASSERT_EQ(lumped.status, 0) << lumped.output;
  const nlohmann::json summary = nlohmann::json::parse(lumped.output);
  EXPECT_EQ(summary, read_json(dir / "a" / "lumped" / "summary.json"));
  const auto sweep = test::shell(std::string(REBOUND_BINARY) + " sweep " + kCases +
                                 "sphere-lai-psi2.json --psi1 0.5:4:8 -o " + (dir / "b").string() +
                                 " --json --no-plots 2>/dev/null");
  ASSERT_EQ(sweep.status, 0) << sweep.output;
  const nlohmann::json table = nlohmann::json::parse(sweep.output);
  ASSERT_EQ(table["points"].size(), 8u);
  EXPECT_DOUBLE_EQ(table["points"][7]["psi1"].get<double>(), 4.0);
  EXPECT_TRUE(table["points"][7]["psi2"].is_number());
}

namespace {

// Runs `rebound ARGUMENTS` in the background (output in LOG), waits until LOG has a line starting
// with MARKER (the command's handlers are installed by then; at most 120 s, and not after the
// command ended), waits 1 s more, sends SIGNAL and waits for it. The output is "exit S after T ms"
// (T: from the signal to the end) and then LOG.
test::Invocation signal_after(const std::string& arguments, const fs::path& log,
                              const std::string& marker, const std::string& signal) {
  const std::string l = log.string();
  return test::shell(std::string(REBOUND_BINARY) + " " + arguments + " > " + l +
                     " 2>&1 & pid=$!; n=0; while ! grep -q '^" + marker + "' " + l +
                     " && kill -0 $pid 2>/dev/null && [ $n -lt 1200 ]; do sleep 0.1; n=$((n+1)); "
                     "done; sleep 1; kill -" +
                     signal +
                     " $pid; t0=$(date +%s%N); wait $pid; s=$?; echo \"exit $s after $(( "
                     "($(date +%s%N) - t0) / 1000000 )) ms\"; cat " +
                     l);
}

// The milliseconds from the signal to the end in signal_after's output (-1: not there).
long milliseconds_to_stop(const std::string& output) {
  const std::size_t at = output.find(" after ");
  return output.rfind("exit ", 0) == 0 && at != std::string::npos ? std::stol(output.substr(at + 7))
                                                                  : -1;
}

// signal_after's command ended with exit 130 within 10 s of the signal: a solve that polls the stop
// flag at each step ends in milliseconds; one that does not runs for minutes on these cases.
void expect_stopped_soon(const test::Invocation& run) {
  EXPECT_EQ(run.output.rfind("exit 130 after", 0), 0u) << run.output;
  const long ms = milliseconds_to_stop(run.output);
  EXPECT_GE(ms, 0) << run.output;
  EXPECT_LT(ms, 10000) << run.output;
}

// The quick sphere case with a coarse FEM (one frame) and a half-space lumped model that takes
// minutes (128 cells, 4000 steps per Hertz duration).
fs::path slow_lumped_case(const fs::path& dir, const std::string& name) {
  return variant(dir, name, "sphere-lai-psi2-quick",
                 {{"fem", {{"contact_resolution", 1}, {"frames", 1}}},
                  {"lumped", {{"model", "halfspace"}, {"cells", 128}, {"time_steps", 4000}}}});
}

}  // namespace

#if defined(REBOUND_HAVE_FEM)  // without the FEM, section 1 is its lumped half: done at once
// Ctrl-C or SIGTERM during `validate` (its FEM half under way): the run says it was interrupted,
// exits 130 and writes nothing (a half report must not replace docs/VALIDATION.md).
TEST(Reliability, InterruptedValidateWritesNothing) {
  const fs::path dir = scratch_directory("rebound-reliability", "validate");
  const auto run = signal_after("validate --sections 1 --no-plots -o " + (dir / "out").string(),
                                dir / "validate.log", "  section 1  lumped", "TERM");
  expect_stopped_soon(run);
  EXPECT_NE(run.output.find("interrupted after 1 of 2 sections"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(dir / "out" / "VALIDATION.md"));
  EXPECT_FALSE(fs::exists(dir / "out" / "images" / "validation" / "validation.json"));
}
#endif

// Ctrl-C or SIGTERM during section 7's lumped half (half-space and MDR solves, 18 s in the quick
// report): the solve under way ends (the half-space model inside its step, the MDR bed at its next
// step), the section is reported as interrupted (not as failed checks), exit 130, nothing
// written. Before the solves polled the stop flag, the section ran to its end first. (SIGTERM: a
// background job of a script ignores SIGINT, and so does rebound.)
TEST(Reliability, InterruptedValidateStopsInsideALumpedSection) {
  const fs::path dir = scratch_directory("rebound-reliability", "validate-lumped");
  const auto run = signal_after("validate --sections 7 --no-plots -o " + (dir / "out").string(),
                                dir / "validate.log", "rebound validate (", "TERM");
  expect_stopped_soon(run);
  EXPECT_NE(run.output.find("section 7  lumped"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("interrupted at"), std::string::npos) << run.output;  // the section
  EXPECT_EQ(run.output.find("failed"), std::string::npos) << run.output;  // not a failed check
  EXPECT_NE(run.output.find("interrupted after 0 of"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(dir / "out" / "VALIDATION.md"));
}

#if defined(REBOUND_HAVE_FEM)
// SIGTERM while `rebound pair` solves its lumped model (a half-space grid of 128 cells and 4000
// steps: minutes): the solve ends at its next check, exit 130, the FEM's files kept, no comparison,
// the pair's and the lumped folder's manifests "interrupted". Before, the signal ended the process
// with the manifests saying nothing.
TEST(Reliability, InterruptedPairStopsInsideTheLumpedSolve) {
  const fs::path dir = scratch_directory("rebound-reliability", "pair-lumped");
  const fs::path c = slow_lumped_case(dir, "slow-pair");
  const fs::path out = dir / "out";
  const auto run = signal_after("pair " + c.string() + " --no-plots -o " + out.string(),
                                dir / "pair.log", "\\[2/3\\]", "TERM");
  expect_stopped_soon(run);
  EXPECT_NE(run.output.find("rebound pair: lumped model interrupted at"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("no comparison written, fem/ kept"), std::string::npos) << run.output;
  EXPECT_TRUE(fs::exists(out / "fem" / "summary.json"));
  EXPECT_FALSE(fs::exists(out / "comparison.json"));
  EXPECT_FALSE(fs::exists(out / "lumped" / "summary.json"));
  EXPECT_EQ(read_json(out / "manifest.json")["status"], "interrupted");
  EXPECT_EQ(read_json(out / "lumped" / "manifest.json")["status"], "interrupted");
}

// SIGTERM while `rebound refine` solves its lumped reference (the same slow half-space model): the
// solve ends at its next check, no FEM run starts, the empty table and the hint to --resume are
// written, exit 130. Before, the reference ran without a handler and the signal killed the process.
TEST(Reliability, InterruptedRefineStopsInsideItsLumpedReference) {
  const fs::path dir = scratch_directory("rebound-reliability", "refine-lumped");
  const fs::path c = slow_lumped_case(dir, "slow-refine");
  const fs::path out = dir / "out";
  const auto run =
      signal_after("refine " + c.string() + " --refinements 0..1 --no-plots -o " + out.string(),
                   dir / "refine.log", "slow-refine: lumped reference (model halfspace)", "TERM");
  expect_stopped_soon(run);
  EXPECT_NE(run.output.find("lumped reference unavailable: interrupted at"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("0 of 2 runs"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(out / "refine"));  // no FEM run started
  EXPECT_EQ(read_json(out / "manifest-refine.json")["status"], "interrupted");
}

// SIGTERM during `rebound fem --quasi-static`'s influence solves (the Hertz mesh with 6 cells per
// contact radius, p = 1: about 10-20 s of solves, the factorisation's time again before them): it
// ends at the next solve, writes no law and no summary, and its manifest
// says "interrupted"; exit 130. The progress line is the marker that the solves have begun.
TEST(Reliability, InterruptedQuasiStaticLawWritesOnlyItsManifest) {
  const fs::path dir = scratch_directory("rebound-reliability", "quasi-static");
  const fs::path c =
      variant(dir, "qs", "hertz-steel-sphere",
              {{"fem", {{"degree", 1}, {"refinement", 2}, {"contact_resolution", 6}}}});
  const fs::path out = dir / "out";
  const auto run = signal_after("fem " + c.string() + " --quasi-static -o " + out.string(),
                                dir / "qs.log", "quasi-static: influence solve", "TERM");
  expect_stopped_soon(run);
  EXPECT_NE(run.output.find("quasi-static contact law interrupted after"), std::string::npos)
      << run.output;
  EXPECT_FALSE(fs::exists(out / "fem-quasi-static" / "static_law.csv"));
  EXPECT_FALSE(fs::exists(out / "fem-quasi-static" / "summary.json"));
  EXPECT_EQ(read_json(out / "fem-quasi-static" / "manifest.json")["status"], "interrupted");
}
#endif
