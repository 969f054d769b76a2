// The resumable run table shared by refine and sweep --fem (studies/run_table.h), on files made
// here: rows of the same case are claimed or kept, rows of another case are refused under resume.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "cases/case.h"
#include "observables/files.h"
#include "studies/errors.h"
#include "studies/run_table.h"

namespace fs = std::filesystem;
using namespace rebound;

namespace {

cases::Case shipped(const std::string& name) {
  return cases::load_case(std::string(REBOUND_SOURCE_DIR) + "/cases/" + name + ".json");
}

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("rebound-run-table-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST(RunTable, CsvRoundTripAndNumbers) {
  studies::TextTable table;
  table.columns = {"level", "psi2", "wall_time", "status"};
  table.rows.push_back({{"level", "0"},
                        {"psi2", studies::csv_number(-0.5)},
                        {"wall_time", "1.5"},
                        {"status", "completed"}});
  table.rows.push_back({{"level", "1"}, {"psi2", studies::csv_number(NAN)}, {"status", "failed"}});
  const fs::path path = scratch("roundtrip") / "t.csv";
  const std::string text = studies::text_csv(table);
  // The file's header carries the units (observables/units.h); in memory the names are plain.
  EXPECT_EQ(text.substr(0, text.find('\n')), "level,psi2,wall_time_s,status");
  observables::write_file_atomically(path.string(), text);
  const studies::TextTable back = studies::read_text_csv(path.string());
  ASSERT_EQ(back.columns, table.columns);
  EXPECT_EQ(back.rows[0].at("wall_time"), "1.5");
  // A table written before the units reads the same.
  const fs::path old = scratch("roundtrip") / "old.csv";
  observables::write_file_atomically(old.string(), "level,psi2,wall_time,status\n0,-0.5,1.5,x\n");
  EXPECT_EQ(studies::read_text_csv(old.string()).columns, table.columns);
  ASSERT_EQ(back.rows.size(), 2u);
  EXPECT_EQ(studies::csv_value(back.rows[0], "psi2"), -0.5);
  EXPECT_TRUE(std::isnan(studies::csv_value(back.rows[1], "psi2")));  // empty cell: not a number
  EXPECT_TRUE(studies::csv_equals("0.30000000001", 0.3));             // 1e-9 relative
  EXPECT_FALSE(studies::csv_equals("0.3001", 0.3));
  EXPECT_EQ(studies::csv_text("a,b\nc\"d"), "a b c d");
}

TEST(RunTable, FingerprintIgnoresDescriptionAndFramesOnly) {
  cases::Case a = shipped("hertz-steel-sphere");
  a.raw["fem"]["frames"] = 3;
  cases::Case b = a;
  b.raw["description"] = "another text";
  b.raw["fem"]["frames"] = 7;
  EXPECT_EQ(studies::case_fingerprint(a), studies::case_fingerprint(b));
  b.raw["impact"]["normal_speed"] = 1.5;
  EXPECT_NE(studies::case_fingerprint(a), studies::case_fingerprint(b));
}

TEST(RunTable, ResumeClaimsFinishedRowsKeepsOthersRefusesAnotherCase) {
  const cases::Case c = shipped("hertz-steel-sphere");
  const std::string hash = studies::case_fingerprint(c);
  studies::TextTable earlier;
  earlier.columns = {"level", "status", "case", "case_hash"};
  for (const auto& [level, status] : {std::pair{"0", "completed"}, std::pair{"1", "failed"},
                                      std::pair{"2", "completed"}, std::pair{"3", "interrupted"}})
    earlier.rows.push_back(
        {{"level", level}, {"status", status}, {"case", c.name}, {"case_hash", hash}});
  const fs::path path = scratch("resume") / "refinement.csv";
  observables::write_file_atomically(path.string(), studies::text_csv(earlier));

  // The study asks for levels 0, 1 and 3: 0 and 1 are reused (finished), 3 is claimed but rerun
  // (not finished), 2 is not asked for and kept.
  std::vector<std::string> reused, claimed;
  const auto result = studies::resume_rows(path.string(), c, hash, "level", true,
                                           [&](const studies::TableRow& row, bool finished) {
                                             const std::string level = row.at("level");
                                             if (level == "2") return false;
                                             claimed.push_back(level);
                                             if (finished) reused.push_back(level);
                                             return true;
                                           });
  EXPECT_EQ(reused, (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(claimed, (std::vector<std::string>{"0", "1", "3"}));
  ASSERT_EQ(result.kept.size(), 1u);
  EXPECT_EQ(result.kept[0].at("level"), "2");
  EXPECT_EQ(result.replaced, 0u);

  // Without resume nothing is claimed, and the caller learns how many rows it replaces.
  const auto fresh = studies::resume_rows(path.string(), c, hash, "level", false,
                                          [](const studies::TableRow&, bool) { return true; });
  EXPECT_EQ(fresh.replaced, 4u);
  EXPECT_TRUE(fresh.kept.empty());

  // Another case (or another first column) under resume: refused, naming the file.
  const cases::Case other = shipped("sphere-lai-psi2");
  try {
    studies::resume_rows(path.string(), other, studies::case_fingerprint(other), "level", true,
                         [](const studies::TableRow&, bool) { return true; });
    FAIL() << "a table of another case was accepted";
  } catch (const studies::StudyInputError& error) {
    EXPECT_NE(std::string(error.what()).find(path.string()), std::string::npos);
  }
  EXPECT_THROW(studies::resume_rows(path.string(), c, hash, "sweep_psi1", true,
                                    [](const studies::TableRow&, bool) { return true; }),
               studies::StudyInputError);
}
