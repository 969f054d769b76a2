// The FEM studies called as a library (no `rebound` process): a refinement study over three
// contact resolutions with resume, and a pair whose comparison is made from the results in
// memory. Tiny FE_Q(1) meshes of the shipped Hertz sphere (seconds per run).
#include <deal.II/base/mpi.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/sweep.h"
#include "observables/history.h"
#include "observables/quantities.h"
#include "studies/fem_sweep.h"
#include "studies/pair.h"
#include "studies/refinement.h"
#include "studies/run_table.h"

namespace fs = std::filesystem;
using namespace rebound;

namespace {

cases::Case tiny_hertz() {
  cases::Case c =
      cases::load_case(std::string(REBOUND_SOURCE_DIR) + "/cases/hertz-steel-sphere.json");
  c.fem.degree = 1;
  c.fem.refinement = 0;
  c.fem.contact_resolution = 1;
  c.fem.frames = 0;
  c.lumped.frames = 0;
  return c;
}

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("rebound-studies-" + name);
  if (dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return dir;
}

}  // namespace

TEST(RefinementStudy, ThreeContactResolutionsThenResumeReusesEveryRun) {
  const cases::Case c = tiny_hertz();
  studies::RefinementOptions options;
  options.contact_resolutions = {1, 2, 4};
  options.directory = scratch("refine").string();
  const studies::RefinementStudy study = studies::run_refinement_study(c, options);
  ASSERT_EQ(study.runs.size(), 3u);
  EXPECT_FALSE(study.interrupted);
  EXPECT_EQ(study.failed, 0);
  // Each resolution made the contact cells genuinely smaller, and each run is kept in memory.
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(study.runs[k].status, "completed");
    EXPECT_GT(study.runs[k].history.rows(), 10u);
    if (k > 0) {
      EXPECT_LT(study.runs[k].h_contact, 0.75 * study.runs[k - 1].h_contact);
    }
  }
  EXPECT_EQ(study.hertz.at("contact_duration"), cases::derive(c).hertz.duration);
  ASSERT_EQ(study.series.size(), 1u);
  EXPECT_EQ(study.series[0].varied, "contact_resolution");
  EXPECT_EQ(study.series[0].runs.size(), 3u);
  // A frictionless elastic impact: e -> 1 as the contact cells shrink (less energy left in
  // waves). The Richardson value of e agrees with 1 within twice its own error estimate (measured:
  // e = 0.999899, 0.999957, 0.999984, order 1.1, e_R = 1.000009 +- 2.5e-5).
  const studies::Convergence& e = study.series[0].convergence.at("e_newton");
  ASSERT_EQ(e.status, "ok");
  EXPECT_GT(e.order, 0.5);
  EXPECT_LE(std::abs(e.extrapolated - 1), 2 * e.error_estimate);
  EXPECT_LT(e.error_estimate, 1e-4);

  // refinement.csv holds the three rows; resuming reuses all three and runs nothing.
  EXPECT_EQ(studies::read_text_csv(options.directory + "/refinement.csv").rows.size(), 3u);
  options.resume = true;
  const studies::RefinementStudy again = studies::run_refinement_study(c, options);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_TRUE(again.runs[k].reused) << k;
    // refinement.csv keeps 10 significant digits.
    const double jn = study.runs[k].values.at("normal_impulse");
    EXPECT_NEAR(again.runs[k].values.at("normal_impulse"), jn, 1e-9 * jn)
        << "a reused row must carry the values of the run (k = " << k << ")";
  }
}

// fem.end_time inside the contact: every run is "incomplete" (not "completed"), counted as not
// usable, and no convergence is built from them.
TEST(RefinementStudy, RunsEndingInsideTheContactAreNotUsed) {
  cases::Case c = tiny_hertz();
  c.fem.end_time = 0.3 * cases::derive(c).hertz.duration;
  studies::RefinementOptions options;
  options.contact_resolutions = {1, 2, 4};  // three: enough for a convergence if they were used
  options.directory = scratch("refine-short").string();
  const studies::RefinementStudy study = studies::run_refinement_study(c, options);
  ASSERT_EQ(study.runs.size(), 3u);
  for (const auto& run : study.runs) {
    EXPECT_EQ(run.status, "incomplete");
    EXPECT_NE(run.message.find("still active"), std::string::npos) << run.message;
  }
  EXPECT_EQ(study.failed, 3);
  for (const auto& series : study.series)
    for (const auto& [key, convergence] : series.convergence)
      EXPECT_NE(convergence.status, "ok") << key;
}

TEST(PairStudy, ComparisonIsMadeOfTheResultsInMemory) {
  const cases::Case c = tiny_hertz();
  const fs::path dir = scratch("pair");
  studies::PairOptions options;
  options.plots = false;
  const studies::PairResult pair = studies::run_pair(c, dir.string(), options);
  ASSERT_EQ(pair.status, "completed") << pair.message;
  if (dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) != 0) return;
  // The comparison's FEM column is the FEM run's typed summary, its lumped column the lumped
  // solve's (no file read back): equal to the last digit.
  const auto& row = pair.comparison["summary"]["normal_impulse"];
  EXPECT_EQ(row["fem"].get<double>(), pair.fem.quantities.quantities.normal_impulse);
  EXPECT_EQ(row["lumped"].get<double>(), pair.lumped.summary.quantities.normal_impulse);
  // The same quantity in summary.json (what users read) agrees with the typed value.
  nlohmann::json written;
  std::ifstream(dir / "fem" / "summary.json") >> written;
  EXPECT_EQ(written["normal_impulse"].get<double>(), pair.fem.quantities.quantities.normal_impulse);
  // A frictionless normal impact: the lumped model (Hertz on the FE body) and the FEM agree on
  // the normal impulse within the coarse mesh's 5 % and both give e close to 1 (elastic).
  EXPECT_NEAR(row["relative_difference"].get<double>(), 0.0, 0.05);
  EXPECT_NEAR(pair.lumped.summary.quantities.e_newton, 1.0, 1e-6);
  EXPECT_GT(pair.fem.quantities.quantities.e_newton, 0.9);
  for (const char* file : {"comparison.json", "report.md", "view.py", "lumped/summary.json",
                           "lumped-exact/summary.json"})
    EXPECT_TRUE(fs::exists(dir / file)) << file;
  // Every number of both summary.json files has its unit under "units" (the FEM's run data, the
  // mesh statistics and Hertz's reference too, by dotted path).
  for (const char* file : {"fem/summary.json", "lumped/summary.json"}) {
    nlohmann::json summary;
    std::ifstream(dir / file) >> summary;
    const auto names = observables::number_names(summary);
    EXPECT_GT(names.size(), std::string(file) == "fem/summary.json" ? 80u : 25u) << file;
    for (const std::string& name : names)
      EXPECT_TRUE(summary["units"].contains(name)) << file << ": " << name;
  }
  EXPECT_EQ(written["units"]["hertz.duration"], "s");
  EXPECT_EQ(written["units"]["mesh.stable_time_step_estimate.p1"], "s");
  EXPECT_EQ(written["units"]["time_step"], "s");
  EXPECT_EQ(written["units"]["lambda_max"], "1/s^2");
  // lambda and theta are compared for the body both ran: the mesh's (the lumped model's inertia
  // comes from the FE body), not the FEM summary's exact-geometry lambda against the mesh's.
  const auto& lambda = pair.comparison["summary"]["lambda"];
  EXPECT_EQ(lambda["fem"].get<double>(), written["lambda_mesh"].get<double>());
  EXPECT_NEAR(lambda["relative_difference"].get<double>(), 0.0, 1e-9);
  EXPECT_NE(written["lambda"].get<double>(), written["lambda_mesh"].get<double>());
}

TEST(FemSweepStudy, TwoPointsThenResumeRunsNothing) {
  // Psi1 = 0.5 and 4 on a tiny FE_Q(1) mesh of the quick sphere: two FEM runs of seconds.
  cases::Case c =
      cases::load_case(std::string(REBOUND_SOURCE_DIR) + "/cases/sphere-lai-psi2-quick.json");
  c.fem.degree = 1;
  c.fem.refinement = 0;
  c.fem.contact_resolution = 1;
  lumped::SweepRange range;
  range.variable = lumped::SweepVariable::psi1;
  range.start = 0.5;
  range.stop = 4;
  range.count = 8;
  const auto lumped_points = lumped::run_sweep(c, range, 1);
  studies::FemSweepOptions options;
  options.count = 2;
  options.directory = scratch("sweep").string();
  const studies::FemSweepResult first = studies::run_fem_sweep(c, range, lumped_points, options);
  EXPECT_EQ(first.total, 2);
  EXPECT_EQ(first.finished, 2);
  EXPECT_EQ(first.failed, 0);
  EXPECT_FALSE(first.interrupted);
  const studies::TextTable table = studies::read_text_csv(first.path);
  ASSERT_EQ(table.rows.size(), 2u);
  // The FEM points sit at the first and last sweep values. Below the gross-slip range Psi2 falls
  // with Psi1 (the p = 2 FEM gives -0.19 at Psi1 = 0.5 and -1.26 at 4, docs/FEM.md).
  EXPECT_DOUBLE_EQ(studies::csv_value(table.rows[0], "sweep_psi1"), 0.5);
  EXPECT_DOUBLE_EQ(studies::csv_value(table.rows[1], "sweep_psi1"), 4.0);
  EXPECT_GT(studies::csv_value(table.rows[0], "psi2"), studies::csv_value(table.rows[1], "psi2"));
  options.resume = true;
  const studies::FemSweepResult again = studies::run_fem_sweep(c, range, lumped_points, options);
  EXPECT_EQ(again.finished, 2);
  EXPECT_EQ(studies::read_text_csv(again.path).rows.size(), 2u);
  // Resumed rows are the same rows (nothing rerun: the wall times are the first run's).
  EXPECT_EQ(studies::read_text_csv(again.path).rows[1].at("wall_time"),
            table.rows[1].at("wall_time"));
}

int main(int argc, char** argv) {
  dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
