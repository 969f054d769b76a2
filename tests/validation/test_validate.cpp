// The check logic of `rebound validate` (validation/validation.h): verdicts against tolerances, the
// markdown tables and report, counting, the JSON round trip, and the section runner.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <stdexcept>
#include <string>

#include "validation/validation.h"

namespace rebound::validation {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(ValidationJudge, AbsoluteTolerance) {
  EXPECT_EQ(judge(1.0005, 1.0, Tolerance::absolute(1e-3)), Verdict::pass);
  EXPECT_EQ(judge(0.9995, 1.0, Tolerance::absolute(1e-3)), Verdict::pass);
  EXPECT_EQ(judge(1.002, 1.0, Tolerance::absolute(1e-3)), Verdict::fail);
  EXPECT_EQ(judge(0.998, 1.0, Tolerance::absolute(1e-3)), Verdict::fail);
  EXPECT_EQ(judge(3.0, 3.0, Tolerance::absolute(0)), Verdict::pass);
}

TEST(ValidationJudge, RelativeTolerance) {
  EXPECT_EQ(judge(0.92, 0.9, Tolerance::relative(0.025)), Verdict::pass);  // 2.2 %
  EXPECT_EQ(judge(0.93, 0.9, Tolerance::relative(0.025)), Verdict::fail);  // 3.3 %
  EXPECT_EQ(judge(-0.92, -0.9, Tolerance::relative(0.025)), Verdict::pass);
}

TEST(ValidationJudge, OneSidedBounds) {
  EXPECT_EQ(judge(0.5, 1.0, Tolerance::at_most()), Verdict::pass);
  EXPECT_EQ(judge(1.0 + 1e-7, 1.0, Tolerance::at_most(1e-6)), Verdict::pass);
  EXPECT_EQ(judge(1.1, 1.0, Tolerance::at_most(1e-6)), Verdict::fail);
  EXPECT_EQ(judge(-1e-9, 0.0, Tolerance::at_least(1e-8)), Verdict::pass);
  EXPECT_EQ(judge(-1e-3, 0.0, Tolerance::at_least(1e-8)), Verdict::fail);
  EXPECT_EQ(judge(5.0, 0.0, Tolerance::at_least()), Verdict::pass);
}

TEST(ValidationJudge, NonFiniteValuesFailAndNoneCompares) {
  EXPECT_EQ(judge(kNaN, 1.0, Tolerance::absolute(1)), Verdict::fail);
  EXPECT_EQ(judge(1.0, kNaN, Tolerance::absolute(1)), Verdict::fail);
  EXPECT_EQ(judge(INFINITY, 1.0, Tolerance::at_least()), Verdict::fail);
  EXPECT_EQ(judge(1.0, 2.0, Tolerance::none()), Verdict::compare);
  EXPECT_EQ(judge(kNaN, kNaN, Tolerance::none()), Verdict::compare);
}

TEST(ValidationCheck, OutsideToleranceIsReportedAsFailed) {
  const Row bad = check("4", "sphere", "Psi2", 0.5, 0.4, Tolerance::absolute(1e-6), "why");
  EXPECT_EQ(bad.verdict, Verdict::fail);
  EXPECT_EQ(bad.section, "4");
  EXPECT_EQ(bad.case_name, "sphere");
  EXPECT_EQ(bad.quantity, "Psi2");
  EXPECT_EQ(bad.note, "why");
  const Row good = check("4", "sphere", "Psi2", 0.4 + 1e-7, 0.4, Tolerance::absolute(1e-6));
  EXPECT_EQ(good.verdict, Verdict::pass);
  EXPECT_EQ(compare("4", "sphere", "e", 1.0, 0.9).verdict, Verdict::compare);
}

TEST(ValidationMarkdown, FailedCheckSaysFail) {
  const Row bad = check("4", "sphere", "Psi2", 0.5, 0.4, Tolerance::absolute(1e-6));
  const std::string table = markdown_table({bad});
  EXPECT_TRUE(contains(table, "| case | quantity | value | reference | difference | tolerance |"));
  EXPECT_TRUE(contains(table, "FAIL")) << table;
  EXPECT_FALSE(contains(table, "PASS")) << table;
  EXPECT_TRUE(contains(table, "| sphere | Psi2 | 0.5 | 0.4 | +0.1 | ± 1e-06 | **FAIL** |"))
      << table;
}

TEST(ValidationMarkdown, PassAndCompareRows) {
  const std::string table =
      markdown_table({check("2", "a|b", "e", 1.0, 1.0, Tolerance::relative(0.025)),
                      compare("2", "c", "phases", kNaN, kNaN, "stick-slip")});
  EXPECT_TRUE(contains(table, "| a\\|b | e | 1 | 1 | +0 | ± 2.5 % | PASS |")) << table;
  EXPECT_TRUE(contains(table, "| c | phases | — | — | — | — | compare | stick-slip |")) << table;
  EXPECT_FALSE(contains(table, "FAIL"));
}

TEST(ValidationMarkdown, ToleranceDescriptions) {
  EXPECT_EQ(Tolerance::absolute(1e-6).describe(), "± 1e-06");
  EXPECT_EQ(Tolerance::relative(0.025).describe(), "± 2.5 %");
  EXPECT_EQ(Tolerance::relative(1e-6).describe(), "± 1e-06 rel.");
  EXPECT_EQ(Tolerance::at_most().describe(), "≤ ref");
  EXPECT_EQ(Tolerance::at_least(1e-9).describe(), "≥ ref − 1e-09");
  EXPECT_EQ(Tolerance::none().describe(), "—");
}

SectionResult sample_section(bool failing) {
  SectionResult s;
  s.id = "3";
  s.part = "lumped";
  s.title = "Rods";
  s.text = "Some text.";
  s.wall_seconds = 0.25;
  s.rows.push_back(check("3", "rod-a", "Psi2", -0.44608, -0.446080, Tolerance::absolute(1e-6)));
  s.rows.push_back(check("3", "rod-a", "e", failing ? 1.2 : 1.177714, 1.177714,
                         Tolerance::absolute(1e-6), "PHYSICS"));
  s.rows.push_back(compare("3", "rod-b", "Psi2", 0.1, 0.2));
  Plot plot;
  plot.name = "s3-paths";
  plot.title = "paths";
  Panel panel;
  panel.xlabel = "x";
  panel.series.push_back({"a", {0, 1, kNaN}, {0, 2, 3}, "dashed"});
  plot.panels.push_back(panel);
  s.plots.push_back(plot);
  return s;
}

TEST(ValidationCount, CountsVerdictsAndSectionErrors) {
  SectionResult s = sample_section(true);
  Counts c = count(s);
  EXPECT_EQ(c.checks, 2);
  EXPECT_EQ(c.passed, 1);
  EXPECT_EQ(c.failed, 1);
  EXPECT_EQ(c.compared, 1);
  s.error = "boom";
  c = count(s);
  EXPECT_EQ(c.checks, 3);
  EXPECT_EQ(c.failed, 2);
  const Counts total = count(std::vector<SectionResult>{s, sample_section(false)});
  EXPECT_EQ(total.checks, 5);
  EXPECT_EQ(total.passed, 3);
  EXPECT_EQ(total.failed, 2);
  EXPECT_EQ(total.compared, 2);
}

TEST(ValidationReport, SummaryTableAndFailures) {
  ReportContext context;
  context.command = "rebound validate --quick -o /tmp/x";
  context.machine = "Linux, 2 cores";
  context.date = "2024-01-01 00:00:00 UTC";
  context.version = "0.1.0";
  context.total_seconds = 1.5;
  const std::string failing = markdown_report({sample_section(true)}, context);
  EXPECT_TRUE(
      contains(failing, "| section | part | title | checks | passed | failed | compare rows |"));
  EXPECT_TRUE(contains(failing, "| 3 | lumped | Rods | 2 | 1 | **1** | 1 |")) << failing;
  EXPECT_TRUE(contains(failing, "**1 of 2 checks fail:**"));
  EXPECT_TRUE(contains(failing, "**FAIL**"));
  EXPECT_TRUE(contains(failing, "`rebound validate --quick -o /tmp/x`"));
  EXPECT_TRUE(contains(failing, "Linux, 2 cores"));
  EXPECT_TRUE(contains(failing, "2024-01-01 00:00:00 UTC"));
  EXPECT_TRUE(contains(failing, "![paths](images/validation/s3-paths.png)"));
  const std::string passing = markdown_report({sample_section(false)}, context);
  EXPECT_TRUE(contains(passing, "All 2 checks pass."));
  EXPECT_FALSE(contains(passing, "FAIL"));
}

TEST(ValidationReport, HalvesOfOneSectionShareAHeading) {
  SectionResult fem = sample_section(false);
  fem.part = "FEM";
  SectionResult lumped = sample_section(false);
  SectionResult nine = sample_section(false), ten = sample_section(false);
  nine.id = "9", ten.id = "10";
  std::vector<SectionResult> sections = {ten, fem, nine, lumped};
  sort_sections(sections);
  ASSERT_EQ(sections.size(), 4u);
  EXPECT_EQ(sections[0].id + sections[0].part, "3lumped");
  EXPECT_EQ(sections[1].id + sections[1].part, "3FEM");
  EXPECT_EQ(sections[2].id, "9");
  EXPECT_EQ(sections[3].id, "10");
  const std::string report = markdown_report({fem, lumped}, ReportContext{});
  const auto heading = report.find("## 3. Rods");
  ASSERT_NE(heading, std::string::npos);
  EXPECT_EQ(report.find("## 3. Rods", heading + 1), std::string::npos);
  EXPECT_LT(report.find("### Lumped models"), report.find("### FEM"));
}

TEST(ValidationJson, RoundTripRecomputesVerdicts) {
  const SectionResult s = sample_section(true);
  nlohmann::json j = to_json(s);
  // A tampered verdict is not trusted: the file's values decide.
  j["rows"][1]["verdict"] = "PASS";
  const SectionResult back = section_from_json(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(back.id, "3");
  EXPECT_EQ(back.part, "lumped");
  EXPECT_EQ(back.text, "Some text.");
  ASSERT_EQ(back.rows.size(), 3u);
  EXPECT_EQ(back.rows[1].verdict, Verdict::fail);
  EXPECT_EQ(back.rows[2].verdict, Verdict::compare);
  EXPECT_EQ(back.rows[0].tolerance.kind, Tolerance::Kind::absolute);
  EXPECT_DOUBLE_EQ(back.rows[0].tolerance.amount, 1e-6);
  ASSERT_EQ(back.plots.size(), 1u);
  ASSERT_EQ(back.plots[0].panels[0].series[0].x.size(), 3u);
  EXPECT_TRUE(std::isnan(back.plots[0].panels[0].series[0].x[2]));  // NaN travels as null
  EXPECT_EQ(back.plots[0].panels[0].series[0].style, "dashed");
  EXPECT_EQ(plots_json({s})["plots"].size(), 1u);
}

TEST(ValidationRun, ExceptionsBecomeFailures) {
  SectionSpec spec;
  spec.id = "7";
  spec.part = "FEM";
  spec.title = "throws";
  spec.run = [](const Options&, SectionResult& r) {
    r.rows.push_back(check(r.id, "x", "y", 1, 1, Tolerance::absolute(0)));
    throw std::runtime_error("no mesh");
  };
  const SectionResult r = run_section(spec, Options{});
  EXPECT_EQ(r.id, "7");
  EXPECT_EQ(r.part, "FEM");
  EXPECT_EQ(r.error, "no mesh");
  EXPECT_GE(r.wall_seconds, 0.0);
  EXPECT_EQ(count(r).failed, 1);
  EXPECT_TRUE(contains(markdown_report({r}, ReportContext{}), "did not run: no mesh"));
}

TEST(ValidationRegistry, LumpedSectionsAreNumberedOnce) {
  const std::vector<SectionSpec> sections = lumped_sections();
  std::set<std::string> ids;
  for (const SectionSpec& s : sections) {
    EXPECT_EQ(s.part, "lumped");
    EXPECT_FALSE(s.title.empty());
    EXPECT_TRUE(static_cast<bool>(s.run));
    EXPECT_GT(s.estimated_seconds_full, 0);
    EXPECT_TRUE(ids.insert(s.id).second) << s.id;
  }
  EXPECT_EQ(ids, (std::set<std::string>{"1", "2", "3", "4", "5", "6", "7"}));
}

// Section 6 needs no case files: run it for real; every check passes and every law has rows.
TEST(ValidationRegistry, NormalLawSectionRuns) {
  for (const SectionSpec& spec : lumped_sections()) {
    if (spec.id != "6") continue;
    const SectionResult r = run_section(spec, Options{});
    EXPECT_TRUE(r.error.empty()) << r.error;
    const Counts c = count(r);
    EXPECT_GT(c.checks, 10);
    EXPECT_EQ(c.failed, 0) << markdown_table(r.rows);
    EXPECT_FALSE(r.plots.empty());
  }
}

}  // namespace
}  // namespace rebound::validation
