// The rebound quantities' definitions, the typed summary's JSON and the history table
// (observables/), against hand-computed values and round trips.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "cases/resolved.h"
#include "observables/checks.h"
#include "observables/files.h"
#include "observables/history.h"
#include "observables/output_folder.h"
#include "observables/provenance.h"
#include "observables/quantities.h"
#include "observables/summary_text.h"
#include "observables/units.h"

using namespace rebound::observables;
namespace fs = std::filesystem;

TEST(Quantities, DefinitionsOnAHandExample) {
  // w = (0.3, 0.4) m/s after an approach at v_n = -0.5: e = 0.8; Psi2 for nu = 0.3, mu = 0.1 is
  // 2(0.7)/(0.1 x 1.7) x 0.75.
  const Eigen::Vector2d w(0.3, 0.4);
  EXPECT_DOUBLE_EQ(newton_restitution(w.y(), 0.5), 0.8);
  EXPECT_DOUBLE_EQ(rebound_psi(w, 0.3, 0.1), 2 * 0.7 / (0.1 * 1.7) * 0.75);
  EXPECT_TRUE(std::isnan(rebound_psi(w, 0.3, 0.0)));  // Psi is undefined without friction
  EXPECT_DOUBLE_EQ(rebound_angle(w), std::atan2(0.3, 0.4));
  EXPECT_DOUBLE_EQ(poisson_restitution(1.8, 1.0), 0.8);
  EXPECT_TRUE(std::isnan(poisson_restitution(1.0, 0.0)));
  EXPECT_DOUBLE_EQ(stronge_restitution(-4.0, 2.56), 0.8);
  EXPECT_TRUE(std::isnan(stronge_restitution(0.0, 1.0)));
  EXPECT_DOUBLE_EQ(tangential_restitution(2.0, 1.0), 0.5);
}

TEST(Quantities, SummaryJsonRoundTripWithNullForUndefined) {
  Summary s;
  s.case_name = "x";
  s.solver = "test";
  s.quantities.psi2 = -0.25;
  s.quantities.e_newton = 0.9;
  s.quantities.center_velocity_final = {0.1, 0.2};
  s.effective_mass = 2.5;
  s.details["eta"] = 1e-6;
  const nlohmann::json j = to_json(s);
  for (const auto& key : summary_scalar_keys()) ASSERT_TRUE(j.contains(key)) << key;
  EXPECT_TRUE(j["psi1"].is_null());  // NaN is written as null
  EXPECT_EQ(j["eta"].get<double>(), 1e-6);
  const ReboundQuantities q = quantities_from_json(j);
  EXPECT_EQ(q.psi2, -0.25);
  EXPECT_EQ(q.e_newton, 0.9);
  EXPECT_TRUE(std::isnan(q.psi1));
  EXPECT_EQ(q.center_velocity_final, Eigen::Vector2d(0.1, 0.2));
  EXPECT_EQ(q.scalar("e_newton"), 0.9);
  EXPECT_TRUE(std::isnan(q.scalar("not a key")));
}

// A run that stopped before the bodies separated prints its numbers under a line that says they
// are not the rebound (an interrupted `rebound fem` printed e and Psi2 as if they were); a
// completed run has no such line.
TEST(SummaryText, AnFemRunThatDidNotCompleteSaysItsNumbersAreNotTheRebound) {
  Summary summary;
  summary.case_name = "c";
  summary.solver = "fem";
  summary.quantities.e_newton = 0.5;
  nlohmann::json s = to_json(summary);
  for (const char* key :
       {"degree", "dofs", "cells", "time_step", "steps", "end_time", "lambda_mesh", "theta_mesh",
        "energy_balance_error", "dof_steps_per_second", "wall_time"})
    s[key] = 1.0;
  s["mpi_ranks"] = 1;
  const std::string completed = fem_summary_text(s, "/nonexistent");
  EXPECT_EQ(completed.find("NOT A REBOUND"), std::string::npos) << completed;
  s["status"] = "interrupted";
  s["message"] = "interrupted at step 640";
  const std::string interrupted = fem_summary_text(s, "/nonexistent");
  const auto warning = interrupted.find(
      "NOT A REBOUND (status interrupted: interrupted at step 640): the numbers below are the "
      "bodies' state when the run stopped");
  ASSERT_NE(warning, std::string::npos) << interrupted;
  EXPECT_LT(warning, interrupted.find("e (Newton)")) << "the line comes before the numbers";
}

TEST(History, CsvRoundTripDecimationAndInterpolation) {
  History h;
  h.add("time", {0, 1, 2, 3, 4});
  h.add("normal_force", {0, 10, 20, 30, 40});
  h.add("contact_nodes", {0, 1, 2, 3, 4});
  h.integer_columns.insert("contact_nodes");
  h.add_labels("mode", {"stick", "slip", "slip", "stick", "separated"});
  const std::string csv = to_csv(h);
  // The header names carry the units; a count and a text column keep their names.
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "time_s,normal_force_N,contact_nodes,mode");
  EXPECT_NE(csv.find(",3,stick\n"), std::string::npos);  // integers as integers, labels as text
  const fs::path path = fs::temp_directory_path() / "rebound-observables-history.csv";
  write_file_atomically(path.string(), csv);
  const History back = read_history_csv(path.string());
  // Read back under the plain names.
  EXPECT_EQ(back.columns, h.columns);
  EXPECT_EQ(back.column("normal_force"), h.column("normal_force"));
  EXPECT_TRUE(std::isnan(back.column("mode")[0]));  // text reads as NaN
  // max_rows 2 of 5 rows: every 3rd row plus the last.
  const std::string decimated = to_csv(h, 2);
  EXPECT_EQ(std::count(decimated.begin(), decimated.end(), '\n'), 1 + 3);
  EXPECT_DOUBLE_EQ(interpolate(h.column("time"), h.column("normal_force"), 2.5), 25);
  EXPECT_TRUE(std::isnan(interpolate(h.column("time"), h.column("normal_force"), 5)));
  // A column without a unit in observables/units.cpp is not written.
  History unknown;
  unknown.add("force", {1});
  EXPECT_THROW(to_csv(unknown), std::logic_error);
  EXPECT_THROW(read_history_csv((fs::temp_directory_path() / "no-such-rebound.csv").string()),
               FileError);
}

TEST(Files, ConcurrentWritersNeverMixAFile) {
  // Two threads write different contents to one path many times: the file ends as one whole
  // version and no temporary is left (a unique temporary name per write, renamed into place;
  // with one shared name the two writers truncate each other's temporary).
  const fs::path path = fs::temp_directory_path() / "rebound-observables-concurrent.txt";
  const std::string a(100000, 'a'), b(100000, 'b');
  std::thread ta([&] {
    for (int i = 0; i < 50; ++i) write_file_atomically(path.string(), a);
  });
  std::thread tb([&] {
    for (int i = 0; i < 50; ++i) write_file_atomically(path.string(), b);
  });
  ta.join();
  tb.join();
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(text == a || text == b);
  for (const auto& entry : fs::directory_iterator(path.parent_path()))
    EXPECT_EQ(entry.path().string().find(path.string() + ".tmp"), std::string::npos)
        << "temporary left behind: " << entry.path();
  EXPECT_THROW(write_file_atomically("/proc/rebound-cannot-write/x", "x"), FileError);
}

// observables/checks.h: a result that cannot be physical is named, one that is passes.
TEST(ResultChecks, PhysicalResultPassesAndEachDefectIsNamed) {
  ReboundQuantities q;
  q.psi1 = 2, q.psi2 = -0.5, q.e_newton = 0.99, q.normal_impulse = 1.4, q.tangential_impulse = -0.1;
  q.center_velocity_final = {0.1, 0.5}, q.contact_point_velocity_final = {-0.03, 0.49};
  q.spin_final = -2, q.kinetic_energy_loss_fraction = 0.01, q.contact_duration = 1e-4;
  q.peak_normal_force = 5e3;
  const ResultExpectations compliant;
  EXPECT_TRUE(result_problems(q, compliant).empty());

  auto single = [&](ReboundQuantities bad, ResultExpectations e, const std::string& word) {
    const auto problems = result_problems(bad, e);
    ASSERT_EQ(problems.size(), 1u) << join_problems(problems);
    EXPECT_NE(problems[0].find(word), std::string::npos) << problems[0];
  };
  ReboundQuantities bad = q;
  bad.e_newton = kNaN;
  single(bad, compliant, "e_newton");
  bad = q, bad.psi2 = kNaN;
  single(bad, compliant, "psi2");
  bad = q, bad.psi1 = kNaN, bad.psi2 = kNaN;  // mu = 0: both undefined, not a defect
  EXPECT_TRUE(result_problems(bad, compliant).empty());
  bad = q, bad.kinetic_energy_loss_fraction = 31.8;  // K after = -30.8 K before
  single(bad, compliant, "negative");
  bad = q, bad.kinetic_energy_loss_fraction = -2e-6;  // grew beyond the 1e-6 tolerance
  single(bad, compliant, "grew");
  ResultExpectations may_grow;
  may_grow.energy_may_grow = true;
  EXPECT_TRUE(result_problems(bad, may_grow).empty());  // a rigid law with Kane's paradox
  bad = q, bad.contact_duration = 0;                    // E = 1e300: the contact time underflows
  single(bad, compliant, "contact_duration");
  ResultExpectations rigid;
  rigid.has_duration = false, rigid.energy_may_grow = true;
  bad.peak_normal_force = kNaN;
  EXPECT_TRUE(result_problems(bad, rigid).empty());  // rigid laws have no contact time
  bad = q, bad.normal_impulse = 0, bad.e_newton = -1;
  single(bad, compliant, "never pressed");
}

// observables/output_folder.h: a run owns its folder.
TEST(OutputFolder, PatternsMatchLikeTheShellsStar) {
  EXPECT_TRUE(matches_pattern("rigid_body_*.vtp", "rigid_body_0012.vtp"));
  EXPECT_TRUE(matches_pattern("*.tmp.*", "summary.json.tmp.123.4"));
  EXPECT_TRUE(matches_pattern("summary.json", "summary.json"));
  EXPECT_FALSE(matches_pattern("summary.json", "summary.json.bak"));
  EXPECT_FALSE(matches_pattern("rigid_body_*.vtp", "rigid_body_0012.vtu"));
  EXPECT_FALSE(matches_pattern("solution_*.vtu", "notes.txt"));
}

TEST(OutputFolder, SecondWriterIsRefusedStaleResultsGoUserFilesStay) {
  const fs::path dir = fs::temp_directory_path() / ("rebound-folder-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  // An earlier run wrote five frames; the user keeps a note in the folder.
  for (int k = 0; k < 5; ++k)
    std::ofstream(dir / ("rigid_body_000" + std::to_string(k) + ".vtp")) << "old";
  std::ofstream(dir / "summary.json") << "{}";
  std::ofstream(dir / "my-notes.txt") << "mine";
  const std::vector<std::string> patterns = {"summary.json", "rigid_body_*.vtp"};
  {
    OutputFolder folder(dir.string(), patterns, "test run");
    EXPECT_FALSE(fs::exists(dir / "summary.json"));
    EXPECT_FALSE(fs::exists(dir / "rigid_body_0004.vtp"));
    EXPECT_TRUE(fs::exists(dir / "my-notes.txt"));
    // Another writer (another open file description, as another process would have) is refused,
    // and told who holds the folder.
    try {
      OutputFolder second(dir.string(), patterns, "second run");
      FAIL() << "expected FolderBusy";
    } catch (const FolderBusy& error) {
      EXPECT_NE(std::string(error.what()).find("test run"), std::string::npos) << error.what();
    }
    // This run writes two frames: the manifest lists exactly what it wrote.
    write_file_atomically((dir / "rigid_body_0000.vtp").string(), "new0");
    write_file_atomically((dir / "rigid_body_0001.vtp").string(), "new1!");
    folder.finish("completed");
  }
  std::ifstream in(dir / "manifest.json");
  const nlohmann::json manifest = nlohmann::json::parse(in);
  EXPECT_EQ(manifest["status"], "completed");
  ASSERT_EQ(manifest["files"].size(), 2u);
  EXPECT_EQ(manifest["files"][1]["name"], "rigid_body_0001.vtp");
  EXPECT_EQ(manifest["files"][1]["bytes"], 5);
  // Released: the next run takes it.
  EXPECT_NO_THROW(OutputFolder(dir.string(), patterns, "third run"));
  fs::remove_all(dir);
}

// observables/provenance.h: every result file says what made it.
TEST(Provenance, NamesVersionCommitCommandAndTheCaseAsRead) {
  const rebound::cases::Case c =
      rebound::cases::load_case(REBOUND_SOURCE_DIR "/cases/sphere-lai-psi2.json");
  set_invocation({"rebound lumped cases/sphere-lai-psi2.json", 1});
  const nlohmann::json p = provenance(c);
  for (const char* key : {"rebound_version", "git_commit", "date", "host", "command_line",
                          "mpi_ranks", "case_file", "case_hash", "case"})
    EXPECT_TRUE(p.contains(key)) << key;
  EXPECT_EQ(p["command_line"], "rebound lumped cases/sphere-lai-psi2.json");
  EXPECT_FALSE(p["git_commit"].get<std::string>().empty());
  EXPECT_EQ(p["case_hash"], rebound::cases::text_hash(p["case"].dump()));
  EXPECT_EQ(p["case"]["contact"]["friction"], c.contact.friction);
  // The date is ISO 8601 UTC.
  const std::string date = p["date"];
  ASSERT_EQ(date.size(), 20u);
  EXPECT_EQ(date[10], 'T');
  EXPECT_EQ(date.back(), 'Z');
  EXPECT_NE(provenance_markdown(p).find("sphere-lai-psi2.json"), std::string::npos);
}

// Every rebound quantity of a summary.json has its unit under "units".
TEST(Quantities, EverySummaryKeyHasAUnit) {
  const nlohmann::json j = to_json(Summary{});
  ASSERT_TRUE(j.contains("units"));
  for (const auto& key : summary_scalar_keys()) EXPECT_TRUE(j["units"].contains(key)) << key;
  for (const char* key : {"center_velocity_final", "contact_point_velocity_final", "effective_mass",
                          "kinetic_energy_initial", "spin_initial"})
    EXPECT_TRUE(j["units"].contains(key)) << key;
  EXPECT_EQ(j["units"]["normal_impulse"], "N s");
  EXPECT_EQ(j["units"]["theta"], "rad");
  // The same table names the CSV columns: summary.json's unit and the header cannot disagree.
  for (const auto& [key, unit] : j["units"].items()) {
    EXPECT_EQ(unit_of(key), unit.get<std::string>()) << key;
    const std::string suffix = unit_suffix(unit.get<std::string>());
    EXPECT_EQ(csv_column(key), suffix.empty() ? key : key + "_" + suffix) << key;
  }
}

// number_names: top-level numbers by key, numbers in objects by dotted path, arrays of numbers
// (vectors, matrices) as one name, the objects of an array under one name; not "units" nor
// "provenance", nor strings, booleans, nulls or empty arrays.
TEST(Quantities, NumberNamesAreDottedPaths) {
  const nlohmann::json j = nlohmann::json::parse(R"({
    "a": 1, "s": "x", "b": true, "n": null, "e": [],
    "v": [1, 2], "m": [[1, 2], [3, 4]],
    "o": {"x": 1, "p": {"q": 2.5}, "t": "y"},
    "phases": [{"start": 0, "end": 1, "mode": "stick"}, {"start": 1, "end": 2, "mode": "slip"}],
    "units": {"a": "m"}, "provenance": {"r": 3}})");
  const std::vector<std::string> expected = {"a", "m", "o.p.q", "o.x", "phases.end", "phases.start",
                                             "v"};
  std::vector<std::string> names = number_names(j);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, expected);
}

// The convention of the CSV headers (observables/units.h), and its inverse.
TEST(Units, CsvColumnsCarryTheirSiUnit) {
  EXPECT_EQ(csv_column("time"), "time_s");
  EXPECT_EQ(csv_column("normal_force"), "normal_force_N");
  EXPECT_EQ(csv_column("normal_impulse"), "normal_impulse_N_s");
  EXPECT_EQ(csv_column("spin_final"), "spin_final_rad_per_s");
  EXPECT_EQ(csv_column("normal_velocity"), "normal_velocity_m_per_s");
  EXPECT_EQ(csv_column("contact_area"), "contact_area_m2");
  EXPECT_EQ(csv_column("kinetic_energy"), "kinetic_energy_J");
  EXPECT_EQ(csv_column("sweep_incidence_angle"), "sweep_incidence_angle_rad");
  EXPECT_EQ(csv_column("energy_flux_density"), "energy_flux_density_J_per_m3");
  for (const char* plain : {"psi1", "psi2", "e_newton", "tangential_cor", "mode", "phases",
                            "status", "dofs", "sweep_psi1", "stick_fraction"})
    EXPECT_EQ(csv_column(plain), plain);
  EXPECT_THROW(csv_column("no_such_column"), std::logic_error);
  // Every entry: a known unit spelled with SI symbols, and a header that reads back to it.
  std::set<std::string> names;
  for (const auto& [name, unit] : unit_table()) {
    EXPECT_TRUE(names.insert(name).second) << name << " listed twice";
    EXPECT_TRUE((std::set<std::string>{"", "1", "s", "m", "m^2", "m^3", "m/s", "rad", "rad/s", "N",
                                       "N s", "J", "kg", "kg m^2", "s/m", "1/s", "1/s^2", "J/m^3"})
                    .count(unit))
        << name << ": " << unit;
    EXPECT_EQ(plain_column(csv_column(name)), name);
  }
  EXPECT_EQ(plain_column("time"), "time");  // a file written before the units
  EXPECT_EQ(plain_column("psi1"), "psi1");  // a user's reference table
}
